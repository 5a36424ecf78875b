// A journal's way onto the bus: every entry its owner journaled, published in order to the owner's
// subject with its source and sequence as the message id. The journal is the outbox: nothing is kept
// in memory that the journal does not have, so a host that loses the bus for minutes (or is killed)
// publishes its backlog when the bus is back, from where the journal says publishing stood. JetStream
// drops a republished entry by its message id; a reader drops what it already has by (source,
// sourceSeq) beyond that window, so the console gets each entry exactly once, in the host's order.
import type { BusConnection } from './connect.ts';
import { encodeEntry, messageId, type BusEntry } from './entry.ts';

export interface OutboxSource {
  /** The source id written in every entry (the host's id). */
  readonly id: string;
  /** Entries with sourceSeq after `sourceSeq`, in order, at most `limit`. */
  after(sourceSeq: number, limit: number): readonly BusEntry[];
  /** The last sourceSeq journaled. */
  last(): number;
  /** Up to where the stream has every entry (kept in the journal across restarts). */
  published(): number;
  markPublished(sourceSeq: number): void;
}

export interface OutboxOptions {
  /** Entries in flight at once (default 256): a backlog goes out at the link's speed, not one round trip each. */
  readonly window?: number;
  /** How long to wait for the stream's acknowledgement of one entry (default 2 s). */
  readonly ackTimeoutMs?: number;
  /** Told about a failed attempt (the loop tries again by itself). */
  readonly onError?: (error: unknown) => void;
}

export interface OutboxState {
  readonly journaled: number;
  readonly published: number;
  /** Entries journaled but not yet in the stream. */
  readonly backlog: number;
  readonly lastError?: string;
}

export class Outbox {
  readonly #bus: BusConnection;
  readonly #subject: string;
  readonly #source: OutboxSource;
  readonly #window: number;
  readonly #ackTimeoutMs: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #waiting = new Map<number, (() => void)[]>();
  #published: number;
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
    this.#window = options.window ?? 256;
    this.#ackTimeoutMs = options.ackTimeoutMs ?? 2_000;
    this.#onError = options.onError;
    this.#published = source.published();
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
      // Asked only when the journal has more than the stream: a console's hall tells the outbox of
      // every batch it reads, most of them other roles' entries.
      const batch = this.#source.last() > this.#published ? this.#source.after(this.#published, this.#window) : [];
      if (batch.length === 0) {
        if (this.#again) continue;
        // Decided in the same turn as the check: a notify() after this starts a new loop.
        this.#running = false;
        return;
      }
      const done = await this.#publish(batch);
      if (done > this.#published) this.#advance(done);
      if (done >= batch[batch.length - 1]!.sourceSeq) {
        pause = 50;
        continue;
      }
      // The bus is away or slow: try again from the first entry the stream did not acknowledge,
      // when the link is back or after a pause (whichever comes first).
      await this.#sleep(pause);
      pause = Math.min(1_000, pause * 2);
    }
    this.#running = false;
  }

  /** Publishes a batch at once; returns the sourceSeq up to which every entry was acknowledged. */
  async #publish(batch: readonly BusEntry[]): Promise<number> {
    const acks = await Promise.allSettled(
      batch.map((entry) => this.#bus.js.publish(this.#subject, encodeEntry(entry), { msgID: messageId(entry), timeout: this.#ackTimeoutMs, retries: 0 })),
    );
    let through = this.#published;
    for (let i = 0; i < acks.length; i++) {
      const ack = acks[i]!;
      if (ack.status === 'rejected') {
        this.#lastError = ack.reason instanceof Error ? ack.reason.message : String(ack.reason);
        this.#onError?.(ack.reason);
        break;
      }
      through = batch[i]!.sourceSeq;
    }
    if (through === batch[batch.length - 1]!.sourceSeq) this.#lastError = undefined;
    return through;
  }

  #advance(through: number): void {
    this.#published = through;
    this.#source.markPublished(through);
    for (const [seq, resolvers] of this.#waiting) {
      if (seq > through) continue;
      this.#waiting.delete(seq);
      for (const r of resolvers) r();
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
