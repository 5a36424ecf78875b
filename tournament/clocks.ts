// The one place where an event section becomes a game's clock rules (docs/clock-rules.md): the
// console seats its rounds and playoff sittings with them, the simulations and the Laws-edition
// tests fold with them, so what is tested is what runs.
import { gameConfig, type GameConfig } from '../clock-engine/index.ts';
import { findSection, lateArrivalOf, quickplayFinishOf, type ZeitnotEvent } from './event.ts';
import type { PlayoffGame } from './playoff.ts';

const lawsEdition = { L2009: '2009', L2018: '2018', L2023: '2023' } as const;

/** When a game's clock is due and who starts it. */
export interface GameStart {
  /** The scheduled start of the round (or playoff sitting) on the caller's monotonic scale. */
  readonly scheduledStart: number;
  /**
   * The clock starts itself at `scheduledStart` (a game replayed or simulated without an arbiter);
   * default: it waits for the arbiter's start (the console's startAll).
   */
  readonly autoStart?: boolean;
}

/**
 * The rules of every game of a section's rounds: its time control, default time and its boundary,
 * what a player absent at its end gets (lateArrivalOf: the regulations', else the Laws'), the Laws
 * edition, the draw rule, the quickplay-finish claim, the supervision of rapid and blitz games and the
 * FIDE category (the section's where the regulations set it, else FIDE's under the edition).
 */
export function sectionGameConfig(event: ZeitnotEvent, sectionId: string, start: GameStart): GameConfig {
  const section = findSection(event, sectionId);
  return gameConfig(section.timeControl, {
    scheduledStart: start.scheduledStart,
    defaultTimeMs: section.defaultTimeMinutes * 60_000,
    defaultTimeBoundary: section.defaultTimeBoundary,
    lateArrival: lateArrivalOf(event, section),
    ...(section.lateArrival !== undefined && section.lateArrivalRule !== undefined ? { lateArrivalRule: section.lateArrivalRule } : {}),
    lawsEdition: lawsEdition[event.lawsEdition],
    drawOfferMinMove: event.drawRule?.minMoves ?? 0,
    quickplayClaim: quickplayFinishOf(event, section),
    supervision: section.supervision,
    // The regulations' category where they set one; else gameConfig's, FIDE's under the edition.
    ...(section.category !== undefined ? { category: section.category } : {}),
    ...(start.autoStart !== undefined ? { autoStart: start.autoStart } : {}),
  });
}

/**
 * The rules of a playoff game: the stage's time control (Armageddon's draw odds) and its category under
 * the edition, the draw rule only where the regulations extend it to playoffs, no default time (the tied
 * players are there: the arbiter starts the clocks and rules on an absence), and the section's
 * quickplay finish: under L2009 Article 10.2 holds in rapid and in adequately supervised blitz as in
 * standard play (A.3, B.2; B.3 b takes it away only without adequate supervision, which quickplayRule
 * decides per game), so Donostia's 5-minute playoff keeps it.
 */
export function playoffGameConfig(event: ZeitnotEvent, game: PlayoffGame, scheduledStart: number, sectionId = event.sections[0]!.id): GameConfig {
  // Playoff games are rapid or blitz: the section's supervision decides which Appendix applies.
  const section = findSection(event, sectionId);
  return gameConfig(game.timeControl, {
    supervision: section.supervision,
    scheduledStart,
    lateArrival: 'arbiter-decides',
    lawsEdition: lawsEdition[event.lawsEdition],
    drawOfferMinMove: event.drawRule?.appliesToPlayoffs ? event.drawRule.minMoves : 0,
    quickplayClaim: quickplayFinishOf(event, section),
    armageddon: game.armageddon,
    autoStart: false,
  });
}
