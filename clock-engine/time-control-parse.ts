// Reading a time control from text, in three notations (docs/time-controls.md has the grammar):
//   PGN TimeControl tag / TRF-2026 tag 222, seconds: `40/5400+30:1800+30`, `W300-B240`, `?`, `-`, `*60`
//   US Chess, minutes: `40/90, SD/30;inc30`, `G/45;d5`, `G/45+5`
//   FIDE readable, minutes: `90/40+30+30s`, `W5-B4+2s@61`
// A string either parses completely or throws a TimeControlError naming the position; nothing half-parsed.
// A control that parses but that no clock could play as written (a period with no move quota before the
// last one, a zero-time period, a number out of bounds) is refused too, at the position of its period.
import { TimeControlError, noBonus, normalizeTimeControl, period, timeControlLimits, unplayable } from './time-control.ts';
import type { MoveBonus, Period, TimeControl } from './types.ts';

export type TimeControlNotation = 'pgn' | 'us' | 'fide';

export interface ParseOptions {
  /** Which notation; 'auto' (default) picks US for `G/`, `SD/`, `;` or `,` and FIDE for an `s` bonus or `'`. */
  readonly notation?: TimeControlNotation | 'auto';
  readonly nextPeriod?: TimeControl['nextPeriod'];
  readonly incrementCredit?: TimeControl['incrementCredit'];
}

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(n = 1): string {
    return this.text.slice(this.pos, this.pos + n);
  }
  fail(expected: string): never {
    throw new TimeControlError(this.text, this.pos, expected);
  }
  failAt(pos: number, expected: string): never {
    throw new TimeControlError(this.text, pos, expected);
  }
  eat(literal: string, caseInsensitive = false): boolean {
    const here = this.peek(literal.length);
    if (caseInsensitive ? here.toLowerCase() === literal.toLowerCase() : here === literal) {
      this.pos += literal.length;
      return true;
    }
    return false;
  }
  expect(literal: string, what = `'${literal}'`): void {
    if (!this.eat(literal)) this.fail(what);
  }
  spaces(): void {
    while (this.peek() === ' ') this.pos++;
  }
  /** A non-negative integer, at most `max`. */
  int(what: string, max: number): number {
    return this.number(/^\d+/, what, max);
  }
  /** A non-negative decimal number (minutes may be fractional: `G/2.5`), at most `max`. */
  decimal(what: string, max: number): number {
    return this.number(/^\d+(\.\d+)?/, what, max);
  }
  private number(pattern: RegExp, what: string, max: number): number {
    const m = pattern.exec(this.text.slice(this.pos));
    if (!m) this.fail(what);
    const value = Number(m[0]);
    if (value > max) this.fail(`${what} of at most ${max}`);
    this.pos += m[0].length;
    return value;
  }
  end(what: string): void {
    if (!this.done) this.fail(what);
  }
}

const minutesMs = (m: number) => Math.round(m * 60_000);
const secondsMs = (s: number) => Math.round(s * 1000);

// Bounds in each notation's own units (timeControlLimits in ms).
const maxSeconds = timeControlLimits.periodMs / 1000;
const maxMinutes = timeControlLimits.periodMs / 60_000;
const maxBonusSeconds = timeControlLimits.bonusMs / 1000;
const maxMoves = timeControlLimits.moves;

/**
 * The control, checked as a clock would run it; `starts[i]` is where period i was written, so a refusal
 * names that position. Special controls (`?`, `-`, `*N`) are valid notation and are returned as they
 * are: the game clock refuses them.
 */
function build(c: Cursor, periods: Period[], starts: readonly number[], options: ParseOptions, special?: TimeControl['special']): TimeControl {
  const tc = normalizeTimeControl({
    periods,
    nextPeriod: options.nextPeriod ?? 'quota-move',
    incrementCredit: options.incrementCredit ?? 'before-move',
    ...(special ? { special } : {}),
  });
  const problem = special ? undefined : unplayable(tc);
  if (problem) c.failAt(starts[problem.period ?? 0] ?? 0, problem.expected);
  return tc;
}

/** `W300-B240` or `300` (unit given by `toMs`). */
function sides(c: Cursor, toMs: (n: number) => number, what: string, max: number): { white: number; black: number } {
  if (c.eat('W')) {
    const white = toMs(c.decimal(`${what} for White after 'W'`, max));
    c.expect('-B', "'-B' and Black's time");
    const black = toMs(c.decimal(`${what} for Black after '-B'`, max));
    return { white, black };
  }
  const both = toMs(c.decimal(what, max));
  return { white: both, black: both };
}

function parsePgn(text: string, options: ParseOptions): TimeControl {
  const c = new Cursor(text.trim());
  if (c.eat('?')) {
    c.end('nothing after "?"');
    return build(c, [], [], options, 'unknown');
  }
  if (c.eat('-')) {
    c.end('nothing after "-"');
    return build(c, [], [], options, 'untimed');
  }
  if (c.eat('*')) {
    const s = secondsMs(c.int('sandclock seconds after "*"', maxSeconds));
    c.end('nothing after the sandclock seconds');
    return build(c, [period(s, s, noBonus)], [0], options, 'sandclock');
  }
  const periods: Period[] = [];
  const starts: number[] = [];
  do {
    const fieldStart = c.pos;
    starts.push(fieldStart);
    // `M/S` or `S`: read the first number, then decide by the slash.
    let moves: number | undefined;
    let base: { white: number; black: number };
    if (c.peek() === 'W') {
      base = sides(c, secondsMs, 'seconds', maxSeconds);
    } else {
      const first = c.int('seconds, moves/seconds, "?", "-" or "*seconds"', maxSeconds);
      if (c.eat('/')) {
        if (first === 0 || first > maxMoves) c.failAt(fieldStart, `a move quota from 1 to ${maxMoves}`);
        moves = first;
        base = sides(c, secondsMs, 'seconds after the move quota', maxSeconds);
      } else {
        base = { white: secondsMs(first), black: secondsMs(first) };
      }
    }
    let bonus: MoveBonus = noBonus;
    if (c.eat('+')) {
      const ms = secondsMs(c.int('increment seconds after "+"', maxBonusSeconds));
      const fromMove = c.eat('@') ? c.int('a move number after "@"', maxMoves) : 1;
      if (fromMove < 1) c.failAt(c.pos - 1, 'a move number of at least 1');
      bonus = { kind: 'increment', ms, fromMove };
    } else if (c.eat('d')) {
      bonus = { kind: 'delay', ms: secondsMs(c.int('delay seconds after "d"', maxBonusSeconds)) };
    } else if (c.eat('b')) {
      bonus = { kind: 'bronstein', ms: secondsMs(c.int('Bronstein delay seconds after "b"', maxBonusSeconds)) };
    }
    periods.push(period(base.white, base.black, bonus, moves));
    if (!c.done && c.peek() !== ':') c.fail('":" (next period), "+increment", "dDELAY", "bDELAY" or the end');
  } while (c.eat(':'));
  return build(c, periods, starts, options);
}

/** US bonus after `;` or a space: incN, Inc/N, +N, dN, d/N, bN. Returns undefined if none is there. */
function usBonus(c: Cursor): MoveBonus | undefined {
  if (c.eat('inc', true)) {
    c.eat('/');
    return { kind: 'increment', ms: secondsMs(c.int('increment seconds after "inc"', maxBonusSeconds)), fromMove: 1 };
  }
  if (c.eat('+')) return { kind: 'increment', ms: secondsMs(c.int('increment seconds after "+"', maxBonusSeconds)), fromMove: 1 };
  if (c.eat('d', true)) {
    c.eat('/');
    return { kind: 'delay', ms: secondsMs(c.int('delay seconds after "d"', maxBonusSeconds)) };
  }
  if (c.eat('b', true)) {
    c.eat('/');
    return { kind: 'bronstein', ms: secondsMs(c.int('Bronstein delay seconds after "b"', maxBonusSeconds)) };
  }
  return undefined;
}

function parseUs(text: string, options: ParseOptions): TimeControl {
  const c = new Cursor(text.trim());
  const periods: Period[] = [];
  const starts: number[] = [];
  for (;;) {
    const periodStart = c.pos;
    starts.push(periodStart);
    let moves: number | undefined;
    if (c.eat('G/', true) || c.eat('SD/', true)) {
      moves = undefined;
    } else {
      moves = c.int('"G/", "SD/" or moves/minutes', maxMoves);
      if (moves === 0) c.failAt(periodStart, 'a move quota of at least 1');
      c.expect('/', "'/' and minutes after the move quota");
    }
    const base = minutesMs(c.decimal('minutes', maxMinutes));
    let bonus: MoveBonus = noBonus;
    const beforeSpace = c.pos;
    if (c.peek() === '+') bonus = usBonus(c) ?? noBonus;
    else {
      c.spaces();
      const own = c.peek() === ',' || c.peek() === ';' || c.done ? undefined : usBonus(c);
      if (own) bonus = own;
      else c.pos = c.peek() === ',' || c.peek() === ';' || c.done ? c.pos : beforeSpace;
    }
    periods.push(period(base, base, bonus, moves));
    if (c.eat(',')) {
      c.spaces();
      continue;
    }
    break;
  }
  if (c.eat(';')) {
    c.spaces();
    const all = usBonus(c);
    if (!all) return c.fail('"incN", "+N", "dN" or "bN" after ";"');
    for (let i = 0; i < periods.length; i++) {
      const p = periods[i]!;
      if (p.bonus.kind !== 'none') c.failAt(0, 'either a bonus per period or one after ";", not both');
      periods[i] = { ...p, bonus: all };
    }
  }
  c.spaces();
  c.end('", " (next period), ";" and a bonus, or the end');
  return build(c, periods, starts, options);
}

function parseFide(text: string, options: ParseOptions): TimeControl {
  const c = new Cursor(text.trim().replace(/[’']/g, ''));
  const periods: Period[] = [];
  const starts: number[] = [];
  let bonus: MoveBonus = noBonus;
  for (;;) {
    const periodStart = c.pos;
    if (c.peek() === 'd' || c.peek() === 'b') {
      const kind = c.peek() === 'd' ? 'delay' : 'bronstein';
      c.pos++;
      const ms = secondsMs(c.decimal(`${kind} seconds`, maxBonusSeconds));
      c.expect('s', "'s' after the delay seconds");
      bonus = { kind, ms };
      break;
    }
    const save = c.pos;
    const isSides = c.peek() === 'W';
    const base = sides(c, minutesMs, 'minutes', maxMinutes);
    if (!isSides && c.eat('s')) {
      // `+30s` (optionally `@61`): the per-move increment, always the last item.
      const seconds = Number(c.text.slice(save, c.pos - 1));
      if (seconds > maxBonusSeconds) c.failAt(save, `increment seconds of at most ${maxBonusSeconds}`);
      const ms = secondsMs(seconds);
      const fromMove = c.eat('@') ? c.int('a move number after "@"', maxMoves) : 1;
      // As in PGN notation: moves count from 1, so "@0" has no reading (not "from move 1").
      if (fromMove < 1) c.failAt(c.pos - 1, 'a move number of at least 1');
      if (periods.length === 0) c.failAt(save, 'minutes of a first period before the increment');
      bonus = { kind: 'increment', ms, fromMove };
      break;
    }
    const moves = c.eat('/') ? c.int('a move quota after "/"', maxMoves) : undefined;
    if (moves === 0) c.failAt(periodStart, 'a move quota of at least 1');
    periods.push(period(base.white, base.black, noBonus, moves));
    starts.push(periodStart);
    if (!c.eat('+')) break;
  }
  c.end('"+" and a period, "+Ns" increment, "+dNs" delay or the end');
  if (periods.length === 0) c.fail('at least one period in minutes');
  return build(
    c,
    periods.map((p) => ({ ...p, bonus })),
    starts,
    options,
  );
}

export function detectNotation(text: string): TimeControlNotation {
  const t = text.trim();
  if (/^(G|SD)\//i.test(t) || /[;,]|SD\//i.test(t)) return 'us';
  if (/\d(\.\d+)?s(@\d+)?$|['’]|\+[db]\d+(\.\d+)?s$/.test(t)) return 'fide';
  return 'pgn';
}

/** Parses a time control; throws TimeControlError (with position and expectation) on bad input. */
export function parseTimeControl(text: string, options: ParseOptions = {}): TimeControl {
  const notation = !options.notation || options.notation === 'auto' ? detectNotation(text) : options.notation;
  if (text.trim() === '') throw new TimeControlError(text, 0, 'a time control');
  switch (notation) {
    case 'pgn':
      return parsePgn(text, options);
    case 'us':
      return parseUs(text, options);
    case 'fide':
      return parseFide(text, options);
  }
}
