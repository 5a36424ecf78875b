// The Firmata clock over a real serial link: johnny-five on a firmata-io Board over a serialport 13
// stream, talking to a virtual Arduino running StandardFirmata (simulators/firmata), through
// @serialport/binding-mock and through a socat pseudo-terminal pair. Nothing loads serialport 8.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { createGameClock, gameConfig, type ClockEvent } from '../../clock-engine/index.ts';
import { createFirmataClock, defaultFirmataPins as pin, openFirmataLink, probeFirmata, type DeviceMessage } from '../../device-bridge/internal.ts';
import { ArduinoModel, createFirmataFirmware, createManualScheduler, mockSerialDevice, ptySerialDevice, type DeviceEnd } from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const config = gameConfig(
  { periods: [{ baseMs: { white: 300_000, black: 300_000 }, bonus: { kind: 'none' } }], nextPeriod: 'quota-move', incrementCredit: 'after-press' },
  { defaultTimeMs: 3_600_000, lateArrival: 'arbiter-decides', category: 'rapid' },
);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let mockPaths = 0;
async function deviceEnd(
  transport: 'binding-mock' | 'pty',
): Promise<{ end: DeviceEnd; path: string; binding?: ReturnType<typeof mockSerialDevice>['binding'] }> {
  if (transport === 'binding-mock') {
    const path = `/dev/zeitnot-firmata-${mockPaths++}`;
    const mock = mockSerialDevice(path);
    return { end: mock.end, path, binding: mock.binding };
  }
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  const end = await ptySerialDevice(pair.b, 57_600);
  cleanups.push(() => end.close());
  return { end, path: pair.a };
}

describe.each(['binding-mock', 'pty'] as const)('Firmata clock over %s', (transport) => {
  it('handshakes, and buttons, LEDs and the I2C LCD work through the Firmata protocol', { timeout: 30_000 }, async () => {
    const scheduler = createManualScheduler(0);
    const model = new ArduinoModel({ now: scheduler.now });
    const { end, path, binding } = await deviceEnd(transport);
    const firmware = createFirmataFirmware(end, model);
    firmware.powerOn();
    const link = await openFirmataLink(binding ? { path, binding } : { path });
    cleanups.push(() => link.close());
    expect(link.firmware).toBe('ZeitnotFirmata.ino');

    const clock = createFirmataClock({ boardId: 'uno', io: link.io, scheduler });
    const actor = createGameClock(config, { clock: scheduler });
    const messages: DeviceMessage[] = [];
    clock.subscribe((m) => {
      messages.push(m);
      if (m.type === 'clockEvent') actor.send(m.event);
    });
    actor.subscribe((snapshot) => clock.show(snapshot.context.game, scheduler.now()));
    await clock.open();
    cleanups.push(() => clock.close());
    actor.start();
    cleanups.push(() => {
      actor.stop();
    });
    const events = (): ClockEvent[] => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
    const press = async (button: number, count: number) => {
      model.drive(button, 0);
      await until(() => events().length === count, `event ${count}`);
      model.drive(button, undefined);
      await new Promise((resolve) => setTimeout(resolve, 40));
    };

    await until(() => model.lcd.rows().join('|') === '   5:00     5:00|     READY      ', 'LCD ready');
    scheduler.advanceBy(2_000);
    await press(pin.blackButton, 1);
    expect(events()[0]).toMatchObject({ type: 'start', at: 2_000 });
    await until(() => model.output(pin.whiteLed) === 1, 'white LED');
    scheduler.advanceBy(12_345);
    await press(pin.whiteButton, 2);
    expect(events()[1]).toEqual({ type: 'press', at: 14_345, by: { kind: 'player', side: 'white' }, side: 'white' });
    await until(() => model.output(pin.blackLed) === 1 && model.output(pin.whiteLed) === 0, 'black LED');
    await until(() => model.lcd.rows()[0] === '   4:47     5:00', 'LCD after the press');
    expect(model.lcd.rows()[1]).toBe('     MOVE 1    ^');
    expect(firmware.skippedBytes).toBe(0);
  });
});

it('loaded johnny-five and firmata-io, but neither serialport 8 nor its native binding', () => {
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  expect(loaded.some((file) => file.includes('/node_modules/johnny-five/lib/board.js'))).toBe(true);
  expect(loaded.some((file) => file.includes('/node_modules/firmata-io/lib/firmata.js'))).toBe(true);
  expect(loaded.filter((file) => /node_modules\/(johnny-five|firmata)\/node_modules\/(serialport|@serialport)\//.test(file))).toEqual([]);
  expect(loaded.filter((file) => file.includes('/@serialport/bindings/'))).toEqual([]);
});

it('reports the board as disconnected when its cable is pulled (pty)', { timeout: 30_000 }, async () => {
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  const end = await ptySerialDevice(pair.b, 57_600);
  cleanups.push(() => end.close());
  createFirmataFirmware(end, new ArduinoModel()).powerOn();
  const link = await openFirmataLink({ path: pair.a });
  cleanups.push(() => link.close());
  const clock = createFirmataClock({ boardId: 'uno', io: link.io });
  const states: string[] = [];
  clock.subscribe((m) => {
    if (m.type === 'connection') states.push(m.state);
  });
  await clock.open();
  cleanups.push(() => clock.close());
  await pair.unplug();
  await until(() => states.at(-1) === 'disconnected', 'disconnected');
  expect(states).toEqual(['connecting', 'connected', 'disconnected']);
});

it('probeFirmata names the firmware, or says nothing answered', { timeout: 30_000 }, async () => {
  const answering = mockSerialDevice('/dev/zeitnot-firmata-probe-0');
  createFirmataFirmware(answering.end, new ArduinoModel(), 'StandardFirmata.ino').powerOn();
  expect(await probeFirmata({ path: '/dev/zeitnot-firmata-probe-0', binding: answering.binding })).toBe('StandardFirmata.ino');
  const silent = mockSerialDevice('/dev/zeitnot-firmata-probe-1');
  expect(await probeFirmata({ path: '/dev/zeitnot-firmata-probe-1', binding: silent.binding, timeoutMs: 200 })).toBeUndefined();
});
