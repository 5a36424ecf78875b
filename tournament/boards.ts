// A round's boards as the arbiter sets them up: who sits where, the clock setting and the default time.
import { bergerSchedule } from './berger.ts';
import { findSection, sectionRounds, type EventPlayer, type ZeitnotEvent } from './event.ts';

/**
 * The hall board numbers of a section, its board 1 first: as the event file says (`hallBoards`), or
 * after the previous sections' boards (each section needs as many as half its players, rounded up).
 */
export function hallBoardNumbers(event: ZeitnotEvent, sectionId: string): number[] {
  let next = 1;
  for (const section of event.sections) {
    const needed = Math.ceil(section.players.length / 2);
    const spec = section.hallBoards;
    const numbers = Array.isArray(spec) ? [...spec] : Array.from({ length: needed }, (_, k) => (spec?.first ?? next) + k);
    if (section.id === sectionId) return numbers;
    next = Math.max(next, ...numbers.map((n) => n + 1));
  }
  throw new RangeError(`event '${event.id}' has no section '${sectionId}' (sections: ${event.sections.map((s) => s.id).join(', ')})`);
}

export interface Pairing {
  readonly white: number;
  readonly black: number;
}

export interface RoundBoard {
  readonly board: number;
  readonly white: EventPlayer;
  readonly black: EventPlayer;
  /** The section's time-control string (clock-engine's parseTimeControl reads it). */
  readonly timeControl: string;
  readonly defaultTimeMinutes: number;
  /** ISO date-time with offset. */
  readonly scheduledStart: string;
  /** Epoch ms of the scheduled start. */
  readonly scheduledStartMs: number;
  /** Epoch ms after which an absent player loses by default. */
  readonly defaultTimeEndsMs: number;
}

export interface RoundSetup {
  readonly round: number;
  readonly boards: readonly RoundBoard[];
  /** The pairing-allocated bye (round robin with an odd field, or the Swiss engine's PAB). */
  readonly bye: EventPlayer | null;
}

/**
 * The boards of `round` (1-based) in a section. Round robins follow the Berger table; Swiss
 * sections need the round's `pairings` (from the pairing engine), in board order.
 */
export function roundBoards(
  event: ZeitnotEvent,
  sectionId: string,
  round: number,
  pairings?: { readonly games: readonly Pairing[]; readonly bye?: number | null },
): RoundSetup {
  const section = findSection(event, sectionId);
  const rounds = sectionRounds(section);
  if (!Number.isInteger(round) || round < 1 || round > rounds) {
    throw new RangeError(`section '${sectionId}' has rounds 1..${rounds}, not ${round}`);
  }
  let games: readonly Pairing[];
  let bye: number | null;
  if (pairings) {
    games = pairings.games;
    bye = pairings.bye ?? null;
  } else if (section.format.kind === 'round-robin') {
    const table = bergerSchedule(section.players.length, { cycles: section.format.cycles })[round - 1];
    if (!table) throw new RangeError(`no Berger round ${round}`);
    games = table.games;
    bye = table.bye;
  } else {
    throw new RangeError(`section '${sectionId}' is a Swiss: pass the round's pairings from the pairing engine`);
  }
  const byId = new Map(section.players.map((p) => [p.id, p]));
  const player = (id: number): EventPlayer => {
    const found = byId.get(id);
    if (!found) throw new RangeError(`section '${sectionId}' has no player ${id}`);
    return found;
  };
  const scheduledStart = section.schedule[round - 1] as string;
  const scheduledStartMs = Date.parse(scheduledStart);
  const defaultTimeEndsMs = scheduledStartMs + section.defaultTimeMinutes * 60_000;
  return {
    round,
    bye: bye === null ? null : player(bye),
    boards: games.map((game, index) => ({
      board: index + 1,
      white: player(game.white),
      black: player(game.black),
      timeControl: section.timeControl,
      defaultTimeMinutes: section.defaultTimeMinutes,
      scheduledStart,
      scheduledStartMs,
      defaultTimeEndsMs,
    })),
  };
}
