// A small round on an injected clock, for exact assertions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gameConfig } from '../../clock-engine/index.ts';
import { Journal, PlayingHall, manualSource, type ManualSource, type Round } from '../../arbiter-console/internal.ts';

export const MIN = 60_000;

export function cairnsRound(boards = 3, scheduledStart = 10_000): Round {
  const game = gameConfig('40/5400+30:1800+30', {
    scheduledStart,
    defaultTimeMs: 30 * MIN,
    lateArrival: 'arbiter-decides',
    lawsEdition: '2018',
    drawOfferMinMove: 30,
  });
  return {
    event: 'Test Cup',
    site: 'Saint Louis USA',
    round: 1,
    date: '2019.02.06',
    scheduledStart: '2019-02-06T19:00:00Z',
    game,
    boards: Array.from({ length: boards }, (_, i) => ({ id: String(i + 1), white: `White ${i + 1}`, black: `Black ${i + 1}` })),
  };
}

export interface TestHall {
  readonly dir: string;
  readonly file: string;
  readonly source: ManualSource;
  hall: PlayingHall;
  journal: Journal;
  /** Closes the journal and opens the same file again: what a restart does. */
  reopen(at?: number): PlayingHall;
  cleanup(): void;
}

export function testHall(round = cairnsRound()): TestHall {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-'));
  const file = join(dir, 'journal.sqlite');
  const source = manualSource(0);
  const journal = new Journal(file);
  journal.setMeta({ round, epochWallMs: 0, scale: 1 });
  const t: TestHall = {
    dir,
    file,
    source,
    journal,
    hall: new PlayingHall(round, journal, source),
    reopen(at) {
      // A restart: the old hall's timers die with its process.
      t.hall.stop();
      t.journal.close();
      if (at !== undefined) source.set(at);
      t.journal = new Journal(file);
      t.hall = new PlayingHall(t.journal.meta()!.round, t.journal, source);
      return t.hall;
    },
    cleanup() {
      t.hall.stop();
      try {
        t.journal.close();
      } catch {
        // already closed
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Everyone present, clocks started at `at`. */
export function startAll(t: TestHall, at: number): void {
  for (const id of t.hall.boards.keys()) {
    for (const side of ['white', 'black'] as const) t.hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: t.source.now(), by: { kind: 'player', side } } });
  }
  t.source.set(at);
  for (const id of t.hall.boards.keys()) t.hall.record({ kind: 'clock', board: id, event: { type: 'start', at, by: { kind: 'system' } } });
}

export function press(t: TestHall, board: string, side: 'white' | 'black', at: number, san?: string): void {
  t.source.set(at);
  if (san) t.hall.record({ kind: 'clock', board, event: { type: 'boardMove', side, san, at, by: { kind: 'device', deviceId: 'test' } } });
  t.hall.record({ kind: 'clock', board, event: { type: 'press', side, at, by: { kind: 'device', deviceId: 'test' } } });
}
