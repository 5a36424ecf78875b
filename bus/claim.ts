// Writing to a subject only if nobody else has since the writer last read it: JetStream's optimistic
// concurrency (the `Nats-Expected-Last-Subject-Sequence` header). The stream stores the entry only when
// the subject's last message is the one the writer names, so of two writers who read the same state
// one is stored and the other is told its view is stale (docs/hall.md, "Two consoles").
import { JetStreamApiError } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { encodeEntry, messageId, type BusEntry } from './entry.ts';
import { isUnanswered } from './retry.ts';

/** JetStream's "wrong last sequence": the subject has a message the writer has not seen. */
const WRONG_LAST_SEQUENCE = 10071;

export type Claim =
  /** `duplicate`: the stream had this message id already (an earlier write's answer was lost). */
  | { readonly ok: true; readonly streamSeq: number; readonly duplicate: boolean }
  /** Another writer came first: read up to the subject's last message and decide again. */
  | { readonly ok: false; readonly stale: true; readonly reason: string }
  /** The bus refused or did not answer: nothing is known to be stored (`unanswered`: it may be). */
  | { readonly ok: false; readonly stale: false; readonly reason: string; readonly unanswered: boolean };

/** Publishes `entry` on `subject` if the subject's last stream sequence is still `lastSeq` (0: none yet). */
export async function publishIfLast(bus: BusConnection, subject: string, entry: BusEntry, lastSeq: number, timeoutMs: number): Promise<Claim> {
  try {
    const ack = await bus.js.publish(subject, encodeEntry(entry), {
      msgID: messageId(entry),
      expect: { lastSubjectSequence: lastSeq },
      timeout: timeoutMs,
      retries: 0,
    });
    return { ok: true, streamSeq: ack.seq, duplicate: ack.duplicate };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) return { ok: false, stale: true, reason };
    return { ok: false, stale: false, reason, unanswered: isUnanswered(err) };
  }
}

/** The stream sequence of the last message on `subject` (0: none). */
export async function lastSeqOn(bus: BusConnection, stream: string, subject: string): Promise<number> {
  const last = await bus.jsm.streams.getMessage(stream, { last_by_subj: subject });
  return last?.seq ?? 0;
}
