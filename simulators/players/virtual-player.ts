// Virtual players: legal chess from chess.js, choices and think times from a seeded generator, so the
// same seed always plays the same game in the same time.
import { Chess, DEFAULT_POSITION, type Move, type Square } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import { seededRandom, type Random } from './random.ts';
import { drawThinkMs, type ThinkTime } from './think-time.ts';
import type { GameScript, Promotion, ScriptedMove, ScriptResult } from './game-script.ts';

/** A choice of move, before it is played: the SAN of one of the legal moves, and the time spent deciding. */
export interface Choice {
  readonly san: string;
  readonly thinkMs: number;
}

export interface VirtualPlayer {
  /**
   * Chooses one of `legal` (the SAN of every legal move in `position`, chess.js's order; at least one)
   * for the ply about to be played. The game's own position is given, read and never changed: a
   * player that copied it from its FEN and played its move on the copy cost twice the game's work a ply.
   */
  chooseMove(position: Chess, legal: readonly string[], ply: number): Choice;
}

/**
 * - 'random': any legal move, uniformly (long, drawish games).
 * - 'eager': mates when it can, usually captures the most valuable piece on offer (games end sooner).
 */
export type PlayingStyle = 'random' | 'eager';

export interface VirtualPlayerOptions {
  readonly seed: number | string;
  readonly thinkMs: ThinkTime;
  readonly style?: PlayingStyle;
}

const pieceValue: Readonly<Record<string, number>> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

export function createVirtualPlayer(options: VirtualPlayerOptions): VirtualPlayer {
  const random = seededRandom(options.seed);
  const style = options.style ?? 'eager';
  return {
    chooseMove(position, legal, ply) {
      if (legal.length === 0) throw new Error(`no legal move in ${position.fen()}`);
      const san = style === 'random' ? random.pick(legal) : eagerChoice(position, legal, random);
      return { san, thinkMs: drawThinkMs(options.thinkMs, random, ply) };
    },
  };
}

function eagerChoice(chess: Chess, legal: readonly string[], random: Random): string {
  const mate = legal.find((san) => san.endsWith('#'));
  if (mate) return mate;
  const captures = legal.filter((san) => san.includes('x'));
  if (captures.length > 0 && random.next() < 0.7) {
    const value = (san: string): number => {
      const target = /([a-h][1-8])(=[QRBN])?[+#]?$/.exec(san)?.[1] as Square | undefined;
      // An empty target square is an en passant capture: a pawn.
      return pieceValue[(target && chess.get(target)?.type) ?? 'p'] ?? 0;
    };
    const best = Math.max(...captures.map(value));
    return random.pick(captures.filter((san) => value(san) === best));
  }
  return random.pick(legal);
}

export interface VirtualGameOptions {
  readonly white: VirtualPlayer;
  readonly black: VirtualPlayer;
  readonly startFen?: string;
  /** Stop (result '*', termination 'move-limit') after this many plies. Default 300. */
  readonly maxPlies?: number;
  /** A game resumed where a journal left it (resumeFrom): its plies before are not played again. */
  readonly from?: GamePosition;
}

/**
 * Where a resumed game stands: `ply` plies played, the pieces as `fen` shows them. `forced`: the move
 * of that ply is on the board already (journaled before the console stopped) and is the player's.
 * chess.js starts from the FEN alone, so a repetition spanning the restart is not seen as one.
 */
export interface GamePosition {
  readonly ply: number;
  readonly fen: string;
  readonly forced?: string;
}

/**
 * A game between two virtual players, played only as far as it is asked for: `move(ply)` plays up to
 * that ply (chess.js takes about a millisecond a ply, so a console seating 22 boards does not stop for
 * seconds to play 22 whole games ahead of time); `outcome` once `move` has returned undefined. The
 * moves are playVirtualGame's, ply for ply. A game resumed `from` a position plays on from there:
 * `move` of an earlier ply is undefined.
 */
export interface VirtualGame {
  readonly startFen: string;
  move(ply: number): ScriptedMove | undefined;
  /** How the game ended: defined once move() found no move at some ply. */
  readonly outcome: { readonly result: ScriptResult; readonly termination: string } | undefined;
}

export function startVirtualGame(options: VirtualGameOptions): VirtualGame {
  const chess = new Chess(options.from?.fen ?? options.startFen);
  // A resumed game's start: the standard position's FEN as chess.js writes it, without reading one (a
  // restart with 1,000 virtual boards resumes 1,000 games).
  const startFen = !options.from ? chess.fen() : options.startFen === undefined ? DEFAULT_POSITION : new Chess(options.startFen).fen();
  const maxPlies = options.maxPlies ?? 300;
  /** The first ply this game plays (0, or where it resumed). */
  const first = options.from?.ply ?? 0;
  const moves: ScriptedMove[] = [];
  let forced = options.from?.forced;
  let ended: { result: ScriptResult; termination: string } | undefined;
  return {
    startFen,
    move(ply) {
      while (first + moves.length <= ply && ended === undefined) {
        const at = first + moves.length;
        // SAN lists are several times cheaper than chess.js's verbose moves (which compute a FEN per
        // move); the one list serves the end of the game (no legal move: mate or stalemate) and the choice.
        const legal = chess.moves();
        if (legal.length === 0 || isDrawn(chess) || at >= maxPlies) {
          ended = outcome(chess);
          break;
        }
        const side: Side = chess.turn() === 'w' ? 'white' : 'black';
        const choice = options[side].chooseMove(chess, legal, at);
        const played = chess.move(forced ?? choice.san);
        forced = undefined;
        moves.push({ ply: at, side, ...plannedMove(played), thinkMs: choice.thinkMs, fenBefore: played.before, fenAfter: played.after });
      }
      return ply < first ? undefined : moves[ply - first];
    },
    get outcome() {
      return ended;
    },
  };
}

/** Plays a whole game between two virtual players, ahead of time. */
export function playVirtualGame(options: VirtualGameOptions): GameScript {
  const game = startVirtualGame(options);
  const moves: ScriptedMove[] = [];
  for (let move = game.move(0); move; move = game.move(moves.length)) moves.push(move);
  const { result, termination } = game.outcome!;
  return { startFen: game.startFen, moves, result, termination, tags: {} };
}

/** Two seeded players (seeds derived from one), ready to play: the usual way to fill a simulated round. */
export function createVirtualGame(options: {
  readonly seed: number | string;
  readonly thinkMs: ThinkTime;
  readonly style?: PlayingStyle;
  readonly maxPlies?: number;
}): GameScript {
  const player = (side: Side) => createVirtualPlayer({ seed: `${options.seed}/${side}`, thinkMs: options.thinkMs, style: options.style ?? 'eager' });
  return playVirtualGame({ white: player('white'), black: player('black'), maxPlies: options.maxPlies ?? 300 });
}

/** createVirtualGame's game, played as far as it is asked for (startVirtualGame). */
export function startSeededGame(options: Parameters<typeof createVirtualGame>[0]): VirtualGame {
  const player = (side: Side) => createVirtualPlayer({ seed: `${options.seed}/${side}`, thinkMs: options.thinkMs, style: options.style ?? 'eager' });
  return startVirtualGame({ white: player('white'), black: player('black'), maxPlies: options.maxPlies ?? 300 });
}

/** A move played, in the shape a script keeps (its SAN, squares and promotion). */
function plannedMove(move: Move): Pick<ScriptedMove, 'san' | 'from' | 'to' | 'promotion'> {
  return move.promotion
    ? { san: move.san, from: move.from, to: move.to, promotion: move.promotion as Promotion }
    : { san: move.san, from: move.from, to: move.to };
}

/** chess.js's isDraw but stalemate, which the caller has seen already (no legal move). */
function isDrawn(chess: Chess): boolean {
  return chess.isDrawByFiftyMoves() || chess.isInsufficientMaterial() || chess.isThreefoldRepetition();
}

function outcome(chess: Chess): { result: ScriptResult; termination: string } {
  if (chess.isCheckmate()) return { result: chess.turn() === 'w' ? '0-1' : '1-0', termination: 'checkmate' };
  if (chess.isStalemate()) return { result: '1/2-1/2', termination: 'stalemate' };
  if (chess.isInsufficientMaterial()) return { result: '1/2-1/2', termination: 'insufficient-material' };
  if (chess.isThreefoldRepetition()) return { result: '1/2-1/2', termination: 'threefold-repetition' };
  if (chess.isDrawByFiftyMoves()) return { result: '1/2-1/2', termination: 'fifty-moves' };
  return { result: '*', termination: 'move-limit' };
}
