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
 * FIDE category by "base + 60 x increment" minutes (Laws 2018/2023 glossary, Appendices A and B):
 * blitz <= 10, rapid > 10 and < 60, standard >= 60. Uses White's first period.
 */
export function fideCategory(tc: TimeControl): 'standard' | 'rapid' | 'blitz' {
  const first = tc.periods[0];
  if (!first) return 'standard';
  const bonusMs = first.bonus.kind === 'none' ? 0 : first.bonus.ms;
  const minutes = (first.baseMs.white + 60 * bonusMs) / 60_000;
  return minutes <= 10 ? 'blitz' : minutes < 60 ? 'rapid' : 'standard';
}
