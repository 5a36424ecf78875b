// The journal's archive: clock entries a console restored from a snapshot on the bus keeps as the
// gzipped blobs the snapshot carried them in (journal-dump.ts's format), in the same SQLite file, instead
// of taking each into `entries` (most of a rebuild's time: a row and its five indexes). They are the
// clock entries no projection folds at a start: those of finished rounds and those the boards'
// snapshots hold (docs/hall.md, "Rebuild"). They stay entries of the journal: every read of the journal
// (journal.ts) reads the parts it needs, in seq order with the rows, as if they were rows; a part is
// unpacked only when a read needs it (a past round's PGN or history, a whole replay).
//
// A part covers the seqs after `afterSeq` up to `lastSeq` (the parts follow each other); its rows are
// clock entries only, of the places it names. What reads need without unpacking (the boards, the last
// sourceSeq of each source and the last instant of the whole archive) is its index, beside the parts.
import type Database from 'better-sqlite3';
import type { RowDump } from './journal-dump.ts';

/** A place (section, round) as the rows store it: null where the entry has none. */
export type StoredPlace = readonly [section: string | null, round: number | null];

/** What a part is, known without unpacking it. */
export interface ArchivePart {
  readonly afterSeq: number;
  readonly lastSeq: number;
  readonly rows: number;
  /** Every place among its rows, in the order they first come. */
  readonly places: readonly StoredPlace[];
}

/** What reads need of the whole archive without unpacking it. */
export interface ArchiveIndex {
  /** Every board with an entry in the archive: the seq of its last one there. */
  readonly boards: Readonly<Record<string, number>>;
  /** The last sourceSeq of each source in the archive ('' for entries without a source: numbered by seq). */
  readonly sources: Readonly<Record<string, number>>;
  /** The last instant (`at`) of its entries. */
  readonly maxAt: number;
}

export const emptyIndex: ArchiveIndex = { boards: {}, sources: {}, maxAt: 0 };

/** A board's or a source's number in the index (own keys only: a board may be called `constructor`). */
export function indexed(record: Readonly<Record<string, number>>, key: string): number | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A part with its blob (as it is stored, and as a snapshot carries it). */
export interface ArchivedBlob extends ArchivePart {
  readonly bytes: Uint8Array;
}

/** The part a dump of clock entries after `afterSeq` makes. */
export function partOf(dump: RowDump, afterSeq: number): ArchivePart {
  const places = new Map<string, StoredPlace>();
  for (let i = 0; i < dump.seq.length; i++) {
    const place: StoredPlace = [dump.section[i]!, dump.round[i]!];
    const key = JSON.stringify(place);
    if (!places.has(key)) places.set(key, place);
  }
  return { afterSeq, lastSeq: dump.seq.at(-1) ?? afterSeq, rows: dump.seq.length, places: [...places.values()] };
}

/** `index` with a dump's entries added. */
export function indexWith(index: ArchiveIndex, dump: RowDump): ArchiveIndex {
  const boards = new Map(Object.entries(index.boards));
  const sources = new Map(Object.entries(index.sources));
  let maxAt = index.maxAt;
  for (let i = 0; i < dump.seq.length; i++) {
    boards.set(dump.board[i]!, Math.max(boards.get(dump.board[i]!) ?? 0, dump.seq[i]!));
    const source = dump.source[i] ?? '';
    sources.set(source, Math.max(sources.get(source) ?? 0, dump.sourceSeq[i] ?? dump.seq[i]!));
    maxAt = Math.max(maxAt, dump.at[i]!);
  }
  return { boards: Object.fromEntries(boards), sources: Object.fromEntries(sources), maxAt };
}

/**
 * Whether an unpacked dump is the part it is filed as, within the index: its seqs, its count, clock
 * entries only, of its places, of known boards and sources, none later than the index's last instant.
 */
export function isPart(dump: RowDump, part: ArchivePart, index: ArchiveIndex): boolean {
  if (dump.seq.length !== part.rows || (dump.seq.at(-1) ?? part.afterSeq) !== part.lastSeq) return false;
  const places = new Set(part.places.map((p) => JSON.stringify(p)));
  for (let i = 0; i < dump.seq.length; i++) {
    const board = dump.board[i];
    if (dump.kind[i] !== 'clock' || board === null || !(dump.seq[i]! <= (indexed(index.boards, board!) ?? 0))) return false;
    if (!places.has(JSON.stringify([dump.section[i], dump.round[i]]))) return false;
    const last = indexed(index.sources, dump.source[i] ?? '');
    if (last === undefined || (dump.sourceSeq[i] ?? dump.seq[i]!) > last || dump.at[i]! > index.maxAt) return false;
  }
  return true;
}

/** The archive's tables in the journal's file. */
export class ArchiveStore {
  readonly #db: Database.Database;
  readonly #parts: Database.Statement;
  #cached: readonly ArchivePart[] | undefined;
  #index: ArchiveIndex | undefined;

  constructor(db: Database.Database) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS archive (
      last_seq INTEGER PRIMARY KEY,
      after_seq INTEGER NOT NULL,
      rows INTEGER NOT NULL,
      places TEXT NOT NULL,
      blob BLOB NOT NULL
    )`);
    this.#parts = db.prepare('SELECT after_seq AS afterSeq, last_seq AS lastSeq, rows, places FROM archive ORDER BY last_seq');
  }

  /** The parts, in seq order (read once: the archive is written only by a restore). */
  parts(): readonly ArchivePart[] {
    this.#cached ??= (this.#parts.all() as { afterSeq: number; lastSeq: number; rows: number; places: string }[]).map((p) => ({
      ...p,
      places: JSON.parse(p.places) as StoredPlace[],
    }));
    return this.#cached;
  }

  index(): ArchiveIndex {
    if (!this.#index) {
      const row = this.#db.prepare("SELECT value FROM meta WHERE key = 'archive'").get() as { value: string } | undefined;
      this.#index = row ? (JSON.parse(row.value) as ArchiveIndex) : emptyIndex;
    }
    return this.#index;
  }

  /** The stored blob of the part ending at `lastSeq`. */
  blob(lastSeq: number): Buffer {
    return (this.#db.prepare('SELECT blob FROM archive WHERE last_seq = ?').get(lastSeq) as { blob: Buffer }).blob;
  }

  /** Every part with its blob, in seq order (a snapshot of this journal carries them as they are). */
  blobs(): ArchivedBlob[] {
    return this.parts().map((p) => ({ ...p, bytes: this.blob(p.lastSeq) }));
  }

  /** The seq the archive goes up to (0: none). */
  lastSeq(): number {
    return this.parts().at(-1)?.lastSeq ?? 0;
  }

  /** Files the parts and the index (within the caller's transaction, on an empty journal). */
  put(parts: readonly ArchivedBlob[], index: ArchiveIndex): void {
    const insert = this.#db.prepare('INSERT INTO archive (last_seq, after_seq, rows, places, blob) VALUES (?, ?, ?, ?, ?)');
    for (const p of parts) insert.run(p.lastSeq, p.afterSeq, p.rows, JSON.stringify(p.places), p.bytes);
    this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('archive', ?)").run(JSON.stringify(index));
    this.#cached = undefined;
    this.#index = undefined;
  }
}

/**
 * The last seq up to which every clock entry may be archived (from `from`, what is archived already, to
 * at most `toSeq`): those before every section's current seat (finished rounds) and, after them, up
 * to the first clock entry its board's snapshot (`covered`: the seq each board's is folded to) does not
 * hold. Such entries a start from these snapshots never folds; a later seat or snapshot moves it on.
 */
export function archivableTo(db: Database.Database, covered: ReadonlyMap<string, number>, from: number, toSeq: number): number {
  const seated = db.prepare("SELECT MIN(s) AS seq FROM (SELECT MAX(seq) AS s FROM entries WHERE kind = 'seat' GROUP BY section)").get() as {
    seq: number | null;
  };
  const base = Math.min(toSeq, Math.max(from, (seated.seq ?? 1) - 1));
  const rows = db
    .prepare("SELECT seq, board FROM entries WHERE kind = 'clock' AND seq > ? AND seq <= ? ORDER BY seq")
    .iterate(base, toSeq) as IterableIterator<{
    seq: number;
    board: string;
  }>;
  for (const row of rows) {
    if (row.seq > (covered.get(row.board) ?? 0)) {
      rows.return?.();
      return row.seq - 1;
    }
  }
  return toSeq;
}
