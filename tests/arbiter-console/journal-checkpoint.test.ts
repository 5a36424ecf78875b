// The journal's WAL is checkpointed by a thread of its own (arbiter-console/journal/journal-checkpoint.ts), not
// inside an append on the event loop: the database file fills while the journal only appends, and the
// thread never keeps a process alive.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../arbiter-console/index.ts';
import { until } from '../support/wait.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const note = (at: number): JournalRecord => ({ kind: 'note', board: '1', note: { type: 'arbiterCall', at, detail: 'x'.repeat(200) } });
const size = (file: string): number => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

describe('journal checkpoints', () => {
  it('fill the database file by themselves while the journal only appends', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-checkpoint-'));
    const file = join(dir, 'journal.sqlite');
    const journal = new Journal(file);
    let at = 0;
    for (let burst = 1; burst <= 5; burst++) {
      for (let i = 0; i < 500; i++) journal.append(note(at++));
      // 500 entries of ~300 bytes each: the database file holds them once a checkpoint copied them.
      await until(() => size(file) >= burst * 500 * 300, `checkpoint ${burst}`, 60_000);
    }
    expect(journal.count()).toBe(2_500);
    journal.close();
    const again = new Journal(file);
    expect(again.count()).toBe(2_500);
    again.close();
  });

  it('keep the WAL bounded while writes never stop (a passive checkpoint alone never empties it)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-checkpoint-'));
    const file = join(dir, 'journal.sqlite');
    const limit = 2 * 1024 * 1024;
    const journal = new Journal(file, 'process', 'console', limit);
    let at = 0;
    let largest = 0;
    let emptied = false;
    const deadline = Date.now() + 60_000;
    // Bursts with only a microtask between them: the checkpoint thread never finds the writer idle.
    while (!emptied && Date.now() < deadline) {
      for (let i = 0; i < 200; i++) journal.append(note(at++));
      const wal = size(`${file}-wal`);
      if (wal < largest / 2) emptied = true;
      largest = Math.max(largest, wal);
      await Promise.resolve();
      if (at % 2_000 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(emptied, `the WAL reached ${largest} bytes and was never emptied`).toBe(true);
    expect(largest).toBeGreaterThan(limit);
    expect(journal.count()).toBe(at);
    journal.close();
  });

  it('never keep a process alive: a script that leaves its journal open exits by itself', () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-checkpoint-'));
    const script = join(dir, 'open-and-leave.mts');
    const journalModule = resolve('arbiter-console/index.ts');
    const source = `import { Journal } from ${JSON.stringify(journalModule)};\nconst j = new Journal(${JSON.stringify(join(dir, 'j.sqlite'))});\nj.append({ kind: 'note', board: '1', note: { type: 'arbiterCall', at: 1, detail: 'left open' } });\n`;
    writeFileSync(script, source);
    const run = spawnSync(process.execPath, ['bin/run-ts.js', script], { timeout: 60_000, encoding: 'utf8' });
    expect(run.error?.message, 'the process did not exit by itself').toBeUndefined();
    expect(run.status, run.stderr).toBe(0);
  });
});
