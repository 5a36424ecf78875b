// From an event file (tournament part) to the console's round: boards, players, one game config.
import { gameConfig } from '../clock-engine/index.ts';
import { findSection, quickplayFinishOf, roundBoards, type Pairing, type ZeitnotEvent } from '../tournament/index.ts';
import { checkRound, type Round } from './round.ts';

export interface RoundChoice {
  /** Section id; default the event's first section. */
  readonly section?: string;
  /** 1-based; default 1. */
  readonly round?: number;
  /** Overrides the event's scheduled start (a simulated or rescheduled round), epoch ms. */
  readonly startWallMs?: number;
  /**
   * The round's pairing, in board order (a Swiss round: swissRoundPairing). Its bye is no board;
   * the tournament desk scores it. Without it, round robins follow the Berger table.
   */
  readonly pairings?: { readonly games: readonly Pairing[]; readonly bye: number | null };
}

/**
 * `toMonotonic` maps wall time to the console's monotonic scale (the journal's epoch and time scale):
 * the engine counts the default time from the scheduled start on that scale.
 */
export function roundFromEvent(event: ZeitnotEvent, choice: RoundChoice, toMonotonic: (wallMs: number) => number): Round {
  const section = findSection(event, choice.section ?? event.sections[0]!.id);
  const number = choice.round ?? 1;
  const setup = roundBoards(event, section.id, number, choice.pairings);
  const first = setup.boards[0];
  if (!first) throw new Error(`round ${number} of '${section.id}' has no boards (pairings not made yet?)`);
  const startWallMs = choice.startWallMs ?? first.scheduledStartMs;
  const laws = event.lawsEdition === 'L2009' ? '2009' : event.lawsEdition === 'L2018' ? '2018' : '2023';
  const game = gameConfig(section.timeControl, {
    scheduledStart: toMonotonic(startWallMs),
    defaultTimeMs: section.defaultTimeMinutes * 60_000,
    // L2009 6.6: late = loss. L2018/L2023 6.7.1: loss "unless the arbiter decides otherwise".
    lateArrival: laws === '2009' ? 'forfeit' : 'arbiter-decides',
    lawsEdition: laws,
    drawOfferMinMove: event.drawRule?.minMoves ?? 0,
    defaultTimeBoundary: section.defaultTimeBoundary,
    quickplayClaim: quickplayFinishOf(event, section),
    supervision: section.supervision,
  });
  const startIso = new Date(startWallMs).toISOString();
  return checkRound({
    event: section.name === event.name || event.sections.length === 1 ? event.name : `${event.name} – ${section.name}`,
    site: [event.city, event.federation].filter(Boolean).join(' ') || '?',
    round: number,
    date: (choice.startWallMs === undefined ? first.scheduledStart : startIso).slice(0, 10).replace(/-/g, '.'),
    scheduledStart: startIso,
    game,
    boards: setup.boards.map((b) => ({ id: String(b.board), white: b.white.name, black: b.black.name })),
  });
}
