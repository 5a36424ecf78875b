import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../arbiter-console/index.ts';
import { cairnsRound } from './fixtures.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const press = (board: string, at: number): JournalRecord => ({
  kind: 'clock',
  board,
  event: { type: 'press', side: 'white', at, by: { kind: 'device', deviceId: 'd' } },
});

describe('journal', () => {
  it("gives its own entries after a sourceSeq (the outbox's), in order, at most as many as asked: not copied ones, and a one-round journal's unnamed ones too", () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-journal-'));
    const file = join(dir, 'journal.sqlite');
    // A journal of one round, from before entries had a source: its rows are numbered by seq alone.
    const old = new Database(file);
    old.exec(
      'CREATE TABLE entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, wall_ms INTEGER NOT NULL, board TEXT, kind TEXT NOT NULL, at INTEGER NOT NULL, body TEXT NOT NULL)',
    );
    for (const at of [1, 2])
      old.prepare("INSERT INTO entries (wall_ms, board, kind, at, body) VALUES (0, '1', 'clock', ?, ?)").run(at, JSON.stringify(press('1', at)));
    old.close();
    const journal = new Journal(file, 'process', 'h1');
    journal.append(press('1', 3));
    journal.copy({ source: 'h2', sourceSeq: 1, wallMs: 0, record: press('9', 4) });
    journal.append(press('1', 5));
    journal.append(press('1', 6), 7, { section: 'open', round: 2 });
    const own = (after: number, limit: number) =>
      journal.ownAfter(after, limit).map((e) => [e.source, e.sourceSeq, (e.record as { event: { at: number } }).event.at]);
    expect(own(0, 10)).toEqual([
      ['h1', 1, 1],
      ['h1', 2, 2],
      ['h1', 3, 3],
      ['h1', 4, 5],
      ['h1', 5, 6],
    ]);
    expect(own(1, 2)).toEqual([
      ['h1', 2, 2],
      ['h1', 3, 3],
    ]);
    expect(own(3, 10)).toEqual([
      ['h1', 4, 5],
      ['h1', 5, 6],
    ]);
    expect(own(5, 10)).toEqual([]);
    // As the bus carries them, straight from the rows: the same entries.
    expect(journal.ownJsonAfter(1, 10).map((e) => [e.sourceSeq, JSON.parse(e.json) as unknown])).toEqual(
      journal.ownAfter(1, 10).map(({ seq: _, ...entry }) => [entry.sourceSeq, entry]),
    );
    expect(JSON.parse(journal.ownJsonAfter(4, 1)[0]!.json)).toEqual({
      source: 'h1',
      sourceSeq: 5,
      wallMs: 7,
      section: 'open',
      round: 2,
      record: press('1', 6),
    });
    journal.close();
  });

  it("hands the outbox the entries it just appended as the rows would read: the same text, a failed transaction's left out", () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-journal-'));
    const file = join(dir, 'journal.sqlite');
    const journal = new Journal(file, 'process', 'h1');
    // An outbox reads from the start (nothing yet): from here on the journal keeps what it appends.
    expect(journal.ownJsonAfter(0, 10)).toEqual([]);
    journal.append(press('1', 1), 11, { section: 'open', round: 1 });
    journal.appendAll([press('2', 2), press('3', 3)], 12, () => ({ section: 'b', round: 2 }));
    journal.copy({ source: 'h2', sourceSeq: 1, wallMs: 0, record: press('9', 4) });
    expect(() =>
      journal.transaction(() => {
        journal.append(press('4', 5));
        throw new Error('the batch fails');
      }),
    ).toThrow('the batch fails');
    journal.append(press('5', 6), 13);
    const appended = journal.ownJsonAfter(0, 10);
    expect(appended.map((e) => e.sourceSeq)).toEqual([1, 2, 3, 4]);
    expect(journal.ownJsonAfter(2, 1)).toEqual(appended.slice(2, 3));
    expect(journal.ownJsonAfter(4, 10)).toEqual([]);
    // A journal opened on the same file has appended nothing: it reads the rows.
    const reopened = new Journal(file, 'process', 'h1');
    expect(reopened.ownJsonAfter(0, 10)).toEqual(appended);
    expect(JSON.parse(appended[3]!.json)).toEqual({ source: 'h1', sourceSeq: 4, wallMs: 13, record: press('5', 6) });
    reopened.close();
    journal.close();
  });

  it('is a WAL SQLite file that keeps entries in order across reopening', () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-journal-'));
    const file = join(dir, 'journal.sqlite');
    const journal = new Journal(file);
    journal.setMeta({ round: cairnsRound(2), epochWallMs: 1_000, scale: 30 });
    const seqs = [
      journal.append(press('1', 10)),
      journal.append(press('2', 20)),
      journal.append({ kind: 'note', board: '1', note: { type: 'arbiterCall', at: 25, detail: 'claim' } }),
    ];
    expect(seqs).toEqual([1, 2, 3]);
    journal.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
    const again = new Journal(file);
    expect(again.meta()).toEqual({ round: cairnsRound(2), epochWallMs: 1_000, scale: 30 });
    expect([...again.entries()].map((e) => [e.seq, e.record])).toEqual([
      [1, press('1', 10)],
      [2, press('2', 20)],
      [3, { kind: 'note', board: '1', note: { type: 'arbiterCall', at: 25, detail: 'claim' } }],
    ]);
    expect([...again.entries(2)].map((e) => e.seq)).toEqual([3]);
    expect(again.lastAt()).toBe(25);
    expect(again.count()).toBe(3);
    again.close();
  });

  it('writes a batch all or nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-journal-'));
    const journal = new Journal(join(dir, 'journal.sqlite'));
    expect(journal.appendAll([press('1', 1), press('2', 1)])).toEqual([1, 2]);
    const bad = { kind: 'clock', board: '3', event: { type: 'press', side: 'white', at: undefined } } as unknown as JournalRecord;
    expect(() => journal.appendAll([press('3', 2), bad])).toThrow();
    expect(journal.count()).toBe(2);
    journal.close();
  });
});
