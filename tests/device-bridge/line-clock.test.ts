// A virtual line-protocol clock talking to the bridge, through @serialport/binding-mock and through a
// real socat pseudo-terminal pair. Host and device have separate simulated clocks (the device booted
// 50 s after the host's zero), advanced together, so every timestamp can be asserted exactly.
import { afterEach, describe, expect, it } from 'vitest';
import { createGameClock, gameConfig, type ClockEvent } from '../../clock-engine/index.ts';
import { createLineClock, type DeviceMessage, type LineClock } from '../../device-bridge/internal.ts';
import {
  createManualScheduler,
  createVirtualLineClock,
  mockSerialDevice,
  ptySerialDevice,
  type DeviceEnd,
  type ManualScheduler,
  type VirtualLineClock,
} from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const BOOT = 50_000;

interface Rig {
  host: ManualScheduler;
  deviceClock: ManualScheduler;
  clock: LineClock;
  device: VirtualLineClock;
  messages: DeviceMessage[];
  events: () => ClockEvent[];
  errors: () => Extract<DeviceMessage, { type: 'inputError' }>[];
  /** Advances host and device time together. */
  advance(ms: number): void;
  close(): Promise<void>;
}

type Transport = 'binding-mock' | 'pty';
let mockPaths = 0;

async function rig(transport: Transport, role: 'mirror' | 'host', silentAfterMs = 1e9): Promise<Rig> {
  const host = createManualScheduler(BOOT);
  const deviceClock = createManualScheduler(0);
  let end: DeviceEnd;
  let clock: LineClock;
  let cleanup = async (): Promise<void> => {};
  if (transport === 'pty') {
    const pair = await openPtyPair();
    end = await ptySerialDevice(pair.b);
    clock = createLineClock({ boardId: 'b7', role, path: pair.a, scheduler: host, silentAfterMs });
    cleanup = () => pair.close();
  } else {
    const path = `/dev/zeitnot-line-${mockPaths++}`;
    const mock = mockSerialDevice(path);
    end = mock.end;
    clock = createLineClock({ boardId: 'b7', role, path, binding: mock.binding, scheduler: host, silentAfterMs });
  }
  const device = createVirtualLineClock({ end, scheduler: deviceClock, name: 'VLC', initialMs: { white: 60_000, black: 60_000 } });
  const messages: DeviceMessage[] = [];
  clock.subscribe((message) => messages.push(message));
  await clock.open();
  device.powerOn();
  await until(() => clock.identity?.name === 'VLC' && device.mode === role, 'HELLO and MODE');
  return {
    host,
    deviceClock,
    clock,
    device,
    messages,
    events: () => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : [])),
    errors: () => messages.filter((m): m is Extract<DeviceMessage, { type: 'inputError' }> => m.type === 'inputError'),
    advance(ms) {
      deviceClock.advanceBy(ms);
      host.advanceBy(ms);
    },
    async close() {
      device.powerOff();
      await clock.close();
      await end.close();
      await cleanup();
    },
  };
}

let open: Rig | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe.each<Transport>(['binding-mock', 'pty'])('line clock over %s', (transport) => {
  it('mirror: presses and flags become clock events at the device-stamped instants', { timeout: 30_000 }, async () => {
    const r = (open = await rig(transport, 'mirror'));
    r.advance(1_000);
    r.device.press('black'); // Black's button starts White's clock
    await until(() => r.events().length === 1, 'start');
    expect(r.events()[0]).toMatchObject({ type: 'start', at: BOOT + 1_000 });

    r.advance(3_217);
    r.device.press('white');
    r.advance(5_001);
    r.device.press('black');
    await until(() => r.events().length === 3, 'two presses');
    expect(r.events().slice(1)).toEqual([
      { type: 'press', at: BOOT + 4_217, by: { kind: 'player', side: 'white' }, side: 'white', reading: { white: 56_783, black: 60_000 } },
      { type: 'press', at: BOOT + 9_218, by: { kind: 'player', side: 'black' }, side: 'black', reading: { white: 56_783, black: 54_999 } },
    ]);
    await until(() => r.device.unacknowledged === 0, 'acks');

    // A press whose line is corrupted is counted, not acted on, and arrives intact on retransmission
    // with the instant the player pressed, not the instant it finally got through.
    r.advance(2_000);
    r.device.corruptNextEvent();
    r.device.press('white');
    await until(() => r.errors().length === 1, 'checksum error');
    expect(r.errors()[0]).toMatchObject({ count: 1, detail: expect.stringMatching(/checksum mismatch/) });
    expect(r.events()).toHaveLength(3);
    r.advance(500); // the device's retransmission timer
    await until(() => r.events().length === 4, 'retransmitted press');
    expect(r.events()[3]).toMatchObject({ type: 'press', side: 'white', at: BOOT + 11_218, reading: { white: 54_783 } });

    // White's clock: black now runs with 54_999 - 500 left; advance past the flag.
    r.advance(54_499);
    await until(() => r.events().length === 5, 'flag');
    expect(r.events()[4]).toMatchObject({ type: 'flag', side: 'black', at: BOOT + 11_218 + 54_999 });
    expect(r.clock.inputErrors).toBe(1);
  });

  it('garbage, split lines and unknown messages are counted and never acted on', { timeout: 30_000 }, async () => {
    const r = (open = await rig(transport, 'mirror'));
    r.device.sendRaw(Buffer.from([0x00, 0xff, 0x13, 0x0a]));
    r.device.sendRaw('$HB,1,W*00\r\n');
    r.device.sendRaw('noise$ACK,1*66\n');
    r.device.sendRaw('$TIME,1,2,W*' + '00\n');
    r.device.sendRaw('$BUTTON,90,1000,');
    r.device.sendRaw('START*' + 'XX\r\n');
    r.device.sendRaw('x'.repeat(2_000));
    r.device.sendRaw('\n');
    // ...and the line still works.
    r.advance(1_000);
    r.device.press('black');
    await until(() => r.events().length === 1, 'start after garbage');
    expect(r.events()).toEqual([{ type: 'start', at: BOOT + 1_000, by: { kind: 'device', deviceId: expect.stringMatching(/^line:/) } }]);
    const errors = r.errors();
    expect(errors.map((e) => e.count)).toEqual(errors.map((_, i) => i + 1));
    expect(errors.slice(0, 5).map((e) => e.detail)).toEqual([
      expect.stringMatching(/^no "\$" in/),
      expect.stringMatching(/^checksum mismatch: line says 00, body gives 6C/),
      expect.stringMatching(/^5 stray characters before "\$"/),
      expect.stringMatching(/^checksum mismatch: line says 00, body gives 6D/),
      'checksum "XX" is not two hex digits',
    ]);
    // The 2000 bytes without a line end: dropped as overflow or rejected as too long, depending on chunking.
    for (const error of errors.slice(5)) expect(error.detail).toMatch(/without a line end dropped|line too long|no "\$"/);
    expect(errors.length).toBeGreaterThanOrEqual(6);
    expect(r.clock.inputErrors).toBe(errors.length);
  });
});

describe('line clock faults (binding-mock)', () => {
  it('a retransmitted event whose ack was lost is acted on once', async () => {
    const r = (open = await rig('binding-mock', 'mirror'));
    r.device.loseAcks(2);
    r.device.press('black');
    await until(() => r.events().length === 1, 'start');
    r.advance(500);
    await until(() => r.device.unacknowledged === 1 && r.device.received.filter((m) => m.type === 'ack').length === 2, 'second copy and its ack');
    r.advance(500);
    await until(() => r.device.unacknowledged === 0, 'third copy acknowledged');
    expect(r.device.received.filter((m) => m.type === 'ack')).toEqual([
      { type: 'ack', seq: 0 },
      { type: 'ack', seq: 0 },
      { type: 'ack', seq: 0 },
    ]);
    expect(r.events()).toEqual([{ type: 'start', at: BOOT, by: expect.anything() }]);
  });

  it('reports a silent clock, and the link again when it talks', async () => {
    const r = (open = await rig('binding-mock', 'mirror', 3_500));
    const states = () => r.messages.flatMap((m) => (m.type === 'connection' ? [m.state] : []));
    expect(states()).toEqual(['connecting', 'connected']);
    r.device.setSilent(true);
    r.advance(3_499);
    expect(states()).toEqual(['connecting', 'connected']);
    r.advance(1);
    expect(states()).toEqual(['connecting', 'connected', 'silent']);
    r.device.setSilent(false);
    r.advance(1_000); // a heartbeat
    await until(() => states().length === 4, 'connected again');
    expect(states().at(-1)).toBe('connected');
  });

  it('after a reboot the device counter and sequence numbers start again, and nothing is mistaken for a duplicate', async () => {
    const r = (open = await rig('binding-mock', 'mirror'));
    r.device.press('black'); // seq 0
    await until(() => r.events().length === 1 && r.device.unacknowledged === 0, 'start');
    r.advance(7_000);
    r.device.reboot(); // device counter restarts at 0 at host time BOOT + 7000
    await until(() => r.clock.identity?.bootId === 'b1.2', 'second HELLO');
    r.advance(2_000);
    r.device.press('black'); // seq 0 again, a different event
    await until(() => r.events().length === 2, 'start after reboot');
    expect(r.events()[1]).toMatchObject({ type: 'start', at: BOOT + 9_000 });
  });
});

describe.each<Transport>(['binding-mock', 'pty'])('line clock in host role over %s, driven by the engine', (transport) => {
  it('presses reach the engine; the device shows the engine times, the flag lamp and beep, and notices', { timeout: 30_000 }, async () => {
    const r = (open = await rig(transport, 'host'));
    const actor = createGameClock(hostConfig, { clock: r.host });
    r.clock.subscribe((m) => {
      if (m.type === 'clockEvent') actor.send(m.event);
    });
    actor.subscribe((snapshot) => r.clock.show(snapshot.context.game, r.host.now()));
    actor.start();
    const lastTime = () => r.device.received.filter((m) => m.type === 'time').at(-1);
    await until(() => lastTime() !== undefined, 'first TIME');
    expect(lastTime()).toEqual({ type: 'time', white: 60_000, black: 60_000, running: 'none' });

    r.advance(1_000);
    r.device.press('black');
    await until(() => lastTime()?.running === 'white', 'running TIME');
    expect(lastTime()).toEqual({ type: 'time', white: 60_000, black: 60_000, running: 'white' });
    r.advance(3_000);
    expect(r.device.display).toEqual({ white: 57_000, black: 60_000, running: 'white' });
    r.device.press('white');
    await until(() => lastTime()?.running === 'black', 'TIME after the press');
    expect(lastTime()).toEqual({ type: 'time', white: 59_000, black: 60_000, running: 'black' });
    expect(actor.getSnapshot().context.game.presses.white).toBe(1);

    // Paused by the arbiter from the console: the lamp blinks; resumed: off again.
    actor.send({ type: 'pause', at: r.host.now(), by: { kind: 'arbiter', name: 'A' }, reason: 'claim' });
    await until(() => r.device.lamp === 'blink', 'blinking lamp');
    actor.send({ type: 'resume', at: r.host.now(), by: { kind: 'arbiter', name: 'A' } });
    await until(() => r.device.lamp === 'off', 'lamp off');

    r.clock.notify('+2 MIN');
    await until(() => r.device.texts.length === 1, 'TEXT');
    expect(r.device.texts).toEqual(['+2 MIN']);

    r.advance(60_000); // Black's flag falls at 4 s + 60 s, found by the engine's own timer
    await until(() => r.device.lamp === 'on' && r.device.beeps.length === 1, 'flag lamp and beep');
    expect(actor.getSnapshot().context.game.firstFlag).toEqual({ side: 'black', at: BOOT + 64_000 });
    expect(r.device.beeps).toEqual([1_000]);
    actor.stop();
  });
});

const hostConfig = gameConfig(
  {
    periods: [{ baseMs: { white: 60_000, black: 60_000 }, bonus: { kind: 'increment', ms: 2_000, fromMove: 1 } }],
    nextPeriod: 'quota-move',
    incrementCredit: 'after-press',
  },
  { scheduledStart: BOOT, defaultTimeMs: 3_600_000, lateArrival: 'arbiter-decides', category: 'rapid' },
);
