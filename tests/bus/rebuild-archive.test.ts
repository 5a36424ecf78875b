// A console rebuilt from a snapshot late in an event keeps the finished round's clock entries archived
// (docs/hall.md, "Rebuild": journal-archive.ts) and is the console it was rebuilt from, entry for entry
// and view for view: its boards, its desk, a past round's board history and export. A real
// `nats-server -js`; console c1 starts on a journal of two rounds (round 2 seated, started and a few
// presses in: no board snapshot, c2's hall folds every entry, the archived ones read back; or 20
// presses in: c1's start writes the boards' snapshots, which hold round 2's entries, archived too, and
// c2's hall starts from them), writes its snapshot; c2 starts on an empty data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boardHistory, Journal, type JournalRecord, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { presetEvent } from '../../tournament/index.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { shifted } from '../support/shifted-record.ts';

const press = (board: string, side: 'white' | 'black', at: number): JournalRecord => ({
  kind: 'clock',
  board,
  event: { type: 'press', side, at, by: { kind: 'device', deviceId: `d${board}` } },
});

/** Round 1 paired, seated, started and 20 presses a board; round 2 the same records again, then `later` presses a board. */
async function twoRounds(dataDir: string, later: number): Promise<void> {
  const event = presetEvent('cairns-cup-2019');
  const run = await startConsole({ dataDir, port: 0, noPage: true, event, firstRound: true });
  run.hall.command({ type: 'arriveAll' }, 'test');
  run.hall.command({ type: 'startAll' }, 'test');
  const boards = run.hall.round.boards.map((b) => b.id);
  const section = run.hall.round.section!;
  await run.stop();
  const journal = new Journal(join(dataDir, 'journal.sqlite'));
  const opening = [...journal.entries()];
  const start = journal.lastAt();
  const presses = (round: number, from: number, n: number): void => {
    for (let k = 0; k < n; k++)
      for (const b of boards) journal.append(press(b, k % 2 === 0 ? 'white' : 'black', from + (k + 1) * 10_000), 0, { section, round });
  };
  presses(1, start, 20);
  const shift = journal.lastAt() + 60_000;
  for (const e of opening)
    journal.append(shifted(e.record, shift, 2), 0, {
      ...(e.section !== undefined ? { section: e.section } : {}),
      ...(e.round !== undefined ? { round: 2 } : {}),
    });
  presses(2, journal.lastAt(), later);
  journal.close();
}

const entries = (run: RunningConsole): unknown[] => [...run.journal.entries()];
const views = (run: RunningConsole): unknown => ({
  boards: run.hall.views().map(({ host: _, ...view }) => view),
  desk: run.desk.record(),
  current: run.desk.currentRound,
});

describe('a console rebuilt late in an event', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-rebuild-archive-'));
  let server: NatsServer | undefined;
  const runs: RunningConsole[] = [];
  afterAll(async () => {
    for (const r of runs) await r.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    { later: 3, boards: 0, archived: 5 * 23 },
    { later: 20, boards: 5, archived: 5 * 23 + 5 * 23 },
  ])(
    "keeps the finished round's clock entries archived and equals the console it came from, entry for entry and view for view ($later presses in round 2)",
    async ({ later, boards, archived }) => {
      // Each case its own run of the event: a bus of its own.
      for (const r of runs.splice(0)) await r.stop();
      await server?.close();
      server = await startNats();
      const c1Dir = join(dir, `c1-${later}`);
      await twoRounds(c1Dir, later);
      const bus = (consoleId: string) => ({ bus: { servers: [server!.url] }, consoleId, snapshotEveryEntries: 0 });
      const c1 = await startConsole({ dataDir: c1Dir, port: 0, noPage: true, bus: bus('c1') });
      runs.push(c1);
      expect(await c1.onBus!.writeSnapshot()).toBeDefined();
      const c2 = await startConsole({ dataDir: join(dir, `c2-${later}`), port: 0, noPage: true, event: presetEvent('cairns-cup-2019'), bus: bus('c2') });
      runs.push(c2);
      expect(c2.onBus?.restored?.from).toBe('c1');
      expect(c2.onBus!.restored!.boards).toBe(boards);
      // Round 1's clock entries are archived (a finished round: arrivals, start, 20 presses a board); round 2's too when the boards' snapshots hold them.
      expect([...c1.journal.entries(0, 'clock', { round: 1 })]).toHaveLength(5 * 23);
      expect(c2.onBus!.restored!.archived).toBe(archived);
      expect(c2.journal.count()).toBe(c1.journal.count());
      expect(entries(c2)).toEqual(entries(c1));
      expect(views(c2)).toEqual(views(c1));
      for (const board of ['1', '5']) {
        expect(boardHistory(c2.journal, board, { section: c1.hall.round.section!, round: 1 })).toEqual(
          boardHistory(c1.journal, board, { section: c1.hall.round.section!, round: 1 }),
        );
        expect(boardHistory(c2.journal, board, { section: c1.hall.round.section!, round: 1 }).length).toBeGreaterThan(20);
      }
      const round1 = (run: RunningConsole): unknown[] => [...run.journal.entries(0, undefined, { section: c1.hall.round.section!, round: 1 })];
      expect(round1(c2)).toEqual(round1(c1));
    },
    120_000,
  );
});
