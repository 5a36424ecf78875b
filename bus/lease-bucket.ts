// The lease bucket: a small stream shaped as a JetStream key-value bucket (one subject per key, only a
// key's last message kept), beside the event's stream. @nats-io/kv is not among this project's packages,
// so it is made here with the same parts a KV bucket has: `max_msgs_per_subject: 1` keeps each key's
// latest value, a write names the key's last revision (its stream sequence,
// `Nats-Expected-Last-Subject-Sequence`: 0 for a create), so of two writers one is told its view is
// stale. The hall hosts renew their leases here (docs/hall.md, "Who owns a board"); nothing is kept
// of an event here that a console needs to rebuild it.
import { DiscardPolicy, JetStreamApiError, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { untilAnswered } from './retry.ts';
import type { EventSubjects } from './subjects.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Makes the lease bucket if it is missing (the console, with the event's stream). */
export async function ensureLeaseBucket(bus: BusConnection, subjects: EventSubjects, replicas: number): Promise<void> {
  try {
    await bus.jsm.streams.info(subjects.leaseBucket);
    return;
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== 10059) throw err;
  }
  try {
    await bus.jsm.streams.add({
      name: subjects.leaseBucket,
      subjects: [subjects.anyAlive],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_msgs_per_subject: 1,
      num_replicas: replicas,
      max_msg_size: 64 * 1024,
    });
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === 10058) return; // another console made it
    throw err;
  }
}

export interface KeyValue<V> {
  readonly value: V;
  /** The stream sequence of the key's last write: what an update names. */
  readonly revision: number;
}

/** A key's last value (undefined: never written). */
export async function readKey<V>(bus: BusConnection, bucket: string, subject: string, onRetry?: (message: string) => void): Promise<KeyValue<V> | undefined> {
  const stored = await untilAnswered(`the lease key ${subject}`, () => bus.jsm.streams.getMessage(bucket, { last_by_subj: subject }), onRetry);
  if (!stored) return undefined;
  return { value: JSON.parse(decoder.decode(stored.data)) as V, revision: stored.seq };
}

/** JetStream's "wrong last sequence": another writer came first. */
const WRONG_LAST_SEQUENCE = 10071;

export type KeyWrite = { readonly ok: true; readonly revision: number } | { readonly ok: false; readonly stale: boolean; readonly reason: string };

/** Writes `value` if the key's revision is still `revision` (0: the key is new, a create). */
export async function writeKey(bus: BusConnection, subject: string, value: unknown, revision: number, timeoutMs = 5_000): Promise<KeyWrite> {
  try {
    const ack = await bus.js.publish(subject, encoder.encode(JSON.stringify(value)), {
      expect: { lastSubjectSequence: revision },
      timeout: timeoutMs,
      retries: 0,
    });
    return { ok: true, revision: ack.seq };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, stale: err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE, reason };
  }
}
