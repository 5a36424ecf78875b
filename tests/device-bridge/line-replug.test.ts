// Unplug and replug over real pseudo-terminals: the bridge sees the port close, reopens it with backoff,
// and the presses made while unplugged arrive afterwards with the instants they were made. A device that
// restarted while the cable was out starts its sequence numbers again: the host must hear its HELLO
// before it acts on (or acknowledges) any event of that connection, or the new boot's first events look
// like retransmissions of the old boot's and are dropped.
import { afterEach, expect, it } from 'vitest';
import type { ClockEvent } from '../../clock-engine/index.ts';
import { createLineClock, type DeviceMessage, type LineClock } from '../../device-bridge/internal.ts';
import { createManualScheduler, createVirtualLineClock, ptySerialDevice, type DeviceEnd, type VirtualLineClock } from '../../simulators/internal.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
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

interface Rig {
  readonly host: ReturnType<typeof createManualScheduler>;
  readonly device: ReturnType<typeof createManualScheduler>;
  readonly virtual: VirtualLineClock;
  readonly clock: LineClock;
  readonly pair: PtyPair;
  events(): ClockEvent[];
  states(): string[];
  /** Both clocks move on together (the cable carries lines in no simulated time). */
  advance(ms: number): void;
  /** Both clocks move on, 100 ms at a time with the lines let through in between, until `done`. */
  runUntil(done: () => boolean, what: string): Promise<void>;
  unplug(): Promise<void>;
  /** Plugs back in and moves only the host's clock (its backoff timer) until it has reconnected. */
  replug(): Promise<void>;
}

async function rig(): Promise<Rig> {
  const host = createManualScheduler(1_000);
  const device = createManualScheduler(0);
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  const wire = cable();
  wire.plug(await ptySerialDevice(pair.b));
  const virtual = createVirtualLineClock({ end: wire, scheduler: device, initialMs: { white: 60_000, black: 60_000 } });
  const clock = createLineClock({ boardId: 'b', role: 'mirror', path: pair.a, scheduler: host, silentAfterMs: 1e9 });
  const messages: DeviceMessage[] = [];
  clock.subscribe((m) => messages.push(m));
  await clock.open();
  cleanups.push(() => clock.close());
  cleanups.push(() => virtual.powerOff());
  virtual.powerOn();
  await until(() => clock.identity !== undefined, 'HELLO');
  const states = () => messages.flatMap((m) => (m.type === 'connection' ? [m.state] : []));
  return {
    host,
    device,
    virtual,
    clock,
    pair,
    events: () => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : [])),
    states,
    advance(ms) {
      device.advanceBy(ms);
      host.advanceBy(ms);
    },
    async runUntil(done, what) {
      const deadline = Date.now() + 30_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        device.advanceBy(100);
        host.advanceBy(100);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async unplug() {
      // socat goes away: both ends of the cable are dead.
      await wire.close();
      wire.plug(undefined);
      await pair.unplug();
      await until(() => states().at(-1) !== 'connected', 'disconnected');
    },
    async replug() {
      await pair.replug();
      wire.plug(await ptySerialDevice(pair.b));
      const back = () => states().slice(states().lastIndexOf('disconnected')).includes('connected');
      // However loaded the machine, the next attempt after the pty is back succeeds: no count of tries.
      await until(
        () => {
          if (!back()) host.advanceBy(100);
          return back();
        },
        'the reconnect',
        30_000,
      );
    },
  };
}

const press = (side: 'white' | 'black', at: number, reading: { white: number; black: number }): ClockEvent => ({
  type: 'press',
  at,
  by: { kind: 'player', side },
  side,
  reading,
});

it('an unplug and replug loses no press', { timeout: 60_000 }, async () => {
  const r = await rig();
  r.virtual.press('black');
  await until(() => r.events().length === 1 && r.virtual.unacknowledged === 0, 'start');

  await r.unplug();
  r.advance(3_000);
  r.virtual.press('white'); // made while unplugged: stays in the device until acknowledged
  r.advance(4_000);
  r.virtual.press('black');
  expect(r.events()).toHaveLength(1);

  await r.replug();
  // The device retransmits every 500 ms of its time until the host, once it has heard the HELLO, acks.
  await r.runUntil(() => r.events().length === 3 && r.virtual.unacknowledged === 0, 'both presses after the replug');
  expect(r.events().slice(1)).toEqual([
    press('white', 1_000 + 3_000, { white: 57_000, black: 60_000 }),
    press('black', 1_000 + 7_000, { white: 57_000, black: 56_000 }),
  ]);
  expect(r.states()).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
});

it('the press right after a reconnect is not lost, even from a device that restarted meanwhile', { timeout: 60_000 }, async () => {
  const r = await rig();
  r.virtual.press('black');
  r.advance(2_000);
  r.virtual.press('white');
  r.advance(1_000);
  r.virtual.press('black');
  await until(() => r.events().length === 3 && r.virtual.unacknowledged === 0, 'seq 0, 1 and 2 of the first boot');

  // The cable is out long enough for the clock to lose power: it boots again (its HELLO goes nowhere),
  // and the arbiter restarts it at once with Black's button: seq 0 again, of the new boot.
  await r.unplug();
  r.advance(5_000);
  r.virtual.reboot();
  r.advance(1_000);
  r.virtual.press('black');
  // The clock is still starting up when the host comes back: it misses the host's QUERY and MODE.
  r.virtual.loseHostLines(2);
  await r.replug();
  // The host's time of a stamp on the new boot's counter (from here on both clocks move together).
  const toHost = (deviceMs: number) => deviceMs + r.host.now() - r.virtual.deviceMs;
  // The press right after the reconnect: seq 1 of the new boot, the clock keeping time (mirror mode).
  r.advance(1_500);
  r.virtual.press('white');
  // The next line tells the host it is talking to a boot it has not heard the HELLO of: it asks again,
  // and acts on the events (the device's retransmissions) once it knows the boot. No time passes until
  // the HELLO is heard: it is the line that ties the new counter to the host's time, and a line still
  // crossing the pty while both clocks move would arrive late in simulated time (as on a loaded machine).
  await until(() => r.clock.identity?.bootId === 'b1.2', "the new boot's HELLO");
  await r.runUntil(() => r.events().length === 5 && r.virtual.unacknowledged === 0, "the new boot's start and press");
  expect(r.clock.identity?.bootId).toBe('b1.2');
  // Both at the instants they were made on the device's new counter: 1 s after the boot, and 1.5 s
  // after the replug.
  expect(r.events().slice(3)).toEqual([
    { type: 'start', at: toHost(1_000), by: { kind: 'device', deviceId: `line:${r.pair.a}` } },
    press('white', toHost(2_500), { white: 58_500, black: 60_000 }),
  ]);
});
