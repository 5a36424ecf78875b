// A whole game: seeded virtual players press a virtual line clock (mirror role) that talks to the bridge,
// whose events drive the clock-engine actor. Every press lands at its exact instant and the engine agrees
// with the clock's own readings to the millisecond.
import { afterEach, describe, expect, it } from 'vitest';
import { createGameClock, gameConfig, type ClockEvent } from '../../clock-engine/index.ts';
import { createLineClock, type DeviceMessage } from '../../device-bridge/index.ts';
import {
  createManualScheduler,
  createVirtualGame,
  createVirtualLineClock,
  mockSerialDevice,
  ptySerialDevice,
  totalThinkMs,
  type DeviceEnd,
} from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const config = gameConfig(
  {
    periods: [{ baseMs: { white: 1_800_000, black: 1_800_000 }, bonus: { kind: 'increment', ms: 2_000, fromMove: 1 } }],
    nextPeriod: 'quota-move',
    incrementCredit: 'after-press',
  },
  { defaultTimeMs: 3_600_000, lateArrival: 'arbiter-decides', category: 'rapid' },
);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(['binding-mock', 'pty'] as const)('a virtual game over %s', (transport) => {
  it('every press reaches the engine at its instant; engine and clock agree', { timeout: 60_000 }, async () => {
    const script = createVirtualGame({ seed: `line-${transport}`, thinkMs: { kind: 'uniform', minMs: 1_000, maxMs: 20_000 }, maxPlies: 60 });
    const host = createManualScheduler(0);
    const deviceTime = createManualScheduler(0);
    let end: DeviceEnd;
    let path: string;
    let binding: ReturnType<typeof mockSerialDevice>['binding'] | undefined;
    if (transport === 'pty') {
      const pair = await openPtyPair();
      cleanups.push(() => pair.close());
      end = await ptySerialDevice(pair.b);
      cleanups.push(() => end.close());
      path = pair.a;
    } else {
      path = '/dev/zeitnot-line-game';
      ({ end, binding } = mockSerialDevice(path));
    }
    const device = createVirtualLineClock({ end, scheduler: deviceTime, initialMs: { white: 1_800_000, black: 1_800_000 }, incrementMs: 2_000 });
    cleanups.push(() => device.powerOff());
    const clock = createLineClock({ boardId: 'g1', role: 'mirror', path, ...(binding ? { binding } : {}), scheduler: host, silentAfterMs: 1e9 });
    const actor = createGameClock(config, { clock: host });
    const messages: DeviceMessage[] = [];
    clock.subscribe((m) => {
      messages.push(m);
      if (m.type === 'clockEvent') actor.send(m.event);
    });
    actor.subscribe((snapshot) => clock.show(snapshot.context.game, host.now()));
    await clock.open();
    cleanups.push(() => clock.close());
    actor.start();
    cleanups.push(() => {
      actor.stop();
    });
    device.powerOn();
    await until(() => clock.identity !== undefined, 'HELLO');
    const events = (): ClockEvent[] => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));

    device.press('black'); // start
    await until(() => events().length === 1, 'start');
    let now = 0;
    for (const [index, move] of script.moves.entries()) {
      host.advanceBy(move.thinkMs);
      deviceTime.advanceBy(move.thinkMs);
      now += move.thinkMs;
      device.press(move.side);
      await until(() => events().length === index + 2, `press ${index + 1}`);
      expect(events().at(-1)).toMatchObject({ type: 'press', side: move.side, at: now });
      expect(clock.compareWithEngine(actor.getSnapshot().context.game, 0)).toBeUndefined();
    }
    const game = actor.getSnapshot().context.game;
    const plies = script.moves.length;
    const whiteMoves = Math.ceil(plies / 2);
    const blackMoves = Math.floor(plies / 2);
    expect(game.presses).toEqual({ white: whiteMoves, black: blackMoves });
    expect(game.remainingMs.white).toBe(1_800_000 - totalThinkMs(script, 'white') + 2_000 * whiteMoves);
    expect(device.display[game.toMove === 'white' ? 'black' : 'white']).toBe(game.remainingMs[game.toMove === 'white' ? 'black' : 'white']);
    expect(messages.filter((m) => m.type === 'inputError')).toEqual([]);

    // An engine that drifted from the clock is told apart: one second more on White's clock.
    actor.send({ type: 'addTime', side: 'white', ms: 1_001, at: now, by: { kind: 'arbiter', name: 'test' }, reason: 'drift check' });
    expect(clock.compareWithEngine(actor.getSnapshot().context.game)).toMatchObject({ code: 'clock-disagrees', side: 'white' });
  });
});
