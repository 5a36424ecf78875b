// What the two roles on the bus share (docs/hall.md): the event's opening, a journal as its outbox, and
// a reader that copies the other roles' entries into the journal (and, once there is one, the hall).
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  consumerName,
  decodeEntry,
  encodeEntry,
  Outbox,
  startReader,
  untilAnswered,
  type BusConnection,
  type BusEntry,
  type BusRole,
  type EventSubjects,
  type OutboxSource,
  type StreamReader,
} from '../../bus/index.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { journalRecordSchema } from '../journal/index.ts';
import type { Journal, JournalEntry, JournalRecord } from '../journal/index.ts';

/** What every role's journal starts from: the event, its epoch (wall ms at monotonic 0) and time scale. */
export interface Opening {
  readonly event: ZeitnotEvent;
  readonly epochWallMs: number;
  readonly scale: number;
  /** The console that opened the event on the bus. */
  readonly console: string;
}

const openingSchema = z.looseObject({
  event: z.looseObject({ id: z.string(), sections: z.array(z.unknown()).min(1) }),
  epochWallMs: z.number(),
  scale: z.number().positive(),
  console: z.string(),
});

const OPENING_SOURCE = 'event';

/**
 * Publishes the opening unless the stream has one (the first console wins: JetStream refuses a second
 * message on the subject); returns the stream's.
 */
export async function openEvent(bus: BusConnection, subjects: EventSubjects, opening: Opening, onRetry?: (message: string) => void): Promise<Opening> {
  const entry: BusEntry = { source: OPENING_SOURCE, sourceSeq: 1, wallMs: Date.now(), record: opening };
  try {
    await bus.js.publish(subjects.opening, encodeEntry(entry), { msgID: `${OPENING_SOURCE}:1`, expect: { lastSubjectSequence: 0 }, timeout: 5_000 });
  } catch {
    // Another console opened it first (wrong last sequence), or the bus is slow: read what is there.
  }
  const found = await readOpening(bus, subjects, onRetry);
  if (!found) throw new Error(`the stream ${subjects.stream} holds no opening of the event`);
  return found;
}

/** Whether two events are the same file's (the opening's went through JSON: no undefined fields). */
export function sameEvent(a: ZeitnotEvent, b: ZeitnotEvent): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** The stream's opening, or undefined before a console has opened the event. */
export async function readOpening(bus: BusConnection, subjects: EventSubjects, onRetry?: (message: string) => void): Promise<Opening | undefined> {
  const stored = await untilAnswered("the event's opening", () => bus.jsm.streams.getMessage(subjects.stream, { last_by_subj: subjects.opening }), onRetry);
  if (!stored) return undefined;
  const decoded = decodeEntry(stored.data, (record) => {
    const parsed = openingSchema.safeParse(record);
    return parsed.success ? { ok: true, record: parsed.data as unknown as Opening } : { ok: false, reason: parsed.error.issues[0]!.message };
  });
  if (!decoded.ok) throw new Error(`the event's opening on the bus is damaged: ${decoded.reason}`);
  return decoded.entry.record;
}

/** The journal's own entries, as the outbox publishes them; where publishing stands is kept in the journal. */
export function journalSource(journal: Journal): OutboxSource {
  return {
    id: journal.source,
    after: (sourceSeq, limit) => journal.ownAfter(sourceSeq, limit).map(toBusEntry),
    encodedAfter: (sourceSeq, limit) => journal.ownJsonAfter(sourceSeq, limit),
    last: () => journal.lastOwn(),
    published: () => Number(journal.note('bus.published') ?? 0),
    markPublished: (sourceSeq) => journal.setNote('bus.published', String(sourceSeq)),
  };
}

function toBusEntry(entry: JournalEntry): BusEntry {
  return {
    source: entry.source,
    sourceSeq: entry.sourceSeq,
    wallMs: entry.wallMs,
    ...(entry.section !== undefined ? { section: entry.section } : {}),
    ...(entry.round !== undefined ? { round: entry.round } : {}),
    record: entry.record,
  };
}

/** A journal record read from the bus, checked once at this boundary (the reason names the field that failed). */
export const parseRecord = (record: unknown): { ok: true; record: JournalRecord } | { ok: false; reason: string } => {
  const parsed = journalRecordSchema.safeParse(record);
  if (parsed.success) return { ok: true, record: parsed.data as unknown as JournalRecord };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `${issue.path.join('.') || '(record)'}: ${issue.message}` };
};

export interface HallReader {
  readonly reader: StreamReader;
  /**
   * From now on each entry goes to `deliver` (the hall's `receive`) instead of into the journal alone;
   * `batch` runs around each batch read together (the hall's `batch`: its listeners told once, after
   * the batch's transaction).
   */
  deliverTo(deliver: (entry: Omit<JournalEntry, 'seq'>) => void, batch?: (work: () => void) => void): void;
  /** An entry this role wrote to the stream itself (not through its journal's outbox): taken as if read. */
  deliverOwn(entry: Omit<JournalEntry, 'seq'>): void;
  /** The last sourceSeq the journal has of `source` (0: none), read or written here: kept in memory. */
  lastOf(source: string): number;
  /** Resolves once the journal has (source, sourceSeq) (or after `timeoutMs`: false). */
  whenHas(source: string, sourceSeq: number, timeoutMs: number): Promise<boolean>;
}

/**
 * Reads the other roles' entries into the journal, each once and in its source's order, resuming where
 * the journal says reading stood. The entries of a batch read together are journaled in one
 * transaction, with where reading stands after them. The opening is skipped (every role has it in
 * its meta); an entry that is not a journal entry is reported and skipped.
 */
export async function readIntoJournal(
  bus: BusConnection,
  subjects: EventSubjects,
  journal: Journal,
  role: BusRole,
  filter: string,
  warn: (message: string) => void,
  /** What the role takes of each new entry, in stream order (a console: board-owners.ts); default: the entry. */
  admit?: (entry: Omit<JournalEntry, 'seq'>) => Omit<JournalEntry, 'seq'>,
): Promise<HallReader> {
  let deliver = (entry: Omit<JournalEntry, 'seq'>): void => {
    if (entry.source === journal.source) journal.recover(entry);
    else journal.copy(entry);
  };
  let around = (work: () => void): void => work();
  const had = journal.lastBySource();
  const waiters = new Set<{ source: string; sourceSeq: number; resolve: (ok: boolean) => void }>();
  let resumeAfter: number | undefined;
  // An entry this role has already (its desk's record, applied when the stream took it) is not taken twice.
  const take = (entry: Omit<JournalEntry, 'seq'>): void => {
    if ((had.get(entry.source) ?? 0) >= entry.sourceSeq) return;
    deliver(admit ? admit(entry) : entry);
    had.set(entry.source, entry.sourceSeq);
  };
  const reader = await startReader(bus, subjects, {
    name: consumerName(role),
    // A console reads the whole journal through an ordered consumer (nothing replicated to wait for after a cluster restart); a host, its one durable consumer of the desk.
    ordered: role.kind === 'console',
    filter,
    after: Number(journal.note('bus.resumeAfter') ?? 0),
    sources: had,
    parse: (record) =>
      record !== null && typeof record === 'object' && 'event' in record && 'epochWallMs' in record
        ? { ok: true, record: record as unknown as JournalRecord }
        : parseRecord(record),
    onBatch: (apply) => {
      // The transaction ends before `around` tells anyone: nothing is published or shown that the journal could still lose.
      around(() =>
        journal.transaction(() => {
          resumeAfter = undefined;
          apply();
          if (resumeAfter !== undefined) journal.setNote('bus.resumeAfter', String(resumeAfter));
        }),
      );
      for (const w of waiters) {
        if ((had.get(w.source) ?? 0) >= w.sourceSeq) {
          waiters.delete(w);
          w.resolve(true);
        }
      }
    },
    onEntry: (entry, place) => {
      if (entry.source !== OPENING_SOURCE) take({ ...entry, record: entry.record });
      resumeAfter = place.resumeAfter;
    },
    onBad: (streamSeq, reason) => warn(`stream message ${streamSeq} is not a journal entry (${reason}): skipped`),
    onRetry: warn,
    onGap: (source, expected, got) => warn(`${source}'s entry ${got} came before ${expected}: held until ${expected} arrives`),
  });
  return {
    reader,
    deliverTo(next, batch) {
      deliver = next;
      if (batch) around = batch;
    },
    deliverOwn(entry) {
      around(() => journal.transaction(() => take(entry)));
    },
    lastOf: (source) => had.get(source) ?? 0,
    whenHas(source, sourceSeq, timeoutMs) {
      if ((had.get(source) ?? 0) >= sourceSeq) return Promise.resolve(true);
      return new Promise((resolve) => {
        const w = { source, sourceSeq, resolve };
        waiters.add(w);
        setTimeout(() => {
          if (waiters.delete(w)) resolve(false);
        }, timeoutMs).unref();
      });
    },
  };
}

/**
 * Publishes the journal's own entries on the role's subject, from where publishing stood; `ownStream`
 * when the subject is the role's alone (a host's): the stream then stores them strictly in order.
 * A publish that fails is told at once, then at most every PUBLISH_TROUBLE_EVERY_MS while it keeps
 * failing, and once more when the entries go out again: a role whose entries stopped reaching the
 * stream says so in its log.
 */
export function publishJournal(bus: BusConnection, subject: string, journal: Journal, warn: (message: string) => void, ownStream?: string): Outbox {
  let toldAt: number | undefined;
  const outbox = new Outbox(bus, subject, journalSource(journal), {
    ...(ownStream !== undefined ? { ownStream } : {}),
    onError: (err) => {
      const now = Date.now();
      if (toldAt !== undefined && now - toldAt < PUBLISH_TROUBLE_EVERY_MS) return;
      toldAt = now;
      const { backlog } = outbox.state;
      warn(`publishing ${subject} failed (${err instanceof Error ? err.message : String(err)}): ${backlog} entries wait, trying again`);
    },
    onResumed: (failures) => {
      toldAt = undefined;
      warn(`publishing ${subject} again, after ${failures} failed attempts`);
    },
  });
  outbox.notify();
  return outbox;
}

/** How often a publish that keeps failing is told again. */
const PUBLISH_TROUBLE_EVERY_MS = 10_000;
