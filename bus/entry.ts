// A journal entry on the bus: self-describing (which journal wrote it and where it stands there), so a
// console that reads it from the stream can put it in its own journal and still know its origin. The
// envelope is checked here with zod; the record inside is the journal's to check (`parseRecord`).
// A message holds one entry (a JSON object) or consecutive entries of one source (a JSON array: the
// outbox sends every entry waiting in one message).
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

/** Consecutive entries of one source, each already JSON (the outbox measures them), as one message. */
export function encodeEntries(json: readonly string[]): Uint8Array {
  return encoder.encode(`[${json.join(',')}]`);
}

/**
 * The message id JetStream de-duplicates on: the same entry (or the same run of entries, up to
 * `through`) published twice is stored once.
 */
export function messageId(entry: Pick<BusEntry, 'source' | 'sourceSeq'>, through = entry.sourceSeq): string {
  return through === entry.sourceSeq ? `${entry.source}:${entry.sourceSeq}` : `${entry.source}:${entry.sourceSeq}-${through}`;
}

type ParseRecord<R> = (record: unknown) => { ok: true; record: R } | { ok: false; reason: string };

/** Decodes and checks a message of one entry; `parseRecord` checks the record inside (the journal's schema). */
export function decodeEntry<R>(data: Uint8Array, parseRecord: ParseRecord<R>): Decoded<R> {
  const json = readJson(data);
  return json.ok ? checkEntry(json.value, parseRecord) : json;
}

export type DecodedMessage<R> = { readonly ok: true; readonly entries: readonly BusEntry<R>[] } | { readonly ok: false; readonly reason: string };

/**
 * Decodes and checks a message of one entry or of consecutive entries of one source (a message with
 * one bad entry, or entries not one source's consecutive run, is refused whole).
 */
export function decodeEntries<R>(data: Uint8Array, parseRecord: ParseRecord<R>): DecodedMessage<R> {
  const read = readJson(data);
  if (!read.ok) return read;
  const json = read.value;
  if (!Array.isArray(json)) {
    const one = checkEntry(json, parseRecord);
    return one.ok ? { ok: true, entries: [one.entry] } : one;
  }
  if (json.length === 0) return { ok: false, reason: 'no entries' };
  const entries: BusEntry<R>[] = [];
  for (let i = 0; i < json.length; i++) {
    const one = checkEntry(json[i], parseRecord);
    if (!one.ok) return { ok: false, reason: `[${i}] ${one.reason}` };
    const before = entries[i - 1];
    if (before && (one.entry.source !== before.source || one.entry.sourceSeq !== before.sourceSeq + 1))
      return { ok: false, reason: `[${i}]: not the entry after ${messageId(before)}` };
    entries.push(one.entry);
  }
  return { ok: true, entries };
}

function readJson(data: Uint8Array): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(data)) };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

function checkEntry<R>(json: unknown, parseRecord: ParseRecord<R>): Decoded<R> {
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
