// A console's snapshots on the bus (docs/hall.md, "Rebuild"): its journal as of a stream position, so
// that a console on a new machine takes the latest snapshot and reads only the stream after it, instead
// of copying the whole event entry by entry. A snapshot is the console's own projection as it stands:
// its journal's rows (by column, in blobs of ROWS_PER_BLOB rows: the full ones never change and are
// written once), split in two: the clock entries no start folds (finished rounds', and those the boards'
// snapshots hold: journal-archive.ts), which the restored journal keeps as these blobs (its archive),
// and the other rows, which it takes as rows; its boards' snapshots (the hall's fold, hall/board-snapshot.ts: the one owner of the
// fold, read back by the hall's restart as from its own journal) and where reading the stream stood.
//
// A cache, never a fact: it is taken only when it matches, else the console reads the whole stream as
// before. It must be of this code (the format here, the package and the hall's snapshot version), of
// this event's run (its id and epoch), stand at a stream message that is still the one it names (its
// subject and digest: a stream removed and made again under the event's name is another record), and
// every blob must have the digest the manifest names.
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { gunzip, gzip } from 'node:zlib';
import { z } from 'zod';
import { digest, type BlobRef, type BusConnection, type EventSubjects, SnapshotStore } from '../../bus/index.ts';
import { snapshotVersion } from '../hall/index.ts';
import {
  type ArchivedBlob,
  type ArchiveIndex,
  type ArchivePart,
  emptyIndex,
  indexWith,
  type Journal,
  packRows,
  partOf,
  type RowDump,
  type StoredSnapshot,
  unpackRows,
} from '../journal/index.ts';
import type { Opening } from './hall-bus.ts';

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/** Bump when what a snapshot holds changes shape or meaning. */
const FORMAT = 2;

/** What a snapshot must have been written by: this format and the hall's fold (package and V8 included). */
export const consoleSnapshotVersion = `${FORMAT}|${snapshotVersion}`;

/** Rows per blob: the full ones are written once, only the last, partial one again; reading 5,000 rows out of SQLite holds the event loop some 0.1 s. */
export const ROWS_PER_BLOB = 5_000;

/** By default a console writes a snapshot after this many entries read (and once it is caught up). */
export const SNAPSHOT_EVERY_ENTRIES = 20_000;

const blobRef = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  parts: z.number().int().min(1),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const manifestSchema = z.strictObject({
  version: z.string(),
  /** The journal the rows are of (a console restored from another's snapshot has a journal of its own). */
  journalId: z.string(),
  event: z.string(),
  epochWallMs: z.number(),
  /** Where reading the stream stood (the journal's `bus.resumeAfter`): the tail is read from after it. */
  resumeAfter: z.number().int().min(1),
  /** The stream message at `resumeAfter`, so that a snapshot of another stream is known. */
  at: z.strictObject({ subject: z.string(), sha256: z.string() }),
  /** The journal's last seq in the snapshot. */
  toSeq: z.number().int().min(0),
  /** The rows taken as rows: every entry but the archived ones, the blobs following each other by seq. */
  rows: z.array(z.strictObject({ afterSeq: z.number().int().min(0), rows: z.number().int().min(0), blob: blobRef })),
  /** The archived clock entries' list (archiveSchema): a blob, as it grows with the event (a manifest is one message). */
  archive: blobRef,
  boards: blobRef,
  wallMs: z.number(),
});

type Manifest = z.infer<typeof manifestSchema>;

/** The archived clock entries (journal-archive.ts): the parts, following each other by seq, and their index. */
const archiveSchema = z.strictObject({
  parts: z.array(
    z.strictObject({
      afterSeq: z.number().int().min(0),
      lastSeq: z.number().int().min(1),
      rows: z.number().int().min(1),
      places: z.array(z.tuple([z.string().nullable(), z.number().int().nullable()])),
      blob: blobRef,
    }),
  ),
  index: z.strictObject({
    boards: z.record(z.string(), z.number().int().min(1)),
    sources: z.record(z.string(), z.number().int().min(1)),
    maxAt: z.number().int(),
  }),
});

export interface SnapshotWritten {
  readonly resumeAfter: number;
  readonly toSeq: number;
  /** The seq clock entries are archived up to (journal-archive.ts). */
  readonly archivedTo: number;
  readonly rowBlobsWritten: number;
}

export interface Restored {
  /** Whose snapshot (a console id). */
  readonly from: string;
  /** The entries restored, the archived ones included. */
  readonly rows: number;
  /** Of them, those kept archived (as blobs). */
  readonly archived: number;
  readonly boards: number;
  readonly resumeAfter: number;
}

/** Runs `work` on each item, `inFlight` at a time (blobs asked for together: each is a round trip), the results in order. */
async function eachAtOnce<T, R>(items: readonly T[], inFlight: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
  return out;
}

const BLOBS_IN_FLIGHT = 8;

const isStoredSnapshot = (s: unknown): s is StoredSnapshot => {
  if (s === null || typeof s !== 'object') return false;
  const o = s as Record<string, unknown>;
  return typeof o.board === 'string' && typeof o.version === 'string' && Number.isInteger(o.seatSeq) && Number.isInteger(o.seq) && o.body instanceof Uint8Array;
};

/** The stream message a snapshot stands at, as its manifest names it (undefined: the stream has none there). */
async function streamMark(bus: BusConnection, subjects: EventSubjects, seq: number): Promise<Manifest['at'] | undefined> {
  const m = await bus.jsm.streams.getMessage(subjects.stream, { seq }).catch(() => undefined);
  return m ? { subject: m.subject, sha256: digest(m.data) } : undefined;
}

/**
 * Rebuilds an empty journal from the first of `from`'s snapshots that matches (the console's own
 * first, then others'); undefined when none does, and the journal is left empty (the whole stream is
 * read). Each snapshot left out is told to `warn` with why.
 */
export async function restoreFromSnapshot(
  bus: BusConnection,
  subjects: EventSubjects,
  journal: Journal,
  opening: Opening,
  from: readonly string[],
  warn: (message: string) => void,
): Promise<Restored | undefined> {
  const store = new SnapshotStore(bus, subjects);
  for (const reader of [...new Set(from)]) {
    const found = await store.getManifest(reader);
    if (found === undefined) continue;
    const why = await takeSnapshot(store, reader, found, journal, opening);
    if (typeof why !== 'string') return why;
    warn(`console ${reader}'s snapshot is not used (${why}): reading the stream instead`);
  }
  return undefined;
}

async function takeSnapshot(store: SnapshotStore, reader: string, found: unknown, journal: Journal, opening: Opening): Promise<Restored | string> {
  const parsed = manifestSchema.safeParse(found);
  if (!parsed.success) return `its manifest does not read: ${parsed.error.issues[0]!.path.join('.')}`;
  const m = parsed.data;
  if (m.version !== consoleSnapshotVersion) return `written by another version: ${m.version}, this one ${consoleSnapshotVersion}`;
  if (m.event !== opening.event.id || m.epochWallMs !== opening.epochWallMs) return 'of another run of the event';
  const at = await streamMark(store.bus, store.subjects, m.resumeAfter);
  if (!at || at.subject !== m.at.subject || at.sha256 !== m.at.sha256) return `the stream has not the message it stands at (${m.resumeAfter})`;
  const archiveBytes = await store.getBlob(reader, m.archive);
  if (!archiveBytes) return 'its archive blob is missing or not the one written';
  const list = archiveSchema.safeParse(
    await gunzipped(archiveBytes).then(
      (b) => JSON.parse(b.toString()) as unknown,
      () => undefined,
    ),
  );
  if (!list.success) return `its archive blob does not read: ${list.error.issues[0]!.path.join('.')}`;
  const named = [...m.rows, ...list.data.parts];
  const blobs = await eachAtOnce(named, BLOBS_IN_FLIGHT, (part) => store.getBlob(reader, part.blob));
  const missing = blobs.findIndex((b) => b === undefined);
  if (missing >= 0) return `blob ${named[missing]!.blob.name} is missing or not the one written (rewritten meanwhile?)`;
  const dumps: RowDump[] = [];
  let afterSeq = 0;
  for (const [i, part] of m.rows.entries()) {
    if (part.afterSeq !== afterSeq) return 'its rows do not follow each other';
    const dump = await unpackRows(blobs[i]!, afterSeq);
    if (!dump || dump.seq.length !== part.rows) return `blob ${part.blob.name} does not read as rows`;
    dumps.push(dump);
    afterSeq = dump.seq.at(-1) ?? afterSeq;
  }
  if (afterSeq > m.toSeq) return 'its rows go past its last seq';
  // The archived parts are kept as they are (their digests checked): the journal checks each part's rows whenever it reads them.
  const archived: ArchivedBlob[] = [];
  let archivedTo = 0;
  for (const [i, part] of list.data.parts.entries()) {
    if (part.afterSeq !== archivedTo || part.lastSeq <= part.afterSeq) return 'its archived parts do not follow each other';
    const { blob: _, ...filed } = part;
    archived.push({ ...filed, bytes: blobs[m.rows.length + i]! });
    archivedTo = part.lastSeq;
  }
  if (archivedTo > m.toSeq) return 'its archived parts go past its last seq';
  const boardBytes = await store.getBlob(reader, m.boards);
  if (!boardBytes) return 'its boards blob is missing or not the one written';
  const boards = deserialize(await gunzipped(boardBytes)) as unknown;
  if (!Array.isArray(boards) || !boards.every(isStoredSnapshot)) return 'its boards blob does not read';
  const rows = journal.restore(
    dumps,
    boards.map((b) => ({ ...b, body: Buffer.from(b.body) })),
    new Map([['bus.resumeAfter', String(m.resumeAfter)]]),
    { parts: archived, index: list.data.index },
  );
  // Every entry of this console's own among the rows is in the stream (the snapshot holds nothing else of a source): none to publish again.
  journal.setNote('bus.published', String(journal.lastOwn()));
  const archivedRows = archived.reduce((n, p) => n + p.rows, 0);
  return { from: reader, rows: rows + archivedRows, archived: archivedRows, boards: boards.length, resumeAfter: m.resumeAfter };
}

export interface SnapshotWriterOptions {
  readonly bus: BusConnection;
  readonly subjects: EventSubjects;
  readonly journal: Journal;
  readonly opening: Opening;
  readonly consoleId: string;
  /** The event stream's replicas (the snapshots' stream has as many). */
  readonly replicas: number;
  /** A snapshot after this many entries read (default SNAPSHOT_EVERY_ENTRIES); 0: never by itself. */
  readonly everyEntries?: number;
  readonly warn: (message: string) => void;
}

/**
 * Writes the console's snapshots: after every `everyEntries` entries read, one at a time. The moment
 * of a snapshot is taken at once (no await between reading the journal's last seq, its board snapshots
 * and where reading stands), and only when every entry of the console's own is in the stream: a
 * snapshot holds nothing the stream lacks.
 */
export class SnapshotWriter {
  readonly #o: SnapshotWriterOptions;
  readonly #store: SnapshotStore;
  /**
   * The full row blobs written, which later snapshots name again, each with its last journal seq and
   * the seq clock entries were archived up to when it was read (a blob archiving moved past is read again).
   */
  readonly #full: { readonly part: Manifest['rows'][number]; readonly lastSeq: number; readonly archivedTo: number }[] = [];
  /** The archived parts written (never again: each later snapshot names them), up to `#archivedTo`, and their index. */
  readonly #archive: (ArchivePart & { readonly blob: BlobRef })[] = [];
  #archivedTo = 0;
  #archiveIndex: ArchiveIndex = emptyIndex;
  #archiveSeeded = false;
  #since = 0;
  #writing: Promise<SnapshotWritten | undefined> | undefined;
  #ensured = false;
  #stopped = false;

  constructor(options: SnapshotWriterOptions) {
    this.#o = options;
    this.#store = new SnapshotStore(options.bus, options.subjects);
  }

  /** `entries` more were read: a snapshot is written when enough have come since the last. */
  read(entries: number): void {
    this.#since += entries;
    const every = this.#o.everyEntries ?? SNAPSHOT_EVERY_ENTRIES;
    if (every > 0 && this.#since >= every && !this.#writing) void this.write();
  }

  /** Writes a snapshot now (undefined: not now, the console's own entries are not all in the stream yet, or it failed). */
  write(): Promise<SnapshotWritten | undefined> {
    if (this.#writing) return this.#writing;
    const writing = this.#write()
      .catch((err: unknown) => {
        this.#o.warn(`a snapshot was not written (${err instanceof Error ? err.message : String(err)}): the next one is tried later`);
        return undefined;
      })
      .finally(() => (this.#writing = undefined));
    this.#writing = writing;
    return writing;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#writing;
  }

  async #write(): Promise<SnapshotWritten | undefined> {
    const { journal, consoleId } = this.#o;
    const published = Number(journal.note('bus.published') ?? 0);
    const resumeAfter = Number(journal.note('bus.resumeAfter') ?? 0);
    if (published < journal.lastOwn() || resumeAfter === 0) return undefined;
    // The moment: nothing awaited before these are read.
    const toSeq = journal.lastSeq();
    const boards = journal.snapshots.all();
    // A restored journal's own archive goes on as this console's (the same blobs, written once).
    const seed = this.#archiveSeeded ? undefined : journal.archived();
    const covered = new Map(boards.filter((b) => b.version === snapshotVersion).map((b) => [b.board, b.seq]));
    // Never below what is archived already (a failed write may have left parts past `#archivedTo`): no entry is both a row and archived.
    const archivedTo = Math.max(this.#archivedTo, this.#archive.at(-1)?.lastSeq ?? 0, journal.archivableTo(covered, this.#archivedTo, toSeq));
    this.#since = 0;
    let journalId = journal.note('snapshot.journalId');
    if (!journalId) {
      journalId = randomUUID();
      journal.setNote('snapshot.journalId', journalId);
    }
    if (!this.#ensured) {
      await this.#store.ensure(this.#o.replicas, this.#o.warn);
      this.#ensured = true;
    }
    const at = await streamMark(this.#o.bus, this.#o.subjects, resumeAfter);
    if (!at) return undefined;
    let written = 0;
    if (seed) {
      const parts: (ArchivePart & { readonly blob: BlobRef })[] = [];
      for (const { bytes, ...part } of seed.parts) {
        if (this.#stopped) return undefined;
        parts.push({ ...part, blob: await this.#store.putBlob(consoleId, `archive-${part.afterSeq}`, bytes) });
        written += 1;
      }
      this.#archive.push(...parts);
      this.#archiveIndex = seed.index;
      this.#archivedTo = Math.max(this.#archivedTo, this.#archive.at(-1)?.lastSeq ?? 0);
      this.#archiveSeeded = true;
    }
    // The clock entries up to `archivedTo` not archived yet: parts of their own, each written once.
    for (let after = this.#archive.at(-1)?.lastSeq ?? 0; after < archivedTo;) {
      if (this.#stopped) return undefined;
      const dump = journal.dump(after, archivedTo, ROWS_PER_BLOB, archivedTo, 'archive');
      if (dump.seq.length === 0) break;
      const blob = await this.#store.putBlob(consoleId, `archive-${after}`, await packRows(dump));
      this.#archive.push({ ...partOf(dump, after), blob });
      this.#archiveIndex = indexWith(this.#archiveIndex, dump);
      written += 1;
      after = dump.seq.at(-1)!;
    }
    this.#archivedTo = archivedTo;
    // The full row blobs read before archiving passed their last seq hold entries now archived: read again from the first of them.
    const stale = this.#full.findIndex((f) => f.lastSeq > f.archivedTo && f.archivedTo !== archivedTo);
    if (stale >= 0) this.#full.splice(stale);
    const rows = this.#full.map((f) => f.part);
    let afterSeq = this.#full.at(-1)?.lastSeq ?? 0;
    for (;;) {
      if (this.#stopped) return undefined;
      const dump = journal.dump(afterSeq, toSeq, ROWS_PER_BLOB, archivedTo);
      if (dump.seq.length === 0) break;
      const blob = await this.#store.putBlob(consoleId, `rows-${afterSeq}`, await packRows(dump));
      const part = { afterSeq, rows: dump.seq.length, blob };
      written += 1;
      rows.push(part);
      if (dump.seq.length === ROWS_PER_BLOB) this.#full.push({ part, lastSeq: dump.seq.at(-1)!, archivedTo });
      afterSeq = dump.seq.at(-1)!;
      if (dump.seq.length < ROWS_PER_BLOB) break;
    }
    const boardsBlob: BlobRef = await this.#store.putBlob(consoleId, 'boards', await gzipped(serialize(boards)));
    const archive: z.infer<typeof archiveSchema> = {
      parts: this.#archive.map((p) => ({ ...p, places: p.places.map(([section, round]) => [section, round] as [string | null, number | null]) })),
      index: this.#archiveIndex,
    };
    const archiveBlob = await this.#store.putBlob(consoleId, 'archive', await gzipped(JSON.stringify(archive)));
    const manifest: Manifest = {
      version: consoleSnapshotVersion,
      journalId,
      event: this.#o.opening.event.id,
      epochWallMs: this.#o.opening.epochWallMs,
      resumeAfter,
      at,
      toSeq,
      rows,
      archive: archiveBlob,
      boards: boardsBlob,
      wallMs: Date.now(),
    };
    await this.#store.putManifest(consoleId, manifest);
    return { resumeAfter, toSeq, archivedTo, rowBlobsWritten: written };
  }
}
