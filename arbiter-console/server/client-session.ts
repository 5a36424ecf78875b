// One WebSocket connection: who it speaks for, its place in the snapshot/delta stream, its rate limit,
// and its backpressure. Every message to the client obeys the send-buffer limit: a client past it gets
// no stream messages (it is owed a snapshot once it drains) and a short, bounded queue of answers; a
// client behind that stops reading, or overflows that queue, is cut off. The snapshot a client is owed goes
// with its tournament view as one, and only what comes after it counts against the limit: at 1,000
// boards the two are 405 + 626 KiB, more than the 1 MiB limit together, and a tablet that fell behind
// at the end of a round would otherwise get snapshot after snapshot and never the view again.
import { TokenBucket, type Rate } from './token-bucket.ts';
import type { RawData, WebSocket } from 'ws';
import type { Arbiter } from '../contract/index.ts';
import { Coalescer, type CoalescerTimers, type Pending } from './coalescer.ts';
import { parseClientMessage, type ClientMessage, type ErrorCode, type ServerMessage } from '../contract/index.ts';

/**
 * A message to the client: its text, or that text encoded once for every session it goes to (a
 * tournament message of several hundred KiB is not encoded again per client), or one message in
 * fragments: a small head of this session's own, then a large part shared by every session (a
 * snapshot's boards), so neither is copied per client. Always text.
 */
export type Outgoing = Fragment | { readonly fragments: readonly Fragment[] };
type Fragment = string | Buffer;

const fragmentsOf = (message: Outgoing): readonly Fragment[] => (typeof message === 'string' || Buffer.isBuffer(message) ? [message] : message.fragments);

/** Bytes of a server's text frame: ws sends each fragment as one unmasked frame, uncompressed. */
const frameBytes = (fragment: Fragment): number => {
  const n = Buffer.byteLength(fragment);
  return n + (n < 126 ? 2 : n < 65_536 ? 4 : 10);
};

const messageBytes = (message: Outgoing): number => fragmentsOf(message).reduce((sum, f) => sum + Buffer.byteLength(f), 0);

export type SessionRole = { readonly kind: 'pending' } | { readonly kind: 'spectator' } | { readonly kind: 'arbiter'; readonly arbiter: Arbiter };

export type Backpressure =
  { readonly state: 'flowing' } | { readonly state: 'behind'; readonly since: number; readonly queued: readonly string[]; readonly queuedBytes: number };

export interface SessionLimits {
  readonly maxMessageBytes: number;
  readonly rate: Rate;
  /** Unsent bytes past which the client is behind. */
  readonly sendBufferBytes: number;
  /** Answers (acks, errors, pongs) kept for a client that is behind; more and it is cut off. */
  readonly queuedAnswers: number;
  /**
   * How long a client that is behind may read next to nothing (less than a sixteenth of its send
   * buffer) before it is cut off (real ms). A slow tablet that keeps reading is never cut off: it
   * gets a snapshot when it has caught up.
   */
  readonly behindMs: number;
  readonly deltasPerSecond: number;
  readonly deltaWindowMs: number;
}

/** What the server does for a session: the messages it builds and the commands it carries out. */
export interface SessionHost {
  hello(session: ClientSession, message: Extract<ClientMessage, { type: 'hello' }>): void;
  command(session: ClientSession, message: Extract<ClientMessage, { type: 'command' }>): void;
  /** Snapshot (and the tournament view): after hello, on resync, and when a client catches up. */
  snapshot(session: ClientSession): void;
  /** The boards a first-screen snapshot left out, and the tournament view (the client asked with `rest`). */
  rest(session: ClientSession): void;
  /** Coalesced changes are due. */
  delta(session: ClientSession, pending: Pending): void;
  pong(session: ClientSession, id: string | undefined): void;
  closed(session: ClientSession): void;
}

export class ClientSession {
  role: SessionRole = { kind: 'pending' };
  /** A token check is running for this connection. */
  verifying = false;
  badTokens = 0;
  /** Sequence number of the last snapshot/delta sent. */
  seq = 0;
  /** The tournament view version this client has (deltas are against it). */
  tournamentVersion: number | undefined;
  /**
   * The boards a first-screen snapshot left out, until the client asks for them (`rest`) or gets a whole
   * snapshot; the tournament view waits with them, so nothing large comes before the first rows are drawn.
   */
  restOwed: readonly string[] | undefined;
  /**
   * Welcomed, its first snapshot still queued behind other sessions' welcomes (broadcast.ts): nothing is
   * streamed to it before that snapshot, which holds every change meanwhile.
   */
  firstSnapshotOwed = false;
  /** Answered the last heartbeat (or sent anything since). */
  alive = true;
  /** When the client last sent a message (real ms): the page pings every 3 s, a silent spectator is idle. */
  heardAt: number;
  /** Let in on a slot kept for the team: it must log in as an arbiter (server.ts). */
  teamSlot = false;
  readonly coalescer: Coalescer;
  #backpressure: Backpressure = { state: 'flowing' };
  readonly #bucket: TokenBucket;
  #catchUp: NodeJS.Timeout | undefined;
  #helloTimer: NodeJS.Timeout | undefined;
  /** Bytes handed to the socket so far (frames, as `bufferedAmount` counts them), and where the last owed snapshot lies in that count. */
  #written = 0;
  #owed = { start: 0, end: 0 };
  /** While behind: when it last read a sixteenth of its send buffer, and how much had left by then. */
  #progress = { at: 0, drained: 0 };

  constructor(
    readonly ws: WebSocket,
    /** The remote address (login limits are per address). */
    readonly address: string,
    readonly limits: SessionLimits,
    readonly host: SessionHost,
    readonly timers: CoalescerTimers,
    helloWithinMs: number,
  ) {
    this.#bucket = new TokenBucket(limits.rate, timers.now());
    this.heardAt = timers.now();
    this.coalescer = new Coalescer(timers, (pending) => this.host.delta(this, pending), limits.deltasPerSecond, limits.deltaWindowMs);
    this.#helloTimer = setTimeout(() => {
      if (this.role.kind === 'pending') this.close(1008, `no hello within ${helloWithinMs} ms`);
    }, helloWithinMs);
    ws.on('message', (data, isBinary) => {
      this.alive = true;
      this.heardAt = timers.now();
      try {
        this.#onMessage(data, isBinary);
      } catch (err) {
        this.error('malformed', `could not handle the message: ${String(err)}`);
      }
    });
    ws.on('pong', () => (this.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      this.#stopTimers();
      this.host.closed(this);
    });
  }

  get backpressure(): Backpressure {
    return this.#backpressure;
  }

  get arbiter(): Arbiter | undefined {
    return this.role.kind === 'arbiter' ? this.role.arbiter : undefined;
  }

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /** The connection has said who it is: it gets the stream from now on. */
  welcome(role: SessionRole): void {
    this.role = role;
    clearTimeout(this.#helloTimer);
  }

  /** An answer (welcome, ack, refused, error, pong, credentials): queued while the client is behind. */
  answer(message: ServerMessage): void {
    const text = JSON.stringify(message);
    const b = this.#backpressure;
    if (b.state === 'flowing') {
      if (this.#fits(text)) return this.#send(text);
      this.#fallBehind();
    }
    const behind = this.#backpressure as Extract<Backpressure, { state: 'behind' }>;
    if (behind.queued.length >= this.limits.queuedAnswers) return this.close(1008, 'not reading its messages');
    this.#backpressure = { ...behind, queued: [...behind.queued, text], queuedBytes: behind.queuedBytes + text.length };
  }

  error(code: ErrorCode, reason: string): void {
    this.answer({ type: 'error', code, reason });
  }

  /**
   * A snapshot, delta or tournament message. Dropped while the client is behind (it gets a fresh
   * snapshot when it catches up) or still owed its first snapshot; returns whether it went out.
   */
  stream(message: Outgoing): boolean {
    if (this.#backpressure.state === 'behind' || this.firstSnapshotOwed) return false;
    if (!this.#fits(message)) {
      this.#fallBehind();
      return false;
    }
    this.#send(message);
    return true;
  }

  /**
   * The snapshot a client is owed (after hello, on resync, on catching up) with its tournament view:
   * sent together, whatever their size, once the client is at most half its limit behind; they never
   * count against the limit (what follows them does), so the deltas follow them at once. At most one
   * snapshot more than the limit is ever unsent. Returns whether it went out (else it is owed).
   */
  streamSnapshot(messages: readonly Outgoing[]): boolean {
    if (this.#backpressure.state === 'behind') return false;
    // One owed snapshot unsent at a time (a client asking for resyncs and reading none gets no pile).
    if (this.#unsent() > this.limits.sendBufferBytes / 2 || this.#owedLeft() > 0) {
      this.#fallBehind();
      return false;
    }
    const start = this.#written;
    for (const message of messages) this.#send(message);
    this.#owed = { start, end: this.#written };
    return true;
  }

  /** Gives the client one heartbeat: a client that did not answer the previous one is cut off. */
  heartbeat(): void {
    if (!this.alive) {
      this.ws.terminate();
      return;
    }
    this.alive = false;
    if (!this.open) return;
    this.ws.ping();
    this.#written += 2; // an empty ping frame
  }

  close(code: number, reason: string): void {
    this.#stopTimers();
    if (this.open) this.ws.close(code, reason);
    // A client that does not read may never complete the closing handshake.
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  /** Bytes that left the socket: it sends in order, so they are the first `written - buffered`. */
  #drained(): number {
    return this.#written - this.ws.bufferedAmount;
  }

  /** What is still unsent of the last owed snapshot. */
  #owedLeft(): number {
    return Math.max(0, this.#owed.end - Math.max(this.#drained(), this.#owed.start));
  }

  /** Unsent bytes that count against the limit: all but what is left of the owed snapshot. */
  #unsent(): number {
    return this.ws.bufferedAmount - this.#owedLeft();
  }

  #fits(message: Outgoing): boolean {
    const unsent = this.#unsent();
    return unsent <= 0 || unsent + messageBytes(message) <= this.limits.sendBufferBytes;
  }

  #send(message: Outgoing): void {
    if (!this.open) return;
    const fragments = fragmentsOf(message);
    // ws writes each frame at once; corked, a message's fragments leave in one write, not one each.
    const socket = fragments.length > 1 ? (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket : undefined;
    socket?.cork();
    fragments.forEach((fragment, i) => {
      this.ws.send(fragment, { binary: false, fin: i === fragments.length - 1 });
      this.#written += frameBytes(fragment);
    });
    socket?.uncork();
  }

  // One timer per session, however many messages were held back (never one per flush).
  #fallBehind(): void {
    if (this.#backpressure.state === 'behind') return;
    this.#backpressure = { state: 'behind', since: this.timers.now(), queued: [], queuedBytes: 0 };
    this.#progress = { at: this.timers.now(), drained: this.#drained() };
    this.coalescer.stop();
    this.#catchUp = setInterval(() => this.#tryCatchUp(), 100);
  }

  #tryCatchUp(): void {
    const b = this.#backpressure;
    if (b.state !== 'behind' || !this.open) return this.#stopTimers();
    const drained = this.#drained();
    if (drained - this.#progress.drained >= this.limits.sendBufferBytes / 16) this.#progress = { at: this.timers.now(), drained };
    if (this.#unsent() > this.limits.sendBufferBytes / 2 || this.#owedLeft() > 0) {
      if (this.timers.now() - this.#progress.at > this.limits.behindMs) this.close(1008, 'not reading its messages');
      return;
    }
    clearInterval(this.#catchUp);
    this.#catchUp = undefined;
    this.#backpressure = { state: 'flowing' };
    for (const text of b.queued) this.#send(text);
    if (this.role.kind !== 'pending') this.host.snapshot(this);
  }

  #stopTimers(): void {
    clearInterval(this.#catchUp);
    this.#catchUp = undefined;
    clearTimeout(this.#helloTimer);
    this.coalescer.stop();
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#bucket.take(this.timers.now()) !== undefined) return this.error('rate-limited', `more than ${this.limits.rate.perSecond} messages per second`);
    if (isBinary) return this.error('malformed', 'binary frames are not part of the protocol');
    const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const parsed = parseClientMessage(raw, this.limits.maxMessageBytes);
    if (!parsed.ok) return this.error(parsed.code, parsed.reason);
    const message = parsed.message;
    switch (message.type) {
      case 'hello':
        if (this.role.kind !== 'pending' || this.verifying) return this.error('malformed', 'hello was already sent on this connection');
        return this.host.hello(this, message);
      case 'resync':
        if (this.role.kind === 'pending') return this.error('unauthenticated', 'send hello first');
        // A client that is behind gets its snapshot when it catches up, not one more now.
        if (this.#backpressure.state === 'behind') return;
        return this.host.snapshot(this);
      case 'rest':
        if (this.role.kind === 'pending') return this.error('unauthenticated', 'send hello first');
        // Behind, it gets a whole snapshot when it catches up, the rest included.
        if (this.#backpressure.state === 'behind' || this.restOwed === undefined) return;
        return this.host.rest(this);
      case 'ping':
        return this.host.pong(this, message.id);
      case 'command':
        return this.host.command(this, message);
    }
  }
}
