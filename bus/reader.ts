// Reading the event's stream in order: a durable pull consumer per reader (a console, a hall host) that
// starts after the last stream sequence its owner's journal has. The owner journals each entry before
// the reader acknowledges it, so a reader that is killed resumes where its journal stands and an entry
// delivered twice (after a crash, a redelivery) is dropped by its stream sequence. The consumer is R3
// with the stream: it survives a server of the cluster dying.
import { AckPolicy, DeliverPolicy, JetStreamApiError, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { decodeEntry, type BusEntry } from './entry.ts';
import type { EventSubjects } from './subjects.ts';

export type ParseRecord<R> = (record: unknown) => { ok: true; record: R } | { ok: false; reason: string };

export interface ReaderOptions<R> {
  /** The durable consumer's name: one per reader (`console-<id>`, `host-<id>`). */
  readonly name: string;
  /** Which of the event's subjects (default all of its journal). */
  readonly filter?: string;
  /** The stream sequence of the last entry the owner's journal has (0: none yet). */
  readonly after: number;
  readonly parse: ParseRecord<R>;
  /** Each entry in stream order, exactly once; journal it before returning. */
  readonly onEntry: (entry: BusEntry<R>, streamSeq: number, subject: string) => void;
  /** A message that is not a journal entry (kept in the stream, skipped here). */
  readonly onBad?: (streamSeq: number, reason: string) => void;
}

export interface StreamReader {
  /** Resolves when the reader has everything the stream had when it started (a rebuilt console). */
  readonly caughtUp: Promise<void>;
  /** The stream sequence of the last entry handed on. */
  position(): number;
  stop(): Promise<void>;
}

/** Acknowledge every this many entries (and whenever the reader is caught up): AckAll covers the ones before. */
const ACK_EVERY = 100;

export async function startReader<R>(bus: BusConnection, subjects: EventSubjects, options: ReaderOptions<R>): Promise<StreamReader> {
  const stream = subjects.stream;
  // The consumer starts where the owner's journal stands, whatever an earlier run left on the servers
  // (a console on a new machine has an empty journal; the old consumer would skip the whole event).
  try {
    await bus.jsm.consumers.delete(stream, options.name);
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== 10014) throw err;
  }
  const info = await bus.jsm.consumers.add(stream, {
    durable_name: options.name,
    filter_subject: options.filter ?? subjects.journal,
    ack_policy: AckPolicy.All,
    ...(options.after > 0 ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: options.after + 1 } : { deliver_policy: DeliverPolicy.All }),
    max_ack_pending: 20_000,
  });
  let position = options.after;
  let signalCaughtUp: () => void = () => {};
  const caughtUp = new Promise<void>((resolve) => (signalCaughtUp = resolve));
  if (info.num_pending === 0) signalCaughtUp();
  const consumer = await bus.js.consumers.get(stream, options.name);
  // Pulls that expire every 2 s (heartbeats every second): a pull lost with a dead server is noticed
  // and made again within seconds, not the default half minute.
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 1_000, expires: 2_000 });
  let unacked: JsMsg | undefined;
  let count = 0;
  const done = (async () => {
    for await (const m of messages) {
      const seq = m.seq;
      if (seq > position) {
        const decoded = decodeEntry(m.data, options.parse);
        if (decoded.ok) options.onEntry(decoded.entry, seq, m.subject);
        else options.onBad?.(seq, decoded.reason);
        position = seq;
      }
      unacked = m;
      count += 1;
      const pending = m.info.pending;
      if (count % ACK_EVERY === 0 || pending === 0) {
        m.ack();
        unacked = undefined;
      }
      if (pending === 0) signalCaughtUp();
    }
  })();
  return {
    caughtUp,
    position: () => position,
    async stop() {
      unacked?.ack();
      await messages.close();
      await done.catch(() => {});
    },
  };
}
