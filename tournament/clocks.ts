// Clock settings for a round's boards and for playoff games, from the event file: the clock engine
// runs them (createGameClock for live boards, replayGame for a journal).
import { gameConfig, type GameConfig } from '../clock-engine/index.ts';
import type { RoundBoard } from './boards.ts';
import { findSection, quickplayFinishOf, type ZeitnotEvent } from './event.ts';
import type { PlayoffGame } from './playoff.ts';

const lawsEdition = { L2009: '2009', L2018: '2018', L2023: '2023' } as const;

/** Maps an epoch instant to the console's monotonic time base (identity by default). */
export type ToMonotonic = (epochMs: number) => number;

/** The game clock of one board of a round: time control, default time, draw rule, Article 10.2. */
export function boardGameConfig(event: ZeitnotEvent, sectionId: string, board: RoundBoard, toMonotonic: ToMonotonic = (ms) => ms): GameConfig {
  const section = findSection(event, sectionId);
  return gameConfig(board.timeControl, {
    scheduledStart: toMonotonic(board.scheduledStartMs),
    defaultTimeMs: board.defaultTimeMinutes * 60_000,
    defaultTimeBoundary: section.defaultTimeBoundary,
    lawsEdition: lawsEdition[event.lawsEdition],
    drawOfferMinMove: event.drawRule?.minMoves ?? 0,
    quickplayClaim: quickplayFinishOf(event, section),
    supervision: section.supervision,
    autoStart: true,
  });
}

/** The game clock of a playoff game (players present: the arbiter starts it; no default time). */
export function playoffGameConfig(event: ZeitnotEvent, game: PlayoffGame, scheduledStart: number, sectionId = event.sections[0]!.id): GameConfig {
  // Playoff games are rapid or blitz: the section's supervision decides which Appendix applies.
  const section = findSection(event, sectionId);
  return gameConfig(game.timeControl, {
    supervision: section.supervision,
    scheduledStart,
    lateArrival: 'arbiter-decides',
    lawsEdition: lawsEdition[event.lawsEdition],
    drawOfferMinMove: event.drawRule?.appliesToPlayoffs ? event.drawRule.minMoves : 0,
    armageddon: game.armageddon,
    autoStart: false,
  });
}
