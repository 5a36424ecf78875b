// A journal entry on the bus: self-describing (which journal wrote it and where it stands there), so a
// console that reads it from the stream can put it in its own journal and still know its origin. The
// envelope is checked here with zod; the record inside is the journal's to check (`parseRecord`).
import { z } from 'zod';

export interface BusEntry<R = unknown> {
  /** The journal that wrote the entry (a host id, or the console's). */
  readonly source: string;
  /** Its place in that journal: 1, 2, 3, ... with no gap. */
  readonly sourceSeq: number;
  readonly wallMs: number;
  readonly section?: string;
  readonly round?: number;
  readonly record: R;
}

const envelope = z.strictObject({
  source: z.string().min(1).max(64),
  sourceSeq: z.number().int().min(1),
  wallMs: z.number().int(),
  section: z.string().max(64).optional(),
  round: z.number().int().min(0).optional(),
  record: z.unknown(),
});

export type Decoded<R> = { readonly ok: true; readonly entry: BusEntry<R> } | { readonly ok: false; readonly reason: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeEntry(entry: BusEntry): Uint8Array {
  return encoder.encode(JSON.stringify(entry));
}

/** The message id JetStream de-duplicates on: the same entry published twice is stored once. */
export function messageId(entry: Pick<BusEntry, 'source' | 'sourceSeq'>): string {
  return `${entry.source}:${entry.sourceSeq}`;
}

/** Decodes and checks an entry; `parseRecord` checks the record inside (the journal's schema). */
export function decodeEntry<R>(data: Uint8Array, parseRecord: (record: unknown) => { ok: true; record: R } | { ok: false; reason: string }): Decoded<R> {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(data));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${issue.path.join('.') || '(entry)'}: ${issue.message}` };
  }
  const record = parseRecord(parsed.data.record);
  if (!record.ok) return { ok: false, reason: `record: ${record.reason}` };
  const { record: _, ...rest } = parsed.data;
  return { ok: true, entry: { ...rest, record: record.record } };
}
