// A line-protocol clock (docs/line-protocol.md) as a ClockDevice. Mirror role: the device keeps time and
// its presses, with its own timestamps and readings, are what happened. Host role: the players still
// press the device's buttons, but the engine keeps time and the device displays what `show` sends.
import type { ClockAlert, ClockEvent, GameState, GameStatus } from '../../clock-engine/index.ts';
import type { ClockDevice, ClockRole, DeviceConnection, DeviceListener, DeviceMessage, DeviceOrigin } from '../device.ts';
import type { SerialPortStream } from '@serialport/stream';
import { formatLine, parseLine, type DeviceLine, type HostLine, type Lamp, type LineMessage } from './codec.ts';
import { DeviceTimeline } from './device-time.ts';
import { systemScheduler, type Scheduler } from '../scheduler.ts';
import { displayTimes, flagFallen } from './engine-time.ts';
import { BoundedReadlineParser } from './line-reader.ts';
import { closePort, openPort, serialPortFor, type SerialPath } from './serial-link.ts';

export interface LineClockOptions extends SerialPath {
  readonly boardId: string;
  readonly role: ClockRole;
  /** The host's monotonic time and timers (the same source the game actors use). Default: real time. */
  readonly scheduler?: Scheduler;
  /** Report 'silent' after this long without a valid line. Default 3500 (three missed heartbeats). */
  readonly silentAfterMs?: number;
  /** Reopen after an unplug, waiting `firstMs`, doubling up to `maxMs`. Default 500..8000; false = never. */
  readonly reconnect?: { readonly firstMs: number; readonly maxMs: number } | false;
  /** How long the piezo sounds when a flag falls. Default 1000. */
  readonly flagBeepMs?: number;
  /**
   * A restarted console: the events of the device's latest boot it already journaled (their `origin`).
   * The device retransmits an event whose acknowledgement the console died before sending; it is
   * acknowledged again, not acted on again.
   */
  readonly acted?: { readonly boot: string; readonly seqs: readonly number[] };
}

export interface LineClock extends ClockDevice {
  readonly kind: 'line';
  /** Malformed lines so far (each also reported as an 'inputError' message). */
  readonly inputErrors: number;
  /** What the device said in its HELLO. */
  readonly identity: { readonly name: string; readonly bootId: string } | undefined;
  /**
   * Mirror role: a 'clock-disagrees' alert when the engine's times differ from the device's latest
   * reading (heartbeat or press) by more than `toleranceMs`; undefined when they agree or in host role.
   */
  compareWithEngine(state: GameState, toleranceMs?: number): ClockAlert | undefined;
}

/** Event sequence numbers remembered per device boot, to act on a retransmitted event only once. */
const SEEN_LIMIT = 1024;
/** How often to ask a device whose HELLO this connection has not heard yet (at most). */
const QUERY_INTERVAL_MS = 500;

export function createLineClock(options: LineClockOptions): LineClock {
  const { boardId, role } = options;
  const timers = options.scheduler ?? systemScheduler;
  const now = (): number => timers.now();
  const silentAfterMs = options.silentAfterMs ?? 3500;
  const reconnect = options.reconnect ?? { firstMs: 500, maxMs: 8000 };
  const deviceActor = { kind: 'device', deviceId: `line:${options.path}` } as const;
  const listeners = new Set<DeviceListener>();
  const timeline = new DeviceTimeline();
  const seen = new Set<number>(options.acted?.seqs.slice(-SEEN_LIMIT));
  /** The boot whose sequence numbers `seen` holds. */
  let seenBoot = options.acted?.boot;

  let port: SerialPortStream | undefined;
  let closing = false;
  let connection: DeviceConnection = 'disconnected';
  let watchdog: unknown;
  let retryTimer: unknown;
  let retryMs = reconnect ? reconnect.firstMs : 0;
  let inputErrors = 0;
  let identity: LineClock['identity'];
  let lastState: GameState | undefined;
  let lastLamp: Lamp | undefined;
  /**
   * Whether this connection has heard the device's HELLO. Until it has, the host does not know which
   * boot the lines come from: a device that restarted while the cable was out counts its sequence
   * numbers from 0 again, and its stamps from a new zero.
   */
  let helloHeard = false;
  let lastQueryAt = -Infinity;
  /** The device's counter in its latest HELLO or heartbeat: a smaller one means it restarted. */
  let deviceMsSeen = 0;
  /** The device's latest displays, at host time `at`. */
  let lastReading: { readonly at: number; readonly white: number; readonly black: number } | undefined;

  const emit = (message: DeviceMessage): void => {
    for (const listener of listeners) listener(message);
  };
  const setConnection = (state: DeviceConnection, detail?: string): void => {
    if (state === connection) return;
    connection = state;
    emit(detail === undefined ? { type: 'connection', state } : { type: 'connection', state, detail });
  };
  const send = (line: HostLine): void => {
    if (port?.isOpen) port.write(formatLine(line));
  };
  const inputError = (detail: string): void => {
    inputErrors++;
    emit({ type: 'inputError', at: now(), detail, count: inputErrors });
  };
  const armWatchdog = (): void => {
    timers.clearTimeout(watchdog);
    watchdog = timers.setTimeout(() => setConnection('silent', `no line for ${silentAfterMs} ms`), silentAfterMs);
  };
  /** QUERY, after a line end that ends whatever partial line the device may hold from before. */
  const askForHello = (): void => {
    lastQueryAt = now();
    if (port?.isOpen) port.write('\n' + formatLine({ type: 'query' }));
  };
  const sendSetup = (): void => {
    send({ type: 'mode', role });
    lastLamp = undefined;
    if (lastState) showState(lastState, now());
  };

  const onLine = (raw: string): void => {
    if (raw.trim() === '') return;
    const parsed = parseLine(raw);
    if (!parsed.ok) return inputError(parsed.error);
    const message = parsed.message;
    if (!isDeviceLine(message)) return inputError(`${message.type}: a host message came from the device`);
    armWatchdog();
    setConnection('connected', identity?.name);
    const arrivedAt = now();
    if (message.type === 'hello') {
      if (identity?.bootId !== message.bootId) timeline.reset(); // a new boot restarts the device's counter
      if (seenBoot !== message.bootId) {
        // ... and its sequence numbers (the boot a restarted console journaled keeps its own).
        seen.clear();
        seenBoot = message.bootId;
      }
      identity = { name: message.name, bootId: message.bootId };
      helloHeard = true;
      deviceMsSeen = message.deviceMs;
      timeline.sample(message.deviceMs, arrivedAt);
      sendSetup();
      return;
    }
    // A counter that went back: the device restarted and its HELLO was lost.
    if (message.type === 'heartbeat' && message.deviceMs < deviceMsSeen) helloHeard = false;
    if (!helloHeard) {
      // Not acted on and not acknowledged: the device sends its events again once it has said who it is.
      if (now() - lastQueryAt >= QUERY_INTERVAL_MS) askForHello();
      return;
    }
    switch (message.type) {
      case 'heartbeat':
        deviceMsSeen = message.deviceMs;
        timeline.sample(message.deviceMs, arrivedAt);
        lastReading = { at: timeline.toHost(message.deviceMs), white: message.white, black: message.black };
        return;
      default:
        onDeviceEvent(message, arrivedAt);
    }
  };

  const onDeviceEvent = (message: Extract<DeviceLine, { seq: number }>, arrivedAt: number): void => {
    // Every line is a timing sample; a retransmitted copy arrives late and so never lowers the minimum.
    timeline.sample(message.deviceMs, arrivedAt);
    if (!seen.has(message.seq)) {
      seen.add(message.seq);
      if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as number);
      act(message, timeline.toHost(message.deviceMs), { boot: seenBoot ?? '', seq: message.seq });
    }
    // Acknowledged once acted on (the console has journaled it), and every copy: the previous ack may
    // be the thing that got lost.
    send({ type: 'ack', seq: message.seq });
  };

  const act = (message: Extract<DeviceLine, { seq: number }>, at: number, origin: DeviceOrigin): void => {
    if (message.type === 'press' && message.reading && (!lastReading || lastReading.at <= at)) lastReading = { at, ...message.reading };
    const event = clockEventFor(message, at);
    if (event) emit({ type: 'clockEvent', event, origin });
    else if (message.type === 'button' && message.button === 'arbiter') {
      emit({ type: 'arbiterCall', at, detail: `arbiter-call button on board ${boardId}` });
    }
  };

  const clockEventFor = (message: Extract<DeviceLine, { seq: number }>, at: number): ClockEvent | undefined => {
    switch (message.type) {
      case 'press': {
        const by = { kind: 'player', side: message.side } as const;
        // In host role the engine keeps time: what the device displayed is not evidence.
        return role === 'mirror' && message.reading
          ? { type: 'press', at, by, side: message.side, reading: message.reading }
          : { type: 'press', at, by, side: message.side };
      }
      case 'flag':
        // In host role the engine finds its own flags from its own time.
        return role === 'mirror' ? { type: 'flag', at, by: deviceActor, side: message.side } : undefined;
      case 'button':
        if (message.button === 'start') return { type: 'start', at, by: deviceActor };
        if (message.button === 'pause') return pauseToggle(lastState?.status, at);
        return undefined;
    }
  };

  const pauseToggle = (status: GameStatus | undefined, at: number): ClockEvent =>
    status === 'paused' ? { type: 'resume', at, by: deviceActor } : { type: 'pause', at, by: deviceActor, reason: 'pause button on the clock' };

  const showState = (state: GameState, at: number): void => {
    const wasFlagged = lastState ? flagFallen(lastState) : false;
    lastState = state;
    if (role === 'host') send({ type: 'time', ...displayTimes(state, at) });
    // On after a flag; blinking while the game is paused (the arbiter is at the board).
    const lamp: Lamp = flagFallen(state) ? 'on' : state.status === 'paused' ? 'blink' : 'off';
    if (lamp !== lastLamp) {
      send({ type: 'lamp', lamp });
      lastLamp = lamp;
    }
    if (!wasFlagged && flagFallen(state)) send({ type: 'beep', ms: options.flagBeepMs ?? 1000 });
  };

  const connect = async (): Promise<void> => {
    const next = serialPortFor(options);
    const parser = new BoundedReadlineParser();
    parser.onOverflow = (dropped) => inputError(`${dropped} bytes without a line end dropped`);
    parser.on('data', (line: string) => onLine(line));
    next.on('error', () => {}); // surfaced through 'close' or the failed open
    next.on('close', () => {
      timers.clearTimeout(watchdog);
      if (port !== next) return;
      port = undefined;
      setConnection('disconnected', closing ? undefined : `${options.path} closed`);
      if (!closing) scheduleReconnect();
    });
    next.pipe(parser);
    await openPort(next);
    if (closing) {
      await closePort(next);
      return;
    }
    port = next;
    helloHeard = false;
    retryMs = reconnect ? reconnect.firstMs : 0;
    setConnection('connected', options.path);
    armWatchdog();
    askForHello();
    sendSetup();
  };

  const scheduleReconnect = (): void => {
    if (!reconnect || closing) return;
    setConnection('connecting', `retry in ${retryMs} ms`);
    retryTimer = timers.setTimeout(() => {
      connect().catch(() => {
        retryMs = Math.min(reconnect.maxMs, retryMs * 2);
        scheduleReconnect();
      });
    }, retryMs);
  };

  return {
    boardId,
    kind: 'line',
    role,
    get inputErrors() {
      return inputErrors;
    },
    get identity() {
      return identity;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    compareWithEngine(state, toleranceMs = 1000) {
      const reading = lastReading;
      if (role !== 'mirror' || !reading || state.status === 'waiting') return undefined;
      for (const side of ['white', 'black'] as const) {
        // The engine's time at the instant of the reading (which may be before or after its `asOf`).
        const runs = state.status === 'running' && state.toMove === side;
        const engineMs = Math.max(0, state.remainingMs[side] - (runs ? reading.at - state.asOf : 0));
        const apart = Math.abs(engineMs - reading[side]);
        if (apart > toleranceMs) {
          return {
            code: 'clock-disagrees',
            side,
            at: reading.at,
            message: `${side}: the clock on board ${boardId} shows ${reading[side]} ms, the engine ${engineMs} ms (${apart} ms apart)`,
          };
        }
      }
      return undefined;
    },
    show: showState,
    notify(text) {
      send({ type: 'text', text });
    },
    async open() {
      closing = false;
      setConnection('connecting', options.path);
      try {
        await connect();
      } catch (error) {
        setConnection('disconnected', (error as Error).message);
        throw new Error(`cannot open line clock on ${options.path}: ${(error as Error).message}`);
      }
    },
    async close() {
      closing = true;
      timers.clearTimeout(watchdog);
      timers.clearTimeout(retryTimer);
      const current = port;
      if (current) await closePort(current);
      port = undefined;
      setConnection('disconnected');
    },
  };
}

function isDeviceLine(message: LineMessage): message is DeviceLine {
  return ['hello', 'press', 'button', 'flag', 'heartbeat'].includes(message.type);
}
