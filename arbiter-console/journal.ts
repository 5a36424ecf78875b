// The journal: every device event and arbiter command, appended (and synced) before it is applied or
// acknowledged. A console that starts on an existing journal rebuilds every board from it.
import Database from 'better-sqlite3';
import type { ClockEvent } from '../clock-engine/index.ts';
import type { Round } from './round.ts';
import { checkRound } from './round.ts';
import type { StaffChange } from './staff.ts';
import type { TournamentRecord } from './tournament-view.ts';

/** What the console journals besides clock events: device notices and round-level decisions. */
export type ConsoleNote =
  | { readonly type: 'arbiterCall'; readonly at: number; readonly detail: string }
  | { readonly type: 'connection'; readonly at: number; readonly state: string; readonly detail?: string }
  | { readonly type: 'inputError'; readonly at: number; readonly detail: string; readonly count: number }
  | { readonly type: 'disagreement'; readonly at: number; readonly detail: string }
  | { readonly type: 'dismiss'; readonly at: number; readonly alertId: string }
  | { readonly type: 'downtime'; readonly at: number; readonly lastAt: number };

export type JournalRecord =
  | { readonly kind: 'clock'; readonly board: string; readonly event: ClockEvent }
  | { readonly kind: 'note'; readonly board: string; readonly note: ConsoleNote }
  /** The round's clocks are to start at `startAt` (monotonic ms). */
  | { readonly kind: 'scheduleStart'; readonly startAt: number; readonly at: number }
  /** A tournament desk action (results, pairing drafts, playoffs, incidents): tournament-desk.ts. */
  | { readonly kind: 'tournament'; readonly at: number; readonly action: TournamentRecord }
  /** The chief arbiter's team: sectors, credentials issued and revoked (team.ts); `by` who did it. */
  | { readonly kind: 'staff'; readonly at: number; readonly by: string; readonly change: StaffChange };

export interface JournalEntry {
  readonly seq: number;
  readonly wallMs: number;
  readonly record: JournalRecord;
}

export interface JournalMeta {
  readonly round: Round;
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

export class Journal {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;

  constructor(
    readonly file: string,
    durability: Durability = 'process',
  ) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${durability === 'power' ? 'FULL' : 'NORMAL'}`);
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
    this.#insert = this.#db.prepare('INSERT INTO entries (wall_ms, board, kind, at, body) VALUES (?, ?, ?, ?, ?)');
  }

  meta(): JournalMeta | undefined {
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = 'console'").get() as { value: string } | undefined;
    if (!row) return undefined;
    const parsed = JSON.parse(row.value) as JournalMeta;
    return { round: checkRound(parsed.round), epochWallMs: parsed.epochWallMs, scale: parsed.scale };
  }

  setMeta(meta: JournalMeta): void {
    this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('console', ?)").run(JSON.stringify(meta));
  }

  /** Appends durably; returns the entry's sequence number. */
  append(record: JournalRecord, wallMs = Date.now()): number {
    const board = record.kind === 'clock' || record.kind === 'note' ? record.board : null;
    const at = record.kind === 'clock' ? record.event.at : record.kind === 'note' ? record.note.at : record.at;
    return Number(this.#insert.run(wallMs, board, record.kind, at, JSON.stringify(record)).lastInsertRowid);
  }

  /** Appends several records in one transaction (one sync): all or none. */
  appendAll(records: readonly JournalRecord[], wallMs = Date.now()): number[] {
    return this.#db.transaction(() => records.map((r) => this.append(r, wallMs)))();
  }

  *entries(afterSeq = 0, kind?: JournalRecord['kind']): Generator<JournalEntry> {
    const rows = (
      kind === undefined
        ? this.#db.prepare('SELECT seq, wall_ms, body FROM entries WHERE seq > ? ORDER BY seq').iterate(afterSeq)
        : this.#db.prepare('SELECT seq, wall_ms, body FROM entries WHERE seq > ? AND kind = ? ORDER BY seq').iterate(afterSeq, kind)
    ) as IterableIterator<{ seq: number; wall_ms: number; body: string }>;
    for (const row of rows) yield { seq: row.seq, wallMs: row.wall_ms, record: JSON.parse(row.body) as JournalRecord };
  }

  /** One board's entries, in order (its history). */
  *entriesOf(board: string): Generator<JournalEntry> {
    const rows = this.#db.prepare('SELECT seq, wall_ms, body FROM entries WHERE board = ? ORDER BY seq').iterate(board) as IterableIterator<{ seq: number; wall_ms: number; body: string }>;
    for (const row of rows) yield { seq: row.seq, wallMs: row.wall_ms, record: JSON.parse(row.body) as JournalRecord };
  }

  lastAt(): number {
    const row = this.#db.prepare('SELECT MAX(at) AS at FROM entries').get() as { at: number | null };
    return row.at ?? 0;
  }

  count(): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM entries').get() as { n: number }).n;
  }

  close(): void {
    this.#db.close();
  }
}
