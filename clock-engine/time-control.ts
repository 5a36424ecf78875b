// The time-control model's own rules: which move a period starts at, and one canonical form per control,
// so that two spellings of the same control (PGN, US, FIDE) compare equal.
import type { MoveBonus, Period, Side, TimeControl } from './types.ts';

/** A bad time-control string: where it went wrong and what was expected there. */
export class TimeControlError extends Error {
  constructor(
    readonly text: string,
    /** 0-based character position in `text`. */
    readonly position: number,
    readonly expected: string,
  ) {
    super(`bad time control "${text}" at position ${position + 1}: expected ${expected}`);
    this.name = 'TimeControlError';
  }
}

export const noBonus: MoveBonus = { kind: 'none' };

/**
 * Bounds on every number of a control, so a typo (`86400000`, `1e20`) is refused rather than played:
 * a period adds at most 24 h to a clock, a bonus is at most 1 h, a move quota or move number at most
 * 1000. All times are whole milliseconds.
 */
export const timeControlLimits = { periodMs: 24 * 3_600_000, bonusMs: 3_600_000, moves: 1000 } as const;

/** What is wrong with a control a game clock would run, and in which period (0-based), if anything. */
export interface Unplayable {
  readonly period?: number;
  readonly expected: string;
}

const specialNames = { unknown: "'?' (unknown)", untimed: "'-' (no time control)", sandclock: "'*N' (sandclock)" } as const;

/** Whether a bonus gives time from the first move of its period (a zero base is then deliberate: `0+1`). */
function givesTime(tc: TimeControl, index: number, b: MoveBonus): boolean {
  if (b.kind === 'none' || b.ms <= 0) return false;
  return b.kind !== 'increment' || b.fromMove <= (periodFirstMove(tc, index) ?? 1);
}

function bounded(ms: number, max: number): boolean {
  return Number.isSafeInteger(ms) && ms >= 0 && ms <= max;
}

/**
 * Why a game clock cannot run `tc` (undefined when it can): a special control (`?`, `-`, `*N`); a
 * period before the last without a move quota, unless the next period comes at the first flag (DGT
 * "TIME" mode), since under quota-move transitions it would never end and the later periods never
 * come (`5400+30:1800+30`); a final period with a quota (repeating controls); a period that puts no
 * time on a clock (base 0 and no bonus from its first move: `0`, `W0-B0`, `40/5400:0`); a number out
 * of timeControlLimits.
 */
export function unplayable(tc: TimeControl): Unplayable | undefined {
  if (tc.special) return { expected: `a control a game clock can run, not ${specialNames[tc.special]}` };
  if (tc.periods.length === 0) return { expected: 'at least one period' };
  const { periodMs, bonusMs, moves } = timeControlLimits;
  const last = tc.periods.length - 1;
  for (let i = 0; i <= last; i++) {
    const p = tc.periods[i]!;
    if (i < last && p.moves === undefined && tc.nextPeriod === 'quota-move') {
      return { period: i, expected: 'a move quota ("40/...") on every period but the last, or the first-flag rule (--next-period first-flag)' };
    }
    if (i === last && p.moves !== undefined) return { period: i, expected: 'a final period without a move quota (repeating periods are not supported)' };
    if (p.moves !== undefined && (!Number.isSafeInteger(p.moves) || p.moves < 1 || p.moves > moves))
      return { period: i, expected: `a move quota from 1 to ${moves}` };
    for (const side of ['white', 'black'] as const) {
      if (!bounded(p.baseMs[side], periodMs)) return { period: i, expected: `a period of at most 24 hours in whole ms (got ${p.baseMs[side]} ms)` };
    }
    const b = p.bonus;
    if (b.kind !== 'none' && !bounded(b.ms, bonusMs)) return { period: i, expected: `a bonus of at most 1 hour in whole ms (got ${b.ms} ms)` };
    if (b.kind === 'increment' && (!Number.isSafeInteger(b.fromMove) || b.fromMove < 1 || b.fromMove > moves))
      return { period: i, expected: `an increment from a move 1 to ${moves}` };
    if ((p.baseMs.white === 0 || p.baseMs.black === 0) && !givesTime(tc, i, b)) {
      return {
        period: i,
        expected:
          i === 0
            ? 'time on the clock: a period of 0 with no increment or delay from its first move flags at once (0+I is an increment-only control)'
            : 'a period that adds time: 0 with no increment or delay adds nothing',
      };
    }
  }
  return undefined;
}

export function period(white: number, black: number, bonus: MoveBonus, moves?: number): Period {
  return moves === undefined ? { baseMs: { white, black }, bonus } : { baseMs: { white, black }, moves, bonus };
}

/**
 * First move number played in period `index` under move-quota transitions; undefined when periods
 * change at the first flag (then a period is not tied to move numbers).
 */
export function periodFirstMove(tc: TimeControl, index: number): number | undefined {
  if (tc.nextPeriod === 'first-flag' && index > 0) return undefined;
  let first = 1;
  for (let i = 0; i < index; i++) first += tc.periods[i]?.moves ?? 0;
  return first;
}

/**
 * The canonical form: an increment never starts before its period's first move, and a period whose
 * increment would only start after its last move has none. `parse(format(tc))` equals `normalize(tc)`.
 */
export function normalizeTimeControl(tc: TimeControl): TimeControl {
  const periods = tc.periods.map((p, i): Period => {
    const b = p.bonus;
    if (b.kind !== 'increment') return p;
    const first = periodFirstMove(tc, i) ?? 1;
    const fromMove = Math.max(b.fromMove, first);
    // Credited 'before-move', the press of a period's last move already earns the next period's increment.
    if (p.moves !== undefined && tc.nextPeriod === 'quota-move' && fromMove > first + p.moves - 1) {
      return { ...p, bonus: noBonus };
    }
    return fromMove === b.fromMove ? p : { ...p, bonus: { ...b, fromMove } };
  });
  return { ...tc, periods };
}

export function sameBonus(a: MoveBonus, b: MoveBonus): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'none' || b.kind === 'none') return true;
  if (a.ms !== b.ms) return false;
  return a.kind !== 'increment' || b.kind !== 'increment' || a.fromMove === b.fromMove;
}

export function sameTimeControl(a: TimeControl, b: TimeControl): boolean {
  if (a.nextPeriod !== b.nextPeriod || a.incrementCredit !== b.incrementCredit || a.special !== b.special) return false;
  if (a.periods.length !== b.periods.length) return false;
  return a.periods.every((p, i) => {
    const q = b.periods[i]!;
    return p.moves === q.moves && p.baseMs.white === q.baseMs.white && p.baseMs.black === q.baseMs.black && sameBonus(p.bonus, q.bonus);
  });
}

/**
 * The single bonus that, given to every period, yields this control (FIDE and US notations write one
 * bonus for the whole game); undefined when the periods' bonuses genuinely differ.
 */
export function commonBonus(tc: TimeControl): MoveBonus | undefined {
  const candidates = tc.periods.map((p) => p.bonus);
  for (const bonus of candidates) {
    const spread = normalizeTimeControl({ ...tc, periods: tc.periods.map((p) => ({ ...p, bonus })) });
    if (sameTimeControl(spread, normalizeTimeControl(tc))) return bonus;
  }
  return candidates.length === 0 ? noBonus : undefined;
}

/** Total base time of one side (all periods), for classification and display. */
export function totalBaseMs(tc: TimeControl, side: Side): number {
  return tc.periods.reduce((sum, p) => sum + p.baseMs[side], 0);
}

/**
 * FIDE category by "base + 60 x increment" minutes under the Laws `edition` (Appendices A and B; the
 * 2018/2023 glossary): L2009 blitz < 15, rapid >= 15 and < 60; L2018/L2023 blitz <= 10, rapid > 10
 * and < 60; standard >= 60. Uses White's first period.
 */
export function fideCategory(tc: TimeControl, edition: '2009' | '2018' | '2023' = '2023'): 'standard' | 'rapid' | 'blitz' {
  const first = tc.periods[0];
  if (!first) return 'standard';
  const bonusMs = first.bonus.kind === 'none' ? 0 : first.bonus.ms;
  const minutes = (first.baseMs.white + 60 * bonusMs) / 60_000;
  // L2009 A.1, B.1: rapid "at least 15 minutes but less than 60", blitz "less than 15 minutes";
  // L2018/L2023 A.1, B.1: rapid "more than 10 minutes but less than 60", blitz "10 minutes or less".
  const blitz = edition === '2009' ? minutes < 15 : minutes <= 10;
  return blitz ? 'blitz' : minutes < 60 ? 'rapid' : 'standard';
}
