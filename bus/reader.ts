// Reading the event's stream in order: a durable pull consumer per reader (a console, a hall host) that
// starts after the stream sequence its owner's journal says to resume from. The owner journals each
// entry before the reader acknowledges it, so a reader that is killed resumes where its journal stands.
//
// A message holds one entry or a run of one source's entries (outbox.ts), taken one by one. Each
// source's entries are handed on exactly once and in the source's own order (sourceSeq 1, 2, 3,
// ...), whatever the stream holds: an entry the owner already has (`sources`) or that came before is
// dropped by (source, sourceSeq), even a republished one the stream stored twice (after its duplicate
// window); one that comes before its predecessor (a publish lost while the next one got through) is
// held until the predecessor arrives. `resumeAfter`, handed on with each entry, is the stream sequence
// to resume from should the reader die now: before any entry still held. The consumer is R3 with the
// stream: it survives a server of the cluster dying.
import { AckPolicy, DeliverPolicy, JetStreamApiError, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { decodeEntries, type BusEntry, type DecodedMessage } from './entry.ts';
import { untilAnswered } from './retry.ts';
import type { EventSubjects } from './subjects.ts';

export type ParseRecord<R> = (record: unknown) => { ok: true; record: R } | { ok: false; reason: string };

export interface StreamPlace {
  /** The stream sequence of the message that carried the entry. */
  readonly streamSeq: number;
  readonly subject: string;
  /** Where to resume (`after`) if the reader stopped right after this entry: journal it with the entry. */
  readonly resumeAfter: number;
}

export interface ReaderOptions<R> {
  /** The durable consumer's name: one per reader (`console-<id>`, `host-<id>`). */
  readonly name: string;
  /** Which of the event's subjects (default all of its journal). */
  readonly filter?: string;
  /** The stream sequence to resume after: the last `resumeAfter` the owner journaled (0: from the start). */
  readonly after: number;
  /** The last sourceSeq the owner has of each source (none: it has nothing of that source). */
  readonly sources?: ReadonlyMap<string, number>;
  readonly parse: ParseRecord<R>;
  /** Each entry exactly once, in its source's order; journal it (with `place.resumeAfter`) before returning. */
  readonly onEntry: (entry: BusEntry<R>, place: StreamPlace) => void;
  /**
   * Runs `apply` (which calls `onEntry` for each entry of a batch of messages read together) in the
   * owner's transaction, say; the batch is acknowledged after it returns.
   */
  readonly onBatch?: (apply: () => void) => void;
  /** A message that is not a journal entry (kept in the stream, skipped here). */
  readonly onBad?: (streamSeq: number, reason: string) => void;
  /** A source's entry came before the one it follows: it is held until `expected` arrives. */
  readonly onGap?: (source: string, expected: number, got: number) => void;
  /** A question to the JetStream API went unanswered (a server away): it is asked again. */
  readonly onRetry?: (message: string) => void;
}

export interface ReaderStats {
  /** Entries handed on. */
  readonly delivered: number;
  /** Entries dropped as already had (same source and sourceSeq). */
  readonly duplicates: number;
  /** Entries waiting for their predecessor. */
  readonly held: number;
}

export interface StreamReader {
  /** Resolves when the reader has everything the stream had when it started (a rebuilt console). */
  readonly caughtUp: Promise<void>;
  /** The stream sequence of the last message read. */
  position(): number;
  /** The stream sequence of the last message read on `subject` (0: none since the reader started). */
  lastRead(subject: string): number;
  /** The last sourceSeq handed on (or had) per source. */
  sources(): ReadonlyMap<string, number>;
  stats(): ReaderStats;
  stop(): Promise<void>;
}

/** The most entries read in one batch (a pull brings up to 1,000 messages; one message may hold up to 500). */
const BATCH_MAX = 500;

interface Held<R> {
  readonly entry: BusEntry<R>;
  readonly streamSeq: number;
  readonly subject: string;
}

/** Puts each source's entries in order and drops the ones had before; knows nothing of NATS. */
export class SourceOrder<R> {
  readonly #last: Map<string, number>;
  /** source -> sourceSeq -> the entry waiting for its predecessor. */
  readonly #held = new Map<string, Map<number, Held<R>>>();
  #duplicates = 0;
  #delivered = 0;

  constructor(
    known: ReadonlyMap<string, number> | undefined,
    readonly onGap?: (source: string, expected: number, got: number) => void,
  ) {
    this.#last = new Map(known ?? []);
  }

  /** The entries `entry` releases, in order: none (a duplicate, or held), itself, or itself and those it unblocks. */
  take(entry: BusEntry<R>, streamSeq: number, subject: string): Held<R>[] {
    const last = this.#last.get(entry.source) ?? 0;
    const waiting = this.#held.get(entry.source);
    if (entry.sourceSeq <= last || waiting?.has(entry.sourceSeq)) {
      this.#duplicates += 1;
      return [];
    }
    if (entry.sourceSeq > last + 1) {
      const map = waiting ?? new Map<number, Held<R>>();
      map.set(entry.sourceSeq, { entry, streamSeq, subject });
      this.#held.set(entry.source, map);
      this.onGap?.(entry.source, last + 1, entry.sourceSeq);
      return [];
    }
    const out: Held<R>[] = [{ entry, streamSeq, subject }];
    let next = entry.sourceSeq + 1;
    for (let h = waiting?.get(next); h; h = waiting?.get(next)) {
      out.push(h);
      waiting!.delete(next);
      next += 1;
    }
    if (waiting?.size === 0) this.#held.delete(entry.source);
    this.#last.set(entry.source, next - 1);
    this.#delivered += out.length;
    return out;
  }

  /** The earliest stream sequence still held (Infinity: none). */
  earliestHeld(): number {
    let min = Infinity;
    for (const map of this.#held.values()) for (const h of map.values()) min = Math.min(min, h.streamSeq);
    return min;
  }

  last(): ReadonlyMap<string, number> {
    return this.#last;
  }

  stats(): ReaderStats {
    let held = 0;
    for (const map of this.#held.values()) held += map.size;
    return { delivered: this.#delivered, duplicates: this.#duplicates, held };
  }
}

export async function startReader<R>(bus: BusConnection, subjects: EventSubjects, options: ReaderOptions<R>): Promise<StreamReader> {
  const stream = subjects.stream;
  // The consumer starts where the owner's journal stands, whatever an earlier run left on the servers
  // (a console on a new machine has an empty journal; the old consumer would skip the whole event).
  const again = options.onRetry;
  await untilAnswered(
    `the removal of consumer ${options.name}`,
    async () => {
      try {
        await bus.jsm.consumers.delete(stream, options.name);
      } catch (err) {
        if (!(err instanceof JetStreamApiError) || err.code !== 10014) throw err;
      }
    },
    again,
  );
  const info = await untilAnswered(
    `the making of consumer ${options.name}`,
    () =>
      bus.jsm.consumers.add(stream, {
        durable_name: options.name,
        filter_subject: options.filter ?? subjects.journal,
        ack_policy: AckPolicy.All,
        ...(options.after > 0 ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: options.after + 1 } : { deliver_policy: DeliverPolicy.All }),
        max_ack_pending: 20_000,
      }),
    again,
  );
  const order = new SourceOrder<R>(options.sources, options.onGap);
  let position = options.after;
  let signalCaughtUp: () => void = () => {};
  const caughtUp = new Promise<void>((resolve) => (signalCaughtUp = resolve));
  if (info.num_pending === 0) signalCaughtUp();
  const consumer = await untilAnswered(`consumer ${options.name}`, () => bus.js.consumers.get(stream, options.name), again);
  // Pulls that expire every 2 s (heartbeats every second): a pull lost with a dead server is noticed
  // and made again within seconds, not the default half minute.
  const messages: ConsumerMessages = await untilAnswered(
    `the reading of consumer ${options.name}`,
    () => consumer.consume({ max_messages: 1_000, expires: 2_000 }),
    again,
  );
  const lastBySubject = new Map<string, number>();
  const read = (m: JsMsg, decoded: DecodedMessage<R>): void => {
    const seq = m.seq;
    if (seq <= position) return;
    position = seq;
    lastBySubject.set(m.subject, seq);
    if (!decoded.ok) {
      options.onBad?.(seq, decoded.reason);
      return;
    }
    const { entries } = decoded;
    for (let i = 0; i < entries.length; i++) {
      const released = order.take(entries[i]!, seq, m.subject);
      // A reader that stops within a message of several entries reads the message again (the
      // entries it has are dropped then): it resumes after the message only with its last entry.
      const resumeAfter = Math.min(i === entries.length - 1 ? seq : seq - 1, order.earliestHeld() - 1);
      for (const h of released) options.onEntry(h.entry, { streamSeq: h.streamSeq, subject: h.subject, resumeAfter });
    }
  };
  // The messages of a pull are taken together: every message the client has at hand is read in one
  // batch (`onBatch` around it: one transaction at the owner, its listeners told once), then the last
  // one is acknowledged (AckAll covers the ones before). A batch ends when the client has no more
  // messages ready (the next macrotask) or before it would pass BATCH_MAX entries.
  let batch: { readonly m: JsMsg; readonly decoded: DecodedMessage<R> }[] = [];
  let entries = 0;
  let flushing: ReturnType<typeof setImmediate> | undefined;
  const flush = (): void => {
    if (flushing) clearImmediate(flushing);
    flushing = undefined;
    const taken = batch;
    batch = [];
    entries = 0;
    if (taken.length === 0) return;
    const apply = (): void => {
      for (const { m, decoded } of taken) read(m, decoded);
    };
    if (options.onBatch) options.onBatch(apply);
    else apply();
    const last = taken[taken.length - 1]!.m;
    last.ack();
    if (last.info.pending === 0) signalCaughtUp();
  };
  const done = (async () => {
    for await (const m of messages) {
      const decoded = decodeEntries(m.data, options.parse);
      const count = decoded.ok ? decoded.entries.length : 1;
      if (entries + count > BATCH_MAX) flush();
      batch.push({ m, decoded });
      entries += count;
      if (entries >= BATCH_MAX) flush();
      else flushing ??= setImmediate(flush);
    }
  })();
  return {
    caughtUp,
    position: () => position,
    lastRead: (subject) => lastBySubject.get(subject) ?? 0,
    sources: () => order.last(),
    stats: () => order.stats(),
    async stop() {
      flush();
      await messages.close();
      await done.catch(() => {});
    },
  };
}
