// Scenario tests for every kind of control, with exact millisecond values.
import { describe, expect, it } from 'vitest';
import { nextDeadline, remainingAt, replayGame, type ClockEvent, type GameState } from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, min, opening, plies, sec } from './helpers.ts';

describe('Fischer increment credited before the move (DGT)', () => {
  it('90+30 starts at 1:30:30 for both and credits the next move at each press', () => {
    const config = gameConfig('5400+30');
    const start = fold(config, opening()).state;
    expect(start.remainingMs).toEqual({ white: 5_430_000, black: 5_430_000 });
    const { state } = fold(config, [...opening(), ...plies([12_000, 5000, 3000]).events]);
    expect(state.remainingMs).toEqual({ white: 5_430_000 - 12_000 + 30_000 - 3000 + 30_000, black: 5_430_000 - 5000 + 30_000 });
    expect(state.presses).toEqual({ white: 2, black: 1 });
  });

  it('after-press crediting (online clocks) starts at 1:30:00 and adds the increment at the press', () => {
    const config = gameConfig('5400+30');
    const after = { ...config, timeControl: { ...config.timeControl, incrementCredit: 'after-press' as const } };
    const { state } = fold(after, [...opening(), ...plies([943_000]).events]);
    expect(state.remainingMs).toEqual({ white: 5_400_000 - 943_000 + 30_000, black: 5_400_000 });
  });
});

describe('Cairns Cup 40/5400+30:1800+30, the move-40 boundary', () => {
  const config = gameConfig('40/5400+30:1800+30');
  // White spends 139 s on each of moves 1-39 (Black 1 s): before move 40 he has 5430 - 39 x 109 = 1179 s.
  const thinks: number[] = [];
  for (let i = 0; i < 39; i++) thinks.push(139_000, 1000);
  const before40 = plies(thinks);
  const whiteBefore40 = 5_430_000 - 39 * 139_000 + 39 * 30_000;

  it('White has exactly the expected time before his 40th move', () => {
    const { state } = fold(config, [...opening(), ...before40.events]);
    expect(state.remainingMs.white).toBe(whiteBefore40);
    expect(whiteBefore40).toBe(1_179_000);
    expect(state.presses.white).toBe(39);
  });

  it('the 40th press with 1 s left gets the 30-minute period and the move-41 increment', () => {
    const press40 = ev.press('white', before40.end + whiteBefore40 - 1000);
    const { state } = fold(config, [...opening(), ...before40.events, press40]);
    expect(state.remainingMs.white).toBe(1000 + 1_800_000 + 30_000);
    expect(state.period.white).toBe(1);
    expect(state.period.black).toBe(0);
    expect(state.status).toBe('running');
  });

  it('the flag at 0 with 39 presses loses, at the exact instant, and is recorded', () => {
    const flagAt = before40.end + whiteBefore40;
    const late = ev.press('white', flagAt);
    const { state, emitted } = fold(config, [...opening(), ...before40.events, late]);
    expect(emitted).toEqual([{ type: 'flag', side: 'white', at: flagAt, by: { kind: 'system' } }]);
    expect(state.status).toBe('finished');
    expect(state.result).toEqual({ result: '0-1', termination: 'time forfeit (Art. 6.9)' });
    expect(state.firstFlag).toEqual({ side: 'white', at: flagAt });
    expect(state.presses.white).toBe(39);
    expect(state.remainingMs.white).toBe(0);
    expect(state.alerts.at(-1)?.message).toMatch(/before completing move 40 \(39 presses\)/);
  });

  it("Black receives the period at his own 40th press, not at White's", () => {
    const equal = plies(Array.from({ length: 80 }, () => 10_000));
    const { state } = fold(config, [...opening(), ...equal.events]);
    const each = 5_430_000 + 40 * 30_000 - 40 * 10_000 + 1_800_000;
    expect(state.remainingMs).toEqual({ white: each, black: each });
    expect(state.period).toEqual({ white: 1, black: 1 });
    // 79 presses: White has his period, Black not yet.
    const partial = fold(config, [...opening(), ...equal.events.slice(0, 79)]).state;
    expect(partial.period).toEqual({ white: 1, black: 0 });
  });

  it('no time is added after the last control, and none after a flag', () => {
    const long = plies(Array.from({ length: 160 }, () => 10_000));
    const { state } = fold(config, [...opening(), ...long.events]);
    const each = 5_430_000 + 80 * 30_000 - 80 * 10_000 + 1_800_000;
    expect(state.remainingMs).toEqual({ white: each, black: each });
    expect(state.period).toEqual({ white: 1, black: 1 });
    const flagged = fold(config, [...opening(), ev.press('white', 10_000_000), ev.press('black', 10_000_001)]).state;
    expect(flagged.status).toBe('finished');
    expect(flagged.remainingMs.white).toBe(0);
    expect(flagged.presses).toEqual({ white: 0, black: 0 });
  });
});

describe('three periods with an increment from move 61 (120/40 + 60/20 + 15, +30 s from move 61)', () => {
  const config = gameConfig('40/7200:20/3600:900+30@61');
  it('adds 60 min at move 40, 15 min and the first increment at move 60, then 30 s a move', () => {
    const each = (n: number) => fold(config, [...opening(), ...plies(Array.from({ length: 2 * n }, () => 10_000)).events]).state.remainingMs.white;
    expect(each(39)).toBe(7_200_000 - 390_000);
    expect(each(40)).toBe(7_200_000 - 400_000 + 3_600_000);
    expect(each(59)).toBe(10_800_000 - 590_000);
    expect(each(60)).toBe(10_800_000 - 600_000 + 900_000 + 30_000);
    expect(each(61)).toBe(11_700_000 - 610_000 + 60_000);
  });
});

describe('Armageddon W300-B240', () => {
  it('gives unequal times and Black the match on a draw', () => {
    const config = gameConfig('W300-B240', { armageddon: true, category: 'blitz' });
    const started = fold(config, opening()).state;
    expect(started.remainingMs).toEqual({ white: 300_000, black: 240_000 });
    const drawn = fold(config, [
      ...opening(),
      ev.press('white', 5000),
      ev.drawOffer('black', 9000),
      ev.press('black', 9000),
      ev.drawAccept('white', 12_000),
    ]).state;
    expect(drawn.result?.result).toBe('1/2-1/2');
    expect(drawn.matchWinner).toBe('black');
  });
  it('a flag is a loss (Black flags at 240 s of his own time)', () => {
    const config = gameConfig('W300-B240', { armageddon: true });
    const { state, emitted } = fold(config, [...opening(), ev.press('white', 1000), ev.press('black', 300_000)]);
    expect(emitted[0]).toMatchObject({ type: 'flag', side: 'black', at: 241_000 });
    expect(state.result?.result).toBe('1-0');
    expect(state.matchWinner).toBe('white');
  });
  it('+2 s from move 61: the first credit comes when move 61 starts', () => {
    const config = gameConfig('W300-B240+2@61', { armageddon: true });
    const after = (n: number) => fold(config, [...opening(), ...plies(Array.from({ length: n }, () => 1000)).events]).state.remainingMs;
    expect(after(117)).toEqual({ white: 300_000 - 59_000, black: 240_000 - 58_000 });
    expect(after(119)).toEqual({ white: 300_000 - 60_000 + 2000, black: 240_000 - 59_000 });
    expect(after(121)).toEqual({ white: 300_000 - 61_000 + 4000, black: 240_000 - 60_000 + 2000 });
  });
});

describe('delays', () => {
  it('simple delay (G/5;d5): a press inside the delay leaves the clock unchanged; the flag falls at T + d', () => {
    const config = gameConfig('G/5;d5');
    const inside = fold(config, [...opening(), ev.press('white', 3000)]).state;
    expect(inside.remainingMs.white).toBe(300_000);
    const outside = fold(config, [...opening(), ev.press('white', 8000)]).state;
    expect(outside.remainingMs.white).toBe(297_000);
    const running = fold(config, opening()).state;
    expect(remainingAt(running, 4999).white).toBe(300_000);
    expect(remainingAt(running, 6000).white).toBe(299_000);
    expect(nextDeadline(config, running)).toEqual({ at: 305_000, kind: 'flag', side: 'white' });
  });
  it('Bronstein (1800b10 style): counts down from the start, refunds up to d at the press; the flag falls at T', () => {
    const config = gameConfig('300b5');
    const inside = fold(config, [...opening(), ev.press('white', 3000)]).state;
    expect(inside.remainingMs.white).toBe(300_000);
    const outside = fold(config, [...opening(), ev.press('white', 8000)]).state;
    expect(outside.remainingMs.white).toBe(297_000);
    const running = fold(config, opening()).state;
    expect(remainingAt(running, 3000).white).toBe(297_000);
    expect(nextDeadline(config, running)).toEqual({ at: 300_000, kind: 'flag', side: 'white' });
  });
});

describe('first-flag ("TIME") mode', () => {
  it('adds the next period to both clocks when the first flag of the period falls', () => {
    const base = gameConfig('40/600:300');
    const config = { ...base, timeControl: { ...base.timeControl, nextPeriod: 'first-flag' as const } };
    const { state, emitted } = fold(config, [...opening(), ev.press('white', 100_000), ev.press('black', 700_000)]);
    expect(emitted).toEqual([{ type: 'flag', side: 'black', at: 700_000, by: { kind: 'system' } }]);
    expect(state.status).toBe('running');
    expect(state.period).toEqual({ white: 1, black: 1 });
    expect(state.remainingMs).toEqual({ white: 500_000 + 300_000, black: 300_000 });
    expect(state.firstFlag).toEqual({ side: 'black', at: 700_000 });
    expect(state.alerts.at(-1)).toMatchObject({ code: 'flag-fall', side: 'black' });
    expect(state.toMove).toBe('white');
  });
});

describe('pause and resume', () => {
  it('time paused does not count', () => {
    const config = gameConfig('5400+30');
    const events = [...opening(), ev.pause(10_000, 'missing queen for promotion'), ev.resume(70_000), ev.press('white', 80_000)];
    const paused = fold(config, events.slice(0, 4)).state;
    expect(paused.status).toBe('paused');
    expect(paused.paused).toMatchObject({ reason: 'missing queen for promotion', at: 10_000 });
    expect(remainingAt(paused, 60_000).white).toBe(5_420_000);
    expect(nextDeadline(config, paused)).toBeUndefined();
    const { state } = fold(config, events);
    expect(state.remainingMs.white).toBe(5_430_000 - 20_000 + 30_000);
  });
});

describe('arbiter corrections', () => {
  const config = gameConfig('40/5400+30:1800+30');
  it('sets and adds time on the running and the waiting clock', () => {
    const { state } = fold(config, [...opening(), ev.press('white', 10_000), ev.setTime('black', 600_000, 20_000), ev.addTime('white', 120_000, 25_000)]);
    // Black's clock was set to 10:00 at 20 s and has run 5 s since.
    expect(state.remainingMs).toEqual({ white: 5_450_000 + 120_000, black: 600_000 - 5000 });
    expect(remainingAt(state, 35_000).black).toBe(585_000);
    const later = fold(config, [ev.press('black', 45_000)], state).state;
    expect(later.remainingMs.black).toBe(600_000 - 25_000 + 30_000);
  });
  it('corrects the press counter so the period comes at the right press (Laws 6.10.2, 7.1)', () => {
    const events = [...opening(), ...plies(Array.from({ length: 76 }, () => 1000)).events];
    const corrected = fold(config, [...events, ev.setMoveCounter('presses', 'white', 39, 76_500), ev.press('white', 77_000)]).state;
    expect(corrected.presses.white).toBe(40);
    expect(corrected.period.white).toBe(1);
    expect(corrected.remainingMs.white).toBe(5_430_000 + 39 * 30_000 - 39_000 + 1_800_000);
  });
});

describe('default time (late arrival)', () => {
  const config = gameConfig('40/5400+30:1800+30', { defaultTimeMs: 30 * min });
  const whiteHere = [ev.arrive('white', 0), ev.start(0), ev.press('white', 10_000)];

  it("a player present at 29:59 plays on; his clock ran from White's press", () => {
    const { state, emitted } = fold(config, [...whiteHere, ev.arrive('black', 29 * min + 59 * sec), ev.press('black', 30 * min + 5 * sec)]);
    expect(emitted).toEqual([]);
    expect(state.status).toBe('running');
    expect(state.remainingMs.black).toBe(5_430_000 - (30 * min + 5 * sec - 10_000) + 30_000);
  });
  it('"more than 30 minutes late" (the default): arriving at exactly 30:00.000 plays, absent at 30:00.001 loses', () => {
    const inTime = fold(config, [...whiteHere, ev.arrive('black', 30 * min)]);
    expect(inTime.emitted).toEqual([]);
    expect(inTime.state.status).toBe('running');
    const { state, emitted } = fold(config, [...whiteHere, ev.arrive('black', 30 * min + 1)]);
    expect(emitted).toEqual([{ type: 'defaultTimeExpired', absent: ['black'], at: 30 * min + 1, by: { kind: 'system' } }]);
    expect(state.result).toEqual({ result: '+--', termination: 'default time expired (Art. 6.7.1, absent more than 30 min)' });
  });
  it('"at the default time" where an event words it so: absent at exactly 30:00.000 loses', () => {
    const at = gameConfig('40/5400+30:1800+30', { defaultTimeMs: 30 * min, defaultTimeBoundary: 'at' });
    const { state, emitted } = fold(at, [...whiteHere, ev.arrive('black', 30 * min)]);
    expect(emitted).toEqual([{ type: 'defaultTimeExpired', absent: ['black'], at: 30 * min, by: { kind: 'system' } }]);
    expect(state.result).toEqual({ result: '+--', termination: 'default time expired (Art. 6.7.1, absent at 30 min)' });
    expect(fold(at, [...whiteHere, ev.arrive('black', 30 * min - 1)]).state.status).toBe('running');
  });
  it('the arbiter may start the clock before the scheduled start; the default time still counts from it', () => {
    const early = gameConfig('5400+30', { scheduledStart: 10_000, defaultTimeMs: 30 * min });
    const { state } = fold(early, [ev.arrive('white', 1000), ev.arrive('black', 2000), ev.start(5000), ev.press('white', 8000)]);
    expect(state.remainingMs.white).toBe(5_430_000 - 3000 + 30_000);
    expect(state.asOf).toBe(8000);
  });
  it('counts from the scheduled start, not the clock start', () => {
    const lateRound = [ev.arrive('white', 0), ev.start(5 * min), ev.press('white', 6 * min)];
    expect(nextDeadline(config, fold(config, lateRound).state)).toEqual({ at: 30 * min + 1, kind: 'defaultTime' });
  });
  it("both absent: White's clock runs, and both lose at the default time", () => {
    const bothAway = fold(config, [ev.start(0)]).state;
    expect(remainingAt(bothAway, 10 * min)).toEqual({ white: 5_430_000 - 10 * min, black: 5_430_000 });
    expect(bothAway.alerts.map((a) => a.code)).toEqual(['late-player', 'late-player']);
    const { state } = fold(config, [ev.start(0), ev.arrive('white', 31 * min)]);
    expect(state.result?.result).toBe('---');
  });
  it('when the event lets the arbiter decide, the game is paused and the late arrival flagged', () => {
    const held = gameConfig('5400+30', { defaultTimeMs: 30 * min, lateArrival: 'arbiter-decides' });
    const { state } = fold(held, [...whiteHere, ev.arrive('black', 35 * min)]);
    expect(state.status).toBe('paused');
    expect(state.defaultTimeExpiredAt).toBe(30 * min + 1);
    expect(state.alerts.map((a) => a.code)).toContain('default-time-expired');
    expect(state.alerts.at(-1)).toMatchObject({ code: 'late-player', side: 'black' });
    const resumed = fold(held, [ev.resume(36 * min), ev.press('black', 37 * min)], state).state;
    expect(resumed.remainingMs.black).toBe(5_430_000 - (30 * min + 1 - 10_000) - 1 * min + 30_000);
  });
  it('L2009 zero tolerance: default time 0 forfeits a player not there at the start', () => {
    const zero = gameConfig('5400+30', { defaultTimeMs: 0, lawsEdition: '2009' });
    const { state } = fold(zero, [ev.arrive('black', 0), ev.start(0), ev.arrive('white', 1)]);
    expect(state.result).toEqual({ result: '--+', termination: 'default time expired (Art. 6.6, absent more than 0 min)' });
    expect(fold(zero, [ev.arrive('black', 0), ev.start(0), ev.arrive('white', 0)]).state.status).toBe('running');
  });
});

describe('bad input loses nothing', () => {
  it('a malformed event leaves the state as it was, with an alert saying why', () => {
    const config = gameConfig('5400+30');
    const running = fold(config, [...opening(), ev.press('white', 1000)]).state;
    const cases: [unknown, RegExp][] = [
      [{ type: 'explode', at: 2000, by: { kind: 'system' } }, /unknown type/],
      [{ type: 'press', side: 'black', at: Number.NaN, by: { kind: 'system' } }, /`at` is not a whole number of milliseconds/],
      [{ type: 'press', side: 'black', at: 2000.5, by: { kind: 'system' } }, /`at` is not a whole number of milliseconds/],
      [{ type: 'press', side: 'red', at: 2000, by: { kind: 'system' } }, /`side` is not white or black/],
      [{ type: 'addTime', side: 'black', ms: '60000', at: 2000, by: { kind: 'system' }, reason: 'x' }, /`ms` is not a whole number/],
    ];
    for (const [event, why] of cases) {
      const { state, emitted } = fold(config, [event as ClockEvent], running);
      expect(emitted).toEqual([]);
      expect({ ...state, alerts: running.alerts }).toEqual(running);
      expect(state.alerts.at(-1)).toMatchObject({ code: 'ignored-event' });
      expect(state.alerts.at(-1)?.message).toMatch(why);
    }
  });
});

describe('the press fast path', () => {
  it('carries every optional field of the state over', () => {
    const config = gameConfig('5400+30');
    const base = fold(config, opening()).state;
    const full: GameState = {
      ...base,
      paused: { by: { kind: 'system' }, reason: 'r', at: 0 },
      result: { result: '*' as never, termination: 't' },
      firstFlag: { side: 'black', at: 0 },
      drawOffer: { side: 'white', at: 0 },
      quickplay: { side: 'black', at: 0, status: 'postponed' },
      fen: '8/8/8/8/8/8/8/K6k w - - 0 1',
      moveCountMismatch: { side: 'black', presses: 1, moves: 0 },
      defaultTimeExpiredAt: 0,
      matchWinner: 'black',
    };
    const after = fold(config, [ev.press('white', 1000)], full).state;
    const optional = ['paused', 'result', 'firstFlag', 'drawOffer', 'quickplay', 'fen', 'moveCountMismatch', 'defaultTimeExpiredAt', 'matchWinner'] as const;
    for (const key of optional) expect(after[key], key).toEqual(full[key]);
  });
});

describe('replay is a pure fold', () => {
  it('replayGame equals the step-by-step fold', () => {
    const config = gameConfig('40/5400+30:1800+30');
    const events = [...opening(), ...plies([5000, 7000, 9000, 11_000]).events, ev.pause(40_000), ev.resume(50_000)];
    expect(replayGame(config, events)).toEqual(fold(config, events).state);
  });
});
