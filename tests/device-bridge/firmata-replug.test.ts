// A Firmata clock's USB cable pulled and plugged back in twenty times, over a real socat pseudo-terminal
// pair with a virtual Arduino running StandardFirmata on the other end. The clock owns its port: it
// notices the unplug, tries again with backoff (as a DGT board), rebuilds the johnny-five parts on the
// new link, and at once shows the engine's time, which kept running while the cable was out. Time is
// simulated (one manual scheduler for the clock and the engine): every press and every LCD row is
// asserted exactly; the test only waits for bytes to cross the pty.
import five from 'johnny-five';
import { afterEach, expect, it } from 'vitest';
import { createGameClock, gameConfig, remainingAt, type ClockEvent, type Side } from '../../clock-engine/index.ts';
import { createFirmataClock, defaultFirmataPins as pin, lcdRows, type DeviceMessage } from '../../device-bridge/internal.ts';
import {
  ArduinoModel,
  createFirmataFirmware,
  createManualScheduler,
  ptySerialDevice,
  type DeviceEnd,
  type FirmataFirmware,
} from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const config = gameConfig(
  { periods: [{ baseMs: { white: 600_000, black: 600_000 }, bonus: { kind: 'none' } }], nextPeriod: 'quota-move', incrementCredit: 'after-press' },
  { defaultTimeMs: 3_600_000, lateArrival: 'arbiter-decides', category: 'rapid' },
);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('unplugged and replugged x20: no press lost, the engine kept time, the clock shows it at once after each replug', { timeout: 300_000 }, async () => {
  const scheduler = createManualScheduler(0);
  const model = new ArduinoModel({ now: scheduler.now });
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  let end: DeviceEnd | undefined;
  let firmware: FirmataFirmware | undefined;
  const plugIn = async () => {
    end = await ptySerialDevice(pair.b, 57_600);
    firmware = createFirmataFirmware(end, model);
    firmware.powerOn();
  };
  // The cable out: the board loses power (LCD blank, pins reset) and both ends of the pty vanish.
  const pullOut = async () => {
    firmware?.powerOff();
    await end?.close();
    await pair.unplug();
    model.powerCycle();
  };
  cleanups.push(async () => {
    firmware?.powerOff();
    await end?.close();
  });
  await plugIn();

  const clock = createFirmataClock({ boardId: 'uno', port: { path: pair.a }, scheduler });
  const actor = createGameClock(config, { clock: scheduler });
  const messages: DeviceMessage[] = [];
  clock.subscribe((m) => {
    messages.push(m);
    if (m.type === 'clockEvent') actor.send(m.event);
  });
  actor.subscribe((snapshot) => clock.show(snapshot.context.game, scheduler.now()));
  actor.start();
  cleanups.push(() => {
    actor.stop();
  });
  await clock.open();
  cleanups.push(() => clock.close());
  const game = () => actor.getSnapshot().context.game;
  const events = (): ClockEvent[] => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
  const notes = () => messages.flatMap((m) => (m.type === 'connection' ? [`${m.state}${m.detail ? ` (${m.detail})` : ''}`] : []));
  const state = () => notes().at(-1)?.split(' ')[0];
  /** The LCD says exactly what the engine's state says at this instant. */
  const lcdShowsEngine = () => model.lcd.rows().join('|') === lcdRows(game(), scheduler.now()).join('|');
  const push = async (button: number, count: number) => {
    model.drive(button, 0);
    await until(() => events().length === count, `event ${count}`);
    model.drive(button, undefined);
    await sleep(30); // johnny-five's 7 ms debounce on the release
  };

  await until(lcdShowsEngine, 'the LCD showing the engine');
  scheduler.advanceBy(1_000);
  await push(pin.blackButton, 1);
  expect(events()[0]).toMatchObject({ type: 'start', at: 1_000 });
  const expected = { white: 600_000, black: 600_000 };
  let runningSince = 1_000;

  for (let cycle = 1; cycle <= 20; cycle++) {
    // The player to move thinks, and presses: the first press after a replug is the one most at risk.
    const side: Side = game().toMove;
    scheduler.advanceBy(1_500 + cycle * 37);
    const pressedAt = scheduler.now();
    await push(side === 'white' ? pin.whiteButton : pin.blackButton, cycle + 1);
    expect(events().at(-1)).toEqual({ type: 'press', at: pressedAt, by: { kind: 'player', side }, side });
    expected[side] -= pressedAt - runningSince;
    runningSince = pressedAt;
    await until(() => model.output(side === 'white' ? pin.blackLed : pin.whiteLed) === 1, 'the LED of the side to move');

    scheduler.advanceBy(500);
    const before = notes().length;
    await pullOut();
    await until(() => state() === 'disconnected', `the unplug noticed (cycle ${cycle}: ${notes().slice(before).join(', ')})`);
    // Time moves (the backoff's) only while no attempt is under way: an attempt takes real time.
    const runUntil = (done: () => boolean, what: string) =>
      until(
        () => {
          if (done()) return true;
          if (state() !== 'connecting') scheduler.advanceBy(100);
          return false;
        },
        what,
        60_000,
      );
    // Out for a while: the engine's time runs on; the clock's attempts to reopen the port fail.
    await runUntil(
      () =>
        notes()
          .slice(before)
          .filter((n) => n.includes('reconnect failed')).length >= 2,
      'two failed attempts',
    );
    await pair.replug();
    await plugIn();
    await runUntil(() => state() === 'connected', 'the reconnect');
    // At once, and without any time passing: the engine's time on the LCD, the right LED lit.
    await until(lcdShowsEngine, `the LCD after replug ${cycle}: ${model.lcd.rows().join('|')} vs ${lcdRows(game(), scheduler.now()).join('|')}`);
    expect(model.output(game().toMove === 'white' ? pin.whiteLed : pin.blackLed)).toBe(1);
    expect(model.output(game().toMove === 'white' ? pin.blackLed : pin.whiteLed)).toBe(0);
    // The notes a DGT board gives: the unplug, the failed attempts with their cause, the reconnect.
    const episode = notes().slice(before);
    // Noticed by the read side (the line hung up) or by a write that failed first (EIO).
    expect(episode[0]).toMatch(/^disconnected \((board unplugged|port closed|board error: EIO\b.*)\)$/);
    expect(episode).toContain(`connecting (${pair.a})`);
    expect(episode.some((n) => n.startsWith('disconnected (reconnect failed: '))).toBe(true);
    expect(episode.at(-1)).toBe(`connected (${pair.a})`);
  }

  // Every press arrived, once, at its instant; the engine's times are exactly the thinking plus the
  // time the cable was out for the side whose clock ran.
  expect(events().filter((e) => e.type === 'press')).toHaveLength(20);
  const mover = game().toMove;
  expect(remainingAt(game(), scheduler.now())).toEqual({ ...expected, [mover]: expected[mover] - (scheduler.now() - runningSince) });
  expect(firmware?.skippedBytes).toBe(0);
  // Each reconnect's johnny-five Board replaced the one before: none is kept alive by johnny-five.
  expect(five.Board.cache).toHaveLength(1);
});
