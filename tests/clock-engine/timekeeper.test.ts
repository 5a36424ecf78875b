// Who keeps the time. With `timekeeper: 'device'` (a DGT or line clock in the mirror role) the engine
// computes each press itself, alerts when the clock differs by more than 1 s, then follows the clock's
// reading; the device's flags are accepted and the engine's own flag waits 2 s for them. With
// 'engine' (the default) readings are ignored, as before.
import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  applyClockEvent,
  createGameClock,
  deviceFlagGraceMs,
  nextDeadline,
  remainingAt,
  replayGame,
  type ClockAlert,
  type ClockEvent,
  type ClockReading,
  type EventActor,
  type GameConfig,
  type Side,
} from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, min, opening } from './helpers.ts';

const dgt: EventActor = { kind: 'device', deviceId: 'dgt-7' };
const pressWith = (side: Side, at: number, reading: ClockReading): ClockEvent => ({ type: 'press', side, at, by: dgt, reading });
const deviceFlag = (side: Side, at: number, by: EventActor = dgt): ClockEvent => ({ type: 'flag', side, at, by });
const disagreements = (alerts: readonly ClockAlert[]) => alerts.filter((a) => a.code === 'clock-disagrees');

/** 3+2 blitz as a DGT clock runs it: the increment is credited before the move (both start at 3:02). */
const device = gameConfig('180+2', { timekeeper: 'device', category: 'blitz' });

describe("timekeeper 'device': the engine follows the clock's readings", () => {
  it("adopts both readings at a press, the opponent's move starting from his", () => {
    // Engine: White 182 000 - 10 000 + 2 000 = 174 000; the clock shows 0:02:55 (whole seconds).
    const { state } = fold(device, [...opening(), pressWith('white', 10_000, { white: 175_000, black: 182_000 })]);
    expect(state.remainingMs).toEqual({ white: 175_000, black: 182_000 });
    expect(state.move).toEqual({ startMs: 182_000, usedMs: 0, delayMs: 0 });
    expect(state.asOf).toBe(10_000);
    expect(disagreements(state.alerts)).toEqual([]);
    expect(remainingAt(state, 14_500)).toEqual({ white: 175_000, black: 177_500 });
    // Black's press is computed from the adopted times: 182 000 - 5 000 + 2 000 = 179 000.
    const next = applyClockEvent(device, state, pressWith('black', 15_000, { white: 175_000, black: 179_000 })).state;
    expect(next.remainingMs).toEqual({ white: 175_000, black: 179_000 });
    expect(next.move.startMs).toBe(175_000);
    expect(next.presses).toEqual({ white: 1, black: 1 });
    expect(disagreements(next.alerts)).toEqual([]);
    // The flag is due from the adopted time, plus the wait for the device's own flag.
    expect(nextDeadline(device, next)).toEqual({ at: 15_000 + 175_000 + deviceFlagGraceMs, kind: 'flag', side: 'white' });
  });

  it('raises clock-disagrees beyond 1000 ms on either side, with both values and the difference', () => {
    const start = fold(device, opening()).state;
    // Exactly 1000 ms apart: within tolerance (a whole-second display may be that far off).
    const within = applyClockEvent(device, start, pressWith('white', 10_000, { white: 175_000, black: 181_000 })).state;
    expect(disagreements(within.alerts)).toEqual([]);
    expect(within.remainingMs).toEqual({ white: 175_000, black: 181_000 });

    const beyond = applyClockEvent(device, start, pressWith('white', 10_000, { white: 175_001, black: 180_500 })).state;
    expect(disagreements(beyond.alerts)).toEqual([
      {
        code: 'clock-disagrees',
        side: 'white',
        at: 10_000,
        message: "White: after White's press the clock shows 175001 ms, the engine 174000 ms (clock +1001 ms); the engine follows the clock",
      },
      {
        code: 'clock-disagrees',
        side: 'black',
        at: 10_000,
        message: "Black: after White's press the clock shows 180500 ms, the engine 182000 ms (clock -1500 ms); the engine follows the clock",
      },
    ]);
    // The engine follows the clock all the same.
    expect(beyond.remainingMs).toEqual({ white: 175_001, black: 180_500 });
  });

  it('tells a clock that did not add the next period at move 40 (and then follows it)', () => {
    const config = gameConfig('40/5400+30:1800+30', { timekeeper: 'device' });
    let state = fold(config, opening()).state;
    let at = 0;
    // 39 moves each, every reading exactly the engine's own.
    for (let i = 0; i < 78; i++) {
      at += 60_000;
      const engine = applyClockEvent(config, state, ev.press(state.toMove, at)).state;
      state = applyClockEvent(config, state, pressWith(state.toMove, at, engine.remainingMs)).state;
      expect(state).toEqual(engine);
    }
    // White's 40th move: the engine adds 30 minutes (and the +30 s for move 41); the clock only the 30 s.
    at += 60_000;
    const engineWhite = state.remainingMs.white - 60_000 + 30 * min + 30_000;
    state = applyClockEvent(config, state, pressWith('white', at, { white: engineWhite - 30 * min, black: state.remainingMs.black })).state;
    expect(disagreements(state.alerts)).toEqual([
      expect.objectContaining({ side: 'white', message: expect.stringContaining(`the engine ${engineWhite} ms (clock -1800000 ms)`) }),
    ]);
    expect(state.remainingMs.white).toBe(engineWhite - 30 * min);
    expect(state.period.white).toBe(1);
  });

  it('keeps a press whose reading is malformed, on its own arithmetic, and says why', () => {
    const bad = { type: 'press', side: 'white', at: 10_000, by: dgt, reading: { white: Number.NaN, black: 182_000 } } as ClockEvent;
    const { state } = fold(device, [...opening(), bad]);
    expect(state.remainingMs).toEqual({ white: 174_000, black: 182_000 });
    expect(state.presses.white).toBe(1);
    expect(state.alerts.at(-1)).toMatchObject({ code: 'ignored-event', side: 'white', at: 10_000 });
  });

  it("ignores a reading on a press that is not the mover's", () => {
    const start = fold(device, opening()).state;
    const state = applyClockEvent(device, start, pressWith('black', 5_000, { white: 1_000, black: 1_000 })).state;
    expect(state.remainingMs).toEqual({ white: 177_000, black: 182_000 });
    expect(disagreements(state.alerts)).toEqual([]);
  });
});

describe("timekeeper 'device': flags", () => {
  // White thinks 181 s on his first move, Black 2 s: White to move from 183 000 with 3 000 ms, zero at 186 000.
  const lowOnTime = () =>
    fold(device, [...opening(), pressWith('white', 181_000, { white: 3_000, black: 182_000 }), pressWith('black', 183_000, { white: 3_000, black: 182_000 })]);

  it("accepts the device's flag while the engine still shows time (alert beyond 1 s)", () => {
    expect(disagreements(lowOnTime().state.alerts)).toEqual([]);
    const close = applyClockEvent(device, lowOnTime().state, deviceFlag('white', 185_200)).state;
    expect(close).toMatchObject({ status: 'finished', result: { result: '0-1' }, flags: { white: 185_200 }, firstFlag: { side: 'white', at: 185_200 } });
    expect(close.remainingMs.white).toBe(0);
    expect(disagreements(close.alerts)).toEqual([]);

    const early = applyClockEvent(device, lowOnTime().state, deviceFlag('white', 184_000)).state;
    expect(early).toMatchObject({ status: 'finished', result: { result: '0-1' }, flags: { white: 184_000 } });
    expect(early.alerts).toEqual([
      {
        code: 'clock-disagrees',
        side: 'white',
        at: 184_000,
        message: "White's flag fell on the clock while the engine shows 2000 ms left; the engine follows the clock",
      },
      { code: 'flag-fall', side: 'white', at: 184_000, message: "White's flag fell" },
    ]);
  });

  it("an arbiter's report is the clock's too; a player's is checked against the engine", () => {
    const arbiter: EventActor = { kind: 'arbiter', name: 'IA Test' };
    expect(applyClockEvent(device, lowOnTime().state, deviceFlag('white', 184_000, arbiter)).state.status).toBe('finished');
    const claimed = applyClockEvent(device, lowOnTime().state, deviceFlag('white', 184_000, { kind: 'player', side: 'black' })).state;
    expect(claimed.status).toBe('running');
    expect(claimed.alerts.at(-1)?.message).toBe("White's flag reported, but the engine shows 2000 ms left");
  });

  it('waits 2 s past its own zero for the device, accepting its flag or a press in between', () => {
    const { state } = lowOnTime();
    expect(nextDeadline(device, state)).toEqual({ at: 188_000, kind: 'flag', side: 'white' });
    // 1.5 s past the engine's zero the clock still runs: its flag then is accepted, with no disagreement.
    const flagged = applyClockEvent(device, state, deviceFlag('white', 187_500));
    expect(flagged.emitted).toEqual([]);
    expect(flagged.state).toMatchObject({ status: 'finished', flags: { white: 187_500 } });
    expect(disagreements(flagged.state.alerts)).toEqual([]);
    // ... or White presses in time by the clock, which shows 0:00:01 with the increment: the engine
    // (0 + 2 000) takes the reading.
    const pressed = applyClockEvent(device, state, pressWith('white', 186_900, { white: 1_000, black: 182_000 })).state;
    expect(pressed).toMatchObject({ status: 'running', toMove: 'black', remainingMs: { white: 1_000, black: 182_000 } });
    expect(disagreements(pressed.alerts)).toEqual([]);
  });

  it('declares the flag itself 2 s after its zero when the device stays silent', () => {
    const { state } = lowOnTime();
    const before = applyClockEvent(device, state, ev.drawOffer('black', 187_999));
    expect(before.emitted).toEqual([]);
    expect(before.state.status).toBe('running');
    const after = applyClockEvent(device, before.state, ev.drawOffer('black', 188_000));
    expect(after.emitted).toEqual([{ type: 'flag', side: 'white', at: 188_000, by: { kind: 'system' } }]);
    expect(after.state).toMatchObject({ status: 'finished', flags: { white: 188_000 }, result: { result: '0-1' } });
    expect(after.state.alerts.map((a) => [a.code, a.message])).toEqual([
      [
        'clock-disagrees',
        "White's time ran out on the engine at 186000 but the clock reported no flag within 2000 ms: the engine declares the flag (check the clock and its cable)",
      ],
      ['flag-fall', "White's flag fell"],
    ]);
    // The same presses under the engine's own timekeeping: the flag at the zero itself, no such alert.
    const engine = gameConfig('180+2', { category: 'blitz' });
    const own = applyClockEvent(
      engine,
      replayGame(engine, [...opening(), ev.press('white', 181_000), ev.press('black', 183_000)]),
      ev.drawOffer('black', 188_000),
    );
    expect(own.emitted).toEqual([{ type: 'flag', side: 'white', at: 186_000, by: { kind: 'system' } }]);
    expect(disagreements(own.state.alerts)).toEqual([]);
  });
});

describe("timekeeper 'device': the actor and the journal", () => {
  it('re-aims its timer when a reading brings the flag earlier, and its journal replays to its state', () => {
    const clock = new SimulatedClock();
    const journal: ClockEvent[] = [];
    const generated: ClockEvent[] = [];
    const actor = createGameClock(device, { clock });
    actor.on('generated', ({ event }) => {
      generated.push(event);
      journal.push(event);
    });
    actor.start();
    const send = (e: ClockEvent) => {
      actor.send(e);
      journal.push(e);
    };
    for (const e of opening()) send(e);
    clock.increment(1_000);
    send(pressWith('white', 1_000, { white: 183_000, black: 182_000 }));
    clock.increment(1_000);
    // The clock says White has 5 s (say it was set so on the clock): his flag falls at 2 000 + 5 000 + 2 000 grace.
    send(pressWith('black', 2_000, { white: 5_000, black: 183_000 }));
    for (let t = 2_000; t < 8_999; t += 1_000) clock.increment(Math.min(1_000, 8_999 - t));
    expect(clock.now()).toBe(8_999);
    expect(actor.getSnapshot().context.game.status).toBe('running');
    clock.increment(1);
    expect(generated).toEqual([{ type: 'flag', side: 'white', at: 9_000, by: { kind: 'system' } }]);
    const game = actor.getSnapshot().context.game;
    expect(game).toMatchObject({ status: 'finished', flags: { white: 9_000 } });
    expect(disagreements(game.alerts).map((a) => a.side)).toEqual(['white', 'white']);
    expect(replayGame(device, journal)).toEqual(game);
    // Without the generated flag the fold regenerates it from any later event.
    const later = ev.boardMove('white', 'Qh5', 9_500);
    expect(replayGame(device, [...journal.filter((e) => e.by.kind !== 'system'), later])).toEqual(replayGame(device, [...journal, later]));
    actor.stop();
  });
});

/** Presses at random thinking times, each with a reading near (or far from) the engine's own. */
const game = fc.array(fc.record({ think: fc.integer({ min: 0, max: 20_000 }), drift: fc.integer({ min: -3_000, max: 3_000 }), flagNow: fc.boolean() }), {
  maxLength: 60,
});

/** Plays `moves` with readings offset by `drift` from what a clock running the engine's arithmetic shows. */
function playWithReadings(config: GameConfig, reference: GameConfig, moves: readonly { think: number; drift: number }[]): ClockEvent[] {
  let state = fold(config, opening()).state;
  const events: ClockEvent[] = [...opening()];
  let at = 0;
  for (const m of moves) {
    at += m.think;
    const own = applyClockEvent(reference, state, ev.press(state.toMove, at)).state.remainingMs;
    const e = pressWith(state.toMove, at, { white: Math.max(0, own.white + m.drift), black: own.black });
    events.push(e);
    state = applyClockEvent(config, state, e).state;
  }
  return events;
}

describe('timekeeper properties', () => {
  it("with 'engine' (or unset) every reading is ignored: the same state as presses without readings", () => {
    fc.assert(
      fc.property(game, fc.constantFrom<'engine' | undefined>('engine', undefined), (moves, timekeeper) => {
        const config = gameConfig('300+3', timekeeper === undefined ? {} : { timekeeper });
        const events = playWithReadings(config, config, moves);
        const bare = events.map((e): ClockEvent => (e.type === 'press' ? { type: 'press', side: e.side, at: e.at, by: e.by } : e));
        expect(replayGame(config, events)).toEqual(replayGame(config, bare));
      }),
    );
  });

  it("with 'device' a clock that agrees exactly changes nothing, and any log replays to the same state", () => {
    fc.assert(
      fc.property(game, (moves) => {
        const engine = gameConfig('300+3');
        const config: GameConfig = { ...engine, timekeeper: 'device' };
        const agreeing = playWithReadings(
          config,
          config,
          moves.map((m) => ({ ...m, drift: 0 })),
        );
        const onDevice = replayGame(config, agreeing);
        const onEngine = replayGame(engine, agreeing);
        // Only the flag differs: the device's grace (and then the alert that it stayed silent).
        if (onEngine.status !== 'finished') expect(onDevice).toEqual(onEngine);

        // Drifting readings and device flags: the fold regenerates its own events on replay.
        const events = playWithReadings(config, config, moves);
        const withFlags = events.flatMap((e, i) =>
          moves[i - opening().length]?.flagNow && e.type === 'press' ? [e, deviceFlag(e.side === 'white' ? 'black' : 'white', e.at + 1)] : [e],
        );
        let state = fold(config, []).state;
        const journal: ClockEvent[] = [];
        for (const e of withFlags) {
          const step = applyClockEvent(config, state, e);
          journal.push(...step.emitted, e);
          state = step.state;
        }
        expect(replayGame(config, journal)).toEqual(state);
        expect(replayGame(config, withFlags)).toEqual(state);
        // Remaining time never below zero; while the game runs the engine holds the last reading.
        expect(Math.min(state.remainingMs.white, state.remainingMs.black)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
