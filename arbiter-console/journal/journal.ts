// The event journal: every device event, arbiter command and tournament action of the whole event, in
// one SQLite file, appended (and synced) before it is applied or acknowledged. A console that starts on
// an existing journal rebuilds the event from it. Each entry is self-describing: which journal wrote it
// (`source`) and its place there (`sourceSeq`), and which section, round and hall board it belongs to,
// so it can be copied elsewhere (a stream, another console) and still be read alone. Every entry is
// checked with zod when it is read back (journal-schema.ts): a damaged journal is refused, naming the entry.
import Database from 'better-sqlite3';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { BoardSnapshotStore, uncoveredRows, type Covered, type StoredSnapshot } from './board-snapshots.ts';
import { ArchiveStore, archivableTo, indexed, isPart, type ArchivedBlob, type ArchiveIndex, type ArchivePart } from './journal-archive.ts';
import { checkpointOffLoop } from './journal-checkpoint.ts';
import { dumpRows, insertDump, unpackRowsSync, type RowDump } from './journal-dump.ts';
import { parseJournalRecord, parseMeta, type JournalRecord } from './journal-schema.ts';
import type { JournalHealth, Round } from '../contract/index.ts';
import { checkRound } from '../contract/index.ts';

export type { ConsoleNote, JournalRecord } from './journal-schema.ts';

/** Where an entry belongs: the section and round of the board (or the tournament action). */
export interface EntryPlace {
  readonly section?: string;
  readonly round?: number;
}

export interface JournalEntry extends EntryPlace {
  readonly seq: number;
  /** The journal that wrote the entry first ('console' for this one unless told otherwise). */
  readonly source: string;
  /** Its sequence number in that journal: stable, gap-free per source. */
  readonly sourceSeq: number;
  readonly wallMs: number;
  readonly record: JournalRecord;
}

export interface JournalMeta {
  /**
   * A bare round (no event), seated from the start: what earlier versions' single-round console wrote
   * (the console refuses such a journal at start) and what hall-level tests and benches build on.
   */
  readonly round?: Round;
  /** The event this journal runs: its sections' rounds are seated by `seat` records. */
  readonly event?: ZeitnotEvent;
  /** Wall time at monotonic 0. */
  readonly epochWallMs: number;
  readonly scale: number;
}

/**
 * - 'process' (SQLite WAL, synchronous=NORMAL): an appended entry is in the WAL file before it is
 *   applied, so it survives the console being killed or crashing; a power cut may lose the last ones.
 * - 'power' (synchronous=FULL): every append is fsynced as well, surviving power loss, at the cost of
 *   one fsync per event (milliseconds; far more when the disk is busy) on the event loop.
 */
export type Durability = 'process' | 'power';

export class JournalError extends Error {
  constructor(
    readonly seq: number,
    message: string,
  ) {
    super(`journal entry ${seq}: ${message}`);
    this.name = 'JournalError';
  }
}

/**
 * A write the journal could not make (the disk full, an I/O error, the file gone read-only): nothing of
 * it is in the journal. `code` is SQLite's. Code decides on the class, never on the message.
 */
export class JournalUnavailable extends Error {
  constructor(
    readonly code: string,
    readonly since: number,
    cause: unknown,
  ) {
    super(`the journal cannot write (${code}: ${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'JournalUnavailable';
  }
}

/** SQLite's codes for a file that cannot be written now (rather than a write that is wrong): the disk, not the caller. */
const UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOLFS)/;

const sqliteCode = (err: unknown): string | undefined => (err instanceof Database.SqliteError && UNAVAILABLE.test(err.code) ? err.code : undefined);

/** How often a failing journal tries a write of its own, so that it notices the disk is back with nothing else writing. */
const PROBE_MS = 1_000;

/** How many of its last own entries a journal keeps as the bus carries them (a few seconds of a host's play, or one message's worth). */
const RECENT_OWN = 1_000;

/** An own entry as the bus carries it. */
export interface EncodedOwn {
  readonly sourceSeq: number;
  /** `{ source, sourceSeq, wallMs, section?, round?, record }` as JSON, the record the row's own text. */
  readonly json: string;
}

/** What ownJson writes an own entry from: the row's columns, the record its own text. */
interface OwnRow {
  readonly sourceSeq: number;
  readonly wallMs: number;
  readonly section: string | null;
  readonly round: number | null;
  readonly body: string;
}

const ownJson = (source: string, { sourceSeq, wallMs, section, round, body }: OwnRow): string =>
  `{"source":${JSON.stringify(source)},"sourceSeq":${sourceSeq},"wallMs":${wallMs}${section !== null ? `,"section":${JSON.stringify(section)}` : ''}${round !== null ? `,"round":${round}` : ''},"record":${body}}`;

interface Row {
  seq: number;
  source: string | null;
  source_seq: number | null;
  wall_ms: number;
  section: string | null;
  round: number | null;
  body: string;
}

export class Journal {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #ownAfter: Database.Statement;
  readonly #noteGet: Database.Statement;
  readonly #noteSet: Database.Statement;
  /** This journal's name as a source (entries it writes itself). */
  readonly source: string;
  /** The sourceSeq of this journal's last own entry (copied entries of other sources are not counted). */
  #lastOwn: number;
  /**
   * The own entries this process appended last, as the bus carries them (`ownJsonAfter`'s shape), in
   * sourceSeq order without a gap: a hall host's outbox publishes each entry right after it is
   * journaled, and reading it back cost more than the entry's insert (SQLite's union query per message,
   * 11 % of a host's CPU in normal play). Only committed entries: a transaction that fails takes its out.
   * Kept from the first time an outbox reads (undefined before: a console without the bus keeps none).
   */
  #recentOwn: OwnRow[] | undefined;
  readonly #stopCheckpoints: () => void;
  #health: JournalHealth = { state: 'ok' };
  readonly #healthListeners = new Set<(health: JournalHealth) => void>();
  #probe: ReturnType<typeof setInterval> | undefined;
  /** The boards' snapshots beside the entries (board-snapshots.ts): a cache a restart may use, never a fact. */
  readonly snapshots: BoardSnapshotStore;
  /** Clock entries kept as blobs (journal-archive.ts): entries of the journal like the rows, read with them. */
  readonly #archive: ArchiveStore;

  constructor(
    readonly file: string,
    durability: Durability = 'process',
    source = 'console',
    /** The WAL's size past which the checkpoint thread empties it (journal-checkpoint.ts); tests set it low. */
    walLimitBytes?: number,
  ) {
    this.source = source;
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`);
    // Checkpoints run on a thread of their own (journal-checkpoint.ts), never inside an append.
    this.#db.pragma('wal_autocheckpoint = 0');
    this.#stopCheckpoints = checkpointOffLoop(
      file,
      () => {
        if (this.#db.open) this.#db.pragma('wal_autocheckpoint = 1000');
      },
      walLimitBytes,
    );
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        wall_ms INTEGER NOT NULL,
        board TEXT,
        kind TEXT NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL
      );`);
    // Journals of one round only (before the event journal) lack these columns: add them, empty.
    const columns = new Set((this.#db.prepare('PRAGMA table_info(entries)').all() as { name: string }[]).map((c) => c.name));
    for (const [name, type] of [
      ['source', 'TEXT'],
      ['source_seq', 'INTEGER'],
      ['section', 'TEXT'],
      ['round', 'INTEGER'],
    ] as const) {
      if (!columns.has(name)) this.#db.exec(`ALTER TABLE entries ADD COLUMN ${name} ${type}`);
    }
    this.#db.exec('CREATE INDEX IF NOT EXISTS entries_place ON entries (section, round)');
    this.#db.exec('CREATE INDEX IF NOT EXISTS entries_source ON entries (source, source_seq)');
    // A restart reads the last instant journaled (lastAt), the desks' and the team's records (by kind) and
    // each board's entries after its snapshot (by board): look-ups, not scans of the whole event.
    this.#db.exec('CREATE INDEX IF NOT EXISTS entries_at ON entries (at)');
    this.#db.exec('CREATE INDEX IF NOT EXISTS entries_kind ON entries (kind)');
    this.#db.exec('CREATE INDEX IF NOT EXISTS entries_board ON entries (board)');
    this.#insert = this.#db.prepare(
      'INSERT INTO entries (source, source_seq, wall_ms, section, round, board, kind, at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Prepared once: the bus reads and publishes through these for every batch of entries. Own entries
    // are this source's (by entries_source, from the first one after) and a one-round journal's unnamed
    // ones (numbered by seq): two index look-ups, not a scan of the journal for each batch published.
    this.#ownAfter = this.#db.prepare(
      `SELECT * FROM (
         SELECT seq, source, source_seq, wall_ms, section, round, body FROM entries WHERE source = ? AND source_seq > ? ORDER BY source_seq LIMIT ?
       ) UNION ALL SELECT * FROM (
         SELECT seq, source, source_seq, wall_ms, section, round, body FROM entries WHERE source IS NULL AND seq > ? ORDER BY seq LIMIT ?
       ) ORDER BY seq LIMIT ?`,
    );
    this.snapshots = new BoardSnapshotStore(this.#db);
    this.#archive = new ArchiveStore(this.#db);
    this.#noteGet = this.#db.prepare('SELECT value FROM meta WHERE key = ?');
    this.#noteSet = this.#db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    // Two look-ups on entries_source (own entries carry their source_seq; entries of journals before
    // sources have neither column), not a scan of every entry.
    const own = this.#db.prepare('SELECT MAX(source_seq) AS n FROM entries WHERE source = ?').get(source) as { n: number | null };
    const unnamed = this.#db.prepare('SELECT MAX(seq) AS n FROM entries WHERE source IS NULL').get() as { n: number | null };
    this.#lastOwn = Math.max(own.n ?? 0, unnamed.n ?? 0, this.#archivedOwn());
  }

  /** The last sourceSeq of this journal's own entries in the archive (0: none). */
  #archivedOwn(): number {
    const sources = this.#archive.index().sources;
    return Math.max(indexed(sources, this.source) ?? 0, indexed(sources, '') ?? 0);
  }

  meta(): JournalMeta | undefined {
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = 'console'").get() as { value: string } | undefined;
    if (!row) return undefined;
    const meta = parseMeta(row.value);
    return meta.round ? { ...meta, round: checkRound(meta.round) } : meta;
  }

  setMeta(meta: JournalMeta): void {
    this.#write(() => this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('console', ?)").run(JSON.stringify(meta)));
  }

  /** Whether writes go through; 'failing' from the first refused write until one goes through again. */
  get health(): JournalHealth {
    return this.#health;
  }

  /** Told each time the health changes (failing, then ok again); returns the unsubscribe. */
  onHealth(listener: (health: JournalHealth) => void): () => void {
    this.#healthListeners.add(listener);
    return () => this.#healthListeners.delete(listener);
  }

  /**
   * Runs one write (or a whole transaction): a write the disk refuses marks the journal failing and
   * throws JournalUnavailable; the first that goes through after that marks it ok again. Nested in a
   * transaction, the transaction's own call decides.
   */
  #write<T>(work: () => T): T {
    if (this.#db.inTransaction) return work();
    let done: T;
    try {
      done = work();
    } catch (err) {
      const code = sqliteCode(err);
      if (code === undefined) throw err;
      const since = this.#health.state === 'failing' ? this.#health.since : Date.now();
      if (this.#health.state === 'ok') this.#setHealth({ state: 'failing', code, since });
      throw new JournalUnavailable(code, since, err);
    }
    if (this.#health.state === 'failing') this.#setHealth({ state: 'ok' });
    return done;
  }

  #setHealth(health: JournalHealth): void {
    this.#health = health;
    clearInterval(this.#probe);
    this.#probe = undefined;
    if (health.state === 'failing') {
      // Nothing else may write while the journal fails (the hall holds what happens, the server refuses
      // commands): this write is how the journal learns the disk is back.
      this.#probe = setInterval(() => this.probe(), PROBE_MS);
      this.#probe.unref();
    }
    for (const listener of this.#healthListeners) listener(health);
  }

  /** One small write (a note beside the entries): ok again when it goes through. */
  probe(): void {
    try {
      this.#write(() => this.#noteSet.run('note:journal-probe', String(Date.now())));
    } catch (err) {
      if (!(err instanceof JournalUnavailable)) throw err;
    }
  }

  /** Appends durably; returns the entry's sequence number. */
  append(record: JournalRecord, wallMs = Date.now(), place: EntryPlace = {}): number {
    return this.#write(() => this.#appendRow(record, wallMs, place));
  }

  #appendRow(record: JournalRecord, wallMs: number, place: EntryPlace): number {
    const section =
      place.section ?? (record.kind === 'tournament' || record.kind === 'seat' ? (record.kind === 'seat' ? record.round.section : record.section) : undefined);
    const round = place.round ?? (record.kind === 'seat' ? record.round.round : undefined);
    // Own entries are numbered on their own (1, 2, 3, ...), whatever other sources' entries a hall on
    // the bus copies in between (docs/hall.md): that number is their message id on the bus.
    const sourceSeq = this.#lastOwn + 1;
    const body = JSON.stringify(record);
    const seq = this.#insertRow(this.source, sourceSeq, wallMs, section, round, record, body);
    this.#lastOwn = sourceSeq;
    this.#recentOwn?.push({ sourceSeq, wallMs, section: section ?? null, round: round ?? null, body });
    // Dropped half at a time, so a long run of appends does not shift the array for each.
    if (this.#recentOwn && this.#recentOwn.length > RECENT_OWN) this.#recentOwn = this.#recentOwn.slice(RECENT_OWN / 2);
    return seq;
  }

  /** Copies another journal's entry (a hall host's or another console's, read from the bus); returns its sequence number here. */
  copy(entry: Omit<JournalEntry, 'seq'>): number {
    if (entry.source === this.source) throw new Error(`journal ${this.file}: an entry of its own source '${this.source}' cannot be copied in`);
    return this.#write(() => this.#insertRow(entry.source, entry.sourceSeq, entry.wallMs, entry.section, entry.round, entry.record));
  }

  /**
   * Copies this journal's own entries back (read from the bus: a console's journal lost with its
   * machine); numbering goes on after them. Only the entries right after the last own one are taken.
   */
  recover(entry: Omit<JournalEntry, 'seq'>): number | undefined {
    if (entry.source !== this.source || entry.sourceSeq !== this.#lastOwn + 1) return undefined;
    const seq = this.#write(() => this.#insertRow(entry.source, entry.sourceSeq, entry.wallMs, entry.section, entry.round, entry.record));
    this.#lastOwn = entry.sourceSeq;
    // Read back from the bus, not appended here: the rows are where ownJsonAfter finds it.
    if (this.#recentOwn) this.#recentOwn = [];
    return seq;
  }

  #insertRow(
    source: string,
    sourceSeq: number,
    wallMs: number,
    section: string | undefined,
    round: number | undefined,
    record: JournalRecord,
    body = JSON.stringify(record),
  ): number {
    const board = record.kind === 'clock' || record.kind === 'note' ? record.board : null;
    const at = record.kind === 'clock' ? record.event.at : record.kind === 'note' ? record.note.at : record.at;
    return Number(this.#insert.run(source, sourceSeq, wallMs, section ?? null, round ?? null, board, record.kind, at, body).lastInsertRowid);
  }

  /** The sourceSeq of the last own entry (0: none). */
  lastOwn(): number {
    return this.#lastOwn;
  }

  /** Own entries after `sourceSeq`, in order, at most `limit` (a hall's outbox on the bus). */
  ownAfter(sourceSeq: number, limit: number): JournalEntry[] {
    const rows = this.#ownAfter.all(this.source, sourceSeq, limit, sourceSeq, limit, limit) as Row[];
    return rows.map((row) => this.#entry(row));
  }

  /**
   * Own entries after `sourceSeq` as the bus carries them, `{ source, sourceSeq, wallMs, section?,
   * round?, record }` as JSON, the record the row's own text (written from a checked record; every
   * reader checks it again): the outbox publishes them without parsing and writing each again.
   */
  ownJsonAfter(sourceSeq: number, limit: number): EncodedOwn[] {
    const recent = (this.#recentOwn ??= []);
    const from = sourceSeq + 1 - (recent[0]?.sourceSeq ?? Infinity);
    if (from >= 0) return recent.slice(from, from + limit).map((row) => ({ sourceSeq: row.sourceSeq, json: ownJson(this.source, row) }));
    const rows = this.#ownAfter.all(this.source, sourceSeq, limit, sourceSeq, limit, limit) as Row[];
    return rows.map((row) => {
      const seq = row.source_seq ?? row.seq;
      return {
        sourceSeq: seq,
        json: ownJson(row.source ?? this.source, { sourceSeq: seq, wallMs: row.wall_ms, section: row.section, round: row.round, body: row.body }),
      };
    });
  }

  /** The last sourceSeq this journal has of each source, its own included. */
  lastBySource(): Map<string, number> {
    const rows = this.#db
      .prepare('SELECT COALESCE(source, ?) AS source, MAX(COALESCE(source_seq, seq)) AS n FROM entries GROUP BY COALESCE(source, ?)')
      .all(this.source, this.source) as { source: string; n: number }[];
    const last = new Map(rows.map((r) => [r.source, r.n]));
    for (const [source, n] of Object.entries(this.#archive.index().sources)) {
      const name = source === '' ? this.source : source;
      last.set(name, Math.max(last.get(name) ?? 0, n));
    }
    return last;
  }

  /** A note kept beside the entries (where publishing to the bus stands, where reading resumes). */
  note(key: string): string | undefined {
    return (this.#noteGet.get(`note:${key}`) as { value: string } | undefined)?.value;
  }

  setNote(key: string, value: string): void {
    this.#write(() => this.#noteSet.run(`note:${key}`, value));
  }

  /** Runs `work` in one transaction (one sync for a batch of entries read from the bus): all or none. */
  transaction<T>(work: () => T): T {
    const lastOwn = this.#lastOwn;
    const recent = this.#recentOwn;
    const kept = recent?.length ?? 0;
    try {
      return this.#write(() => this.#db.transaction(work)());
    } catch (err) {
      this.#lastOwn = lastOwn;
      this.#recentOwn = recent?.slice(0, kept);
      throw err;
    }
  }

  /** Appends several records in one transaction (one sync): all or none. */
  appendAll(records: readonly JournalRecord[], wallMs = Date.now(), place: (record: JournalRecord) => EntryPlace = () => ({})): number[] {
    return this.transaction(() => records.map((r) => this.append(r, wallMs, place(r))));
  }

  /** Entries after `afterSeq`, in order, each checked (a damaged entry throws JournalError). */
  *entries(afterSeq = 0, kind?: JournalRecord['kind'], place: EntryPlace = {}): Generator<JournalEntry> {
    const where = ['seq > ?'];
    const args: (string | number)[] = [afterSeq];
    const filter = (column: string, value: string | number | undefined): void => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      args.push(value);
    };
    filter('kind', kind);
    filter('section', place.section);
    filter('round', place.round);
    const inPlace = (section: string | null, round: number | null): boolean =>
      (place.section === undefined || section === place.section) && (place.round === undefined || round === place.round);
    const parts =
      kind === undefined || kind === 'clock' ? this.#archive.parts().filter((p) => p.lastSeq > afterSeq && p.places.some(([s, r]) => inPlace(s, r))) : [];
    const archived = this.#archived(parts, (d, i) => d.seq[i]! > afterSeq && inPlace(d.section[i] ?? null, d.round[i] ?? null));
    const rows = this.#db
      .prepare(`SELECT seq, source, source_seq, wall_ms, section, round, body FROM entries WHERE ${where.join(' AND ')} ORDER BY seq`)
      .iterate(...args) as IterableIterator<Row>;
    yield* this.#merged(rows, archived);
  }

  /** Entries in order, each checked, but a covered board's up to its snapshot's seq (a restart from snapshots). */
  *entriesAfterSnapshots(covered: Covered): Generator<JournalEntry> {
    // The archived parts holding an entry of a board after its snapshot (none when every board's snapshot is past its archived entries).
    const wanted: [number, number][] = [];
    for (const [board, last] of Object.entries(this.#archive.index().boards)) {
      const from = covered.get(board) ?? 0;
      if (last > from) wanted.push([from, last]);
    }
    const parts = this.#archive.parts().filter((p) => wanted.some(([from, last]) => p.lastSeq > from && p.afterSeq < last));
    const archived = this.#archived(parts, (d, i) => d.seq[i]! > (covered.get(d.board[i]!) ?? 0));
    const rows = uncoveredRows(this.#db, covered) as IterableIterator<Row>;
    yield* this.#merged(rows, archived);
  }

  /**
   * One board's entries, in order (its history), each checked as entries() checks them; with `game` (a
   * section's round) only those of that game and those of no round (in an event journal a hall board
   * plays one game per round).
   */
  *entriesOf(board: string, game?: { readonly section?: string; readonly round: number }): Generator<JournalEntry> {
    const ofGame = (section: string | null, round: number | null): boolean =>
      !game || round === null || (round === game.round && (section === null || game.section === undefined || section === game.section));
    const last = indexed(this.#archive.index().boards, board) ?? 0;
    const parts = this.#archive.parts().filter((p) => p.afterSeq < last && p.places.some(([s, r]) => ofGame(s, r)));
    const archived = this.#archived(parts, (d, i) => d.board[i] === board && ofGame(d.section[i] ?? null, d.round[i] ?? null));
    const rows = this.#db
      .prepare('SELECT seq, source, source_seq, wall_ms, section, round, body FROM entries WHERE board = ? ORDER BY seq')
      .iterate(board) as IterableIterator<Row>;
    for (const entry of this.#merged(rows, archived)) if (ofGame(entry.section ?? null, entry.round ?? null)) yield entry;
  }

  /**
   * The archived rows of `parts` that `keep` keeps, in seq order, each part unpacked when it is reached.
   * The blobs are read here, before the caller iterates its rows (SQLite reads nothing else meanwhile).
   */
  #archived(parts: readonly ArchivePart[], keep: (dump: RowDump, i: number) => boolean): Iterator<Row> {
    const blobs = parts.map((part) => ({ part, bytes: this.#archive.blob(part.lastSeq) }));
    const index = this.#archive.index();
    return (function* (): Generator<Row> {
      for (const { part, bytes } of blobs) {
        const d = unpackRowsSync(bytes, part.afterSeq);
        if (!d || !isPart(d, part, index)) throw new JournalError(part.afterSeq + 1, `the archived entries up to ${part.lastSeq} do not read`);
        for (let i = 0; i < d.seq.length; i++)
          if (keep(d, i))
            yield {
              seq: d.seq[i]!,
              source: d.source[i] ?? null,
              source_seq: d.sourceSeq[i] ?? null,
              wall_ms: d.wallMs[i]!,
              section: d.section[i] ?? null,
              round: d.round[i] ?? null,
              body: d.body[i]!,
            };
      }
    })();
  }

  /** The rows and the archived rows, merged by seq, each checked; the rows' statement is closed however the caller stops. */
  *#merged(rows: IterableIterator<Row>, archived: Iterator<Row>): Generator<JournalEntry> {
    try {
      let a = archived.next();
      for (const row of rows) {
        for (; !a.done && a.value.seq < row.seq; a = archived.next()) yield this.#entry(a.value);
        yield this.#entry(row);
      }
      for (; !a.done; a = archived.next()) yield this.#entry(a.value);
    } finally {
      rows.return?.();
    }
  }

  #entry(row: Row): JournalEntry {
    const parsed = parseJournalRecord(row.body);
    if (!parsed.ok) throw new JournalError(row.seq, parsed.reason);
    return {
      seq: row.seq,
      source: row.source ?? this.source,
      sourceSeq: row.source_seq ?? row.seq,
      wallMs: row.wall_ms,
      ...(row.section !== null ? { section: row.section } : {}),
      ...(row.round !== null ? { round: row.round } : {}),
      record: parsed.record,
    };
  }

  /** The seq of the last entry (0: none). */
  lastSeq(): number {
    const row = this.#db.prepare('SELECT MAX(seq) AS seq FROM entries').get() as { seq: number | null };
    return Math.max(row.seq ?? 0, this.#archive.lastSeq());
  }

  /**
   * The stored rows with `afterSeq` < seq <= `toSeq`, at most `limit` (a snapshot on the bus,
   * journal-dump.ts): with `archivedTo`, those kept as rows ('rows': all but the clock entries up to it)
   * or those to archive ('archive': those). The archive's own parts are not among them: archived().
   */
  dump(afterSeq: number, toSeq: number, limit: number, archivedTo = 0, which: 'rows' | 'archive' = 'rows'): RowDump {
    return dumpRows(this.#db, afterSeq, toSeq, limit, archivedTo, which);
  }

  /** The archive's parts with their blobs, in seq order, and its index (a snapshot carries them as they are). */
  archived(): { readonly parts: ArchivedBlob[]; readonly index: ArchiveIndex } {
    return { parts: this.#archive.blobs(), index: this.#archive.index() };
  }

  /**
   * The last seq up to which clock entries may be archived, from `from` (what is archived already), the
   * boards' snapshots `covered` (each board's seq) and `toSeq` (journal-archive.ts's archivableTo).
   */
  archivableTo(covered: ReadonlyMap<string, number>, from: number, toSeq: number): number {
    return archivableTo(this.#db, covered, Math.max(from, this.#archive.lastSeq()), toSeq);
  }

  /**
   * Takes another journal's rows as they were stored, its board snapshots and notes, in one
   * transaction: a console on an empty journal rebuilt from a snapshot on the bus. Own numbering goes
   * on after this source's entries among them. Refused on a journal that has entries.
   */
  restore(
    dumps: readonly RowDump[],
    snapshots: readonly StoredSnapshot[],
    notes: ReadonlyMap<string, string>,
    archive?: { readonly parts: readonly ArchivedBlob[]; readonly index: ArchiveIndex },
  ): number {
    if (this.count() > 0) throw new Error(`journal ${this.file} has entries: a snapshot is taken only by an empty journal`);
    const rows = this.transaction(() => {
      if (archive) this.#archive.put(archive.parts, archive.index);
      const n = insertDump(this.#db, dumps, snapshots);
      for (const [key, value] of notes) this.#noteSet.run(`note:${key}`, value);
      return n;
    });
    const own = this.#db.prepare('SELECT MAX(source_seq) AS n FROM entries WHERE source = ?').get(this.source) as { n: number | null };
    this.#lastOwn = Math.max(own.n ?? 0, this.#archivedOwn());
    return rows;
  }

  lastAt(): number {
    const row = this.#db.prepare('SELECT MAX(at) AS at FROM entries').get() as { at: number | null };
    return Math.max(row.at ?? 0, this.#archive.index().maxAt);
  }

  /** How many entries, the archived ones included. */
  count(): number {
    const rows = (this.#db.prepare('SELECT COUNT(*) AS n FROM entries').get() as { n: number }).n;
    return this.#archive.parts().reduce((n, p) => n + p.rows, rows);
  }

  close(): void {
    clearInterval(this.#probe);
    this.#probe = undefined;
    this.#stopCheckpoints();
    this.#db.close();
  }
}
