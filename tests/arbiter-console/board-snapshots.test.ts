// Board snapshots are a cache of the journal (docs/console.md#restart): a hall rebuilt from each board's
// latest snapshot and the entries after it is the hall a full fold of every entry gives, to the last
// field (clocks, plies with their clocks and notes, results, alerts), also when the console died between
// journaling entries and writing their snapshot, when a snapshot is of another code version, and when
// one names a game the journal never seated.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, PlayingHall, manualSource, type JournalRecord } from '../../arbiter-console/index.ts';
import { boardPgn } from '../../arbiter-console/internal.ts';
import { MIN, cairnsRound, press, startAll, testHall, type TestHall } from './fixtures.ts';

let t: TestHall;
const dirs: string[] = [];
afterEach(() => {
  t?.cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5', 'Bb3', 'd6', 'c3', 'O-O', 'h3', 'Nb8', 'd4', 'Nbd7'];

/** Board 1 plays the opening with arbiter corrections between; board 2 a few moves and a result; board 3 presses only. */
function playRound(): void {
  startAll(t, 10_000);
  let at = 10_000;
  OPENING.forEach((san, i) => {
    at += 7_000;
    press(t, '1', i % 2 === 0 ? 'white' : 'black', at, san);
    if (i === 6) expect(t.hall.command({ type: 'addTime', board: '1', side: 'black', ms: 2 * MIN, reason: 'disturbance' }, 'IA Smith').ok).toBe(true);
    if (i === 9) {
      expect(t.hall.command({ type: 'pause', board: '1', reason: 'toilet light' }, 'IA Smith').ok).toBe(true);
      t.source.set(at + 30_000);
      expect(t.hall.command({ type: 'resume', board: '1' }, 'IA Smith').ok).toBe(true);
      at += 30_000;
    }
    if (i < 4) press(t, '2', i % 2 === 0 ? 'white' : 'black', at + 1, OPENING[i]);
    press(t, '3', i % 2 === 0 ? 'white' : 'black', at + 2);
  });
  t.hall.record({ kind: 'note', board: '2', note: { type: 'arbiterCall', at: at + 3, detail: 'claim on board 2' } });
  t.hall.record({ kind: 'note', board: '3', note: { type: 'connection', at: at + 3, state: 'silent', detail: 'no clock message' } });
  t.source.set(at + 4);
  expect(t.hall.command({ type: 'result', board: '2', result: '1-0', termination: 'resignation' }, 'IA Smith').ok).toBe(true);
}

/** Copies the journal file (its WAL checkpointed into it) to a directory of its own. */
function copyJournal(): string {
  t.journal.close();
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-snapshot-copy-'));
  dirs.push(dir);
  const file = join(dir, 'journal.sqlite');
  copyFileSync(t.file, file);
  t.journal = new Journal(t.file);
  return file;
}

/** The hall a restart builds on a copy of the journal, at `at`: from the snapshots, or folding every entry. */
function rebuilt(file: string, at: number, snapshots: boolean): { hall: PlayingHall; journal: Journal } {
  const copy = join(mkdtempSync(join(tmpdir(), 'zeitnot-snapshot-rebuild-')), 'journal.sqlite');
  dirs.push(join(copy, '..'));
  copyFileSync(file, copy);
  const journal = new Journal(copy);
  return { hall: new PlayingHall(journal, manualSource(at), [], { snapshots }), journal };
}

function expectSameHall(file: string, at: number): { covered: number } {
  const fromSnapshots = rebuilt(file, at, true);
  const folded = rebuilt(file, at, false);
  try {
    const a = fromSnapshots.hall;
    const b = folded.hall;
    expect([...a.boards.keys()]).toEqual([...b.boards.keys()]);
    for (const [id, board] of b.boards) {
      expect(a.boards.get(id)!.fold(), `board ${id}`).toStrictEqual(board.fold());
      expect(boardPgn(a.boards.get(id)!.round, a.boards.get(id)!, at, 0)).toBe(boardPgn(board.round, board, at, 0));
    }
    expect(a.views()).toStrictEqual(b.views());
    expect(a.attention()).toStrictEqual(b.attention());
    expect(a.version).toBe(b.version);
    // Going on from there: the same press gives the same clocks.
    for (const hall of [a, b])
      hall.record({
        kind: 'clock',
        board: '3',
        event: { type: 'press', side: hall.boards.get('3')!.state.toMove, at, by: { kind: 'device', deviceId: 'test' } },
      });
    expect(a.view('3')).toStrictEqual(b.view('3'));
    return {
      covered: new Database(fromSnapshots.journal.file, { readonly: true }).prepare('SELECT COUNT(*) AS n FROM board_snapshots').pluck().get() as number,
    };
  } finally {
    for (const r of [fromSnapshots, folded]) {
      r.hall.stop();
      r.journal.close();
    }
  }
}

describe('board snapshots', () => {
  it("rebuild from each board's snapshot and the entries after it equals folding every entry", () => {
    t = testHall();
    playRound();
    const snapshots = t.journal.snapshots.all();
    // Boards 1 and 3 have had well over 16 entries each: their snapshots stand part-way, with entries
    // after them; board 2 (12 entries) has none yet and is folded.
    expect(snapshots.map((s) => s.board).sort()).toEqual(['1', '3']);
    const last = t.journal.count();
    for (const s of snapshots) expect(s.seq).toBeLessThan(last);
    const file = copyJournal();
    expect(expectSameHall(file, t.source.now()).covered).toBe(2);
  });

  it("stands at the journal's last entry when a snapshot holds it", () => {
    t = testHall();
    playRound();
    let at = t.source.now();
    const snapshotOf3 = () => t.journal.snapshots.all().find((s) => s.board === '3')!.seq;
    while (snapshotOf3() !== t.journal.count()) press(t, '3', t.hall.boards.get('3')!.state.toMove, (at += 1_000));
    const file = copyJournal();
    expectSameHall(file, at);
  });

  it('equals a full fold after a crash between journaling entries and writing their snapshot', () => {
    t = testHall();
    playRound();
    const before = new Map(t.journal.snapshots.all().map((s) => [s.board, s.seq]));
    // Entries the hall journaled but did not live to apply (nor snapshot): 20 more presses of board 3.
    const at = t.source.now();
    for (let i = 0; i < 20; i++) {
      const record: JournalRecord = {
        kind: 'clock',
        board: '3',
        event: { type: 'press', side: i % 2 === 0 ? 'white' : 'black', at: at + 1_000 * (i + 1), by: { kind: 'device', deviceId: 'test' } },
      };
      t.journal.append(record);
    }
    expect(new Map(t.journal.snapshots.all().map((s) => [s.board, s.seq]))).toEqual(before);
    const file = copyJournal();
    expectSameHall(file, at + 30_000);
  });

  it('ignores a snapshot of another code version, and one of a game the journal never seated, and folds the entries', () => {
    t = testHall();
    playRound();
    const file = copyJournal();
    const raw = new Database(file);
    raw.prepare("UPDATE board_snapshots SET version = 'an older zeitnot' WHERE board = '1'").run();
    raw.prepare("UPDATE board_snapshots SET seat_seq = 999999 WHERE board = '3'").run();
    raw.close();
    expectSameHall(file, t.source.now());
  });

  it("keeps a snapshot per game: the next round on the same boards does not take the previous game's", () => {
    t = testHall();
    playRound();
    for (const id of ['1', '3']) {
      t.source.set(t.source.now() + 1);
      expect(t.hall.command({ type: 'result', board: id, result: '0-1', termination: 'resignation' }, 'IA Smith').ok).toBe(true);
    }
    expect(t.hall.seat({ ...cairnsRound(), round: 2 }).ok).toBe(true);
    startAll(t, t.source.now() + 10_000);
    press(t, '1', 'white', t.source.now() + 5_000, 'd4');
    const file = copyJournal();
    expectSameHall(file, t.source.now());
  });
});
