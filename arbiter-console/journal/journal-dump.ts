// A journal's rows as they are stored, by column, for a snapshot on the bus (on-bus/console-snapshots.ts):
// a console on a new machine takes a whole stretch of another journal in one transaction instead of
// copying the stream's entries one by one. The rows keep their seq: the board snapshots stored with
// them name journal seqs, and the hall's restart (hall/board-snapshot.ts) reads them as it reads its own.
import type Database from 'better-sqlite3';
import { promisify } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { gunzip, gunzipSync, gzip } from 'node:zlib';
import type { StoredSnapshot } from './board-snapshots.ts';

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/** Rows of `entries` by column, in seq order (nulls where the column is empty). */
export interface RowDump {
  readonly seq: number[];
  readonly source: (string | null)[];
  readonly sourceSeq: (number | null)[];
  readonly wallMs: number[];
  readonly section: (string | null)[];
  readonly round: (number | null)[];
  readonly board: (string | null)[];
  readonly kind: string[];
  readonly at: number[];
  readonly body: string[];
}

interface RawRow {
  seq: number;
  source: string | null;
  source_seq: number | null;
  wall_ms: number;
  section: string | null;
  round: number | null;
  board: string | null;
  kind: string;
  at: number;
  body: string;
}

/**
 * The rows with `afterSeq` < seq <= `toSeq`, at most `limit` (the first ones): those to be kept as rows
 * (`which` 'rows': every row but the clock entries up to `archivedTo`) or to be archived ('archive': those).
 */
export function dumpRows(db: Database.Database, afterSeq: number, toSeq: number, limit: number, archivedTo = 0, which: 'rows' | 'archive' = 'rows'): RowDump {
  const archived = "kind = 'clock' AND seq <= ?";
  const rows = db
    .prepare(
      `SELECT seq, source, source_seq, wall_ms, section, round, board, kind, at, body FROM entries WHERE seq > ? AND seq <= ? AND ${which === 'rows' ? `NOT (${archived})` : archived} ORDER BY seq LIMIT ?`,
    )
    .all(afterSeq, toSeq, archivedTo, limit) as RawRow[];
  return {
    seq: rows.map((r) => r.seq),
    source: rows.map((r) => r.source),
    sourceSeq: rows.map((r) => r.source_seq),
    wallMs: rows.map((r) => r.wall_ms),
    section: rows.map((r) => r.section),
    round: rows.map((r) => r.round),
    board: rows.map((r) => r.board),
    kind: rows.map((r) => r.kind),
    at: rows.map((r) => r.at),
    body: rows.map((r) => r.body),
  };
}

const isStringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const isIntOrNull = (v: unknown): boolean => v === null || Number.isInteger(v);

/**
 * Whether `dump` has the shape of a RowDump, its seqs rising and after `afterSeq` (a check of what came
 * over the bus; the bodies are checked by the journal whenever it reads an entry, as its own).
 */
export function isRowDump(dump: unknown, afterSeq: number): dump is RowDump {
  if (dump === null || typeof dump !== 'object') return false;
  const d = dump as Record<string, unknown>;
  const columns = ['seq', 'source', 'sourceSeq', 'wallMs', 'section', 'round', 'board', 'kind', 'at', 'body'] as const;
  if (!columns.every((c) => Array.isArray(d[c]))) return false;
  const c = d as unknown as RowDump;
  const n = c.seq.length;
  if (!columns.every((k) => (d[k] as unknown[]).length === n)) return false;
  let last = afterSeq;
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(c.seq[i]) || c.seq[i]! <= last) return false;
    last = c.seq[i]!;
    if (!isStringOrNull(c.source[i]) || !isIntOrNull(c.sourceSeq[i]) || !Number.isInteger(c.wallMs[i])) return false;
    if (!isStringOrNull(c.section[i]) || !isIntOrNull(c.round[i]) || !isStringOrNull(c.board[i])) return false;
    if (typeof c.kind[i] !== 'string' || !Number.isInteger(c.at[i]) || typeof c.body[i] !== 'string') return false;
  }
  return true;
}

/** A dump as a blob (V8's serialization, gzipped): how a snapshot carries rows and an archive keeps them. */
export async function packRows(dump: RowDump): Promise<Buffer> {
  return gzipped(serialize(dump));
}

/** A blob's rows, checked as isRowDump checks them (undefined: it does not read as rows after `afterSeq`). */
export async function unpackRows(bytes: Uint8Array, afterSeq: number): Promise<RowDump | undefined> {
  try {
    const dump = deserialize(await gunzipped(bytes)) as unknown;
    return isRowDump(dump, afterSeq) ? dump : undefined;
  } catch {
    return undefined;
  }
}

/** unpackRows on the calling thread: the journal reads its archive from synchronous generators. */
export function unpackRowsSync(bytes: Uint8Array, afterSeq: number): RowDump | undefined {
  try {
    const dump = deserialize(gunzipSync(bytes)) as unknown;
    return isRowDump(dump, afterSeq) ? dump : undefined;
  } catch {
    return undefined;
  }
}

/** Inserts the dumps' rows with their seqs, the board snapshots and the notes (within the caller's transaction). */
export function insertDump(db: Database.Database, dumps: readonly RowDump[], snapshots: readonly StoredSnapshot[]): number {
  const insert = db.prepare(
    'INSERT INTO entries (seq, source, source_seq, wall_ms, section, round, board, kind, at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let rows = 0;
  for (const d of dumps) {
    for (let i = 0; i < d.seq.length; i++)
      insert.run(d.seq[i], d.source[i], d.sourceSeq[i], d.wallMs[i], d.section[i], d.round[i], d.board[i], d.kind[i], d.at[i], d.body[i]);
    rows += d.seq.length;
  }
  const put = db.prepare('INSERT OR REPLACE INTO board_snapshots (board, version, seat_seq, seq, body) VALUES (?, ?, ?, ?, ?)');
  for (const s of snapshots) put.run(s.board, s.version, s.seatSeq, s.seq, s.body);
  return rows;
}
