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
