// johnny-five over a mock-firmata virtual board, driven by the real clock-engine actor on a simulated
// clock: button presses become clock events at exact instants; LEDs, buzzer and LCD follow the engine.
import { afterEach, describe, expect, it } from 'vitest';
import { createGameClock, gameConfig, type ClockEvent, type GameState } from '../../clock-engine/index.ts';
import { createFirmataClock, defaultFirmataPins as pin, type DeviceMessage, type FirmataClock } from '../../device-bridge/internal.ts';
import { createManualScheduler, createVirtualFirmataBoard, type ManualScheduler, type VirtualFirmataBoard } from '../../simulators/internal.ts';

const config = gameConfig(
  {
    periods: [{ baseMs: { white: 60_000, black: 60_000 }, bonus: { kind: 'increment', ms: 2_000, fromMove: 1 } }],
    nextPeriod: 'quota-move',
    incrementCredit: 'after-press',
  },
  // Players count as present (no default-time pause) for the whole test.
  { defaultTimeMs: 3_600_000, lateArrival: 'arbiter-decides', category: 'rapid' },
);

interface Rig {
  scheduler: ManualScheduler;
  board: VirtualFirmataBoard;
  clock: FirmataClock;
  messages: DeviceMessage[];
  events: () => ClockEvent[];
  game: () => GameState;
  stop(): Promise<void>;
}

async function rig(): Promise<Rig> {
  const scheduler = createManualScheduler(0);
  const board = createVirtualFirmataBoard({ now: scheduler.now });
  const clock = createFirmataClock({ boardId: 'arduino-1', io: board.io, scheduler });
  const actor = createGameClock(config, { clock: scheduler });
  const messages: DeviceMessage[] = [];
  clock.subscribe((message) => {
    messages.push(message);
    if (message.type === 'clockEvent') actor.send(message.event);
  });
  actor.subscribe((snapshot) => clock.show(snapshot.context.game, scheduler.now()));
  await clock.open();
  actor.start();
  return {
    scheduler,
    board,
    clock,
    messages,
    events: () => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : [])),
    game: () => actor.getSnapshot().context.game,
    async stop() {
      actor.stop();
      await clock.close();
    },
  };
}

let current: Rig | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe('Firmata clock (johnny-five + mock-firmata)', () => {
  it('buttons become presses at the instant they were pressed; LEDs and LCD follow the engine', async () => {
    const r = (current = await rig());
    const { board, scheduler } = r;
    expect(board.lcdRows()).toEqual(['   1:00     1:00', '     READY      ']);
    expect([board.output(pin.whiteLed), board.output(pin.blackLed), board.output(pin.flagLed)]).toEqual([0, 0, 0]);

    // White's button does not start the clock; Black's does (as on a DGT clock).
    await board.press(pin.whiteButton);
    expect(r.events()).toEqual([]);
    scheduler.advanceBy(1_000);
    await board.press(pin.blackButton);
    expect(r.events()).toEqual([{ type: 'start', at: 1_000, by: { kind: 'device', deviceId: 'firmata:arduino-1' } }]);
    expect(r.game().status).toBe('running');
    expect([board.output(pin.whiteLed), board.output(pin.blackLed)]).toEqual([1, 0]);
    expect(board.lcdRows()).toEqual(['   1:00     1:00', '^    MOVE 1     ']);

    // The LCD refreshes exactly when the running display changes.
    scheduler.advanceBy(1);
    expect(board.lcdRows()[0]).toBe('   0:59     1:00');
    scheduler.advanceBy(4_320);
    expect(board.lcdRows()[0]).toBe('   0:55     1:00');

    // Black's button while White's clock runs is ignored; White's is the move.
    await board.press(pin.blackButton);
    await board.press(pin.whiteButton);
    expect(r.events().slice(1)).toEqual([{ type: 'press', at: 5_321, by: { kind: 'player', side: 'white' }, side: 'white' }]);
    expect(r.game().remainingMs.white).toBe(60_000 - 4_321 + 2_000);
    expect([board.output(pin.whiteLed), board.output(pin.blackLed)]).toEqual([0, 1]);
    expect(board.lcdRows()).toEqual(['   0:57     1:00', '     MOVE 1    ^']);
  });

  it('pause toggles (bounce ignored), the arbiter button calls and beeps, the flag lights and beeps', async () => {
    const r = (current = await rig());
    const { board, scheduler } = r;
    await board.press(pin.blackButton);
    scheduler.advanceBy(2_000);
    await board.press(pin.pauseButton);
    await board.press(pin.pauseButton); // same instant: contact bounce
    expect(r.events().map((e) => e.type)).toEqual(['start', 'pause']);
    expect(r.game().status).toBe('paused');
    expect([board.output(pin.whiteLed), board.output(pin.blackLed)]).toEqual([0, 0]);
    expect(board.lcdRows()).toEqual(['   0:58     1:00', '     PAUSE      ']);
    scheduler.advanceBy(10_000);
    expect(board.lcdRows()[0]).toBe('   0:58     1:00');
    await board.press(pin.pauseButton);
    expect(r.events().at(-1)).toMatchObject({ type: 'resume', at: 12_000 });

    await board.press(pin.arbiterButton);
    expect(r.messages.filter((m) => m.type === 'arbiterCall')).toEqual([{ type: 'arbiterCall', at: 12_000, detail: 'arbiter-call button on board arduino-1' }]);
    expect(board.output(pin.buzzer)).toBe(1);
    expect(board.lcdRows()[1]).toBe('^   ARBITER     ');
    scheduler.advanceBy(300);
    expect(board.output(pin.buzzer)).toBe(0);
    scheduler.advanceBy(2_700);
    expect(board.lcdRows()[1]).toBe('^    MOVE 1     ');

    // Resumed at 12 s with 58 s left: 55 s left at 15 s; the tenths show in the last ten seconds.
    scheduler.advanceBy(45_000);
    expect(board.lcdRows()[0]).toBe('   0:10     1:00');
    scheduler.advanceBy(1);
    expect(board.lcdRows()[0]).toBe('    9.9     1:00');
    scheduler.advanceBy(9_999);
    expect(r.game().firstFlag).toEqual({ side: 'white', at: 70_000 });
    expect(board.output(pin.flagLed)).toBe(1);
    expect(board.output(pin.buzzer)).toBe(1);
    expect(board.lcdRows()).toEqual(['    0.0     1:00', '   FLAG W 0-1   ']);
    expect(r.game().result?.result).toBe('0-1');
    scheduler.advanceBy(1_000);
    expect(board.output(pin.buzzer)).toBe(0);
    const buzzer = board.history.filter((change) => change.pin === pin.buzzer && change.at > 0);
    expect(buzzer.map((c) => [c.level, c.at])).toEqual([
      [1, 12_000],
      [0, 12_300],
      [1, 70_000],
      [0, 71_000],
    ]);
  });

  it('notices show on the LCD for three seconds', async () => {
    const r = (current = await rig());
    r.clock.notify('+2 MIN');
    expect(r.board.lcdRows()[1]).toBe('     +2 MIN     ');
    r.scheduler.advanceBy(3_000);
    expect(r.board.lcdRows()[1]).toBe('     READY      ');
  });

  it('a button read LOW before it was seen up is no press (held through the connect, or its pin not set up yet)', async () => {
    const scheduler = createManualScheduler(0);
    const board = createVirtualFirmataBoard({ now: scheduler.now });
    board.hold(pin.blackButton);
    const clock = createFirmataClock({ boardId: 'arduino-1', io: board.io, scheduler });
    const events: DeviceMessage[] = [];
    clock.subscribe((m) => events.push(m));
    await clock.open();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.filter((m) => m.type === 'clockEvent')).toEqual([]);
    board.release(pin.blackButton);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await board.press(pin.blackButton);
    expect(events.filter((m) => m.type === 'clockEvent')).toMatchObject([{ event: { type: 'start' } }]);
    await clock.close();
  });

  it('rejects a pin map with two parts on one pin', () => {
    const board = createVirtualFirmataBoard();
    expect(() => createFirmataClock({ boardId: 'x', io: board.io, pins: { blackButton: 2 } })).toThrow(/pin 2 is wired to both/);
  });
});
