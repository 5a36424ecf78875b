// A journal restored with an archive (journal-archive.ts: clock entries kept as the blobs a snapshot on
// the bus carried them in) reads as the journal it was restored from, entry for entry, through every
// read of the journal's API; and only the entries no start folds are archived (finished rounds', and
// those the boards' snapshots hold).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ArchivedBlob,
  type ArchiveIndex,
  emptyIndex,
  indexWith,
  Journal,
  type JournalRecord,
  packRows,
  partOf,
  type RowDump,
  type StoredSnapshot,
} from '../../arbiter-console/internal.ts';
import { cairnsRound } from './fixtures.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const press = (board: string, at: number): JournalRecord => ({
  kind: 'clock',
  board,
  event: { type: 'press', side: 'white', at, by: { kind: 'device', deviceId: `d${board}` } },
});
const note = (board: string, at: number): JournalRecord => ({ kind: 'note', board, note: { type: 'arbiterCall', at, detail: 'called' } });
const seat = (round: number, at: number): JournalRecord => ({ kind: 'seat', at, round: { ...cairnsRound(3), section: 'open', round } });

/**
 * Round 1 seated (seq 1), its presses on boards 1-3 (seqs 2-10) and a note (11); round 2 seated (12),
 * its start scheduled (13), round 2's presses (seqs 14-22: boards 1, 2, 3 in turn) and a note (23).
 * The host h1's entries are copied in (sourceSeq 1-20), the seats and the desk's are the console's own.
 */
function played(journal: Journal): void {
  journal.append(seat(1, 1), 100, { section: 'open', round: 1 });
  let sourceSeq = 0;
  const host = (record: JournalRecord, round: number) =>
    journal.copy({ source: 'h1', sourceSeq: ++sourceSeq, wallMs: 100 + sourceSeq, section: 'open', round, record });
  for (let at = 2; at <= 4; at++) for (const b of ['1', '2', '3']) host(press(b, at * 10), 1);
  host(note('2', 41), 1);
  journal.append(seat(2, 50), 150, { section: 'open', round: 2 });
  journal.append({ kind: 'scheduleStart', section: 'open', startAt: 55, at: 51 });
  for (let at = 6; at <= 8; at++) for (const b of ['1', '2', '3']) host(press(b, at * 10), 2);
  host(note('3', 81), 2);
}

/** What a snapshot on the bus carries of `from` (as on-bus/console-snapshots.ts writes it), a few rows to a blob. */
async function carried(
  from: Journal,
  covered: ReadonlyMap<string, number>,
): Promise<{ rows: RowDump[]; parts: ArchivedBlob[]; index: ArchiveIndex; archivedTo: number }> {
  const toSeq = from.lastSeq();
  const had = from.archived();
  const archivedTo = from.archivableTo(covered, 0, toSeq);
  const parts = [...had.parts];
  let index = had.index;
  for (let after = parts.at(-1)?.lastSeq ?? 0; ;) {
    const dump = from.dump(after, archivedTo, 2, archivedTo, 'archive');
    if (dump.seq.length === 0) break;
    parts.push({ ...partOf(dump, after), bytes: await packRows(dump) });
    index = indexWith(index, dump);
    after = dump.seq.at(-1)!;
  }
  const rows: RowDump[] = [];
  for (let after = 0; ;) {
    const dump = from.dump(after, toSeq, 3, archivedTo);
    if (dump.seq.length === 0) break;
    rows.push(dump);
    after = dump.seq.at(-1)!;
  }
  return { rows, parts, index, archivedTo };
}

const snapshot = (board: string, seq: number): StoredSnapshot => ({ board, version: 'v', seatSeq: 12, seq, body: Buffer.from([1]) });

/** Every read of the journal's API, as plain values. */
function reads(journal: Journal, covered: ReadonlyMap<string, number>): unknown {
  return {
    all: [...journal.entries()],
    after: [...journal.entries(7)],
    clock: [...journal.entries(0, 'clock')],
    seats: [...journal.entries(0, 'seat')],
    round1: [...journal.entries(0, undefined, { section: 'open', round: 1 })],
    round2Clock: [...journal.entries(3, 'clock', { round: 2 })],
    board2: [...journal.entriesOf('2')],
    board2Round1: [...journal.entriesOf('2', { section: 'open', round: 1 })],
    board3Round2: [...journal.entriesOf('3', { round: 2 })],
    start: [...journal.entriesAfterSnapshots(covered)],
    startNothingCovered: [...journal.entriesAfterSnapshots(new Map())],
    count: journal.count(),
    lastSeq: journal.lastSeq(),
    lastAt: journal.lastAt(),
    bySource: [...journal.lastBySource()].sort(),
    lastOwn: journal.lastOwn(),
  };
}

describe('a journal restored with an archive', () => {
  it('archives the clock entries of finished rounds and those the boards’ snapshots hold, and reads as the journal it came from', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-archive-'));
    const a = new Journal(join(dir, 'a.sqlite'));
    played(a);
    // Boards 1 and 2 folded to seq 20 (their presses at seqs 14-19 and board 1's at 20), board 3 to 16: its press at seq 19 is not held.
    const snapshots = [snapshot('1', 20), snapshot('2', 20), snapshot('3', 16)];
    const covered = new Map(snapshots.map((s) => [s.board, s.seq]));
    const c = await carried(a, covered);
    // Round 1's presses (seqs 2-10) are of a finished round; round 2's up to seq 18 are held, board 3's at 19 is not.
    expect(c.archivedTo).toBe(18);
    expect(c.parts.map((p) => [p.afterSeq, p.lastSeq, p.rows])).toEqual([
      [0, 3, 2],
      [3, 5, 2],
      [5, 7, 2],
      [7, 9, 2],
      [9, 14, 2],
      [14, 16, 2],
      [16, 18, 2],
    ]);
    expect(c.parts[4]!.places).toEqual([
      ['open', 1],
      ['open', 2],
    ]);
    expect(c.index).toEqual({ boards: { '1': 17, '2': 18, '3': 16 }, sources: { h1: 15 }, maxAt: 70 });
    expect(c.rows.flatMap((d) => d.seq)).toEqual([1, 11, 12, 13, 19, 20, 21, 22, 23]);

    const b = new Journal(join(dir, 'b.sqlite'));
    expect(b.restore(c.rows, snapshots, new Map(), { parts: c.parts, index: c.index })).toBe(9);
    expect(reads(b, covered)).toEqual(reads(a, covered));
    expect([...b.entriesAfterSnapshots(covered)].map((e) => e.seq)).toEqual([1, 12, 13, 19, 21, 22, 23]);

    // A restored journal's snapshot carries its archive on (the same parts) and archives what came since.
    for (const j of [a, b]) j.copy({ source: 'h1', sourceSeq: 21, wallMs: 200, section: 'open', round: 2, record: press('1', 90) });
    const later = new Map([
      ['1', 24],
      ['2', 21],
      ['3', 22],
    ]);
    const c2 = await carried(b, later);
    expect(c2.archivedTo).toBe(24);
    expect(c2.parts.map((p) => [p.afterSeq, p.lastSeq, Buffer.from(p.bytes)])).toEqual([
      ...c.parts.map((p) => [p.afterSeq, p.lastSeq, Buffer.from(p.bytes)]),
      [18, 20, expect.any(Buffer)],
      [20, 22, expect.any(Buffer)],
      [22, 24, expect.any(Buffer)],
    ]);
    expect(c2.rows.flatMap((d) => d.seq)).toEqual([1, 11, 12, 13, 23]);
    const d = new Journal(join(dir, 'd.sqlite'));
    d.restore(c2.rows, snapshots, new Map(), { parts: c2.parts, index: c2.index });
    expect(reads(d, later)).toEqual(reads(a, later));
    for (const j of [a, b, d]) j.close();
  });

  it('refuses, naming the entry, an archived part that does not read as the part it is filed as', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-archive-'));
    const a = new Journal(join(dir, 'a.sqlite'));
    played(a);
    const c = await carried(a, new Map());
    const b = new Journal(join(dir, 'b.sqlite'));
    // The second part filed as holding 3 rows.
    b.restore(c.rows, [], new Map(), { parts: c.parts.map((p, i) => (i === 1 ? { ...p, rows: 3 } : p)), index: c.index });
    expect(() => [...b.entries()]).toThrow('journal entry 4: the archived entries up to 5 do not read');
    // Reads that need no archived entry go on.
    expect([...b.entries(0, 'seat')].map((e) => e.seq)).toEqual([1, 12]);
    const e = new Journal(join(dir, 'e.sqlite'));
    e.restore(c.rows, [], new Map(), { parts: c.parts, index: { ...emptyIndex, sources: c.index.sources, maxAt: c.index.maxAt } });
    expect(() => [...e.entries(0, 'clock')]).toThrow('the archived entries up to 3 do not read');
    for (const j of [a, b, e]) j.close();
  });
});
