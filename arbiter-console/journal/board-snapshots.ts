// Board snapshots: a cache beside the journal's entries, in the same SQLite file, so that a restart
// late in a round reads each board's latest snapshot and the entries after it instead of folding the
// whole round again (docs/console.md#restart). The entries stay the one record of the facts: a snapshot
// is derived from them, never changes one, and is dropped whenever it cannot be trusted (written by
// another code version, for another game, unreadable): the restart then folds that board's entries.
// One row per hall board, replaced as its game goes on; what a snapshot holds is the hall's business
// (hall/board-snapshot.ts): here it is bytes, with the journal position it was folded to.
import type Database from 'better-sqlite3';

/** A board's latest snapshot, as stored. */
export interface StoredSnapshot {
  readonly board: string;
  /** The code version that wrote it (the hall's fingerprint of its fold). */
  readonly version: string;
  /** The journal seq of the `seat` record that put this game on the board. */
  readonly seatSeq: number;
  /** The journal seq the board's state was folded to: every entry of the board up to it is in the snapshot. */
  readonly seq: number;
  readonly body: Buffer;
}

/** Where a restart skips a board's entries: those up to `seq`, which its snapshot holds. */
export type Covered = ReadonlyMap<string, number>;

export class BoardSnapshotStore {
  readonly #put: Database.Statement;
  readonly #all: Database.Statement;
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS board_snapshots (
      board TEXT PRIMARY KEY,
      version TEXT NOT NULL,
      seat_seq INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      body BLOB NOT NULL
    )`);
    this.#put = db.prepare('INSERT OR REPLACE INTO board_snapshots (board, version, seat_seq, seq, body) VALUES (?, ?, ?, ?, ?)');
    this.#all = db.prepare('SELECT board, version, seat_seq AS seatSeq, seq, body FROM board_snapshots');
  }

  /** Every board's latest snapshot, whatever its version (the hall decides which it trusts). */
  all(): StoredSnapshot[] {
    return this.#all.all() as StoredSnapshot[];
  }

  /** Stores snapshots in one transaction, each replacing its board's previous one. */
  put(snapshots: readonly StoredSnapshot[]): void {
    if (snapshots.length === 0) return;
    this.#db.transaction(() => {
      for (const s of snapshots) this.#put.run(s.board, s.version, s.seatSeq, s.seq, s.body);
    })();
  }

  /** Drops every snapshot (a restart that found one it could not use folds everything and writes them again). */
  clear(): void {
    this.#db.exec('DELETE FROM board_snapshots');
  }
}

/**
 * The entries a restart folds: every entry except a covered board's up to its snapshot's seq (entries
 * without a board, seats and tournament records, are all read). The covered boards go in a temporary
 * table first; each part is read through an index (entries_board), never by reading every entry.
 */
export function uncoveredRows(db: Database.Database, covered: Covered): IterableIterator<unknown> {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS covered (board TEXT PRIMARY KEY, seq INTEGER NOT NULL)');
  db.exec('DELETE FROM temp.covered');
  const insert = db.prepare('INSERT INTO temp.covered (board, seq) VALUES (?, ?)');
  db.transaction(() => {
    for (const [board, seq] of covered) insert.run(board, seq);
  })();
  const columns = 'e.seq, e.source, e.source_seq, e.wall_ms, e.section, e.round, e.body';
  // CROSS JOIN keeps SQLite's planner on the covered boards first, each board's entries by index. The
  // journal's boards are found by one index seek each (the next board after the last), not by a
  // DISTINCT over every entry's index row (70-125 ms -> 26-35 ms at 250,000 entries).
  return db
    .prepare(
      `WITH RECURSIVE boards(board) AS (
         SELECT (SELECT min(board) FROM entries)
         UNION ALL SELECT (SELECT min(board) FROM entries WHERE board > boards.board) FROM boards WHERE boards.board IS NOT NULL),
       uncovered AS (SELECT board FROM boards WHERE board IS NOT NULL AND board NOT IN (SELECT board FROM temp.covered))
       SELECT ${columns} FROM entries e WHERE e.board IS NULL
       UNION ALL SELECT ${columns} FROM temp.covered c CROSS JOIN entries e WHERE e.board = c.board AND e.seq > c.seq
       UNION ALL SELECT ${columns} FROM uncovered u CROSS JOIN entries e WHERE e.board = u.board
       ORDER BY 1`,
    )
    .iterate();
}
