// Unplug and replug over real pseudo-terminals: the bridge sees the port close, reopens it with backoff,
// and the presses made while unplugged arrive afterwards with the instants they were made.
import { afterEach, expect, it } from 'vitest';
import type { ClockEvent } from '../../clock-engine/index.ts';
import { createLineClock, type DeviceMessage } from '../../device-bridge/index.ts';
import { createManualScheduler, createVirtualLineClock, ptySerialDevice, type DeviceEnd } from '../../simulators/index.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';


/** The device's side of the cable, which the test unplugs and plugs back in. */
function cable(): DeviceEnd & { plug(end: DeviceEnd | undefined): void } {
  let current: DeviceEnd | undefined;
  const listeners = new Set<(chunk: Buffer) => void>();
  const forward = (chunk: Buffer) => listeners.forEach((listener) => listener(chunk));
  return {
    plug(end) {
      current = end;
      end?.onData(forward);
    },
    write: (data) => current?.write(data),
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get hostConnected() {
      return current?.hostConnected ?? false;
    },
    close: async () => current?.close(),
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('an unplug and replug loses no press', { timeout: 60_000 }, async () => {
  const host = createManualScheduler(1_000);
  const device = createManualScheduler(0);
  const advance = (ms: number) => {
    device.advanceBy(ms);
    host.advanceBy(ms);
  };
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  const wire = cable();
  wire.plug(await ptySerialDevice(pair.b));
  const virtual = createVirtualLineClock({ end: wire, scheduler: device, initialMs: { white: 60_000, black: 60_000 } });
  const clock = createLineClock({ boardId: 'b', role: 'mirror', path: pair.a, scheduler: host, silentAfterMs: 1e9 });
  const messages: DeviceMessage[] = [];
  clock.subscribe((m) => messages.push(m));
  const events = (): ClockEvent[] => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
  const states = () => messages.flatMap((m) => (m.type === 'connection' ? [m.state] : []));
  await clock.open();
  cleanups.push(() => clock.close());
  cleanups.push(() => virtual.powerOff());
  virtual.powerOn();
  await until(() => clock.identity !== undefined, 'HELLO');

  virtual.press('black');
  await until(() => events().length === 1 && virtual.unacknowledged === 0, 'start');

  // Unplug: socat goes away, both ends of the cable are dead.
  await wire.close();
  wire.plug(undefined);
  await pair.unplug();
  await until(() => states().includes('disconnected'), 'disconnected');

  advance(3_000);
  virtual.press('white'); // made while unplugged: stays in the device until acknowledged
  advance(4_000);
  virtual.press('black');
  expect(events()).toHaveLength(1);

  // Replug under the same name; the bridge's retries (on its own scheduler) find it.
  await pair.replug();
  wire.plug(await ptySerialDevice(pair.b));
  for (let i = 0; i < 20 && !states().slice(states().lastIndexOf('disconnected')).includes('connected'); i++) {
    host.advanceBy(500); // only the host's clock: the backoff timer, not the device's time
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  device.advanceBy(500); // the device's retransmission timer
  await until(() => events().length === 3, 'both presses after the replug');
  expect(events().slice(1)).toEqual([
    { type: 'press', at: 1_000 + 3_000, by: { kind: 'player', side: 'white' }, side: 'white', reading: { white: 57_000, black: 60_000 } },
    { type: 'press', at: 1_000 + 7_000, by: { kind: 'player', side: 'black' }, side: 'black', reading: { white: 57_000, black: 56_000 } },
  ]);
  expect(states()).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
});
