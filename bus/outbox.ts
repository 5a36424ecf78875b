// A journal's way onto the bus: every entry its owner journaled, published in order to the owner's
// subject. The journal is the outbox: nothing is kept in memory that the journal does not have, so a
// host that loses the bus for minutes (or is killed) publishes its backlog when the bus is back, from
// where the journal says publishing stood.
//
// Strictly in order, also across failures: one message is in flight at a time, carrying every entry
// that waits (up to MAX_ENTRIES), and the next goes only once the stream has acknowledged it. An
// unanswered message is sent again as it was (same entries, same message id), so JetStream drops it if
// it was stored after all; a later entry is never stored before an earlier one is (with many messages
// in flight, one lost with a dead server while the next got through was stored after it). On a subject
// that is the source's alone (a host's) each message also names the stream sequence of the subject's
// last message (`Nats-Expected-Last-Subject-Sequence`): the stream refuses anything else, so a
// restarted host, or one whose message's duplicate window passed, learns from the stream where its
// entries stand instead of storing one twice or out of order. A backlog goes out at up to MAX_ENTRIES
// entries a round trip.
import { JetStreamApiError } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { decodeEntries, encodeEntries, messageId, type BusEntry } from './entry.ts';

export interface OutboxSource {
  /** The source id written in every entry (the host's id). */
  readonly id: string;
  /** Entries with sourceSeq after `sourceSeq`, in order, at most `limit`. */
  after(sourceSeq: number, limit: number): readonly BusEntry[];
  /**
   * The same entries as JSON already (`after`'s, each as JSON.stringify would write it), when the
   * source has them so (a journal's rows): nothing parsed and written again to publish them.
   */
  encodedAfter?(sourceSeq: number, limit: number): readonly EncodedEntry[];
  /** The last sourceSeq journaled. */
  last(): number;
  /** Up to where the stream has every entry (kept in the journal across restarts). */
  published(): number;
  markPublished(sourceSeq: number): void;
}

export interface EncodedEntry {
  readonly sourceSeq: number;
  /** The entry as a JSON object: `{ source, sourceSeq, wallMs, section?, round?, record }`. */
  readonly json: string;
}

/** The most entries in one message, and its most bytes (the stream takes messages up to 1 MiB). */
const MAX_ENTRIES = 500;
const MAX_BYTES = 512 * 1024;

/** How often a host's outbox writes where publishing stands into its journal. */
const MARK_EVERY_MS = 1_000;

/** JetStream's "wrong last sequence": the subject's last message is not the one named. */
const WRONG_LAST_SEQUENCE = 10071;

export interface OutboxOptions {
  /**
   * The stream, when the subject is the source's alone (a host's journal subject): each message then
   * names the subject's last message it follows, which the outbox reads from the stream at start.
   */
  readonly ownStream?: string;
  /** How long to wait for the stream's acknowledgement of one message (default 2 s). */
  readonly ackTimeoutMs?: number;
  /** Told about a failed attempt (the loop tries again by itself). */
  readonly onError?: (error: unknown) => void;
  /** Told when a message is stored after `failures` failed attempts in a row. */
  readonly onResumed?: (failures: number) => void;
}

export interface OutboxState {
  readonly journaled: number;
  readonly published: number;
  /** Entries journaled but not yet in the stream. */
  readonly backlog: number;
  readonly lastError?: string;
}

/** A message of consecutive entries, kept as sent until the stream has answered for it. */
interface Message {
  readonly last: number;
  readonly id: string;
  readonly data: Uint8Array;
}

export class Outbox {
  readonly #bus: BusConnection;
  readonly #subject: string;
  readonly #source: OutboxSource;
  readonly #ownStream: string | undefined;
  readonly #ackTimeoutMs: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #onResumed: ((failures: number) => void) | undefined;
  /** Failed attempts since the last message stored. */
  #failures = 0;
  readonly #waiting = new Map<number, (() => void)[]>();
  #published: number;
  /** Where publishing stands as last written to the journal. */
  #marked: number;
  #markTimer: ReturnType<typeof setTimeout> | undefined;
  /** The stream sequence of the subject's last message (own subject only; undefined: to be read). */
  #lastOnSubject: number | undefined;
  /** The message sent and not yet answered for: sent again as it is. */
  #unanswered: Message | undefined;
  #running = false;
  #again = false;
  #stopped = false;
  #lastError: string | undefined;
  #wake: (() => void) | undefined;
  readonly #unlink: () => void;

  constructor(bus: BusConnection, subject: string, source: OutboxSource, options: OutboxOptions = {}) {
    this.#bus = bus;
    this.#subject = subject;
    this.#source = source;
    this.#ownStream = options.ownStream;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 2_000;
    this.#onError = options.onError;
    this.#onResumed = options.onResumed;
    this.#published = source.published();
    this.#marked = this.#published;
    this.#unlink = bus.onLink((up) => {
      if (up) this.notify();
    });
  }

  get state(): OutboxState {
    const journaled = this.#source.last();
    return { journaled, published: this.#published, backlog: journaled - this.#published, ...(this.#lastError ? { lastError: this.#lastError } : {}) };
  }

  /** The journal has new entries: publish them (a loop already running takes them along). */
  notify(): void {
    if (this.#stopped) return;
    this.#wake?.();
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.#run().catch((err: unknown) => {
      this.#running = false;
      this.#onError?.(err);
    });
  }

  /** Resolves once the stream holds entry `sourceSeq` (an arbiter's command is acknowledged then). */
  whenPublished(sourceSeq: number): Promise<void> {
    if (sourceSeq <= this.#published) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.#waiting.get(sourceSeq) ?? [];
      list.push(resolve);
      this.#waiting.set(sourceSeq, list);
      this.notify();
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#unlink();
    this.#wake?.();
    if (this.#markTimer) this.#markNow();
  }

  async #run(): Promise<void> {
    let pause = 50;
    while (!this.#stopped) {
      this.#again = false;
      if (!this.#bus.connected()) {
        // Nothing is sent into a link that is down: the client would only buffer it. The link's
        // return wakes the loop.
        await this.#sleep(2_000);
        continue;
      }
      const known = this.#ownStream === undefined || this.#lastOnSubject !== undefined || (await this.#readStreamEnd(this.#ownStream));
      const message = known ? (this.#unanswered ?? this.#next()) : undefined;
      if (known && !message) {
        if (this.#again) continue;
        // Decided in the same turn as the check: a notify() after this starts a new loop.
        this.#running = false;
        return;
      }
      if (message) {
        this.#unanswered = message;
        const answer = await this.#send(message);
        if (answer === 'stored') {
          this.#unanswered = undefined;
          this.#advance(message.last);
          pause = 50;
          continue;
        }
        if (answer === 'stale') {
          // The subject has a message this outbox did not send or does not know of: read where the
          // stream stands and go on from there.
          this.#unanswered = undefined;
          this.#lastOnSubject = undefined;
        }
      }
      // The bus is away or slow: try again (the same message) when the link is back or after a pause,
      // whichever comes first.
      await this.#sleep(pause);
      pause = Math.min(1_000, pause * 2);
    }
    this.#running = false;
  }

  /** The entries waiting, as one message (none: every journaled entry is in the stream). */
  #next(): Message | undefined {
    if (this.#source.last() <= this.#published) return undefined;
    const entries =
      this.#source.encodedAfter?.(this.#published, MAX_ENTRIES) ??
      this.#source.after(this.#published, MAX_ENTRIES).map((entry) => ({ sourceSeq: entry.sourceSeq, json: JSON.stringify(entry) }));
    if (entries.length === 0) return undefined;
    const parts: string[] = [];
    let bytes = 2;
    for (const { json } of entries) {
      // An entry is never split: the first one goes alone whatever its size (the journal has at most 1 MiB).
      if (parts.length > 0 && bytes + json.length + 1 > MAX_BYTES) break;
      parts.push(json);
      bytes += json.length + 1;
    }
    const first = entries[0]!.sourceSeq;
    const last = entries[parts.length - 1]!.sourceSeq;
    return { last, id: messageId({ source: this.#source.id, sourceSeq: first }, last), data: encodeEntries(parts) };
  }

  /** Sends one message and says whether the stream holds it now. */
  async #send(message: Message): Promise<'stored' | 'stale' | 'failed'> {
    try {
      const ack = await this.#bus.js.publish(this.#subject, message.data, {
        msgID: message.id,
        timeout: this.#ackTimeoutMs,
        retries: 0,
        ...(this.#lastOnSubject !== undefined ? { expect: { lastSubjectSequence: this.#lastOnSubject } } : {}),
      });
      // A duplicate's acknowledgement names the message stored first: still the subject's last, as
      // nothing of this source is sent before the previous message is answered for.
      if (this.#ownStream !== undefined) this.#lastOnSubject = ack.seq;
      this.#lastError = undefined;
      if (this.#failures > 0) this.#onResumed?.(this.#failures);
      this.#failures = 0;
      return 'stored';
    } catch (err) {
      this.#failed(err);
      return err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE ? 'stale' : 'failed';
    }
  }

  /**
   * Reads the subject's last message: what follows it and up to where the stream has this source's
   * entries (a restart after a message stored but not answered, or a journal's mark behind). False
   * when the bus did not answer.
   */
  async #readStreamEnd(stream: string): Promise<boolean> {
    try {
      const last = await this.#bus.jsm.streams.getMessage(stream, { last_by_subj: this.#subject });
      if (last) {
        const decoded = decodeEntries(last.data, (record) => ({ ok: true, record }));
        const through = decoded.ok ? decoded.entries[decoded.entries.length - 1]!.sourceSeq : 0;
        if (through > this.#published) this.#advance(through);
      }
      this.#lastOnSubject = last?.seq ?? 0;
      return true;
    } catch (err) {
      this.#failed(err);
      return false;
    }
  }

  #failed(err: unknown): void {
    this.#lastError = err instanceof Error ? err.message : String(err);
    this.#failures += 1;
    this.#onError?.(err);
  }

  #advance(through: number): void {
    this.#published = through;
    this.#mark();
    for (const [seq, resolvers] of this.#waiting) {
      if (seq > through) continue;
      this.#waiting.delete(seq);
      for (const r of resolvers) r();
    }
  }

  /**
   * Keeps where publishing stands in the journal. On its own subject the outbox reads that from the
   * stream at start (the journal's mark is only where to look from), so it is written at most once a
   * MARK_EVERY_MS (and at stop), not once per message: a write to the journal less per entry.
   */
  #mark(): void {
    if (this.#ownStream === undefined) {
      this.#source.markPublished(this.#published);
      return;
    }
    this.#markTimer ??= setTimeout(() => this.#markNow(), MARK_EVERY_MS);
    this.#markTimer.unref?.();
  }

  #markNow(): void {
    if (this.#markTimer) clearTimeout(this.#markTimer);
    this.#markTimer = undefined;
    if (this.#published !== this.#marked) {
      this.#source.markPublished(this.#published);
      this.#marked = this.#published;
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }
}
