// Reading the event's stream in order, starting after the stream sequence its owner's journal says to
// resume from. The owner journals each entry (with where reading stands) before the next batch is
// read, so a reader that is killed resumes where its journal stands.
//
// A message holds one entry or a run of one source's entries (outbox.ts), taken one by one. Each
// source's entries are handed on exactly once and in the source's own order (sourceSeq 1, 2, 3,
// ...), whatever the stream holds: an entry the owner already has (`sources`) or that came before is
// dropped by (source, sourceSeq), even a republished one the stream stored twice (after its duplicate
// window); one that comes before its predecessor (a publish lost while the next one got through) is
// held until the predecessor arrives. `resumeAfter`, handed on with each entry, is the stream sequence
// to resume from should the reader die now: before any entry still held.
//
// Two kinds of consumer (`ordered`): a durable pull consumer per reader, R3 with the stream (a hall
// host: its permissions name that one consumer), deleted and made again at each start; or an ordered
// consumer (a console): ephemeral, R1 in memory, made again by the client from where it stood whenever
// it is lost, so a console reads as soon as the stream has a leader (a whole cluster restarted: no
// replicated consumer to wait for, docs/hall.md "Rebuild"). The resume point is the owner's journal
// either way; the servers keep none of it.
import { AckPolicy, DeliverPolicy, JetStreamApiError, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nuid } from '@nats-io/transport-node';
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
  /** The durable consumer's name, or the ordered one's prefix: one per reader (`console-<id>`, `host-<id>`). */
  readonly name: string;
  /** An ordered (ephemeral) consumer instead of a durable one; it reads the whole journal (`filter` is ignored). */
  readonly ordered?: boolean;
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
  const opened = options.ordered ? await openOrdered(bus, subjects, options) : await openDurable(bus, subjects, options);
  const { acks } = opened;
  let messages = opened.messages;
  let stopped = false;
  const order = new SourceOrder<R>(options.sources, options.onGap);
  let position = options.after;
  let signalCaughtUp: () => void = () => {};
  const caughtUp = new Promise<void>((resolve) => (signalCaughtUp = resolve));
  if (opened.pendingAtStart === 0) signalCaughtUp();
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
    if (acks) last.ack();
    if (last.info.pending === 0 || position >= opened.lastAtStart) signalCaughtUp();
  };
  const done = (async () => {
    for (;;) {
      for await (const m of messages) {
        opened.heard?.();
        const decoded = decodeEntries(m.data, options.parse);
        const count = decoded.ok ? decoded.entries.length : 1;
        if (entries + count > BATCH_MAX) flush();
        batch.push({ m, decoded });
        entries += count;
        if (entries >= BATCH_MAX) flush();
        else flushing ??= setImmediate(flush);
      }
      // An ordered consumer given up (its server gone): a new one from the last message read.
      if (stopped || !opened.reopen) return;
      flush();
      messages = await opened.reopen(position);
    }
  })();
  return {
    caughtUp,
    position: () => position,
    lastRead: (subject) => lastBySubject.get(subject) ?? 0,
    sources: () => order.last(),
    stats: () => order.stats(),
    async stop() {
      stopped = true;
      flush();
      await messages.close();
      await done.catch(() => {});
    },
  };
}

interface Opened {
  readonly messages: ConsumerMessages;
  /** Whether the consumer wants acknowledgements (a durable one: AckAll). */
  readonly acks: boolean;
  /** Messages after the start when reading began (0: caught up at once). */
  readonly pendingAtStart: number;
  /** The stream's last sequence when reading began (Infinity: not known; `pending` tells). */
  readonly lastAtStart: number;
  /** An ordered consumer's messages end when its server is lost: a new one reading after `position`. */
  readonly reopen?: (position: number) => Promise<ConsumerMessages>;
  /** Told of every message read (an ordered consumer's watchdog: a consumer that says nothing is left). */
  readonly heard?: () => void;
}

/** A durable R3 consumer, made afresh from where the owner's journal stands. */
async function openDurable<R>(bus: BusConnection, subjects: EventSubjects, options: ReaderOptions<R>): Promise<Opened> {
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
  const consumer = await untilAnswered(`consumer ${options.name}`, () => bus.js.consumers.get(stream, options.name), again);
  // Pulls that expire every 2 s (heartbeats every second): a pull lost with a dead server is noticed
  // and made again within seconds, not the default half minute.
  const messages = await untilAnswered(`the reading of consumer ${options.name}`, () => consumer.consume({ max_messages: 1_000, expires: 2_000 }), again);
  return { messages, acks: true, pendingAtStart: info.num_pending, lastAtStart: Infinity };
}

/**
 * An ordered consumer of the whole journal from `after` + 1: the client makes it (R1, in memory) and
 * makes it again from the last sequence it handed on when a server loses it or a message goes
 * missing, so nothing waits for a replicated consumer's election. A durable consumer an earlier
 * version left under the reader's name is removed on the way, without waiting for it.
 */
async function openOrdered<R>(bus: BusConnection, subjects: EventSubjects, options: ReaderOptions<R>): Promise<Opened> {
  const stream = subjects.stream;
  const again = options.onRetry;
  bus.jsm.consumers.delete(stream, options.name).catch(() => {});
  const info = await untilAnswered(`the stream ${stream}`, () => bus.jsm.streams.info(stream), again);
  let lastHeard = Date.now();
  const heard = (): void => {
    lastHeard = Date.now();
  };
  const open = async (after: number): Promise<ConsumerMessages> => {
    const consumer = await untilAnswered(
      `an ordered consumer ${options.name}`,
      () =>
        bus.js.consumers.get(stream, {
          // A prefix of this start's own: a restarted reader's consumer is not the one a run before left (its start cannot be moved).
          name_prefix: `${options.name}-${nuid.next()}`,
          filter_subjects: subjects.journal,
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: after + 1,
        }),
      again,
    );
    const messages = await untilAnswered(`the reading of ${options.name}`, () => consumer.consume({ max_messages: 1_000, expires: 2_000 }), again);
    // A consumer that is read says so every second at least (a message, a heartbeat, a pull's end).
    // One that says nothing for SILENT_MS is left for a new one: after a reconnect the client asks
    // the servers about the consumer until they answer, without a word and without heartbeats,
    // forever when the consumer's server died (seen: a console that read nothing for minutes).
    lastHeard = Date.now();
    let lastTick = lastHeard;
    const watchdog = setInterval(() => {
      const now = Date.now();
      // A tick that comes late found the event loop busy (a long batch, a rebuild): what the client
      // has for the reader waits behind it, so the silence counts from now.
      if (now - lastTick > 2_000) lastHeard = now;
      lastTick = now;
      if (now - lastHeard <= SILENT_MS) return;
      clearInterval(watchdog);
      again?.(`${options.name}: its consumer is silent (nothing for ${SILENT_MS / 1000} s): reading on through a new one`);
      void messages.close();
    }, 1_000);
    watchdog.unref();
    void messages.closed().then(
      () => clearInterval(watchdog),
      () => clearInterval(watchdog),
    );
    // The client makes the consumer again when the server says it is gone, but asks forever after one
    // whose server died (R1: the cluster keeps it assigned there, and its pulls are answered "no
    // responders"): then, or after a few missed heartbeats, it is left and a new one made.
    void (async () => {
      for await (const s of messages.status()) {
        // What the servers say counts (a heartbeat, a pull's end); the client's own pulls and its count of missed heartbeats do not.
        if (s.type !== 'next' && s.type !== 'heartbeats_missed') heard();
        const lost =
          s.type === 'no_responders'
            ? 'no server answers for it'
            : s.type === 'heartbeats_missed' && s.count >= MISSED_HEARTBEATS
              ? `${s.count} heartbeats missed`
              : undefined;
        if (lost) {
          again?.(`${options.name}: its consumer is lost (${lost}): reading on through a new one`);
          await messages.close();
          return;
        }
      }
    })().catch(() => {});
    return messages;
  };
  const last = info.state.last_seq;
  return { messages: await open(options.after), acks: false, pendingAtStart: Math.max(0, last - options.after), lastAtStart: last, reopen: open, heard };
}

/** Missed heartbeats (one a second) after which an ordered consumer is given up for a new one. */
const MISSED_HEARTBEATS = 3;

/** How long an ordered consumer may say nothing at all (no message, heartbeat or status) before it is given up. */
const SILENT_MS = 5_000;
