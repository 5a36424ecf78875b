// A virtual line-protocol clock (docs/line-protocol.md): the firmware a simple serial clock would run.
// It keeps time itself (mirror mode) or shows the host's times (host mode), stamps every event with its
// own millisecond counter, retransmits events until acknowledged, and can misbehave on demand.
import type { Side } from '../../clock-engine/index.ts';
import {
  BoundedReadlineParser,
  formatLine,
  LINE_PROTOCOL_VERSION,
  parseLine,
  type DeviceLine,
  type HostLine,
  type LineButton,
  type LineLamp,
  type LineRunning,
} from '../../device-bridge/index.ts';
import type { Scheduler } from '../players/scheduler.ts';
import type { DeviceEnd } from './device-end.ts';

export interface VirtualLineClockOptions {
  readonly end: DeviceEnd;
  readonly scheduler: Scheduler;
  readonly name?: string;
  readonly bootId?: string;
  /** Both sides' starting time in mirror mode. Default 90 minutes. */
  readonly initialMs?: { readonly white: number; readonly black: number };
  /** Fischer increment added at each press in mirror mode. Default 0. */
  readonly incrementMs?: number;
  readonly heartbeatMs?: number;
  readonly retransmitMs?: number;
}

export interface VirtualLineClock {
  /** Powers on: HELLO, then heartbeats. */
  powerOn(): void;
  /** Powers off: stops every timer (unacknowledged events are lost with the RAM). */
  powerOff(): void;
  /** The player of `side` presses their button (completes a move if their clock runs). */
  press(side: Side): void;
  pressButton(button: LineButton): void;
  /** The device's millisecond counter now. */
  readonly deviceMs: number;
  readonly mode: 'host' | 'mirror';
  /** What the displays show now. */
  readonly display: { readonly white: number; readonly black: number; readonly running: LineRunning };
  readonly paused: boolean;
  readonly lamp: LineLamp;
  readonly beeps: readonly number[];
  readonly texts: readonly string[];
  /** Every valid line the host sent, in order. */
  readonly received: readonly HostLine[];
  /** Lines from the host that failed to parse. */
  readonly hostErrors: number;
  /** Events sent and not yet acknowledged. */
  readonly unacknowledged: number;
  // Faults
  /** Sends raw bytes as they are (garbage, split lines...). */
  sendRaw(bytes: string | Buffer): void;
  /** The next event goes out once with a wrong checksum (its retransmission is intact). */
  corruptNextEvent(): void;
  /** The next `count` ACKs from the host are lost on the way: the device retransmits those events. */
  loseAcks(count: number): void;
  /** The next `count` lines from the host, whatever they are, are lost on the way (a device still booting). */
  loseHostLines(count: number): void;
  /** A silent clock sends nothing (events still queue and go out when it talks again). */
  setSilent(silent: boolean): void;
  /** Restarts: new boot id, the counter restarts at 0, pending events are lost. */
  reboot(): void;
}

export function createVirtualLineClock(options: VirtualLineClockOptions): VirtualLineClock {
  const { end, scheduler } = options;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  const retransmitMs = options.retransmitMs ?? 500;
  const incrementMs = options.incrementMs ?? 0;
  const name = options.name ?? 'ZN-VIRTUAL';
  let bootId = options.bootId ?? 'b1';
  let bootCount = 1;
  let bootedAt = scheduler.now();

  let mode: 'host' | 'mirror' = 'mirror';
  let stored = { white: options.initialMs?.white ?? 5_400_000, black: options.initialMs?.black ?? 5_400_000 };
  let running: LineRunning = 'none';
  let runningSince = bootedAt;
  let paused = false;
  let flagged = { white: false, black: false };
  let lamp: LineLamp = 'off';
  const beeps: number[] = [];
  const texts: string[] = [];
  const received: HostLine[] = [];
  let hostErrors = 0;

  let poweredOn = false;
  let silent = false;
  let corruptNext = false;
  let acksToLose = 0;
  let linesToLose = 0;
  let nextSeq = 0;
  const unacked = new Map<number, string>();
  let heartbeatTimer: unknown;
  let retransmitTimer: unknown;
  let flagTimer: unknown;

  const deviceMs = (): number => scheduler.now() - bootedAt;
  const transmit = (line: string): void => {
    if (poweredOn && !silent) end.write(line);
  };

  const display = (): { white: number; black: number; running: LineRunning } => {
    const elapsed = paused ? 0 : scheduler.now() - runningSince;
    const fall = (side: Side): number => Math.max(0, stored[side] - (running === side ? elapsed : 0));
    return { white: fall('white'), black: fall('black'), running };
  };

  /** Freezes the running display into `stored` before the state changes. */
  const settle = (): void => {
    const now = display();
    stored = { white: now.white, black: now.black };
    runningSince = scheduler.now();
  };

  const sendEvent = (event: DistributiveOmit<Extract<DeviceLine, { seq: number }>, 'seq' | 'deviceMs'>): void => {
    const seq = nextSeq;
    nextSeq = (nextSeq + 1) % 65_536;
    const line = formatLine({ ...event, seq, deviceMs: deviceMs() } as DeviceLine);
    unacked.set(seq, line);
    if (corruptNext) {
      corruptNext = false;
      const star = line.lastIndexOf('*');
      const wrong = ((parseInt(line.slice(star + 1, star + 3), 16) ^ 0x5a) & 0xff).toString(16).toUpperCase().padStart(2, '0');
      transmit(`${line.slice(0, star + 1)}${wrong}\r\n`);
    } else {
      transmit(line);
    }
    armRetransmit();
  };

  /** One retransmission timer for all pending events; a new event does not postpone older ones. */
  let retransmitPending = false;
  const armRetransmit = (): void => {
    if (retransmitPending || unacked.size === 0 || !poweredOn) return;
    retransmitPending = true;
    retransmitTimer = scheduler.setTimeout(() => {
      retransmitPending = false;
      if (unacked.size === 0) return;
      for (const line of unacked.values()) transmit(line);
      armRetransmit();
    }, retransmitMs);
  };
  const stopRetransmit = (): void => {
    scheduler.clearTimeout(retransmitTimer);
    retransmitPending = false;
  };

  const heartbeat = (): void => {
    const shown = display();
    transmit(formatLine({ type: 'heartbeat', deviceMs: deviceMs(), running: shown.running, white: shown.white, black: shown.black }));
    heartbeatTimer = scheduler.setTimeout(heartbeat, heartbeatMs);
  };

  const armFlag = (): void => {
    scheduler.clearTimeout(flagTimer);
    if (mode !== 'mirror' || running === 'none' || paused || flagged[running]) return;
    const side = running;
    flagTimer = scheduler.setTimeout(
      () => {
        flagged = { ...flagged, [side]: true };
        sendEvent({ type: 'flag', side });
      },
      stored[side] - (scheduler.now() - runningSince),
    );
  };

  const hello = (): void => {
    transmit(formatLine({ type: 'hello', version: LINE_PROTOCOL_VERSION, name, bootId, deviceMs: deviceMs() }));
  };

  const onHostLine = (raw: string): void => {
    if (raw.trim() === '') return;
    if (linesToLose > 0) {
      linesToLose--;
      return;
    }
    const parsed = parseLine(raw);
    if (!parsed.ok) {
      hostErrors++;
      return;
    }
    const message = parsed.message as HostLine;
    received.push(message);
    switch (message.type) {
      case 'query':
        hello();
        return;
      case 'mode':
        mode = message.role;
        armFlag();
        return;
      case 'time':
        stored = { white: message.white, black: message.black };
        running = message.running;
        runningSince = scheduler.now();
        paused = false;
        return;
      case 'lamp':
        lamp = message.lamp;
        return;
      case 'beep':
        beeps.push(message.ms);
        return;
      case 'text':
        texts.push(message.text);
        return;
      case 'ack':
        if (acksToLose > 0) {
          acksToLose--;
          return;
        }
        unacked.delete(message.seq);
        if (unacked.size === 0) stopRetransmit();
        return;
      default:
        hostErrors++; // a device message from the host: ignored, like any bad line
    }
  };

  const parser = new BoundedReadlineParser();
  parser.on('data', (line: string) => onHostLine(line));
  end.onData((chunk) => {
    if (poweredOn) parser.write(chunk);
  });

  return {
    powerOn() {
      if (poweredOn) return;
      poweredOn = true;
      hello();
      heartbeatTimer = scheduler.setTimeout(heartbeat, heartbeatMs);
      armRetransmit();
    },
    powerOff() {
      poweredOn = false;
      stopRetransmit();
      for (const timer of [heartbeatTimer, flagTimer]) scheduler.clearTimeout(timer);
    },
    press(side) {
      if (!poweredOn || paused) return;
      if (running === 'none') {
        // As on a DGT clock, Black's button starts White's clock.
        if (side === 'black') this.pressButton('start');
        return;
      }
      if (running !== side) return; // the firmware ignores the button of the clock that is not running
      if (mode === 'mirror') {
        settle();
        if (!flagged[side]) stored = { ...stored, [side]: stored[side] + incrementMs };
        running = side === 'white' ? 'black' : 'white';
        armFlag();
        sendEvent({ type: 'press', side, reading: { white: stored.white, black: stored.black } });
      } else {
        // Host mode: show the switch at once; the host's TIME follows.
        settle();
        running = side === 'white' ? 'black' : 'white';
        sendEvent({ type: 'press', side });
      }
    },
    pressButton(button) {
      if (!poweredOn) return;
      if (mode === 'mirror') {
        if (button === 'start' && running === 'none') {
          settle();
          running = 'white';
          armFlag();
        } else if (button === 'pause' && running !== 'none') {
          settle();
          paused = !paused;
          if (paused) scheduler.clearTimeout(flagTimer);
          else armFlag();
        }
      }
      sendEvent({ type: 'button', button });
    },
    get deviceMs() {
      return deviceMs();
    },
    get mode() {
      return mode;
    },
    get display() {
      return display();
    },
    get paused() {
      return paused;
    },
    get lamp() {
      return lamp;
    },
    beeps,
    texts,
    received,
    get hostErrors() {
      return hostErrors;
    },
    get unacknowledged() {
      return unacked.size;
    },
    sendRaw(bytes) {
      transmit(typeof bytes === 'string' ? bytes : bytes.toString('latin1'));
    },
    corruptNextEvent() {
      corruptNext = true;
    },
    loseAcks(count) {
      acksToLose = count;
    },
    loseHostLines(count) {
      linesToLose = count;
    },
    setSilent(value) {
      silent = value;
      if (!silent) armRetransmit();
    },
    reboot() {
      this.powerOff();
      bootCount++;
      bootId = `${options.bootId ?? 'b1'}.${bootCount}`;
      bootedAt = scheduler.now();
      unacked.clear();
      nextSeq = 0;
      mode = 'mirror';
      stored = { white: options.initialMs?.white ?? 5_400_000, black: options.initialMs?.black ?? 5_400_000 };
      running = 'none';
      paused = false;
      flagged = { white: false, black: false };
      this.powerOn();
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
