import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TimeControlError,
  formatTimeControl,
  normalizeTimeControl,
  parseTimeControl,
  sameTimeControl,
  timeControlPresets,
  type MoveBonus,
  type Period,
  type TimeControl,
} from '../../clock-engine/internal.ts';

const inc = (ms: number, fromMove = 1): MoveBonus => ({ kind: 'increment', ms, fromMove });
const p = (white: number, bonus: MoveBonus = { kind: 'none' }, moves?: number, black = white): Period =>
  moves === undefined ? { baseMs: { white, black }, bonus } : { baseMs: { white, black }, moves, bonus };
const tc = (...periods: Period[]): TimeControl => ({ periods, nextPeriod: 'quota-move', incrementCredit: 'before-move' });

describe('parseTimeControl: PGN TimeControl tag / TRF-2026 tag 222', () => {
  it('reads multi-period controls with per-period increments', () => {
    expect(parseTimeControl('40/5400+30:1800+30')).toEqual(tc(p(5_400_000, inc(30_000), 40), p(1_800_000, inc(30_000, 41))));
  });
  it('reads single periods, sudden death and the special fields', () => {
    expect(parseTimeControl('5400+30')).toEqual(tc(p(5_400_000, inc(30_000))));
    expect(parseTimeControl('300')).toEqual(tc(p(300_000)));
    expect(parseTimeControl('-').special).toBe('untimed');
    expect(parseTimeControl('?').special).toBe('unknown');
    const sand = parseTimeControl('*60');
    expect(sand.special).toBe('sandclock');
    expect(sand.periods[0]?.baseMs).toEqual({ white: 60_000, black: 60_000 });
  });
  it('reads unequal sides (Armageddon) and an increment from move 61', () => {
    expect(parseTimeControl('W300-B240')).toEqual(tc(p(300_000, { kind: 'none' }, undefined, 240_000)));
    expect(parseTimeControl('W300-B240+2@61')).toEqual(tc(p(300_000, inc(2000, 61), undefined, 240_000)));
    expect(parseTimeControl('40/7200:20/3600:900+30@61')).toEqual(
      tc(p(7_200_000, { kind: 'none' }, 40), p(3_600_000, { kind: 'none' }, 20), p(900_000, inc(30_000, 61))),
    );
  });
  it('reads zeitnot delay extensions', () => {
    expect(parseTimeControl('1800d10').periods[0]?.bonus).toEqual({ kind: 'delay', ms: 10_000 });
    expect(parseTimeControl('1800b10').periods[0]?.bonus).toEqual({ kind: 'bronstein', ms: 10_000 });
  });
});

describe('parseTimeControl: US and FIDE notations', () => {
  it('reads US Chess notation (minutes, SD, ;inc, ;d)', () => {
    expect(parseTimeControl('40/90, SD/30;inc30')).toEqual(parseTimeControl('40/5400+30:1800+30'));
    expect(parseTimeControl('G/45;d5')).toEqual(tc(p(2_700_000, { kind: 'delay', ms: 5000 })));
    expect(parseTimeControl('G/45+5')).toEqual(parseTimeControl('2700+5'));
    expect(parseTimeControl('G/45;inc5')).toEqual(parseTimeControl('2700+5'));
    expect(parseTimeControl('40/120, 20/60, SD/15 inc30')).toEqual(
      tc(p(7_200_000, { kind: 'none' }, 40), p(3_600_000, { kind: 'none' }, 20), p(900_000, inc(30_000, 61))),
    );
  });
  it('reads the readable FIDE form (minutes, +Ns increment)', () => {
    expect(parseTimeControl('90/40+30+30s')).toEqual(parseTimeControl('40/5400+30:1800+30'));
    expect(parseTimeControl('90+30s')).toEqual(parseTimeControl('5400+30'));
    expect(parseTimeControl('W5-B4+2s@61')).toEqual(parseTimeControl('W300-B240+2@61'));
    expect(parseTimeControl("120'/40+60'+30s@41")).toEqual(parseTimeControl('40/7200:3600+30'));
    expect(parseTimeControl('120', { notation: 'fide' })).toEqual(parseTimeControl('7200'));
  });
  it('keeps the engine options it is given', () => {
    const t = parseTimeControl('5400+30', { incrementCredit: 'after-press', nextPeriod: 'first-flag' });
    expect([t.incrementCredit, t.nextPeriod]).toEqual(['after-press', 'first-flag']);
  });
});

describe('bad time-control strings', () => {
  const cases: [string, number, RegExp][] = [
    ['40/x', 3, /seconds after the move quota/],
    ['40/5400+', 8, /increment seconds/],
    ['40/5400:', 8, /seconds, moves\/seconds/],
    ['40/5400', 0, /final period without a move quota/],
    ['5400+30x', 7, /":" \(next period\)/],
    ['0/5400:60', 0, /move quota from 1 to 1000/],
    ['G/45;q5', 5, /"incN", "\+N", "dN" or "bN"/],
    ['W300-240', 4, /'-B'/],
    ['90/40+30s', 0, /final period without a move quota/],
    ['', 0, /a time control/],
    ['?x', 1, /nothing after/],
  ];
  it.each(cases)('%j fails at position %i naming what was expected', (text, position, expected) => {
    let error: unknown;
    try {
      parseTimeControl(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TimeControlError);
    const e = error as TimeControlError;
    expect(e.position).toBe(position);
    expect(e.expected).toMatch(expected);
    expect(e.message).toContain(`position ${position + 1}`);
  });
});

describe('formatTimeControl', () => {
  it('writes each notation canonically', () => {
    const cairns = parseTimeControl('40/5400+30:1800+30');
    expect(formatTimeControl(cairns, 'pgn')).toBe('40/5400+30:1800+30');
    expect(formatTimeControl(cairns, 'us')).toBe('40/90, SD/30;inc30');
    expect(formatTimeControl(cairns, 'fide')).toBe('90/40+30+30s');
    expect(formatTimeControl(parseTimeControl('G/45;d5'), 'us')).toBe('G/45;d5');
    expect(formatTimeControl(parseTimeControl('W300-B240+3@61'), 'fide')).toBe('W5-B4+3s@61');
    expect(formatTimeControl(parseTimeControl('*60'), 'pgn')).toBe('*60');
    expect(formatTimeControl(parseTimeControl('40/7200:3600+30'), 'fide')).toBe('120/40+60+30s@41');
  });
  it('refuses what a notation cannot express', () => {
    expect(() => formatTimeControl(parseTimeControl('W300-B240'), 'us')).toThrow(TimeControlError);
    expect(() => formatTimeControl(parseTimeControl('-'), 'fide')).toThrow(TimeControlError);
    expect(() => formatTimeControl(parseTimeControl('40/5400+30:1800+10'), 'fide')).toThrow(/one bonus/);
  });
  it.each(['40/5400+30:1800+30', '5400+30', '300', '-', '?', '*60', 'W300-B240', 'W300-B240+2@61', '2700d5', '40/7200:20/3600:900+30', '40/7200:3600+30'])(
    'round-trips the PGN string %s',
    (text) => {
      expect(formatTimeControl(parseTimeControl(text), 'pgn')).toBe(text);
    },
  );
  it.each(['40/90, SD/30;inc30', 'G/45;d5', 'G/45;inc5', 'G/5', '40/120, 20/60, SD/15 inc30'])('round-trips the US string %s', (text) => {
    expect(formatTimeControl(parseTimeControl(text), 'us')).toBe(text);
  });
});

/** Any control zeitnot can play, as data. */
const bonusArb: fc.Arbitrary<MoveBonus> = fc.oneof(
  fc.constant<MoveBonus>({ kind: 'none' }),
  fc.record({ kind: fc.constant('increment' as const), ms: fc.integer({ min: 1, max: 60 }).map((s) => s * 1000), fromMove: fc.integer({ min: 1, max: 80 }) }),
  fc.record({ kind: fc.constant('delay' as const), ms: fc.integer({ min: 1, max: 30 }).map((s) => s * 1000) }),
  fc.record({ kind: fc.constant('bronstein' as const), ms: fc.integer({ min: 1, max: 30 }).map((s) => s * 1000) }),
);
/** Seconds, half the time whole minutes (what minute notations can write). */
const seconds = fc.oneof(
  fc.integer({ min: 1, max: 10_800 }),
  fc.integer({ min: 1, max: 180 }).map((m) => m * 60),
);
const periodArb = fc.record({
  white: seconds,
  black: seconds,
  equal: fc.boolean(),
  moves: fc.integer({ min: 1, max: 60 }),
  bonus: bonusArb,
});
const controlArb: fc.Arbitrary<TimeControl> = fc
  .array(periodArb, { minLength: 1, maxLength: 4 })
  .map((ps) => tc(...ps.map((q, i) => p(q.white * 1000, q.bonus, i === ps.length - 1 ? undefined : q.moves, (q.equal ? q.white : q.black) * 1000))));

describe('round trips (property)', () => {
  it('parse(format(tc, pgn)) equals the canonical tc for any control', () => {
    fc.assert(
      fc.property(controlArb, (control) => {
        const text = formatTimeControl(control, 'pgn');
        expect(sameTimeControl(parseTimeControl(text, { notation: 'pgn' }), normalizeTimeControl(control))).toBe(true);
      }),
    );
  });
  it('US and FIDE forms round-trip whenever they can express the control', () => {
    fc.assert(
      fc.property(controlArb, fc.constantFrom('us' as const, 'fide' as const), (control, notation) => {
        let text: string;
        try {
          text = formatTimeControl(control, notation);
        } catch (e) {
          expect(e).toBeInstanceOf(TimeControlError);
          return;
        }
        expect(sameTimeControl(parseTimeControl(text, { notation }), normalizeTimeControl(control))).toBe(true);
      }),
    );
  });
});

describe('garbage in', () => {
  it('any text either parses completely or throws TimeControlError, in every notation', () => {
    const alphabet = fc.constantFrom(..."0123456789/+:-?*WBdbsGSD;, inc@'".split(''));
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: alphabet })),
        fc.constantFrom('auto' as const, 'pgn' as const, 'us' as const, 'fide' as const),
        (text, notation) => {
          try {
            const tc = parseTimeControl(text, { notation });
            expect(tc.special !== undefined || tc.periods.length > 0).toBe(true);
            expect(tc.periods.at(-1)?.moves).toBeUndefined();
          } catch (e) {
            expect(e).toBeInstanceOf(TimeControlError);
            expect((e as TimeControlError).position).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('presets', () => {
  it('covers the three events, the play-offs and the oracle controls', () => {
    const pgn = (name: string) => formatTimeControl(timeControlPresets[name]!.timeControl, 'pgn');
    expect(pgn('cairns-cup')).toBe('40/5400+30:1800+30');
    expect(pgn('90+30')).toBe('5400+30');
    expect(pgn('sa-open-b')).toBe('7200');
    expect(pgn('g45+5')).toBe('2700+5');
    expect(pgn('g25+5')).toBe('1500+5');
    expect(pgn('g10+5')).toBe('600+5');
    expect(pgn('blitz-5')).toBe('300');
    expect(pgn('armageddon')).toBe('W300-B240');
    expect(pgn('tata-steel')).toBe('40/6000+30:20/3000+30:900+30');
    expect(pgn('london-classic')).toBe('40/7200:3600+30');
    expect(pgn('champions-showdown')).toBe('1800d10');
    expect(timeControlPresets['g10+5']!.category).toBe('rapid');
    for (const preset of Object.values(timeControlPresets)) expect(formatTimeControl(preset.timeControl, 'pgn')).toBe(preset.pgn);
  });
});
