// Small events for the tournament desk tests: a 4-player round robin (Cairns Cup rules: tie-breaks,
// playoff ladder, fines), a 6-player Dutch Swiss of 3 rounds, with their round 1 as a console round,
// and an event of both kinds of section in one hall; a section's desk next to its hall, as an event
// console builds them, on a real journal and an injected clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvent, pairSwissRound, emptyRecord, presetJson, roundBoards, type Pairing, type ZeitnotEvent } from '../../tournament/index.ts';
import { Journal, PlayingHall, TournamentDesk, manualSource, seatFor, type HallOptions, type Round } from '../../arbiter-console/internal.ts';
import { cairnsRound, type TestHall } from './fixtures.ts';

function variant(change: (section: Record<string, unknown>) => void): ZeitnotEvent {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  change(json.sections[0]!);
  return loadEvent(json);
}

/** Cairns Cup 2019 rules with four players: three rounds, players "Cairns player 01".."04". */
export function smallRoundRobin(): ZeitnotEvent {
  return variant((s) => {
    s.players = (s.players as unknown[]).slice(0, 4);
    s.schedule = (s.schedule as unknown[]).slice(0, 3);
  });
}

/** Six players (or `players`), a 3-round Dutch Swiss, no playoff. */
export function smallSwiss(players = 6): ZeitnotEvent {
  return variant((s) => {
    s.format = { kind: 'swiss', system: 'dutch', rounds: 3 };
    s.players = (s.players as unknown[]).slice(0, players);
    s.schedule = (s.schedule as unknown[]).slice(0, 3);
    s.playoff = { kind: 'none' };
    s.tiebreaks = ['BH-C1', 'SB', 'PS'];
  });
}

/** A 6-player Swiss of 3 rounds ('open') and a 4-player round robin ('rr') in one hall. */
export function twoSections(): ZeitnotEvent {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  const base = json.sections[0]!;
  const swiss = {
    ...base,
    id: 'open',
    name: 'Open',
    format: { kind: 'swiss', system: 'dutch', rounds: 3 },
    players: (base.players as unknown[]).slice(0, 6),
    schedule: (base.schedule as unknown[]).slice(0, 3),
    playoff: { kind: 'none' },
    tiebreaks: ['BH-C1', 'SB'],
  };
  const rr = {
    ...base,
    id: 'rr',
    name: 'Round robin',
    players: (base.players as unknown[]).slice(6, 10).map((p, i) => ({ ...(p as object), id: i + 1 })),
    schedule: (base.schedule as unknown[]).slice(0, 3),
  };
  json.sections = [swiss, rr];
  return loadEvent(json);
}

/** The console round of a section's round: the clock settings of the test fixture, the event's players. */
export function consoleRound(event: ZeitnotEvent, round: number, pairings?: { games: readonly Pairing[]; bye?: number | null }): Round {
  const setup = roundBoards(event, event.sections[0]!.id, round, pairings);
  const base = cairnsRound(setup.boards.length);
  // As tournament/clocks.ts sets a tournament board: the default time forfeits an absent player.
  return {
    ...base,
    game: { ...base.game, lateArrival: 'forfeit' },
    round,
    boards: setup.boards.map((b) => ({ id: String(b.board), white: b.white.name, black: b.black.name, whiteId: b.white.id, blackId: b.black.id })),
  };
}

export const swissRoundOne = (event: ZeitnotEvent) => pairSwissRound(event, event.sections[0]!.id, emptyRecord, 1);

export interface TestDesk extends TestHall {
  /** The section's desk (rebuilt from the journal by `reopen`). */
  desk: TournamentDesk;
}

/**
 * The desk of the event's first section and the hall it seats its rounds on, built as an event console
 * builds them (no server, no devices). With `publish` (the default) round 1 is paired and published at
 * once: its clocks are due at 10 s, as `consoleRound`'s. The preset's dates have passed, so the round
 * is rescheduled to the hall's time of seating (0) plus those 10 s.
 */
export function testDesk(event: ZeitnotEvent, options: { readonly publish?: boolean; readonly hall?: HallOptions } = {}): TestDesk {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-desk-'));
  const file = join(dir, 'journal.sqlite');
  const source = manualSource(0);
  const epochWallMs = Date.now();
  const section = event.sections[0]!.id;
  const seat = seatFor(event, section, {
    toMonotonic: (wallMs) => wallMs - epochWallMs,
    now: () => source.now(),
    wallNow: () => epochWallMs + source.now(),
    scale: 1,
    lateStartMs: 10_000,
    devices: [],
  });
  const build = (journal: Journal): { hall: PlayingHall; desk: TournamentDesk } => {
    const hall = new PlayingHall(
      journal,
      source,
      event.sections.map((s) => s.id),
      options.hall ?? {},
    );
    return { hall, desk: TournamentDesk.forSection(hall, event, section, seat) };
  };
  const journal = new Journal(file);
  journal.setMeta({ event, epochWallMs, scale: 1 });
  const t: TestDesk = {
    dir,
    file,
    source,
    journal,
    ...build(journal),
    reopen(at) {
      // A restart: the old hall's timers die with its process.
      t.hall.stop();
      t.journal.close();
      if (at !== undefined) source.set(at);
      t.journal = new Journal(file);
      ({ hall: t.hall, desk: t.desk } = build(t.journal));
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
  if (options.publish ?? true) {
    for (const type of ['pairNextRound', 'publishRound'] as const) {
      const done = t.desk.command({ type, section }, 'IA');
      if (!done.ok) throw new Error(`round 1 not ${type === 'pairNextRound' ? 'paired' : 'published'}: ${done.reason}`);
    }
  }
  return t;
}
