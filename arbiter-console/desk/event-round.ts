// From an event file (tournament part) to the console's round: boards, players (by id), one game config.
import { findSection, hallBoardNumbers, roundBoards, sectionGameConfig, type Pairing, type ZeitnotEvent } from '../../tournament/index.ts';
import { withDeviceTimekeepers, type DeviceSpec } from '../devices/index.ts';
import { checkRound, seatedPlayers, type Round } from '../contract/index.ts';
import type { SeatRound } from './tournament-desk.ts';

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
  const game = sectionGameConfig(event, section.id, { scheduledStart: toMonotonic(startWallMs) });
  const startIso = new Date(startWallMs).toISOString();
  return checkRound({
    event: section.name === event.name || event.sections.length === 1 ? event.name : `${event.name} – ${section.name}`,
    site: [event.city, event.federation].filter(Boolean).join(' ') || '?',
    round: number,
    date: (choice.startWallMs === undefined ? first.scheduledStart : startIso).slice(0, 10).replace(/-/g, '.'),
    scheduledStart: startIso,
    game,
    boards: setup.boards.map((b) => ({ id: String(b.board), sectionBoard: b.board, ...seatedPlayers(b.white, b.black) })),
  });
}

export interface SeatOptions {
  /** Wall ms → the console's monotonic ms (the journal's epoch and scale). */
  readonly toMonotonic: (wallMs: number) => number;
  /** The console's monotonic now. */
  readonly now: () => number;
  /** Wall time now, on the console's (possibly accelerated) scale. */
  readonly wallNow: () => number;
  /** Monotonic ms per real ms. */
  readonly scale: number;
  /** A round seated after its scheduled start starts this many monotonic ms after now. */
  readonly lateStartMs: number;
  readonly devices: readonly DeviceSpec[];
}

/**
 * How an event console seats a section's published round: the section's clock settings, its hall board
 * numbers (event file `hallBoards`, default after the previous sections'), the devices' timekeepers.
 * A round seated after its scheduled start (a preset of a past event, or a late pairing) is rescheduled
 * to now (plus `lateStartMs`): the default time counts from the start the players were told.
 */
export function seatFor(event: ZeitnotEvent, sectionId: string, options: SeatOptions): SeatRound {
  const numbers = hallBoardNumbers(event, sectionId);
  return (round, pairing, current) => {
    const scheduled = Date.parse(findSection(event, sectionId).schedule[round - 1]!);
    const wallNow = options.wallNow();
    const startWallMs = scheduled > wallNow ? undefined : Math.ceil(wallNow + options.lateStartMs / options.scale);
    const base = roundFromEvent(
      current,
      { section: sectionId, round, pairings: pairing, ...(startWallMs !== undefined ? { startWallMs } : {}) },
      options.toMonotonic,
    );
    const boards = base.boards.map((b, k) => {
      const hall = numbers[k];
      if (hall === undefined) throw new RangeError(`section '${sectionId}' has ${numbers.length} hall boards, round ${round} needs ${base.boards.length}`);
      return { ...b, id: String(hall) };
    });
    return withDeviceTimekeepers({ ...base, section: sectionId, boards }, options.devices);
  };
}
