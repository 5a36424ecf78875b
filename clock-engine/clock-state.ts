// Small pure helpers on GameState shared by the fold and the rulings: pairs, displays, endings.
import type { ClockAlert, ClockEventType, GameConfig, GameResult, GameState, MoveBonus, Side, TimeControl } from './types.ts';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type Pair<T> = { readonly white: T; readonly black: T };

export const system = { kind: 'system' } as const;
export const twoMinutes = 120_000;

/**
 * With `timekeeper: 'device'`, how long past its own zero the engine waits for the device's flag before
 * declaring the flag itself: a DGT clock shows whole seconds and its messages lag by up to 1 s, so the
 * engine, following its readings, may reach zero up to about 2 s before the clock does.
 */
export const deviceFlagGraceMs = 2_000;
/** How far the device and the engine may be apart (ms) before a `clock-disagrees` alert. */
export const deviceToleranceMs = 1_000;

/** The wait past zero before the engine's own flag falls: 0 unless a device keeps the time. */
export function flagGrace(config: GameConfig): number {
  return config.timekeeper === 'device' ? deviceFlagGraceMs : 0;
}

export function bonusOf(tc: TimeControl, periodIndex: number): MoveBonus {
  return tc.periods[periodIndex]?.bonus ?? { kind: 'none' };
}

/** The increment credited for move `move` in period `periodIndex` (0 when none or not yet from that move). */
export function incrementFor(tc: TimeControl, periodIndex: number, move: number): number {
  const b = bonusOf(tc, periodIndex);
  return b.kind === 'increment' && move >= b.fromMove ? b.ms : 0;
}

export function delayOf(tc: TimeControl, periodIndex: number): number {
  const b = bonusOf(tc, periodIndex);
  return b.kind === 'delay' ? b.ms : 0;
}

/** Moves that must be completed by the end of period `index` (cumulative), or undefined for the final one. */
export function quotaAtEndOf(tc: TimeControl, index: number): number | undefined {
  let total = 0;
  for (let i = 0; i <= index; i++) {
    const moves = tc.periods[i]?.moves;
    if (moves === undefined) return undefined;
    total += moves;
  }
  return index < tc.periods.length - 1 ? total : undefined;
}

export const set = <T>(pair: Pair<T>, side: Side, value: T): Pair<T> =>
  side === 'white' ? { white: value, black: pair.black } : { white: pair.white, black: value };

export function winnerOf(result: GameResult, armageddon: boolean): Side | undefined {
  if (result === '1-0' || result === '+--') return 'white';
  if (result === '0-1' || result === '--+') return 'black';
  return result === '1/2-1/2' && armageddon ? 'black' : undefined;
}

/** What the running side's display shows after `usedMs` of a move (delay: the main time waits). */
export function display(move: GameState['move'], usedMs: number): number {
  return Math.max(0, move.startMs - Math.max(0, usedMs - move.delayMs));
}

export function absentSides(state: GameState): Side[] {
  return (['white', 'black'] as const).filter((s) => !state.arrived[s]);
}

/** Brings the running clock up to instant `at` (time never runs backwards: an older stamp adds nothing). */
export function advance(s: GameState, at: number): GameState {
  if (at <= s.asOf) return s;
  if (s.status !== 'running') return { ...s, asOf: at };
  const usedMs = s.move.usedMs + (at - s.asOf);
  const move = { startMs: s.move.startMs, usedMs, delayMs: s.move.delayMs };
  return { ...s, asOf: at, move, remainingMs: set(s.remainingMs, s.toMove, display(move, usedMs)) };
}

export function alert(s: GameState, a: ClockAlert): GameState {
  return { ...s, alerts: [...s.alerts, a] };
}

export function finish(config: GameConfig, s: GameState, result: GameResult, termination: string): GameState {
  const out: Mutable<GameState> = { ...s, status: 'finished', result: { result, termination } };
  delete out.paused;
  delete out.drawOffer;
  delete out.quickplay;
  const winner = winnerOf(result, config.armageddon);
  if (winner) out.matchWinner = winner;
  else delete out.matchWinner;
  return out;
}

/** Sets one side's display; for the side to move, its move's start is shifted so the move goes on. */
export function setRemaining(s: GameState, side: Side, ms: number): GameState {
  const value = Math.max(0, Math.round(ms));
  if (side !== s.toMove || s.status === 'finished') return { ...s, remainingMs: set(s.remainingMs, side, value) };
  const shift = value - s.remainingMs[side];
  const move = { ...s.move, startMs: s.move.startMs + shift };
  return { ...s, move, remainingMs: set(s.remainingMs, side, value) };
}

/** Fullmove number of the move in progress (White's 30th move and Black's reply are both "move 30"). */
export function moveInProgress(s: GameState): number {
  return s.presses.white + (s.toMove === 'white' ? 1 : 0);
}

export const name = (side: Side) => (side === 'white' ? 'White' : 'Black');

export function resume(s: GameState): GameState {
  if (s.status !== 'paused') return s;
  const out: Mutable<GameState> = { ...s, status: 'running' };
  delete out.paused;
  return out;
}

const arrivals = {
  none: Object.freeze({ white: false, black: false }),
  white: Object.freeze({ white: true, black: false }),
  black: Object.freeze({ white: false, black: true }),
  both: Object.freeze({ white: true, black: true }),
};

/** `arrived` with `side` present: one shared object per combination (states are never mutated). */
export function withArrival(arrived: Pair<boolean>, side: Side): Pair<boolean> {
  const white = arrived.white || side === 'white';
  const black = arrived.black || side === 'black';
  return white ? (black ? arrivals.both : arrivals.white) : black ? arrivals.black : arrivals.none;
}

/** Every event type there is; listing them as keys makes the compiler catch a new one. */
export const clockEventTypes = Object.keys({
  start: true,
  press: true,
  pause: true,
  resume: true,
  setTime: true,
  addTime: true,
  setMoveCounter: true,
  penalty: true,
  arrive: true,
  boardMove: true,
  boardPosition: true,
  clockUnreachable: true,
  clockReading: true,
  drawOffer: true,
  drawAccept: true,
  drawDecline: true,
  quickplayClaim: true,
  quickplayDecision: true,
  flag: true,
  defaultTimeExpired: true,
  forfeit: true,
  result: true,
} satisfies Record<ClockEventType, true>) as ClockEventType[];
