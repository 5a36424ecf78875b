// A board's snapshot: its fold state (Board.fold) at a journal position, so that a restart folds only
// the entries after it (docs/console.md#restart). The journal owns the facts; a snapshot is a projection
// of them that the hall writes as a game goes on (every SNAPSHOT_EVERY entries of the board) and trusts
// only when the same code wrote it for the same game: anything else and the board's entries are folded.
// Stored with V8's serializer, which keeps what JSON would lose (undefined fields, -0, Infinity), so a
// restored board is the same as a folded one to the last field.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Journal, StoredSnapshot } from '../journal/index.ts';
import type { Board, BoardFold, BoardLine, BoardPly } from './board.ts';

/**
 * Bump when what a board folds changes shape or meaning (Board's fields, the clock engine's GameState),
 * so that snapshots written before are ignored. The package version is part of the fingerprint too.
 */
const SNAPSHOT_FORMAT = 2;

/** A board's snapshot is written after this many entries of it since its last one: a restart folds fewer per board. */
export const SNAPSHOT_EVERY = 16;

/** The fingerprint of the code that folds: snapshots of another one are ignored. */
export const snapshotVersion: string = `${SNAPSHOT_FORMAT}/${packageVersion()}/node ${process.versions.v8}`;

function packageVersion(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0';
    if (dirname(dir) === dir) return '0';
  }
}

/** A snapshot the restart may use: the fold, and where it stands in the journal. */
export interface BoardSnapshot {
  readonly board: string;
  readonly seatSeq: number;
  readonly seq: number;
  /** The hall's seq of the board's last applied entry (its view's version). */
  readonly boardVersion: number;
  readonly fold: BoardFold;
}

/**
 * A line's plies by column (sides, SANs, FENs, clocks, the plies' notes where they have some): the
 * plies are most of a late game's snapshot, and columns of strings and numbers are read back several
 * times faster than as many small objects (and take 40 % less room).
 */
interface PackedLine extends Omit<BoardLine, 'plies'> {
  /** 'w' or 'b' per ply. */
  readonly sides: string;
  readonly sans: readonly string[];
  readonly fens: readonly string[];
  /** Two numbers per ply, clockMs and elapsedMs; NaN for a ply whose press has no clock yet. */
  readonly clocks: readonly number[];
  readonly plyNotes: readonly (readonly [number, readonly string[]])[];
}

interface Body {
  readonly boardVersion: number;
  readonly fold: Omit<BoardFold, 'lines'> & { readonly lines: readonly PackedLine[] };
}

function packLine({ plies, ...rest }: BoardLine): PackedLine {
  return {
    ...rest,
    sides: plies.map((p) => (p.side === 'white' ? 'w' : 'b')).join(''),
    sans: plies.map((p) => p.san),
    fens: plies.map((p) => p.fen),
    clocks: plies.flatMap((p) => (p.clock ? [p.clock.clockMs, p.clock.elapsedMs] : [NaN, NaN])),
    plyNotes: plies.flatMap((p, i) => (p.notes.length > 0 ? [[i, p.notes] as const] : [])),
  };
}

function unpackLine({ sides, sans, fens, clocks, plyNotes, ...rest }: PackedLine): BoardLine {
  const notes = new Map(plyNotes);
  const plies = sans.map((san, i): BoardPly => {
    const side = sides[i] === 'w' ? 'white' : 'black';
    const clockMs = clocks[2 * i]!;
    const own = [...(notes.get(i) ?? [])];
    return Number.isNaN(clockMs)
      ? { side, san, fen: fens[i]!, notes: own }
      : { side, san, fen: fens[i]!, clock: { clockMs, elapsedMs: clocks[2 * i + 1]! }, notes: own };
  });
  return { ...rest, plies };
}

export function encodeSnapshot(board: Board, seatSeq: number, seq: number, boardVersion: number): StoredSnapshot {
  const fold = board.fold();
  const body: Body = { boardVersion, fold: { ...fold, lines: fold.lines.map(packLine) } };
  return { board: board.id, version: snapshotVersion, seatSeq, seq, body: serialize(body) };
}

/** The journal's snapshots this code may use: of its version and readable; the others are left out (their boards folded). */
export function usableSnapshots(journal: Journal): Map<string, BoardSnapshot> {
  const usable = new Map<string, BoardSnapshot>();
  for (const stored of journal.snapshots.all()) {
    if (stored.version !== snapshotVersion) continue;
    try {
      const body = deserialize(stored.body) as Body;
      const fold: BoardFold = { ...body.fold, lines: body.fold.lines.map(unpackLine) };
      usable.set(stored.board, { board: stored.board, seatSeq: stored.seatSeq, seq: stored.seq, boardVersion: body.boardVersion, fold });
    } catch {
      // An unreadable snapshot is no snapshot: the board's entries are folded.
    }
  }
  return usable;
}
