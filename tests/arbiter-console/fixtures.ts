// A small round on an injected clock, for exact assertions; a one-section event whose round 1 is such a
// round, for the tests that start a console (the console runs events only).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gameConfig } from '../../clock-engine/index.ts';
import { Journal, PlayingHall, manualSource, type ConsoleOptions, type ManualSource, type Round } from '../../arbiter-console/internal.ts';
import { emptyRecord, loadEvent, pairSwissRound, presetJson, type ZeitnotEvent } from '../../tournament/index.ts';

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

export interface OneSection {
  /** Boards of round 1 (twice as many players). */
  readonly boards: number;
  /** Default the Cairns Cup's (and `cairnsRound`'s) 40/5400+30:1800+30. */
  readonly timeControl?: string;
  /** Each board's white and black player; default 'White k' and 'Black k', as `cairnsRound`. */
  readonly players?: readonly (readonly [white: string, black: string])[];
  /** The event's (and its section's) name; default 'Test Cup', as `cairnsRound`. */
  readonly name?: string;
}

/**
 * The Cairns Cup 2019 rules (Laws 2018, 30 minutes default time, 30-move draw rule) with one section
 * ('main'), a one-round Dutch Swiss of `2 × boards` players whose round 1 seats each board's players as
 * given: the pairing is made first (distinct ratings, so names play no part in it), then the names.
 */
export function oneSectionEvent(options: OneSection): ZeitnotEvent {
  const name = options.name ?? 'Test Cup';
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { name: string; sections: Record<string, unknown>[] };
  json.name = name;
  const section = json.sections[0]!;
  section.name = name;
  section.format = { kind: 'swiss', system: 'dutch', rounds: 1 };
  section.schedule = (section.schedule as unknown[]).slice(0, 1);
  section.playoff = { kind: 'none' };
  section.tiebreaks = ['BH-C1', 'SB'];
  if (options.timeControl) section.timeControl = options.timeControl;
  const players = Array.from({ length: 2 * options.boards }, (_, i) => ({ id: i + 1, name: `Player ${i + 1}`, federation: 'USA', fideRating: 2700 - i }));
  section.players = players;
  const draft = loadEvent(json);
  const names = new Map<number, string>();
  pairSwissRound(draft, 'main', emptyRecord, 1).games.forEach((g, k) => {
    const [white, black] = options.players?.[k] ?? [`White ${k + 1}`, `Black ${k + 1}`];
    names.set(g.white, white);
    names.set(g.black, black);
  });
  section.players = players.map((p) => ({ ...p, name: names.get(p.id)! }));
  return loadEvent(json);
}

/**
 * A console's start options for `oneSectionEvent`: round 1 paired and published when the journal is
 * new, its clocks due `scheduledStart` round-time ms after the console's start time (the preset's
 * dates have passed: the console reschedules the round to its start plus this).
 */
export function oneSectionConsole(options: OneSection & { readonly scheduledStart?: number }): Pick<ConsoleOptions, 'event' | 'firstRound' | 'lateStartMs'> {
  return { event: oneSectionEvent(options), firstRound: true, lateStartMs: options.scheduledStart ?? 0 };
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

/**
 * A bare round (no event) on a new journal: journaled as its `seat` at 0, as an event console seats a
 * section's round (in the section of a bare round, MAIN), before the hall is built on the journal.
 */
export function seatBare(journal: Journal, round: Round): void {
  journal.setMeta({ epochWallMs: 0, scale: 1 });
  journal.appendAll([{ kind: 'seat', at: 0, round }]);
}

export function testHall(round = cairnsRound()): TestHall {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-'));
  const file = join(dir, 'journal.sqlite');
  const source = manualSource(0);
  const journal = new Journal(file);
  seatBare(journal, round);
  const t: TestHall = {
    dir,
    file,
    source,
    journal,
    hall: new PlayingHall(journal, source),
    reopen(at) {
      // A restart: the old hall's timers die with its process.
      t.hall.stop();
      t.journal.close();
      if (at !== undefined) source.set(at);
      t.journal = new Journal(file);
      t.hall = new PlayingHall(t.journal, source);
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
    for (const side of ['white', 'black'] as const)
      t.hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: t.source.now(), by: { kind: 'player', side } } });
  }
  t.source.set(at);
  for (const id of t.hall.boards.keys()) t.hall.record({ kind: 'clock', board: id, event: { type: 'start', at, by: { kind: 'system' } } });
}

export function press(t: TestHall, board: string, side: 'white' | 'black', at: number, san?: string): void {
  t.source.set(at);
  if (san) t.hall.record({ kind: 'clock', board, event: { type: 'boardMove', side, san, at, by: { kind: 'device', deviceId: 'test' } } });
  t.hall.record({ kind: 'clock', board, event: { type: 'press', side, at, by: { kind: 'device', deviceId: 'test' } } });
}

/**
 * The Cairns Cup with 40 players (round 1 has 20 boards) written as an event file in `dir`: what a
 * console started as a process with `--event FILE` plays on 20 virtual DGT boards.
 */
export function fortyPlayerEventFile(dir: string): string {
  const event = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  const section = event.sections[0]!;
  section.players = Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    name: `Player ${String(i + 1).padStart(2, '0')}`,
    federation: 'USA',
    fideRating: 2600 - i * 10,
  }));
  section.schedule = Array.from({ length: 39 }, (_, i) => new Date(Date.UTC(2019, 1, 6 + i, 19)).toISOString().replace('.000Z', '+00:00'));
  const file = join(dir, 'event.json');
  writeFileSync(file, JSON.stringify(event));
  return file;
}
