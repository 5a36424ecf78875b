// A DGT board on a serial port: open, handshake, decode, keep the link alive, reconnect.
// After every (re)connect the board is in IDLE (power-up resets it), so the update mode is sent again.
import { SerialPortStream } from '@serialport/stream';
import { nativeBinding } from '../serial-binding.ts';
import { after, systemScheduler, type CancelTimer, type Scheduler } from '../scheduler.ts';
import { ClockCommandQueue, type ClockQueueEvent, type QueuedClockCommand } from './clock-queue.ts';
import { boardCommand, clockVersion } from './commands.ts';
import { DgtDecoder } from './decoder.ts';
import type { DecodeError, DgtMessage } from './messages.ts';
import type { DeviceConnection } from '../device.ts';

/** A serialport binding (native, mock or simulated); `@serialport/bindings-interface` ships no ESM types. */
export type BindingInterface = ConstructorParameters<typeof SerialPortStream>[0]['binding'];

export type UpdateMode = 'update' | 'nice';

export interface DgtSessionOptions {
  /** Serial path; without it the first port that answers like a DGT board is used. */
  readonly path?: string;
  /**
   * The board's serial number (e.g. '01025'): the port is found by asking every port, and found again
   * after a replug, wherever the board turns up (/dev/ttyACM0 may come back as /dev/ttyACM1).
   */
  readonly serial?: string;
  /** serialport binding: the native one by default, `SerialPortMock.binding` or a simulator's in tests. */
  readonly binding?: BindingInterface;
  readonly scheduler?: Scheduler;
  /** 'update' (0x43) sends the clock at least every second, which the watchdog relies on; 'nice' (0x4B) only on change. */
  readonly updateMode?: UpdateMode;
  readonly handshakeTimeoutMs?: number;
  readonly handshakeAttempts?: number;
  readonly reconnectInitialMs?: number;
  readonly reconnectMaxMs?: number;
  /** No clock message for this long: ask for one (0x41). */
  readonly clockPollMs?: number;
  /** No clock message for this long, even after asking: the clock is 'silent'. */
  readonly clockSilenceMs?: number;
  /** No message at all for this long: the link is dead; close and reconnect. */
  readonly linkSilenceMs?: number;
  readonly ackTimeoutMs?: number;
  readonly ackRetries?: number;
}

export interface BoardIdentity {
  readonly path: string;
  readonly version?: string;
  readonly serial?: string;
  /** DGT 3000 answers 2.x, DGT XL 1.x; absent when no clock answered. */
  readonly clockVersion?: { readonly major: number; readonly minor: number };
}

export type SessionEvent =
  | { readonly type: 'message'; readonly message: DgtMessage; readonly at: number }
  | { readonly type: 'decodeError'; readonly error: DecodeError; readonly at: number }
  | { readonly type: 'connection'; readonly state: DeviceConnection; readonly detail?: string; readonly at: number }
  | { readonly type: 'clockQueue'; readonly event: ClockQueueEvent; readonly at: number };

export interface SessionStats {
  bytesReceived: number;
  bytesSent: number;
  connects: number;
  disconnects: number;
}

const baudRate = 9600;
const defaultBinding = (): BindingInterface => nativeBinding;

export class DgtSession {
  readonly scheduler: Scheduler;
  readonly decoder = new DgtDecoder();
  readonly clockQueue: ClockCommandQueue;
  readonly stats: SessionStats = { bytesReceived: 0, bytesSent: 0, connects: 0, disconnects: 0 };
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private port: SerialPortStream | undefined;
  private path: string | undefined;
  private state: DeviceConnection = 'disconnected';
  private closing = false;
  private reconnectAttempt = 0;
  private cancelReconnect: CancelTimer | undefined;
  private cancelWatchdog: CancelTimer | undefined;
  private lastClockAt = 0;
  private lastMessageAt = 0;
  private identity: BoardIdentity | undefined;
  private readonly serial: string | undefined;
  private readonly options: Required<Omit<DgtSessionOptions, 'path' | 'serial' | 'binding' | 'scheduler'>>;
  private readonly binding: BindingInterface;

  constructor(options: DgtSessionOptions = {}) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.binding = options.binding ?? defaultBinding();
    this.path = options.path;
    this.serial = options.serial;
    this.options = {
      updateMode: options.updateMode ?? 'update',
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 1500,
      handshakeAttempts: options.handshakeAttempts ?? 3,
      reconnectInitialMs: options.reconnectInitialMs ?? 500,
      reconnectMaxMs: options.reconnectMaxMs ?? 8000,
      clockPollMs: options.clockPollMs ?? 1500,
      clockSilenceMs: options.clockSilenceMs ?? 3000,
      linkSilenceMs: options.linkSilenceMs ?? 6000,
      ackTimeoutMs: options.ackTimeoutMs ?? 2000,
      ackRetries: options.ackRetries ?? 2,
    };
    this.clockQueue = new ClockCommandQueue({
      scheduler: this.scheduler,
      write: (bytes) => this.write(bytes),
      ackTimeoutMs: this.options.ackTimeoutMs,
      maxRetries: this.options.ackRetries,
      onEvent: (event) => this.emit({ type: 'clockQueue', event, at: this.scheduler.now() }),
    });
  }

  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get connection(): DeviceConnection {
    return this.state;
  }

  get board(): BoardIdentity | undefined {
    return this.identity;
  }

  /** Opens and handshakes; rejects only when the first connection fails (later losses reconnect). */
  async open(): Promise<BoardIdentity> {
    this.closing = false;
    try {
      if (!this.path || this.serial) await this.locate();
      await this.connect();
    } catch (error) {
      this.setState('disconnected', (error as Error).message);
      throw error;
    }
    this.startWatchdog();
    return this.identity ?? { path: this.path ?? '' };
  }

  async close(): Promise<void> {
    this.closing = true;
    this.cancelReconnect?.();
    this.cancelWatchdog?.();
    this.clockQueue.clear();
    const port = this.port;
    this.port = undefined;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.setState('disconnected', 'closed');
  }

  /** Queues a clock command (sent one at a time, paced by acks). */
  sendClock(command: QueuedClockCommand): void {
    this.clockQueue.enqueue(command);
  }

  /** Writes raw bytes (board commands); dropped while disconnected. */
  write(bytes: Uint8Array): void {
    const port = this.port;
    if (!port?.isOpen) return;
    this.stats.bytesSent += bytes.length;
    port.write(Buffer.from(bytes), (err) => {
      if (err) this.emit({ type: 'connection', state: this.state, detail: `write failed: ${err.message}`, at: this.scheduler.now() });
    });
  }

  /** The port of the board with our serial number (or, without one, the first board that answers). */
  private async locate(): Promise<void> {
    const found = await findDgtBoards({ binding: this.binding, scheduler: this.scheduler, timeoutMs: this.options.handshakeTimeoutMs });
    const board = this.serial ? found.find((b) => b.dgt?.serial === this.serial) : found[0];
    if (!board) {
      const seen = found.map((b) => `${b.path} (serial ${b.dgt?.serial ?? '?'})`).join(', ');
      throw new Error(
        this.serial ? `no DGT board with serial ${this.serial} on any serial port${seen ? `; found ${seen}` : ''}` : 'no DGT board answered on any serial port',
      );
    }
    this.path = board.path;
  }

  private async connect(): Promise<void> {
    const path = this.path;
    if (!path) throw new Error('no serial path');
    this.setState('connecting', path);
    const port = new SerialPortStream({ binding: this.binding, path, baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
    if (this.closing) {
      // close() was called while this (re)connect was under way.
      await new Promise<void>((resolve) => port.close(() => resolve()));
      return;
    }
    this.port = port;
    port.on('data', (chunk: Buffer) => this.receive(chunk));
    port.on('error', (err: Error) => this.emit({ type: 'connection', state: this.state, detail: err.message, at: this.scheduler.now() }));
    port.on('close', (err: (Error & { disconnected?: boolean }) | null) => this.closed(port, err));
    try {
      await this.handshake(path);
    } catch (error) {
      this.port = undefined;
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
      throw error;
    }
    this.stats.connects++;
    this.reconnectAttempt = 0;
    this.lastClockAt = this.lastMessageAt = this.scheduler.now();
    this.setState('connected', path);
    this.clockQueue.resume();
    // The clock model (XL or 3000) decides how texts are shown; asked on every connect.
    this.clockQueue.enqueue({ frame: clockVersion(), command: 0x09, key: 'version', label: 'clock version' });
  }

  private async handshake(path: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.write(boardCommand('reset'));
      this.write(boardCommand('version'));
      const version = await this.waitFor((m) => m.type === 'version', this.options.handshakeTimeoutMs);
      if (version?.type === 'version') {
        this.identity = { ...this.identity, path, version: version.text };
        break;
      }
      if (attempt >= this.options.handshakeAttempts) throw new Error(`no DGT board answered on ${path}`);
    }
    this.write(boardCommand('serialNumber'));
    this.write(boardCommand('sendBoard'));
    this.write(boardCommand('sendClock'));
    this.write(boardCommand(this.options.updateMode === 'update' ? 'updateMode' : 'updateNiceMode'));
  }

  private waitFor(predicate: (m: DgtMessage) => boolean, timeoutMs: number): Promise<DgtMessage | undefined> {
    return new Promise((resolve) => {
      const stop = this.subscribe((event) => {
        if (event.type === 'message' && predicate(event.message)) finish(event.message);
      });
      const cancel = after(this.scheduler, timeoutMs, () => finish(undefined));
      const finish = (m: DgtMessage | undefined) => {
        stop();
        cancel();
        resolve(m);
      };
    });
  }

  private receive(chunk: Buffer): void {
    const at = this.scheduler.now();
    this.stats.bytesReceived += chunk.length;
    for (const out of this.decoder.push(chunk)) {
      if (out.type === 'error') {
        this.emit({ type: 'decodeError', error: out, at });
        continue;
      }
      this.lastMessageAt = at;
      if (out.type === 'clock' || out.type === 'noClock' || out.type === 'clockAck' || out.type === 'clockBlank') {
        this.lastClockAt = at;
        if (this.state === 'silent') this.setState('connected', 'clock messages again');
      }
      if (out.type === 'clockAck') {
        this.clockQueue.acknowledge(out);
        if (out.version && this.identity) this.identity = { ...this.identity, clockVersion: out.version };
      }
      if (out.type === 'serialNumber' && this.identity) this.identity = { ...this.identity, serial: out.serial };
      this.emit({ type: 'message', message: out, at });
    }
  }

  private closed(port: SerialPortStream, err: (Error & { disconnected?: boolean }) | null): void {
    if (this.port !== port) return;
    this.port = undefined;
    this.lost(err ? `unplugged: ${err.message}` : 'port closed');
  }

  private lost(detail: string): void {
    this.clockQueue.pause();
    // Before the first handshake succeeded, open() reports the failure itself.
    if (this.closing || this.stats.connects === 0) return;
    this.stats.disconnects++;
    this.setState('disconnected', detail);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = Math.min(this.options.reconnectMaxMs, this.options.reconnectInitialMs * 2 ** this.reconnectAttempt);
    this.reconnectAttempt++;
    this.cancelReconnect?.();
    this.cancelReconnect = after(this.scheduler, delay, () => {
      this.cancelReconnect = undefined;
      if (this.closing) return;
      // A board known by its serial may come back on another path after a replug.
      const attempt = this.serial ? this.locate().then(() => this.connect()) : this.connect();
      attempt.catch((error: Error) => {
        if (this.closing) return;
        this.setState('disconnected', `reconnect failed: ${error.message}`);
        this.scheduleReconnect();
      });
    });
  }

  private startWatchdog(): void {
    const tick = () => {
      this.cancelWatchdog = after(this.scheduler, 1000, tick);
      if (this.state !== 'connected' && this.state !== 'silent') return;
      const now = this.scheduler.now();
      if (now - this.lastMessageAt >= this.options.linkSilenceMs) {
        const port = this.port;
        this.port = undefined;
        if (port?.isOpen) port.close();
        this.lost(`no message for ${now - this.lastMessageAt} ms`);
        return;
      }
      const clockQuiet = now - this.lastClockAt;
      if (clockQuiet >= this.options.clockSilenceMs && this.state !== 'silent') {
        this.setState('silent', `no clock message for ${clockQuiet} ms`);
      }
      if (clockQuiet >= this.options.clockPollMs) this.write(boardCommand('sendClock'));
      // A keep-alive the board always answers, so a dead link shows even when the clock is quiet.
      if (now - this.lastMessageAt >= this.options.clockPollMs) this.write(boardCommand('serialNumber'));
    };
    this.cancelWatchdog?.();
    this.cancelWatchdog = after(this.scheduler, 1000, tick);
  }

  private setState(state: DeviceConnection, detail?: string): void {
    if (state === this.state && state !== 'disconnected') return;
    this.state = state;
    this.emit({ type: 'connection', state, ...(detail ? { detail } : {}), at: this.scheduler.now() });
  }

  private emit(event: SessionEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

export interface ProbeResult {
  readonly path: string;
  readonly manufacturer?: string;
  readonly vendorId?: string;
  readonly productId?: string;
  /** What answered: a DGT board's version and serial, or nothing. */
  readonly dgt?: { readonly version: string; readonly serial?: string };
  readonly error?: string;
}

/** Opens a port briefly, asks for the board version and serial number, and closes it again. */
export async function probeDgtPort(
  path: string,
  options: { binding?: BindingInterface; scheduler?: Scheduler; timeoutMs?: number } = {},
): Promise<ProbeResult> {
  const binding = options.binding ?? defaultBinding();
  const scheduler = options.scheduler ?? systemScheduler;
  const port = new SerialPortStream({ binding, path, baudRate, autoOpen: false });
  try {
    await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  } catch (error) {
    return { path, error: (error as Error).message };
  }
  const decoder = new DgtDecoder();
  let version: string | undefined;
  let serial: string | undefined;
  await new Promise<void>((resolve) => {
    const cancel = after(scheduler, options.timeoutMs ?? 500, resolve);
    port.on('data', (chunk: Buffer) => {
      for (const m of decoder.push(chunk)) {
        if (m.type === 'version') version = m.text;
        if (m.type === 'serialNumber') serial = m.serial;
      }
      if (version && serial) {
        cancel();
        resolve();
      }
    });
    port.write(Buffer.from([0x4d, 0x45]));
  });
  if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  return { path, ...(version ? { dgt: { version, ...(serial ? { serial } : {}) } } : {}) };
}

/** Lists serial ports and probes each; boards first. `list()` rejects where udev is missing: then no ports. */
export async function listSerialPorts(binding: BindingInterface = defaultBinding()): Promise<ProbeResult[]> {
  const ports = await binding.list();
  return ports.map((p) => ({
    path: p.path,
    ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
    ...(p.vendorId ? { vendorId: p.vendorId } : {}),
    ...(p.productId ? { productId: p.productId } : {}),
  }));
}

export async function findDgtBoards(
  options: { binding?: BindingInterface; scheduler?: Scheduler; timeoutMs?: number; paths?: readonly string[] } = {},
): Promise<ProbeResult[]> {
  const candidates = options.paths ?? (await listSerialPorts(options.binding)).map((p) => p.path);
  const found: ProbeResult[] = [];
  for (const path of candidates) {
    const result = await probeDgtPort(path, options);
    if (result.dgt) found.push(result);
  }
  return found;
}
