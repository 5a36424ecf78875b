// Small events for the tournament desk tests: a 4-player round robin (Cairns Cup rules: tie-breaks,
// playoff ladder, fines), a 6-player Dutch Swiss of 3 rounds, with their round 1 as a console round,
// and an event of both kinds of section in one hall.
import { loadEvent, pairSwissRound, emptyRecord, presetJson, roundBoards, type Pairing, type ZeitnotEvent } from '../../tournament/index.ts';
import type { Round } from '../../arbiter-console/index.ts';
import { cairnsRound } from './fixtures.ts';

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
  const swiss = { ...base, id: 'open', name: 'Open', format: { kind: 'swiss', system: 'dutch', rounds: 3 }, players: (base.players as unknown[]).slice(0, 6), schedule: (base.schedule as unknown[]).slice(0, 3), playoff: { kind: 'none' }, tiebreaks: ['BH-C1', 'SB'] };
  const rr = { ...base, id: 'rr', name: 'Round robin', players: (base.players as unknown[]).slice(6, 10).map((p, i) => ({ ...(p as object), id: i + 1 })), schedule: (base.schedule as unknown[]).slice(0, 3) };
  json.sections = [swiss, rr];
  return loadEvent(json);
}

/** The console round of a section's round: the clock settings of the test fixture, the event's players. */
export function consoleRound(event: ZeitnotEvent, round: number, pairings?: { games: readonly Pairing[]; bye?: number | null }): Round {
  const setup = roundBoards(event, event.sections[0]!.id, round, pairings);
  const base = cairnsRound(setup.boards.length);
  // As tournament/clocks.ts sets a tournament board: the default time forfeits an absent player.
  return { ...base, game: { ...base.game, lateArrival: 'forfeit' }, round, boards: setup.boards.map((b) => ({ id: String(b.board), white: b.white.name, black: b.black.name, whiteId: b.white.id, blackId: b.black.id })) };
}

export const swissRoundOne = (event: ZeitnotEvent) => pairSwissRound(event, event.sections[0]!.id, emptyRecord, 1);
