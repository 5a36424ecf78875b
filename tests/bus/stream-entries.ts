// The stream as it is stored, message by message: which entries each message holds, to check the
// stream itself (not what a reader makes of it: a reader puts entries in order by itself).
import { JetStreamApiError } from '@nats-io/jetstream';
import { decodeEntries, type BusConnection } from '../../bus/index.ts';
import { anyRecord } from './memory-journal.ts';

export interface StoredEntry {
  readonly streamSeq: number;
  readonly subject: string;
  readonly source: string;
  readonly sourceSeq: number;
}

/** Every entry the stream holds, in stream order (a message of several entries gives each of them). */
export async function storedEntries(bus: BusConnection, stream: string): Promise<StoredEntry[]> {
  const { state } = await whenAvailable(() => bus.jsm.streams.info(stream));
  const out: StoredEntry[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
    const m = await whenAvailable(() => bus.jsm.streams.getMessage(stream, { seq }));
    if (!m) continue;
    const decoded = decodeEntries(m.data, anyRecord);
    if (!decoded.ok) throw new Error(`stream message ${seq}: ${decoded.reason}`);
    for (const e of decoded.entries) out.push({ streamSeq: seq, subject: m.subject, source: e.source, sourceSeq: e.sourceSeq });
  }
  return out;
}

/**
 * Asks again while the cluster answers 503 ("JetStream system temporarily unavailable": a stream
 * leader being elected after a server came back), for up to 30 s.
 */
async function whenAvailable<T>(ask: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ask();
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.status === 503) || attempt >= 150) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** One source's sourceSeqs as the stream holds them, in stream order. */
export function storedOrder(entries: readonly StoredEntry[], source: string): number[] {
  return entries.filter((e) => e.source === source).map((e) => e.sourceSeq);
}
