// Virtual players: legal chess from chess.js, choices and think times from a seeded generator, so the
// same seed always plays the same game in the same time.
import { Chess, type Move } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import { seededRandom, type Random } from './random.ts';
import { drawThinkMs, type ThinkTime } from './think-time.ts';
import type { GameScript, Promotion, ScriptedMove, ScriptResult } from './game-script.ts';

/** A move a player has decided on, with the time spent deciding. */
export interface PlannedMove {
  readonly san: string;
  readonly from: string;
  readonly to: string;
  readonly promotion?: Promotion;
  readonly thinkMs: number;
}

export interface VirtualPlayer {
  /** Chooses a legal move in `fen` (which must have a legal move) for the ply about to be played. */
  chooseMove(fen: string, ply: number): PlannedMove;
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
    chooseMove(fen, ply) {
      const legal = new Chess(fen).moves({ verbose: true });
      if (legal.length === 0) throw new Error(`no legal move in ${fen}`);
      const move = style === 'random' ? random.pick(legal) : eagerChoice(legal, random);
      return { ...plannedFrom(move), thinkMs: drawThinkMs(options.thinkMs, random, ply) };
    },
  };
}

function eagerChoice(legal: readonly Move[], random: Random): Move {
  const mate = legal.find((move) => move.san.endsWith('#'));
  if (mate) return mate;
  const captures = legal.filter((move) => move.captured !== undefined);
  if (captures.length > 0 && random.next() < 0.7) {
    const best = Math.max(...captures.map((move) => pieceValue[move.captured ?? 'p'] ?? 0));
    return random.pick(captures.filter((move) => (pieceValue[move.captured ?? 'p'] ?? 0) === best));
  }
  return random.pick(legal);
}

function plannedFrom(move: Move): Omit<PlannedMove, 'thinkMs'> {
  return move.promotion
    ? { san: move.san, from: move.from, to: move.to, promotion: move.promotion as Promotion }
    : { san: move.san, from: move.from, to: move.to };
}

export interface VirtualGameOptions {
  readonly white: VirtualPlayer;
  readonly black: VirtualPlayer;
  readonly startFen?: string;
  /** Stop (result '*', termination 'move-limit') after this many plies. Default 300. */
  readonly maxPlies?: number;
}

/** Plays a whole game between two virtual players, ahead of time. */
export function playVirtualGame(options: VirtualGameOptions): GameScript {
  const chess = new Chess(options.startFen);
  const startFen = chess.fen();
  const maxPlies = options.maxPlies ?? 300;
  const moves: ScriptedMove[] = [];
  while (!chess.isGameOver() && moves.length < maxPlies) {
    const side: Side = chess.turn() === 'w' ? 'white' : 'black';
    const fenBefore = chess.fen();
    const planned = options[side].chooseMove(fenBefore, moves.length);
    chess.move(planned.promotion ? { from: planned.from, to: planned.to, promotion: planned.promotion } : planned.san);
    moves.push({ ply: moves.length, side, ...planned, fenBefore, fenAfter: chess.fen() });
  }
  const { result, termination } = outcome(chess);
  return { startFen, moves, result, termination, tags: {} };
}

/** Two seeded players (seeds derived from one), ready to play: the usual way to fill a simulated round. */
export function createVirtualGame(options: {
  readonly seed: number | string;
  readonly thinkMs: ThinkTime;
  readonly style?: PlayingStyle;
  readonly maxPlies?: number;
}): GameScript {
  const player = (side: Side) =>
    createVirtualPlayer({ seed: `${options.seed}/${side}`, thinkMs: options.thinkMs, style: options.style ?? 'eager' });
  return playVirtualGame({ white: player('white'), black: player('black'), maxPlies: options.maxPlies ?? 300 });
}

function outcome(chess: Chess): { result: ScriptResult; termination: string } {
  if (chess.isCheckmate()) return { result: chess.turn() === 'w' ? '0-1' : '1-0', termination: 'checkmate' };
  if (chess.isStalemate()) return { result: '1/2-1/2', termination: 'stalemate' };
  if (chess.isInsufficientMaterial()) return { result: '1/2-1/2', termination: 'insufficient-material' };
  if (chess.isThreefoldRepetition()) return { result: '1/2-1/2', termination: 'threefold-repetition' };
  if (chess.isDrawByFiftyMoves()) return { result: '1/2-1/2', termination: 'fifty-moves' };
  return { result: '*', termination: 'move-limit' };
}
