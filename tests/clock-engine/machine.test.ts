// The XState game-clock actor on XState's SimulatedClock: its timer raises flags and default-time
// forfeits at the exact instant, it emits what it generates, and its journal replays to the same state.
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  advanceTo,
  applyClockEvent,
  createGameClock,
  initialGameState,
  replayGame,
  type ClockAlert,
  type ClockEvent,
  type GameConfig,
  type GameState,
} from '../../clock-engine/internal.ts';
import { ev, gameConfig, min } from './helpers.ts';

/** An actor on a simulated clock, journalling what goes in and what the engine generates. */
function harness(config: GameConfig, options: { state?: GameState } = {}) {
  const clock = new SimulatedClock();
  const journal: ClockEvent[] = [];
  const generated: ClockEvent[] = [];
  const alerts: ClockAlert[] = [];
  const actor = createGameClock(config, { clock, ...options });
  actor.on('generated', ({ event }) => {
    generated.push(event);
    journal.push(event);
  });
  actor.on('alert', ({ alert }) => alerts.push(alert));
  actor.start();
  const send = (make: (at: number) => ClockEvent) => {
    const e = make(clock.now());
    actor.send(e);
    journal.push(e);
  };
  const game = () => actor.getSnapshot().context.game;
  /**
   * Advances in steps of at most 1 s: SimulatedClock.increment runs a timeout scheduled by a timeout's
   * own callback only if another timeout follows it in the same flush, so one big step could skip the
   * re-aimed timer that a real setTimeout would run.
   */
  const advance = (ms: number) => {
    for (let left = ms; left > 0; left -= 1000) clock.increment(Math.min(1000, left));
  };
  const stateName = () => JSON.stringify(actor.getSnapshot().value);
  return { clock, actor, journal, generated, alerts, send, game, stateName, advance };
}

describe('game clock actor', () => {
  it('raises the flag at the exact instant, stamped with it, and stops there', () => {
    const config = gameConfig('W300-B240', { armageddon: true });
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send((at) => ev.arrive('black', at));
    h.send(ev.start);
    expect(h.stateName()).toBe('"running"');
    h.clock.increment(12_345);
    h.send((at) => ev.press('white', at));
    h.clock.increment(239_999);
    expect(h.game().status).toBe('running');
    expect(h.generated).toEqual([]);
    h.clock.increment(1);
    expect(h.generated).toEqual([{ type: 'flag', side: 'black', at: 252_345, by: { kind: 'system' } }]);
    expect(h.game()).toMatchObject({ status: 'finished', firstFlag: { side: 'black', at: 252_345 }, result: { result: '1-0' }, matchWinner: 'white' });
    expect(h.game().remainingMs).toEqual({ white: 300_000 - 12_345, black: 0 });
    expect(h.stateName()).toBe('"finished"');
    expect(h.alerts.map((a) => a.code)).toEqual(['flag-fall']);
    h.actor.stop();
  });

  it('replaying its journal (with the generated events) gives the identical state', () => {
    const config = gameConfig('40/5400+30:1800+30', { defaultTimeMs: 30 * min, defaultTimeBoundary: 'at' });
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send(ev.start);
    h.clock.increment(60_000);
    h.send((at) => ev.press('white', at));
    h.clock.increment(10 * min);
    h.send((at) => ev.pause(at, 'toilet break request'));
    h.clock.increment(2 * min);
    h.send(ev.resume);
    h.advance(30 * min);
    h.send((at) => ev.arrive('black', at));
    // Default time counts from the scheduled start, whatever the clock did.
    expect(h.generated).toEqual([{ type: 'defaultTimeExpired', absent: ['black'], at: 30 * min, by: { kind: 'system' } }]);
    expect(h.game().result?.result).toBe('+--');
    expect(replayGame(config, h.journal)).toEqual(h.game());
    // The journal without the generated events replays to the same state too (the fold regenerates them).
    expect(
      replayGame(
        config,
        h.journal.filter((e) => e.by.kind !== 'system'),
      ),
    ).toEqual(h.game());
    h.actor.stop();
  });

  it('forfeits an absent player at exactly the end of the default time', () => {
    // 'at': absent at exactly 30:00.000 loses (the default, 'more-than', is 1 ms later: fold-controls.test.ts).
    const config = gameConfig('5400+30', { defaultTimeMs: 30 * min, defaultTimeBoundary: 'at' });
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send(ev.start);
    h.clock.increment(5000);
    h.send((at) => ev.press('white', at));
    h.clock.increment(30 * min - 5000 - 1);
    expect(h.game().status).toBe('running');
    h.clock.increment(1);
    expect(h.generated).toEqual([{ type: 'defaultTimeExpired', absent: ['black'], at: 30 * min, by: { kind: 'system' } }]);
    expect(h.game().result).toEqual({ result: '+--', termination: 'default time expired (Art. 6.7.1, absent at 30 min)' });
    h.actor.stop();
  });

  it('keeps the flag exact while presses come and go (the timer is re-aimed when it wakes early)', () => {
    const config = gameConfig('5400');
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send((at) => ev.arrive('black', at));
    h.send(ev.start);
    // White burns most of his time, then both play fast; Black then sits until his flag.
    h.clock.increment(5_000_000);
    h.send((at) => ev.press('white', at));
    for (let i = 0; i < 20; i++) {
      h.clock.increment(1000);
      h.send((at) => ev.press(i % 2 === 0 ? 'black' : 'white', at));
    }
    // Black to move, with 5400 s - 10 s; White has 400 s - 10 s.
    expect(h.game().toMove).toBe('black');
    const blackFlag = h.clock.now() + h.game().remainingMs.black;
    h.advance(h.game().remainingMs.black - 1);
    expect(h.game().status).toBe('running');
    h.advance(1);
    expect(h.generated).toEqual([{ type: 'flag', side: 'black', at: blackFlag, by: { kind: 'system' } }]);
    h.actor.stop();
  });

  it('starts itself at the scheduled start when asked to', () => {
    const config = gameConfig('300', { scheduledStart: 10_000, autoStart: true, defaultTimeMs: 60_000 });
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send((at) => ev.arrive('black', at));
    h.clock.increment(9999);
    expect(h.stateName()).toContain('waiting');
    h.clock.increment(1);
    expect(h.generated).toEqual([{ type: 'start', at: 10_000, by: { kind: 'system' } }]);
    expect(h.stateName()).toBe('"running"');
    h.clock.increment(300_000);
    expect(h.generated.at(-1)).toEqual({ type: 'flag', side: 'white', at: 310_000, by: { kind: 'system' } });
    h.actor.stop();
  });

  it('goes through paused and resumes from a saved state (crash recovery)', () => {
    const config = gameConfig('5400+30');
    const first = harness(config);
    first.send((at) => ev.arrive('white', at));
    first.send((at) => ev.arrive('black', at));
    first.send(ev.start);
    first.clock.increment(1000);
    first.send((at) => ev.pause(at));
    expect(first.stateName()).toBe('"paused"');
    const saved = first.game();
    first.actor.stop();

    const second = harness(config, { state: saved });
    expect(second.stateName()).toBe('"paused"');
    second.clock.set(1000);
    second.send(ev.resume);
    expect(second.stateName()).toBe('"running"');
    second.clock.increment(5_429_000 - 1);
    expect(second.game().status).toBe('running');
    second.clock.increment(1);
    expect(second.generated).toEqual([{ type: 'flag', side: 'white', at: 5_430_000, by: { kind: 'system' } }]);
    second.actor.stop();
  });

  it('a board move stamped after a missed deadline ends the game and leaves the running state', () => {
    const config = gameConfig('60');
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send((at) => ev.arrive('black', at));
    h.send(ev.start);
    h.actor.send(ev.boardMove('white', 'e4', 70_000));
    expect(h.generated).toEqual([{ type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } }]);
    expect(h.stateName()).toBe('"finished"');
    h.actor.stop();
  });

  it('a late device event after the deadline still yields the flag at the deadline, emitted first', () => {
    const config = gameConfig('60');
    const h = harness(config);
    h.send((at) => ev.arrive('white', at));
    h.send((at) => ev.arrive('black', at));
    h.send(ev.start);
    // The press arrives stamped after the flag instant but before the timer has run.
    h.actor.send(ev.press('white', 61_000));
    expect(h.generated).toEqual([{ type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } }]);
    expect(h.game().status).toBe('finished');
    h.actor.stop();
  });
});

describe('game clock actor: time source and whole milliseconds', () => {
  it('refuses to be made without a time source (a delay measured from the last event would be late)', () => {
    expect(() => createGameClock(gameConfig('300'))).toThrow(/needs a time source/);
  });

  it('gives the games of one time source one machine (each made afresh cost ~50 KB a game)', () => {
    const config = gameConfig('300');
    const now = () => 0;
    expect(createGameClock(config, { now }).logic).toBe(createGameClock(config, { now }).logic);
    const clock = new SimulatedClock();
    expect(createGameClock(config, { clock }).logic).toBe(createGameClock(config, { clock }).logic);
    // Another source, another machine: its timers measure from that source's present.
    expect(createGameClock(config, { now: () => 0 }).logic).not.toBe(createGameClock(config, { now }).logic);
  });

  it('measures the delay from now, not from the last event: a game resumed 3 s after its last event flags on time', () => {
    const config = gameConfig('60');
    const running = replayGame(config, [ev.arrive('white', 0), ev.arrive('black', 0), ev.start(0)]);
    const clock = new SimulatedClock();
    clock.set(3_000);
    const actor = createGameClock(config, { clock, state: running });
    const generated: ClockEvent[] = [];
    actor.on('generated', ({ event }) => generated.push(event));
    actor.start();
    clock.set(59_999);
    expect(generated).toEqual([]);
    clock.set(60_000);
    expect(generated).toEqual([{ type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } }]);
    actor.stop();
  });

  it('refuses an instant that is not a whole millisecond, and the flag still falls at its instant', () => {
    const clock = new SimulatedClock();
    const config = gameConfig('60');
    const actor = createGameClock(config, { clock });
    const generated: ClockEvent[] = [];
    actor.on('generated', ({ event }) => generated.push(event));
    actor.start();
    actor.send(ev.arrive('white', 0));
    actor.send(ev.arrive('black', 0));
    actor.send(ev.start(0));
    clock.set(1_000);
    actor.send(ev.press('white', 999.5));
    const game = actor.getSnapshot().context.game;
    expect(game.presses.white).toBe(0);
    expect(game.alerts.at(-1)).toMatchObject({ code: 'ignored-event' });
    expect(game.alerts.at(-1)?.message).toMatch(/whole number of milliseconds/);
    clock.set(60_000);
    expect(generated).toEqual([{ type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } }]);
    actor.stop();
  });

  it("in 'report' mode applies nothing by itself: it reports the instant and takes the events back", () => {
    const clock = new SimulatedClock();
    const config = gameConfig('60');
    const actor = createGameClock(config, { clock, deadlines: 'report' });
    const journal: ClockEvent[] = [];
    actor.on('deadline', ({ at }) => {
      const { emitted } = advanceTo(config, actor.getSnapshot().context.game, at);
      // Journal first, then apply: the actor's state has not moved yet.
      expect(actor.getSnapshot().context.game.status).toBe('running');
      for (const e of emitted) {
        journal.push(e);
        actor.send(e);
      }
    });
    actor.on('generated', () => {
      throw new Error('a reporting actor generates nothing itself');
    });
    actor.start();
    for (const e of [ev.arrive('white', 0), ev.arrive('black', 0), ev.start(0)]) {
      journal.push(e);
      actor.send(e);
    }
    clock.set(59_999);
    expect(journal).toHaveLength(3);
    clock.set(60_000);
    expect(journal.at(-1)).toEqual({ type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } });
    expect(actor.getSnapshot().context.game).toEqual(replayGame(config, journal));
    expect(actor.getSnapshot().value).toBe('finished');
    actor.stop();
  });

  it("in 'report' mode takes a state its owner folded (adopt): no second fold, the timer kept unless a deadline can come earlier", () => {
    const clock = new SimulatedClock();
    const config = gameConfig('60');
    const actor = createGameClock(config, { clock, deadlines: 'report' });
    const journal: ClockEvent[] = [];
    let owned = initialGameState(config);
    // The owner folds each event once, journals it, and hands the actor the state.
    const record = (e: ClockEvent) => {
      owned = applyClockEvent(config, owned, e).state;
      journal.push(e);
      actor.send({ type: 'adopt', game: owned });
    };
    actor.on('deadline', ({ at }) => {
      for (const e of advanceTo(config, owned, at).emitted) record(e);
    });
    actor.start();
    for (const e of [ev.arrive('white', 0), ev.arrive('black', 0), ev.start(0)]) record(e);
    const context = () => actor.getSnapshot().context;
    expect(context().game).toBe(owned);
    expect(context().aimedAt).toBe(60_000);
    // White's press: Black's flag is now 70 s, White's cannot come before 60 s: the timer stays.
    clock.set(10_000);
    record(ev.press('white', 10_000));
    expect(context().game).toBe(owned);
    expect(context().aimedAt).toBe(60_000);
    // Black's clock set to 5 s: its flag at 15 s comes before the timer: aimed again.
    record(ev.setTime('black', 5_000, 10_000));
    expect(context().aimedAt).toBe(15_000);
    clock.set(14_999);
    expect(journal).toHaveLength(5);
    clock.set(15_000);
    expect(journal.at(-1)).toEqual({ type: 'flag', side: 'black', at: 15_000, by: { kind: 'system' } });
    expect(context().game).toBe(owned);
    expect(owned).toEqual(replayGame(config, journal));
    expect(actor.getSnapshot().value).toBe('finished');
    actor.stop();
  });
});
