// A DGT board's positions read as a game, without any notion of time: the same reader serves the live
// tracker (positions.ts, which decides *when* a position is read) and `zeitnot dgt moves` (a byte log
// has no timestamps). Like arnsholt/dgtdriver's MoveParser it keeps the reachable positions around the
// game line, so a takeback, a move replaced before the next one, or a castle done rook first is found
// again; beyond it, it searches two and three plies ahead (moves made while the board was unplugged) and
// re-seeds from a position no search explains once the game visibly goes on from there.
import { Chess, type Move, type Square } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import type { BoardSquare } from './protocol.ts';
import { squareIndex, squareName } from './protocol.ts';

export type Orientation = 'normal' | 'rotated';
export type SignalledResult = '1-0' | '0-1' | '1/2-1/2';

export interface PlayedMove {
  readonly side: Side;
  readonly san: string;
  readonly uci: string;
  /** The position after the move. */
  readonly fen: string;
}

/** A jump the reader could not explain move by move: the game goes on from `fen`. */
export interface Reseed {
  /** The position the game was in before. */
  readonly fromFen: string;
  readonly fen: string;
  /** Plies that must have been played in between, when known (every explanation agrees on the count). */
  readonly plies?: number;
  /** The explanations that fit equally well, when there were several. */
  readonly candidates?: readonly string[];
  readonly reason: 'ambiguous' | 'no-legal-path' | 'arbiter';
}

export type GameItem = { readonly move: PlayedMove } | { readonly reseed: Reseed };

/** How the board's position follows from the game so far. */
export type Reading =
  | { readonly kind: 'same' }
  | { readonly kind: 'newGame' }
  | { readonly kind: 'resultSignal'; readonly result: SignalledResult }
  /** Take back `takeback` plies (0: none), then play `moves`. `castlingHalf`: a rook or king move that may be half a castle. */
  | { readonly kind: 'explained'; readonly takeback: number; readonly moves: readonly Move[]; readonly castlingHalf: boolean }
  /** Several move sequences end here; `fen` is where they all end (castling rights they all keep). */
  | { readonly kind: 'ambiguous'; readonly candidates: readonly string[]; readonly fen: string; readonly plies: number }
  | { readonly kind: 'reseed'; readonly reseed: Reseed; readonly moves: readonly Move[] }
  | { readonly kind: 'unexplained'; readonly placement: string };

export interface GameReaderOptions {
  /** The game's position to start from (a resumed game); default the start position. */
  readonly fen?: string;
  /** 'auto' (default): from the start position the board shows. */
  readonly orientation?: Orientation | 'auto';
  /** How many plies back a takeback is looked for. */
  readonly takebackPlies?: number;
}

interface LinePosition {
  readonly fen: string;
  readonly placement: string;
  /** The move that led here (absent at the root and after a re-seed). */
  readonly move?: PlayedMove;
  /** Set on the position a re-seed started from. */
  readonly reseed?: Reseed;
}

export const startFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const startPlacement = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
const centre: Record<string, 'light' | 'dark'> = { d5: 'light', e4: 'light', d4: 'dark', e5: 'dark' };

/** FEN piece placement of 64 squares (index 0 = a8). Anything that is not a chess piece counts as empty. */
export function placementOf(squares: readonly BoardSquare[]): string {
  const rows: string[] = [];
  for (let rank = 0; rank < 8; rank++) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = squares[rank * 8 + file] ?? '.';
      if (piece.length === 1 && piece !== '.') {
        if (empty) row += String(empty);
        empty = 0;
        row += piece;
      } else empty++;
    }
    rows.push(empty ? row + String(empty) : row);
  }
  return rows.join('/');
}

export const rotateSquares = (squares: readonly BoardSquare[]): BoardSquare[] => squares.map((_, i) => squares[63 - i] ?? '.');

/**
 * The DGT result signal: both kings on the four centre squares (never a legal position: those squares
 * all touch). Both on light squares 1-0, both on dark 0-1, one on each (e4+e5, d4+d5, d4+e4, d5+e5) ½-½.
 */
export function resultSignal(squares: readonly BoardSquare[]): SignalledResult | undefined {
  const white = centre[squareName(squares.indexOf('K'))];
  const black = centre[squareName(squares.indexOf('k'))];
  if (squares.indexOf('K') < 0 || squares.indexOf('k') < 0 || !white || !black) return undefined;
  if (white !== black) return '1/2-1/2';
  return white === 'light' ? '1-0' : '0-1';
}

const expand = (placement: string): string[] =>
  [...placement.replace(/\//g, '')].flatMap((c) => (c >= '1' && c <= '8' ? Array.from({ length: Number(c) }, () => '.') : [c]));

/** The squares (index 0 = a8) after `move`, without asking chess.js for a FEN. */
function squaresAfter(before: readonly string[], move: Move): string[] {
  const after = [...before];
  const at = (square: string) => squareIndex(square);
  const piece = move.color === 'w' ? (move.promotion ?? move.piece).toUpperCase() : (move.promotion ?? move.piece);
  after[at(move.from)] = '.';
  after[at(move.to)] = piece;
  if (move.flags.includes('e')) after[at(`${move.to[0]}${move.from[1]}`)] = '.';
  if (move.flags.includes('k') || move.flags.includes('q')) {
    const rank = move.from[1];
    const [rookFrom, rookTo] = move.flags.includes('k') ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
    after[at(rookFrom)] = '.';
    after[at(rookTo)] = move.color === 'w' ? 'R' : 'r';
  }
  return after;
}

const differences = (a: readonly string[], b: readonly string[]): number => {
  let n = 0;
  for (let i = 0; i < 64; i++) if (a[i] !== b[i]) n++;
  return n;
};

const placementOfFen = (fen: string): string => fen.split(' ')[0] ?? '';
const sideOf = (chess: Chess): Side => (chess.turn() === 'w' ? 'white' : 'black');
const uciOf = (m: Move): string => m.from + m.to + (m.promotion ?? '');

/**
 * Every sequence of `depth` legal moves from `fen` that ends on `target`. A ply changes at most four
 * squares (castling), so a branch still more than 4 x (plies left) squares away is cut. Within two
 * plies (one per side) every mover's from-square differs in the end (only the opponent could refill
 * it, with a piece of the other colour), which cuts almost every branch; three plies may not (a piece
 * can go and come back), so that search is kept for board dumps after a reconnect.
 */
function pathsTo(fen: string, target: readonly string[], depth: number): Move[][] {
  const chess = new Chess(fen);
  const start = expand(placementOfFen(fen));
  const changed = new Set<string>();
  for (let i = 0; i < 64; i++) if (start[i] !== target[i]) changed.add(squareName(i));
  const found: Move[][] = [];
  const walk = (squares: readonly string[], left: number, path: Move[]): void => {
    const moves = depth <= 2 ? [...changed].flatMap((square) => chess.moves({ square: square as Square, verbose: true })) : chess.moves({ verbose: true });
    for (const move of moves) {
      const next = squaresAfter(squares, move);
      const apart = differences(next, target);
      if (left === 1) {
        if (apart === 0) found.push([...path, move]);
        continue;
      }
      if (apart > 4 * (left - 1)) continue;
      chess.move(move);
      walk(next, left - 1, [...path, move]);
      chess.undo();
    }
  };
  walk(start, depth, []);
  return found;
}

/** A FEN for a placement seen on the board, with `side` to move; undefined when chess.js finds it impossible. */
function fenFor(placement: string, side: Side, fullmove: number): string | undefined {
  const sq = expand(placement);
  const at = (s: string) => sq[squareIndex(s)];
  let rights = '';
  if (at('e1') === 'K' && at('h1') === 'R') rights += 'K';
  if (at('e1') === 'K' && at('a1') === 'R') rights += 'Q';
  if (at('e8') === 'k' && at('h8') === 'r') rights += 'k';
  if (at('e8') === 'k' && at('a8') === 'r') rights += 'q';
  const fen = `${placement} ${side === 'white' ? 'w' : 'b'} ${rights || '-'} - 0 ${Math.max(1, fullmove)}`;
  try {
    new Chess(fen);
    return fen;
  } catch {
    return undefined;
  }
}

/** Rook h1-f1 / a1-d1 or king e1-f1 / e1-d1 while that castle is legal: the first half of a slow castle. */
function isCastlingHalf(chess: Chess, move: Move): boolean {
  if (move.piece !== 'k' && move.piece !== 'r') return false;
  return chess.moves({ verbose: true }).some((c) => {
    if (!c.flags.includes('k') && !c.flags.includes('q')) return false;
    const rank = c.from[1];
    const kingSide = c.flags.includes('k');
    const rookFrom = `${kingSide ? 'h' : 'a'}${rank}`;
    const rookTo = `${kingSide ? 'f' : 'd'}${rank}`;
    return move.piece === 'r' ? move.from === rookFrom && move.to === rookTo : move.from === c.from && move.to === rookTo;
  });
}

export class GameReader {
  private line: LinePosition[];
  private orientation: Orientation | undefined;
  /**
   * A stable position nothing explained (or several sequences did): if the game visibly goes on from
   * it, it becomes the new root. `fen` when the side to move is known (an ambiguous reading).
   */
  private orphan: { readonly placement: string; readonly fen?: string; readonly plies?: number; readonly candidates?: readonly string[] } | undefined;
  private readonly takebackPlies: number;
  /** The game before the last re-seed (a takeback never reaches behind one). */
  private earlier: GameItem[] = [];

  constructor(private readonly options: GameReaderOptions = {}) {
    const fen = options.fen ?? startFen;
    this.line = [{ fen, placement: placementOfFen(fen) }];
    if (options.orientation && options.orientation !== 'auto') this.orientation = options.orientation;
    this.takebackPlies = options.takebackPlies ?? 8;
  }

  get boardOrientation(): Orientation | undefined {
    return this.orientation;
  }

  get fen(): string {
    return this.tip.fen;
  }

  get sideToMove(): Side {
    return this.fen.split(' ')[1] === 'b' ? 'black' : 'white';
  }

  /** Plies on the line since the root or the last re-seed. */
  get plies(): number {
    return this.line.length - 1;
  }

  /** The game as read: moves in order, with the re-seeds where they happened. */
  get game(): readonly GameItem[] {
    return [...this.earlier, ...this.line.flatMap((p) => [...(p.reseed ? [{ reseed: p.reseed }] : []), ...(p.move ? [{ move: p.move }] : [])])];
  }

  /** Starts the line again from a re-seeded position; what was read before it stays in the game. */
  private restart(reseed: Reseed): void {
    this.earlier = [...this.game];
    this.line = [{ fen: reseed.fen, placement: placementOfFen(reseed.fen), reseed }];
    this.orphan = undefined;
  }

  /** The position `plies` plies back on the line (the tip for 0). */
  fenBack(plies: number): string {
    return (this.line[this.line.length - 1 - plies] ?? this.line[0]!).fen;
  }

  private get tip(): LinePosition {
    return this.line[this.line.length - 1]!;
  }

  /**
   * The orientation the board shows, learnt from the start position (undefined while unknown). Returns
   * the squares in chess numbering (a8 = 0) as the reader sees them.
   */
  orient(raw: readonly BoardSquare[]): { squares: BoardSquare[]; learnt?: Orientation } {
    const auto = this.options.orientation !== 'normal' && this.options.orientation !== 'rotated';
    let learnt: Orientation | undefined;
    if (auto) {
      const seen = placementOf(raw) === startPlacement ? 'normal' : placementOf(rotateSquares(raw)) === startPlacement ? 'rotated' : undefined;
      if (seen && seen !== this.orientation) this.orientation = learnt = seen;
    }
    const squares = this.orientation === 'rotated' ? rotateSquares(raw) : [...raw];
    return learnt ? { squares, learnt } : { squares };
  }

  /**
   * How the board's squares (chess numbering) follow from the game; nothing changes until `commit`.
   * `deep`: also search three plies on (a full board dump after a reconnect: moves made while the
   * board was away). Pieces in the air are read often and never need it. `pressed`: a clock press
   * came since the last move was read (then a position two plies back is two moves, not a takeback).
   */
  read(squares: readonly BoardSquare[], deep = false, pressed = false): Reading {
    const placement = placementOf(squares);
    if (placement === this.tip.placement) return { kind: 'same' };
    if (placement === startPlacement && this.plies > 0) return { kind: 'newGame' };
    const signal = resultSignal(squares);
    if (signal) return { kind: 'resultSignal', result: signal };
    const target = expand(placement);
    const found = this.explain(target, deep, pressed);
    if (found) return found;
    return this.fromOrphan(placement, target) ?? { kind: 'unexplained', placement };
  }

  /** Applies a reading (the live tracker decides when); returns the moves made and what was taken back. */
  commit(reading: Reading): { readonly takenBack: number; readonly played: readonly PlayedMove[]; readonly reseed?: Reseed } {
    switch (reading.kind) {
      case 'newGame':
        this.line = [{ fen: startFen, placement: startPlacement }];
        this.earlier = [];
        this.orphan = undefined;
        return { takenBack: 0, played: [] };
      case 'unexplained':
        this.orphan = { placement: reading.placement };
        return { takenBack: 0, played: [] };
      case 'ambiguous':
        this.orphan = { placement: placementOfFen(reading.fen), fen: reading.fen, plies: reading.plies, candidates: reading.candidates };
        return { takenBack: 0, played: [] };
      case 'explained': {
        this.orphan = undefined;
        this.line = this.line.slice(0, this.line.length - reading.takeback);
        return { takenBack: reading.takeback, played: this.play(reading.moves) };
      }
      case 'reseed':
        this.restart(reading.reseed);
        return { takenBack: 0, played: this.play(reading.moves), reseed: reading.reseed };
      default:
        return { takenBack: 0, played: [] };
    }
  }

  /** The arbiter says where the pieces stand (what no search explains). */
  setPosition(fen: string): Reseed {
    const checked = new Chess(fen).fen();
    const reseed: Reseed = { fromFen: this.fen, fen: checked, reason: 'arbiter' };
    this.restart(reseed);
    return reseed;
  }

  private play(moves: readonly Move[]): PlayedMove[] {
    const chess = new Chess(this.fen);
    return moves.map((m) => {
      const side = sideOf(chess);
      const played = chess.move(m);
      const move: PlayedMove = { side, san: played.san, uci: uciOf(played), fen: chess.fen() };
      this.line.push({ fen: move.fen, placement: placementOfFen(move.fen), move });
      return move;
    });
  }

  /**
   * In order of likelihood: one or two plies on; a takeback of up to `takebackPlies` plies, alone or
   * followed by a different move (arnsholt's reachable positions); a takeback followed by two plies;
   * when `deep`, three plies on (an unplugged board). Several explanations at one stage are quarantined, except three
   * plies on, where the board is re-seeded (every explanation ends on the same position).
   */
  private explain(target: readonly string[], deep: boolean, pressed: boolean): Reading | undefined {
    const tip = this.tip;
    const one = pathsTo(tip.fen, target, 1);
    if (one.length > 0) return this.explained(0, one);
    // Two plies that undo the last two (knights back and forth) look exactly like a takeback of both;
    // without a press between them it is the takeback.
    const twoBack = this.line[this.line.length - 3];
    if (!pressed && twoBack && twoBack.placement === placementOf(target as BoardSquare[]))
      return { kind: 'explained', takeback: 2, moves: [], castlingHalf: false };
    const two = pathsTo(tip.fen, target, 2);
    if (two.length > 0) return this.explained(0, two);
    for (let k = 1; k <= Math.min(this.takebackPlies, this.plies); k++) {
      const back = this.line[this.line.length - 1 - k]!;
      if (differences(expand(back.placement), target) === 0) return { kind: 'explained', takeback: k, moves: [], castlingHalf: false };
      const replaced = pathsTo(back.fen, target, 1);
      if (replaced.length > 0) return this.explained(k, replaced);
    }
    for (let k = 1; k <= Math.min(2, this.plies); k++) {
      const paths = pathsTo(this.line[this.line.length - 1 - k]!.fen, target, 2);
      if (paths.length > 0) return this.explained(k, paths);
    }
    if (!deep) return undefined;
    const three = pathsTo(tip.fen, target, 3);
    if (three.length === 1) return { kind: 'explained', takeback: 0, moves: three[0]!, castlingHalf: false };
    if (three.length > 1) {
      const fens = three.map((p) => this.fenAfter(tip.fen, p));
      return {
        kind: 'reseed',
        reseed: { fromFen: tip.fen, fen: commonFen(fens), plies: 3, candidates: three.map(sanLine), reason: 'ambiguous' },
        moves: [],
      };
    }
    return undefined;
  }

  private explained(takeback: number, paths: Move[][]): Reading {
    const base = new Chess(this.line[this.line.length - 1 - takeback]!.fen);
    if (paths.length > 1) {
      const fens = paths.map((p) => this.fenAfter(base.fen(), p));
      return { kind: 'ambiguous', candidates: paths.map(sanLine), fen: commonFen(fens), plies: paths[0]!.length };
    }
    const moves = paths[0]!;
    return { kind: 'explained', takeback, moves, castlingHalf: moves.length === 1 && isCastlingHalf(base, moves[0]!) };
  }

  private fenAfter(fen: string, moves: readonly Move[]): string {
    const chess = new Chess(fen);
    for (const m of moves) chess.move(m);
    return chess.fen();
  }

  /** The game goes on from a position nothing explained: one or two legal plies lead from it to this one. */
  private fromOrphan(placement: string, target: readonly string[]): Reading | undefined {
    const orphan = this.orphan;
    if (!orphan || orphan.placement === placement) return undefined;
    const fullmove = Number(this.fen.split(' ')[5] ?? 1);
    const seeds = orphan.fen ? [orphan.fen] : (['white', 'black'] as const).flatMap((side) => fenFor(orphan.placement, side, fullmove) ?? []);
    const fits = seeds.flatMap((fen) => {
      const one = pathsTo(fen, target, 1);
      const paths = one.length > 0 ? one : pathsTo(fen, target, 2);
      return paths.length === 1 ? [{ fen, moves: paths[0]! }] : [];
    });
    if (fits.length !== 1) return undefined;
    const fit = fits[0]!;
    const reseed: Reseed = orphan.fen
      ? {
          fromFen: this.fen,
          fen: fit.fen,
          ...(orphan.plies ? { plies: orphan.plies } : {}),
          ...(orphan.candidates ? { candidates: orphan.candidates } : {}),
          reason: 'ambiguous',
        }
      : { fromFen: this.fen, fen: fit.fen, reason: 'no-legal-path' };
    return { kind: 'reseed', reseed, moves: fit.moves };
  }
}

const sanLine = (moves: readonly Move[]): string => moves.map((m) => m.san).join(' ');

/** The position every candidate ends on, with only the castling rights they all keep. */
function commonFen(fens: readonly string[]): string {
  const [first = startFen] = fens;
  const parts = first.split(' ');
  const rights = [...(parts[2] ?? '-')].filter((r) => r !== '-' && fens.every((f) => (f.split(' ')[2] ?? '').includes(r))).join('');
  return [parts[0], parts[1], rights || '-', '-', parts[4], parts[5]].join(' ');
}
