// A virtual line-protocol clock talking to the bridge, through @serialport/binding-mock and through a
// real socat pseudo-terminal pair. Host and device have separate simulated clocks (the device booted
// 50 s after the host's zero), advanced together, so every timestamp can be asserted exactly.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClockEvent } from '../../clock-engine/index.ts';
import { createLineClock, type DeviceMessage, type LineClock } from '../../device-bridge/index.ts';
import {
  createManualScheduler,
  createVirtualLineClock,
  mockSerialDevice,
  ptySerialDevice,
  type DeviceEnd,
  type ManualScheduler,
  type VirtualLineClock,
} from '../../simulators/index.ts';
import { openPtyPair } from '../support/pty-line.ts';

const BOOT = 50_000;

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

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
    end = await ptySerialDevice(pair.devicePath);
    clock = createLineClock({ boardId: 'b7', role, path: pair.hostPath, scheduler: host, silentAfterMs });
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
