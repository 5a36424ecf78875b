// Writing a time control in each notation; `parseTimeControl(formatTimeControl(tc, n), { notation: n })`
// gives back `normalizeTimeControl(tc)`. A control a notation cannot express throws TimeControlError.
import { TimeControlError, commonBonus, normalizeTimeControl, periodFirstMove, unplayable } from './time-control.ts';
import type { TimeControlNotation } from './time-control-parse.ts';
import type { MoveBonus, Period, TimeControl } from './types.ts';

/** `ms` in the notation's unit, exactly (at most 3 decimals), or undefined when it cannot be written so. */
function exactNumber(ms: number, unitMs: number): string | undefined {
  const value = Math.round((ms / unitMs) * 1000) / 1000;
  return Math.round(value * unitMs) === ms ? String(value) : undefined;
}

function number(ms: number, unitMs: number): string {
  const text = exactNumber(ms, unitMs);
  if (text === undefined) throw new TimeControlError(String(ms), 0, `a time that is a whole multiple of ${unitMs / 1000} ms (got ${ms} ms)`);
  return text;
}

function unexpressible(tc: TimeControl, notation: string, why: string): never {
  throw new TimeControlError(JSON.stringify(tc.periods), 0, `a control ${notation} notation can express (${why})`);
}

function sidesText(p: Period, unitMs: number): string {
  const { white, black } = p.baseMs;
  return white === black ? number(white, unitMs) : `W${number(white, unitMs)}-B${number(black, unitMs)}`;
}

function pgnBonus(tc: TimeControl, index: number, b: MoveBonus): string {
  switch (b.kind) {
    case 'none':
      return '';
    case 'increment': {
      const first = periodFirstMove(tc, index) ?? 1;
      return `+${number(b.ms, 1000)}${b.fromMove > first ? `@${b.fromMove}` : ''}`;
    }
    case 'delay':
      return `d${number(b.ms, 1000)}`;
    case 'bronstein':
      return `b${number(b.ms, 1000)}`;
  }
}

function formatPgn(tc: TimeControl): string {
  if (tc.special === 'unknown') return '?';
  if (tc.special === 'untimed') return '-';
  if (tc.special === 'sandclock') return `*${number(tc.periods[0]?.baseMs.white ?? 0, 1000)}`;
  return tc.periods.map((p, i) => `${p.moves !== undefined ? `${p.moves}/` : ''}${sidesText(p, 1000)}${pgnBonus(tc, i, p.bonus)}`).join(':');
}

function usBonus(b: MoveBonus): string {
  switch (b.kind) {
    case 'none':
      return '';
    case 'increment':
      return `inc${number(b.ms, 1000)}`;
    case 'delay':
      return `d${number(b.ms, 1000)}`;
    case 'bronstein':
      return `b${number(b.ms, 1000)}`;
  }
}

function formatUs(tc: TimeControl): string {
  if (tc.special) unexpressible(tc, 'US', 'no ?, - or sandclock');
  // One bonus after ";" when it holds for the whole game from move 1; otherwise each period's own.
  const shared = commonBonus(tc);
  const common = shared && (shared.kind !== 'increment' || shared.fromMove <= 1) ? shared : undefined;
  tc.periods.forEach((p, i) => {
    if (p.baseMs.white !== p.baseMs.black) unexpressible(tc, 'US', 'equal times for both sides');
    const b = common ?? p.bonus;
    if (b.kind === 'increment' && b.fromMove > (periodFirstMove(tc, i) ?? 1)) unexpressible(tc, 'US', 'increments from the start of a period');
  });
  const periods = tc.periods.map((p) => {
    const head = p.moves !== undefined ? `${p.moves}/` : tc.periods.length === 1 ? 'G/' : 'SD/';
    const own = common === undefined && p.bonus.kind !== 'none' ? ` ${usBonus(p.bonus)}` : '';
    return `${head}${number(p.baseMs.white, 60_000)}${own}`;
  });
  const tail = common && common.kind !== 'none' ? `;${usBonus(common)}` : '';
  return periods.join(', ') + tail;
}

function formatFide(tc: TimeControl): string {
  if (tc.special) unexpressible(tc, 'FIDE', 'no ?, - or sandclock');
  const common = commonBonus(tc);
  if (!common) unexpressible(tc, 'FIDE', 'one bonus for the whole game');
  const periods = tc.periods.map((p) => `${sidesText(p, 60_000)}${p.moves !== undefined ? `/${p.moves}` : ''}`);
  const bonus =
    common.kind === 'increment'
      ? `+${number(common.ms, 1000)}s${common.fromMove > 1 ? `@${common.fromMove}` : ''}`
      : common.kind === 'delay'
        ? `+d${number(common.ms, 1000)}s`
        : common.kind === 'bronstein'
          ? `+b${number(common.ms, 1000)}s`
          : '';
  return periods.join('+') + bonus;
}

export function formatTimeControl(tc: TimeControl, notation: TimeControlNotation): string {
  const canonical = normalizeTimeControl(tc);
  switch (notation) {
    case 'pgn':
      return formatPgn(canonical);
    case 'us':
      return formatUs(canonical);
    case 'fide':
      return formatFide(canonical);
  }
}

/**
 * Throws TimeControlError when a game clock cannot run `tc` (see unplayable), naming the period's
 * position in the control's PGN form: the clock's own refusal of a control built in code or read from
 * a journal, as the parser refuses a string.
 */
export function assertPlayable(tc: TimeControl): void {
  const problem = unplayable(tc);
  if (!problem) return;
  let text: string;
  try {
    text = formatPgn(tc);
  } catch {
    text = JSON.stringify(tc.periods);
  }
  const position = text
    .split(':')
    .slice(0, problem.period ?? 0)
    .reduce((at, field) => at + field.length + 1, 0);
  throw new TimeControlError(text, Math.min(position, text.length), problem.expected);
}
