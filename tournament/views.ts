// View models for the console's tournament pages: plain JSON-ready objects, computed from the event
// file and the section record (and the playoff state), so the page only renders.
import type { GameResult } from '../clock-engine/index.ts';
import { roundBoards, type Pairing } from './boards.ts';
import { findSection, type EventPlayer, type ZeitnotEvent } from './event.ts';
import { applyPlayoff, formatOpen, formatStageText, playoffStatus, tiedForFirst, type PlayoffState } from './playoff.ts';
import { awardPrizes, teamStandings, type PrizeAward, type TeamStanding } from './prizes.ts';
import { parseTiebreak } from './tiebreak-codes.ts';
import { runningScores } from './trf.ts';
import {
  appealsLog,
  incidentId,
  pairingRating,
  playersToPair,
  sanctionsLedger,
  sectionCrosstable,
  sectionStandings,
  tiebreakRatings,
  withdrawnOrForfeited,
  type AppealRuling,
  type SectionRecord,
} from './section-record.ts';

const nameOf = (players: readonly EventPlayer[], id: number): string => players.find((p) => p.id === id)?.name ?? `#${id}`;

export interface CrosstableRow {
  readonly rank: number;
  readonly id: number;
  readonly name: string;
  readonly federation: string;
  readonly rating: number | null;
  readonly points: number;
  /** One cell per round: "5w1" style pieces for the page to render. */
  readonly rounds: readonly { readonly round: number; readonly opponent: number | null; readonly colour: 'w' | 'b' | null; readonly result: string }[];
  readonly tiebreaks: Readonly<Record<string, number | null>>;
}

export interface CrosstableView {
  readonly section: string;
  readonly roundsPlayed: number;
  /** Tie-break columns in the section's order (canonical codes). */
  readonly columns: readonly string[];
  readonly rows: readonly CrosstableRow[];
  /** Players tied on points for first (a playoff may follow). */
  readonly tiedForFirst: readonly number[];
}

/** The live crosstable with its tie-break columns; with a decided playoff, its order on top. */
export function crosstableView(event: ZeitnotEvent, sectionId: string, record: SectionRecord, playoff?: PlayoffState): CrosstableView {
  const section = findSection(event, sectionId);
  const crosstable = sectionCrosstable(event, sectionId, record);
  const standings = sectionStandings(event, sectionId, record);
  const ordered = playoff ? applyPlayoff(standings, playoff) : standings;
  const byId = new Map(crosstable.players.map((p) => [p.id, p]));
  // FIDE, else national, else the rating the chief assigned (SA Open: unrated players after round 4).
  const ratings = tiebreakRatings(section, record);
  return {
    section: section.name,
    roundsPlayed: Math.max(0, ...record.rounds.map((r) => r.round)),
    columns: section.tiebreaks.map((code) => parseTiebreak(code).code),
    tiedForFirst: tiedForFirst(standings),
    rows: ordered.map((row) => {
      const player = section.players.find((p) => p.id === row.id);
      return {
        rank: row.rank,
        id: row.id,
        name: player?.name ?? '',
        federation: player?.federation ?? '',
        rating: ratings.get(row.id) ?? null,
        points: row.points,
        rounds: (byId.get(row.id)?.rounds ?? []).map((e, i) => ({ round: i + 1, opponent: e.opponent, colour: e.colour, result: e.result })),
        tiebreaks: row.tiebreaks,
      };
    }),
  };
}

/** What a posted pairing shows beside a player's name: his points before the round and the rating he is paired by in it. */
export interface StandingBeforeRound {
  readonly points: number;
  readonly rating: number | null;
}

/**
 * Each player's standing before a round, for the section's posted pairings: points from the
 * crosstable (byes and forfeits counted as the standings count them), rating as the pairing used it
 * (federation rule, then a rating the chief assigned). One crosstable for every round asked.
 */
export function standingsBeforeRounds(event: ZeitnotEvent, sectionId: string, record: SectionRecord): (player: number, round: number) => StandingBeforeRound {
  const section = findSection(event, sectionId);
  const crosstable = sectionCrosstable(event, sectionId, record);
  const running = new Map(crosstable.players.map((p) => [p.id, runningScores(p, crosstable.scoring)]));
  const players = new Map(section.players.map((p) => [p.id, p]));
  return (player, round) => {
    const known = players.get(player);
    return {
      points: round > 1 ? (running.get(player)?.[round - 2] ?? 0) : 0,
      rating: known ? pairingRating(section, known, record, round) : null,
    };
  };
}

export interface PairingsView {
  readonly round: number;
  readonly boards: readonly {
    readonly board: number;
    readonly white: { readonly id: number; readonly name: string };
    readonly black: { readonly id: number; readonly name: string };
    readonly timeControl: string;
    readonly scheduledStart: string;
    readonly defaultTimeMinutes: number;
    /** Known once the game is over. */
    readonly result: GameResult | null;
  }[];
  readonly bye: { readonly id: number; readonly name: string } | null;
  readonly notPaired: readonly { readonly id: number; readonly name: string; readonly why: string }[];
}

/** The pairings of a round (Swiss: pass the engine's pairings) with the results entered so far. */
export function pairingsView(
  event: ZeitnotEvent,
  sectionId: string,
  record: SectionRecord,
  round: number,
  pairings?: { games: readonly Pairing[]; bye?: number | null },
): PairingsView {
  const section = findSection(event, sectionId);
  const setup = roundBoards(event, sectionId, round, pairings);
  const results = record.rounds.find((r) => r.round === round)?.games ?? [];
  return {
    round,
    boards: setup.boards.map((b) => ({
      board: b.board,
      white: { id: b.white.id, name: b.white.name },
      black: { id: b.black.id, name: b.black.name },
      timeControl: b.timeControl,
      scheduledStart: b.scheduledStart,
      defaultTimeMinutes: b.defaultTimeMinutes,
      result: results.find((g) => g.white === b.white.id && g.black === b.black.id)?.result ?? null,
    })),
    bye: setup.bye ? { id: setup.bye.id, name: setup.bye.name } : null,
    notPaired: playersToPair(section, record, round).notPaired.map((n) => ({ id: n.player.id, name: n.player.name, why: n.why })),
  };
}

export interface PlayoffView {
  readonly state: string;
  readonly stage?: string;
  readonly message?: string;
  readonly remaining: readonly { readonly id: number; readonly name: string }[];
  readonly winner: { readonly id: number; readonly name: string } | null;
  readonly games: readonly {
    readonly id: string;
    readonly label: string;
    readonly white: string;
    readonly black: string;
    readonly timeControl: string;
    readonly armageddon: boolean;
    readonly result: GameResult | null;
    /** The hall board it is (or was) played on, when the console plays the playoff on its boards. */
    readonly hallBoard?: string;
  }[];
  readonly log: readonly string[];
  /** The chief arbiter may set the playoff's format now (the regulations leave it to him, nothing played yet). */
  readonly formatOpen: boolean;
  /** The chief arbiter's format, where he set one: the cut and the stages in words, and his reason. */
  readonly format?: { readonly reason: string; readonly cut?: string; readonly stages: readonly string[] };
}

export function playoffView(event: ZeitnotEvent, sectionId: string, state: PlayoffState): PlayoffView {
  const players = findSection(event, sectionId).players;
  const status = playoffStatus(state);
  return {
    state: status.state,
    stage: status.stage,
    message: status.message,
    remaining: status.remaining.map((id) => ({ id, name: nameOf(players, id) })),
    winner: status.winner === undefined ? null : { id: status.winner, name: nameOf(players, status.winner) },
    games: state.games.map(({ game, result }) => ({
      id: game.id,
      label: game.label,
      white: nameOf(players, game.white),
      black: nameOf(players, game.black),
      timeControl: game.timeControl,
      armageddon: game.armageddon,
      result: result ?? null,
    })),
    log: status.log,
    formatOpen: formatOpen(state),
    ...(state.format
      ? {
          format: {
            reason: state.format.reason,
            ...(state.format.format.cut ? { cut: `the best ${state.format.format.cut.to} by ${state.format.format.cut.tiebreaks.join(', ')}` } : {}),
            stages: state.format.format.stages.map(formatStageText),
          },
        }
      : {}),
  };
}

export interface FinesView {
  readonly currency: string;
  /** Every incident, by round (in the order recorded within a round). */
  readonly entries: readonly {
    /** Stable id (incidentId): what waiveFine names. */
    readonly id: string;
    readonly round: number;
    /** The player's name, for display. */
    readonly player: string;
    readonly playerId: number;
    readonly offence: string;
    /** The fine the regulation sets; not deducted when `waived`. */
    readonly fine: number;
    readonly sanction: string;
    readonly note?: string;
    /** Who recorded it (for the clock's late arrival: who confirmed the game's result). */
    readonly by?: string;
    readonly source: 'arbiter' | 'clock';
    readonly waived?: { readonly by: string; readonly reason: string };
    /** Seen by the clock, journaled when the game's result is confirmed. */
    readonly provisional?: boolean;
  }[];
  readonly totals: readonly { readonly player: string; readonly fines: number; readonly pointsDeducted: number }[];
  readonly appeals: readonly AppealRuling[];
}

export function finesView(event: ZeitnotEvent, sectionId: string, record: SectionRecord): FinesView {
  const section = findSection(event, sectionId);
  const ledger = sanctionsLedger(section, record);
  const ids = [...new Set([...ledger.fines.keys(), ...ledger.pointDeductions.keys()])].sort((a, b) => a - b);
  return {
    currency: ledger.currency,
    entries: ledger.entries
      .map((e, order) => ({ e, order }))
      .sort((a, b) => a.e.incident.round - b.e.incident.round || a.order - b.order)
      .map(({ e }) => ({
        id: e.incident.id ?? incidentId(e.incident.round, e.incident.player, e.incident.offence),
        round: e.incident.round,
        player: nameOf(section.players, e.incident.player),
        playerId: e.incident.player,
        offence: e.incident.offence,
        fine: e.fine,
        sanction: e.sanction,
        note: e.incident.note,
        by: e.incident.by,
        source: e.incident.source ?? 'arbiter',
        ...(e.incident.waived ? { waived: e.incident.waived } : {}),
        ...(e.incident.provisional ? { provisional: true } : {}),
      })),
    totals: ids.map((id) => ({ player: nameOf(section.players, id), fines: ledger.fines.get(id) ?? 0, pointsDeducted: ledger.pointDeductions.get(id) ?? 0 })),
    appeals: appealsLog(event, record),
  };
}

export interface PrizesView {
  readonly currency: string;
  readonly awards: readonly (PrizeAward & { readonly name: string })[];
  readonly excluded: readonly { readonly id: number; readonly name: string }[];
  readonly teams: readonly TeamStanding[];
}

/** Prizes from the current (or final) standings, the playoff order applied, fines deducted. */
export function prizesView(event: ZeitnotEvent, sectionId: string, record: SectionRecord, playoff?: PlayoffState): PrizesView {
  const section = findSection(event, sectionId);
  const standings = sectionStandings(event, sectionId, record);
  const ordered = playoff ? applyPlayoff(standings, playoff) : standings;
  const excluded = section.prizes?.withdrawnOrForfeitedExcluded ? withdrawnOrForfeited(sectionCrosstable(event, sectionId, record), record) : new Set<number>();
  const awards = awardPrizes(section, ordered, { excluded, fines: sanctionsLedger(section, record).fines, ratings: tiebreakRatings(section, record) });
  return {
    currency: section.prizes?.currency ?? '',
    awards: awards.map((a) => ({ ...a, name: nameOf(section.players, a.player) })),
    excluded: [...excluded].sort((a, b) => a - b).map((id) => ({ id, name: nameOf(section.players, id) })),
    teams: section.prizes?.team ? teamStandings(section, standings) : [],
  };
}
