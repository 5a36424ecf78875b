// Board positions to moves. The board reports squares one at a time while pieces are in the air, so
// single field updates are never moves: the position must stay unchanged for `stableMs`, and then it is
// accepted only if one legal move (or one legal pair of moves, when both players moved within the
// window) leads to it. Two or more explanations are quarantined for the arbiter, never guessed.
// Both kings on the centre squares is the DGT result signal: a claim, not a move.
import { Chess, type Move } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import { after, type CancelTimer, type Scheduler } from '../scheduler.ts';
import type { BoardSquare, PieceLetter } from './protocol.ts';
import { squareIndex, squareName } from './protocol.ts';

export type Orientation = 'normal' | 'rotated';
export type SignalledResult = '1-0' | '0-1' | '1/2-1/2';

export type PositionEvent =
  | { readonly type: 'move'; readonly side: Side; readonly san: string; readonly uci: string; readonly fen: string; readonly ply: number; readonly at: number }
  | { readonly type: 'resultSignal'; readonly result: SignalledResult; readonly at: number }
  | { readonly type: 'ambiguous'; readonly candidates: readonly string[]; readonly at: number }
  | { readonly type: 'unrecognised'; readonly placement: string; readonly at: number }
  | { readonly type: 'orientation'; readonly orientation: Orientation; readonly at: number }
  | { readonly type: 'newGame'; readonly at: number };

export interface PositionTrackerOptions {
  readonly scheduler: Scheduler;
  /** How long the board must be still before its position is read (the board scans in ~200-250 ms). */
  readonly stableMs?: number;
  /** A stable legal move waits this long for its clock press before it is taken anyway. */
  readonly confirmMs?: number;
  /** A stable position no move explains is reported after this long (pieces may simply be in the air). */
  readonly unrecognisedMs?: number;
  /** 'auto': decided by the start position the board shows (normal or rotated). */
  readonly orientation?: Orientation | 'auto';
  readonly onEvent: (event: PositionEvent) => void;
}

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

const rotate = (squares: readonly BoardSquare[]): BoardSquare[] => squares.map((_, i) => squares[63 - i] ?? '.');
/** The squares (index 0 = a8, chess numbering) after `move`, without asking chess.js for a FEN. */
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

const sameSquares = (a: readonly string[], b: readonly string[]): boolean => a.every((x, i) => x === b[i]);

export function resultSignal(squares: readonly BoardSquare[]): SignalledResult | undefined {
  const white = squares.indexOf('K');
  const black = squares.indexOf('k');
  if (white < 0 || black < 0) return undefined;
  const w = centre[squareName(white)];
  const b = centre[squareName(black)];
  if (!w || !b) return undefined;
  if (w === 'light' && b === 'light') return '1-0';
  if (w === 'dark' && b === 'dark') return '0-1';
  // Side by side on one rank (d4+e4 or d5+e5): opposite colours.
  return squareName(white)[1] === squareName(black)[1] ? '1/2-1/2' : undefined;
}

/** Squares (chess numbering, 0 = a8) whose piece differs between two placements. */
function changedSquares(a: readonly string[], b: readonly string[]): Set<string> {
  const changed = new Set<string>();
  for (let i = 0; i < 64; i++) if (a[i] !== b[i]) changed.add(squareName(i));
  return changed;
}

const expand = (placement: string): string[] =>
  [...placement.replace(/\//g, '')].flatMap((c) => (c >= '1' && c <= '8' ? Array.from({ length: Number(c) }, () => '.') : [c]));

interface Candidate {
  readonly placement: string;
  readonly moves: readonly Move[];
  readonly side: Side;
}

export class PositionTracker {
  readonly chess = new Chess();
  private raw: BoardSquare[] = Array.from({ length: 64 }, () => '.');
  private haveDump = false;
  private orientation: Orientation | undefined;
  private cancelStable: CancelTimer | undefined;
  private cancelConfirm: CancelTimer | undefined;
  private cancelUnrecognised: CancelTimer | undefined;
  private candidate: Candidate | undefined;
  /** A clock press not yet matched with a move (the player pressed before the board was still). */
  private pressedBy: Side | undefined;
  private lastReported = '';
  /** Half-moves taken since the start position (chess.js history() replays the game: too slow here). */
  private plies = 0;
  private readonly stableMs: number;
  private readonly confirmMs: number;

  constructor(private readonly options: PositionTrackerOptions) {
    this.stableMs = options.stableMs ?? 400;
    this.confirmMs = options.confirmMs ?? 2500;
    if (options.orientation && options.orientation !== 'auto') this.orientation = options.orientation;
  }

  get boardOrientation(): Orientation | undefined {
    return this.orientation;
  }

  /** The board as the host believes it (board numbering, unrotated). */
  get squares(): readonly BoardSquare[] {
    return this.raw;
  }

  boardDump(squares: readonly BoardSquare[]): void {
    const same = this.haveDump && squares.every((piece, i) => this.raw[i] === piece);
    this.raw = [...squares];
    this.haveDump = true;
    // A dump that changes nothing (keep-alive, after a reconnect) must not restart the stability wait.
    if (!same) this.changed();
  }

  fieldUpdate(square: number, piece: BoardSquare): void {
    // Field updates before any dump would build a position from nothing (arnsholt's driver refuses too).
    if (!this.haveDump || square < 0 || square > 63 || this.raw[square] === piece) return;
    this.raw[square] = piece;
    this.changed();
  }

  /**
   * The clock says `side` completed a move: a stable candidate move by that side is taken at once.
   * A press before the board is still is remembered for the next stable position.
   */
  clockPressed(side: Side): void {
    if (this.candidate && this.candidate.side === side) this.confirm();
    else this.pressedBy = side;
  }

  /** Reads the position now, as if it had been stable, and takes any candidate (tests, end of a replay). */
  settle(): void {
    this.cancelStable?.();
    this.cancelStable = undefined;
    this.evaluate();
    if (this.candidate) this.confirm();
  }

  dispose(): void {
    this.cancelStable?.();
    this.cancelConfirm?.();
    this.cancelUnrecognised?.();
  }

  private changed(): void {
    this.cancelStable?.();
    this.cancelUnrecognised?.();
    this.cancelConfirm?.();
    this.candidate = undefined;
    this.cancelStable = after(this.options.scheduler, this.stableMs, () => {
      this.cancelStable = undefined;
      this.evaluate();
    });
  }

  private evaluate(): void {
    const at = this.options.scheduler.now();
    const rawPlacement = placementOf(this.raw);
    const rotatedPlacement = placementOf(rotate(this.raw));
    const seenStart = rawPlacement === startPlacement ? 'normal' : rotatedPlacement === startPlacement ? 'rotated' : undefined;
    if (seenStart && this.options.orientation !== 'normal' && this.options.orientation !== 'rotated') {
      if (this.orientation !== seenStart) {
        this.orientation = seenStart;
        this.options.onEvent({ type: 'orientation', orientation: seenStart, at });
      }
    }
    const squares = this.orientation === 'rotated' ? rotate(this.raw) : this.raw;
    const placement = this.orientation === 'rotated' ? rotatedPlacement : rawPlacement;
    if (seenStart && this.plies > 0) {
      this.chess.reset();
      this.plies = 0;
      this.lastReported = '';
      this.pressedBy = undefined;
      this.options.onEvent({ type: 'newGame', at });
      return;
    }
    const current = this.chess.fen().split(' ')[0] ?? '';
    if (placement === current) return;
    const signal = resultSignal(squares);
    if (signal) {
      if (this.lastReported !== placement) this.options.onEvent({ type: 'resultSignal', result: signal, at });
      this.lastReported = placement;
      return;
    }
    const explanations = this.explain(current, placement);
    if (explanations.length === 1 && explanations[0]) {
      const side: Side = this.chess.turn() === 'w' ? 'white' : 'black';
      this.candidate = { placement, moves: explanations[0], side };
      // Both players moved within one window, or the mover already pressed: nothing left to wait for.
      if (explanations[0].length === 2 || this.pressedBy === side) this.confirm();
      else this.cancelConfirm = after(this.options.scheduler, this.confirmMs, () => this.confirm());
      return;
    }
    if (this.lastReported === placement) return;
    if (explanations.length > 1) {
      this.lastReported = placement;
      this.options.onEvent({ type: 'ambiguous', candidates: explanations.map((p) => p.map((m) => m.san).join(' ')), at });
      return;
    }
    this.cancelUnrecognised = after(this.options.scheduler, this.options.unrecognisedMs ?? 5000, () => {
      this.cancelUnrecognised = undefined;
      this.lastReported = placement;
      this.options.onEvent({ type: 'unrecognised', placement, at: this.options.scheduler.now() });
    });
  }

  /** Every one-move explanation, or failing that every two-move one, of going from `current` to `placement`. */
  private explain(current: string, placement: string): Move[][] {
    const changed = changedSquares(expand(current), expand(placement));
    // One move changes at most 4 squares (castling), two moves at most 8.
    if (changed.size > 8) return [];
    const chess = this.chess;
    const before = expand(current);
    const target = expand(placement);
    const touches = (m: Move) => changed.has(m.from);
    const single = chess.moves({ verbose: true }).filter((m) => touches(m) && sameSquares(squaresAfter(before, m), target));
    if (single.length > 0) return single.map((m) => [m]);
    const pairs: Move[][] = [];
    // Each mover's from-square always changes (it empties or gets an opponent piece).
    for (const first of chess.moves({ verbose: true }).filter(touches)) {
      const middle = squaresAfter(before, first);
      chess.move(first);
      for (const second of chess.moves({ verbose: true }).filter(touches)) {
        if (sameSquares(squaresAfter(middle, second), target)) pairs.push([first, second]);
      }
      chess.undo();
    }
    return pairs;
  }

  private confirm(): void {
    this.cancelConfirm?.();
    this.cancelConfirm = undefined;
    const candidate = this.candidate;
    this.candidate = undefined;
    if (!candidate) return;
    const at = this.options.scheduler.now();
    this.lastReported = '';
    this.pressedBy = undefined;
    for (const move of candidate.moves) {
      const side: Side = this.chess.turn() === 'w' ? 'white' : 'black';
      const played = this.chess.move(move);
      this.plies++;
      this.options.onEvent({
        type: 'move',
        side,
        san: played.san,
        uci: played.from + played.to + (played.promotion ?? ''),
        fen: this.chess.fen(),
        ply: this.plies,
        at,
      });
    }
  }
}

export type { PieceLetter };
