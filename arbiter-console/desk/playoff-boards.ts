// A section's playoff played on the hall's own boards and clocks. Each sitting (the playoff games that
// can be played side by side: a match game by game, a round robin round by round) is seated as a round
// of the section's playoff hall section `<section>/playoff` on the section's first hall boards, with
// the stage's time control (G/45+5, G/10+5, 5-minute games, Armageddon W5-B4 with draw odds to Black).
// When a board's game ends on the clock its result is the playoff game's; when every game of the
// sitting has one, the playoff decides the next stage by itself and the next sitting is seated.
import {
  findSection,
  hallBoardNumbers,
  playoffGameConfig,
  playoffSitting,
  type EventPlayer,
  type PlayoffGame,
  type PlayoffState,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import { withDeviceTimekeepers, type DeviceSpec } from '../devices/index.ts';
import type { PlayingHall } from '../hall/index.ts';
import { checkRound, seatedPlayers, type Round } from '../contract/index.ts';
import type { TournamentRecord } from '../contract/index.ts';

/** The hall section a section's playoff games are seated in ('/' is never in a section id). */
export const playoffHallSection = (section: string): string => `${section}/playoff`;

/**
 * Builds the round of one sitting of playoff games (`sitting` counts from 1 over the whole playoff), its
 * players taken by pairing number from `event` as the desk knows it.
 */
export type SeatPlayoff = (sitting: number, games: readonly PlayoffGame[], event: ZeitnotEvent) => Round;

export interface PlayoffSeatOptions {
  /** The console's monotonic now: a sitting is due at once, the arbiter starts its clocks. */
  readonly now: () => number;
  /** Wall time now, on the console's (possibly accelerated) scale. */
  readonly wallNow: () => number;
  readonly devices: readonly DeviceSpec[];
}

export function playoffSeatFor(event: ZeitnotEvent, sectionId: string, options: PlayoffSeatOptions): SeatPlayoff {
  const section = findSection(event, sectionId);
  const numbers = hallBoardNumbers(event, sectionId);
  const title = section.name === event.name || event.sections.length === 1 ? event.name : `${event.name} – ${section.name}`;
  return (sitting, games, current) => {
    const players = findSection(current, sectionId).players;
    const player = (id: number): EventPlayer => {
      const found = players.find((p) => p.id === id);
      if (!found) throw new RangeError(`section '${sectionId}' has no player ${id}`);
      return found;
    };
    const first = games[0];
    if (!first) throw new RangeError('a playoff sitting needs at least one game');
    if (games.length > numbers.length)
      throw new RangeError(`section '${sectionId}' has ${numbers.length} hall boards, the playoff sitting needs ${games.length}`);
    const wall = new Date(options.wallNow()).toISOString();
    const round: Round = {
      section: playoffHallSection(sectionId),
      event: `${title} – playoff`,
      site: [event.city, event.federation].filter(Boolean).join(' ') || '?',
      round: sitting,
      date: wall.slice(0, 10).replace(/-/g, '.'),
      scheduledStart: wall,
      game: playoffGameConfig(event, first, options.now(), sectionId),
      boards: games.map((g, k) => ({ id: String(numbers[k]), ...seatedPlayers(player(g.white), player(g.black)), playoffGame: g.id })),
    };
    return withDeviceTimekeepers(checkRound(round), options.devices);
  };
}

/** What the playoff's boards call for now: results their clocks gave, and the next sitting to seat. */
export interface PlayoffBoardsStep {
  readonly results: readonly Extract<TournamentRecord, { type: 'playoffResult' }>[];
  /** The next sitting's games, when every game on the boards has its result. */
  readonly next: readonly PlayoffGame[];
  /** The sitting on the boards now (0: none yet). */
  readonly sitting: number;
}

/**
 * Reads the playoff's hall boards against the playoff state. Both are rebuilt from the journal, so a
 * console killed between a clock result and its playoff record, or before the next sitting was
 * seated, finds the same step on restart and takes it.
 */
export function playoffBoardsStep(hall: PlayingHall, section: string, state: PlayoffState): PlayoffBoardsStep {
  const seated = hall.seated.get(playoffHallSection(section));
  const pending = new Set(state.games.filter((g) => g.result === undefined).map((g) => g.game.id));
  const results: Extract<TournamentRecord, { type: 'playoffResult' }>[] = [];
  for (const info of seated?.boards ?? []) {
    const board = hall.boards.get(info.id);
    const result = board && board.round === seated ? board.state.result : undefined;
    if (info.playoffGame === undefined || !result || !pending.has(info.playoffGame)) continue;
    results.push({ type: 'playoffResult', game: info.playoffGame, result: result.result, board: info.id, termination: result.termination, by: 'clock' });
    pending.delete(info.playoffGame);
  }
  const stillPlaying = seated?.boards.some((b) => b.playoffGame !== undefined && pending.has(b.playoffGame)) ?? false;
  return { results, next: results.length > 0 || stillPlaying ? [] : playoffSitting(state), sitting: seated?.round ?? 0 };
}
