// What happened in a section so far: results, withdrawals, incidents (fines and sanctions),
// arbiter-assigned ratings and appeals. Everything derived (crosstable, standings, prizes) is
// computed from this record and the event file; nothing is stored twice.
import type { GameState } from '../clock-engine/index.ts';
import { roundBoards } from './boards.ts';
import { findSection, sectionRounds, type EventPlayer, type EventSection, type ZeitnotEvent } from './event.ts';
import { buildCrosstable, type BoardResult, type RoundResults } from './results.ts';
import { rankStandings, type StandingRow } from './tiebreaks.ts';
import { deductionsLine, type TrfTournament } from './trf.ts';

const optional = <T>(value: T | undefined): T[] => (value === undefined ? [] : [value]);

export type Offence = 'late-arrival' | 'electronic-device' | 'device-noise' | 'device-noise-after-game';

export interface Incident {
  readonly round: number;
  readonly player: number;
  readonly offence: Offence;
  /** ISO time the arbiter recorded it. */
  readonly at?: string;
  readonly note?: string;
  /** Its stable id (incidentId), as the console journaled it. */
  readonly id?: string;
  /** Who recorded it: the arbiter, or for the clock's late arrival the arbiter who confirmed the game's result. */
  readonly by?: string;
  /** 'clock': seen by the clock (a late arrival), not entered by an arbiter. */
  readonly source?: 'arbiter' | 'clock';
  /** The chief arbiter waived its fine (the sanction, a forfeit or a point off, stays: the texts say "shall"). */
  readonly waived?: { readonly by: string; readonly reason: string };
  /** Seen by the clock of a game whose result is not confirmed yet: journaled with the confirmation. */
  readonly provisional?: boolean;
}

/**
 * An incident's stable id: its round, player, offence and occurrence (`r3-p7-electronic-device`, the
 * second one that round `...-2`). The same on every console and after every restart, so the clock's
 * late arrival journaled twice (two consoles confirming one result) is one incident.
 */
export function incidentId(round: number, player: number, offence: Offence, occurrence = 1): string {
  return `r${round}-p${player}-${offence}${occurrence > 1 ? `-${occurrence}` : ''}`;
}

export interface Withdrawal {
  readonly player: number;
  /** First round the player no longer plays. */
  readonly fromRound: number;
  readonly reason: 'withdrew' | 'no-show' | 'expelled';
}

export interface Appeal {
  /** The appeal's number in its section's log ("A1"), as the console gives it. */
  readonly id?: string;
  readonly player: number;
  readonly round: number;
  /** ISO times. */
  readonly filedAt: string;
  /** End of the game or round the appeal concerns (the event says which counts). */
  readonly endedAt: string;
  /** What is appealed: the arbiter's decision the player contests. */
  readonly text: string;
  /** The fee paid with the appeal (SA Open: R200). */
  readonly fee?: number;
  readonly decision?: AppealDecision;
}

/** The appeals committee's decision. */
export interface AppealDecision {
  readonly upheld: boolean;
  /** The committee's members as the log shows them. */
  readonly committee: readonly string[];
  readonly reason: string;
  /** ISO time. */
  readonly at: string;
}

export interface SectionRecord {
  readonly rounds: readonly RoundResults[];
  readonly withdrawals: readonly Withdrawal[];
  readonly incidents: readonly Incident[];
  /** Ratings the chief arbiter assigned to unrated players. */
  readonly assignedRatings: readonly { readonly player: number; readonly rating: number; readonly afterRound: number }[];
  readonly appeals: readonly Appeal[];
}

export const emptyRecord: SectionRecord = { rounds: [], withdrawals: [], incidents: [], assignedRatings: [], appeals: [] };

/** The rating a player is paired by in `round` (federation rule, then arbiter-assigned ratings). */
export function pairingRating(section: EventSection, player: EventPlayer, record: SectionRecord, round: number): number | null {
  const source = section.pairingRating.byFederation[player.federation] ?? section.pairingRating.default;
  const own = source === 'national' ? (player.nationalRating ?? player.fideRating) : (player.fideRating ?? player.nationalRating);
  if (own !== undefined) return own;
  const after = section.assignRatingsToUnratedAfterRound;
  const assigned = record.assignedRatings.find((a) => a.player === player.id);
  if (assigned && after !== undefined && round > after && round > assigned.afterRound) return assigned.rating;
  return null;
}

/** Checks an arbiter's rating assignment against the section rule (only after the set round). */
export function assignRating(section: EventSection, record: SectionRecord, player: EventPlayer, rating: number, afterRound: number): SectionRecord {
  const after = section.assignRatingsToUnratedAfterRound;
  if (after === undefined) throw new RangeError(`section '${section.id}' has no rule for assigning ratings`);
  if (afterRound < after) throw new RangeError(`ratings are assigned after round ${after}, not after round ${afterRound}`);
  if (player.fideRating !== undefined || player.nationalRating !== undefined) throw new RangeError(`player ${player.id} is rated`);
  return { ...record, assignedRatings: [...record.assignedRatings.filter((a) => a.player !== player.id), { player: player.id, rating, afterRound }] };
}

export const isLateRegistrant = (section: EventSection, player: EventPlayer): boolean =>
  section.registrationDeadline !== undefined && player.registered !== undefined && player.registered > section.registrationDeadline;

export const isWithdrawn = (record: SectionRecord, player: number, round: number): boolean =>
  record.withdrawals.some((w) => w.player === player && w.fromRound <= round);

/**
 * Who is to be paired in `round`: not withdrawn, and (round 1) not a late registrant. The others
 * get a zero-point bye in that round.
 */
export function playersToPair(
  section: EventSection,
  record: SectionRecord,
  round: number,
): { pair: EventPlayer[]; notPaired: { player: EventPlayer; why: 'withdrawn' | 'late-registration' }[] } {
  const pair: EventPlayer[] = [];
  const notPaired: { player: EventPlayer; why: 'withdrawn' | 'late-registration' }[] = [];
  for (const player of section.players) {
    if (isWithdrawn(record, player.id, round)) notPaired.push({ player, why: 'withdrawn' });
    else if (round === 1 && isLateRegistrant(section, player)) notPaired.push({ player, why: 'late-registration' });
    else pair.push(player);
  }
  return { pair, notPaired };
}

/**
 * A player did not come to the board (lost by default). In a section where a no-show means
 * withdrawal, the player is withdrawn from the next round on.
 */
export function recordNoShow(section: EventSection, record: SectionRecord, player: number, round: number, notified: boolean): SectionRecord {
  if (!section.noShowWithdraws || notified || isWithdrawn(record, player, round + 1)) return record;
  return { ...record, withdrawals: [...record.withdrawals, { player, fromRound: round + 1, reason: 'no-show' }] };
}

export interface LedgerEntry {
  readonly incident: Incident;
  /** The fine the rule sets (deducted unless waived). */
  readonly fine: number;
  readonly sanction: 'none' | 'forfeit' | 'point-deduction';
}

export interface SanctionsLedger {
  readonly currency: string;
  readonly entries: readonly LedgerEntry[];
  /** Money to deduct from each player's prize (waived fines left out). */
  readonly fines: ReadonlyMap<number, number>;
  /** Points off the final score. */
  readonly pointDeductions: ReadonlyMap<number, number>;
  /** Games to be scored as lost by forfeit (device noise). */
  readonly forfeits: readonly { readonly round: number; readonly player: number }[];
}

/** Applies the section's fine rules to every incident. An offence without a rule is an error. */
export function sanctionsLedger(section: EventSection, record: SectionRecord): SanctionsLedger {
  const fines = new Map<number, number>();
  const pointDeductions = new Map<number, number>();
  const forfeits: { round: number; player: number }[] = [];
  const entries = record.incidents.map((incident): LedgerEntry => {
    const rule = section.fines.find((f) => f.offence === incident.offence);
    if (!rule) throw new RangeError(`section '${section.id}' has no rule for '${incident.offence}' (round ${incident.round}, player ${incident.player})`);
    if (rule.amount > 0 && !incident.waived) fines.set(incident.player, (fines.get(incident.player) ?? 0) + rule.amount);
    if (rule.sanction === 'point-deduction') pointDeductions.set(incident.player, (pointDeductions.get(incident.player) ?? 0) + 1);
    if (rule.sanction === 'forfeit') forfeits.push({ round: incident.round, player: incident.player });
    return { incident, fine: rule.amount, sanction: rule.sanction };
  });
  return { currency: section.prizes?.currency ?? '', entries, fines, pointDeductions, forfeits };
}

/** The round's results with the device-noise forfeits of the ledger applied. */
function withForfeits(rounds: readonly RoundResults[], forfeits: SanctionsLedger['forfeits']): RoundResults[] {
  return rounds.map((results) => ({
    ...results,
    games: results.games.map((game) => {
      const white = forfeits.some((f) => f.round === results.round && f.player === game.white);
      const black = forfeits.some((f) => f.round === results.round && f.player === game.black);
      if (!white && !black) return game;
      const result = white && black ? '---' : white ? '--+' : '+--';
      return { ...game, result, termination: 'forfeit: electronic device' } as const;
    }),
  }));
}

/** The section's crosstable (a TRF model) from the record. */
export function sectionCrosstable(event: ZeitnotEvent, sectionId: string, record: SectionRecord): TrfTournament {
  const section = findSection(event, sectionId);
  const ledger = sanctionsLedger(section, record);
  const roundsPlayed = Math.max(0, ...record.rounds.map((r) => r.round));
  return buildCrosstable(
    section.players.map((p) => ({
      id: p.id,
      name: p.name,
      rating: p.fideRating ?? null,
      federation: p.federation,
      fideId: p.fideId,
      title: p.title,
      sex: p.sex,
      birthDate: p.birthDate?.replaceAll('-', '/'),
    })),
    withForfeits(record.rounds, ledger.forfeits),
    {
      name: `${event.name} - ${section.name}`,
      totalRounds: section.format.kind === 'swiss' ? section.format.rounds : undefined,
      type: section.format.kind === 'swiss' ? 'Swiss' : 'Round robin',
      roundsPlayed,
    },
  );
}

/**
 * The last round whose pairing may still renumber the players: C.04.2, general handling rules
 * (VCL.09), pairing numbers may not be changed after round 4 has been paired; from round 5 on they
 * stay as round 4 had them, whatever ratings the arbiter assigns later (the SA Open assigns ratings
 * to unrated players after round 4).
 */
export const lastRenumberedRound = 4;

/**
 * Starting-rank order for `round`: pairing rating (highest first; unrated last), then title, then
 * name, with the ratings as they stood for round min(round, 4) (lastRenumberedRound).
 */
export function startingRankOrder(event: ZeitnotEvent, sectionId: string, record: SectionRecord, round: number): EventPlayer[] {
  const section = findSection(event, sectionId);
  const titles = ['GM', 'IM', 'WGM', 'FM', 'WIM', 'CM', 'WFM', 'WCM'];
  const titleRank = (p: EventPlayer): number => (p.title ? titles.indexOf(p.title) : titles.length);
  const numbering = Math.min(round, lastRenumberedRound);
  return [...section.players].sort((a, b) => {
    const ra = pairingRating(section, a, record, numbering) ?? -1;
    const rb = pairingRating(section, b, record, numbering) ?? -1;
    return rb - ra || titleRank(a) - titleRank(b) || a.name.localeCompare(b.name) || a.id - b.id;
  });
}

/**
 * Each player's pairing number (event id to number): a Swiss section's starting ranks as the Dutch
 * engine numbered them (frozen after round 4, startingRankOrder), a round robin's Berger numbers (its
 * player ids). The exported TRF is numbered by them, so that a pairing checker re-pairs what was paired.
 */
export function pairingNumbers(event: ZeitnotEvent, sectionId: string, record: SectionRecord): Map<number, number> {
  const section = findSection(event, sectionId);
  if (section.format.kind !== 'swiss') return new Map(section.players.map((p) => [p.id, p.id]));
  const lastPaired = Math.max(1, ...record.rounds.map((r) => r.round));
  return new Map(startingRankOrder(event, sectionId, record, lastPaired).map((p, i) => [p.id, i + 1]));
}

/**
 * The section as a TRF-16 file's model (export with exportTrf): headers, players numbered by
 * pairingNumbers with the ratings the tie-breaks use, byes without an opponent (0000).
 */
export function sectionTrf(event: ZeitnotEvent, sectionId: string, record: SectionRecord): TrfTournament {
  const section = findSection(event, sectionId);
  const crosstable = sectionCrosstable(event, sectionId, record);
  const standings = sectionStandings(event, sectionId, record);
  const rank = new Map(standings.map((r) => [r.id, r.rank]));
  const numbers = pairingNumbers(event, sectionId, record);
  const numbered = (id: number): number => numbers.get(id) ?? id;
  const ratings = tiebreakRatings(section, record);
  const rated = section.players.filter((p) => p.fideRating !== undefined).length;
  return {
    ...crosstable,
    city: event.city,
    federation: event.federation,
    startDate: event.startDate.replaceAll('-', '/'),
    endDate: event.endDate.replaceAll('-', '/'),
    ratedPlayerCount: rated,
    teamCount: section.teams.length > 0 ? section.teams.length : undefined,
    chiefArbiter: event.chiefArbiter,
    timeControl: section.timeControl,
    roundDates: section.schedule.slice(0, Math.max(0, ...record.rounds.map((r) => r.round))).map((start) => start.slice(2, 10).replaceAll('-', '/')),
    totalRounds: sectionRounds(section),
    configuration: ['white1'],
    players: crosstable.players
      .map((p) => ({
        ...p,
        id: numbered(p.id),
        // The rating the tie-breaks use (FIDE, else national, else the arbiter's): a program reading
        // the file (zeitnot standings, TieBreakServer) ranks as the console does (TPR, ARO...).
        rating: ratings.get(p.id) ?? null,
        rank: rank.get(p.id) ?? null,
        rounds: p.rounds.map((e) => (e.opponent === null ? e : { ...e, opponent: numbered(e.opponent) })),
      }))
      .sort((a, b) => a.id - b.id),
    teams: section.teams.map((t) => ({ name: t.name, playerIds: t.members.map(numbered) })),
    otherLines: [
      { code: '212', text: `212 ${section.tiebreaks.join(',')}` },
      ...optional(deductionsLine(new Map([...sanctionsLedger(section, record).pointDeductions].map(([id, points]) => [numbered(id), points])))),
    ],
  };
}

/** Ratings for the rating-based tie-breaks: FIDE rating, else national, else the arbiter's. */
export function tiebreakRatings(section: EventSection, record: SectionRecord): Map<number, number | null> {
  return new Map(section.players.map((p) => [p.id, p.fideRating ?? p.nationalRating ?? record.assignedRatings.find((a) => a.player === p.id)?.rating ?? null]));
}

/** Standings with the section's tie-breaks, unplayed-games rules and point deductions. */
export function sectionStandings(event: ZeitnotEvent, sectionId: string, record: SectionRecord, tiebreaks?: readonly string[]): StandingRow[] {
  const section = findSection(event, sectionId);
  const crosstable = sectionCrosstable(event, sectionId, record);
  const ledger = sanctionsLedger(section, record);
  const points = new Map(crosstable.players.map((p) => [p.id, p.points - (ledger.pointDeductions.get(p.id) ?? 0)]));
  return rankStandings(crosstable, tiebreaks ?? section.tiebreaks, {
    roundRobin: section.format.kind === 'round-robin',
    unplayedRules: section.unplayedRules,
    ratings: tiebreakRatings(section, record),
    points,
    sharedRanks: section.sharedRanks,
  });
}

export interface AppealRuling {
  readonly appeal: Appeal;
  /** ISO deadline. */
  readonly deadline: string;
  readonly inTime: boolean;
  readonly fee?: number;
  /** Decided appeals with a fee: whether it goes back (SA Open: "returned if the appeal is successful"). */
  readonly feeReturned?: boolean;
}

/** The last instant (ISO) an appeal about what ended at `endedAt` may be lodged: the event's minutes after it. */
export function appealDeadline(rule: NonNullable<ZeitnotEvent['appeals']>, endedAt: string): string {
  return new Date(Date.parse(endedAt) + rule.deadlineMinutes * 60_000).toISOString();
}

/** The appeals log with each appeal's deadline (30 minutes after the game, one hour after the round…). */
export function appealsLog(event: ZeitnotEvent, record: SectionRecord): AppealRuling[] {
  const rule = event.appeals;
  return record.appeals.map((appeal) => {
    if (!rule) return { appeal, deadline: '', inTime: true };
    const deadline = appealDeadline(rule, appeal.endedAt);
    const feeReturned = rule.fee !== undefined && appeal.decision ? { feeReturned: appeal.decision.upheld } : {};
    return { appeal, deadline, inTime: Date.parse(appeal.filedAt) <= Date.parse(deadline), fee: rule.fee, ...feeReturned };
  });
}

/** Players who withdrew or lost a game by forfeit (Cairns Cup: no prize for them). */
export function withdrawnOrForfeited(crosstable: TrfTournament, record: SectionRecord): Set<number> {
  const out = new Set(record.withdrawals.map((w) => w.player));
  for (const p of crosstable.players) if (p.rounds.some((r) => r.result === '-')) out.add(p.id);
  return out;
}

/**
 * Enters or corrects one board's result (from the clock, the board or the arbiter). The players must
 * be in the section and not already have another result in that round.
 */
export function recordBoardResult(section: EventSection, record: SectionRecord, round: number, result: BoardResult): SectionRecord {
  const ids = new Set(section.players.map((p) => p.id));
  for (const id of [result.white, result.black]) if (!ids.has(id)) throw new RangeError(`section '${section.id}' has no player ${id}`);
  if (result.white === result.black) throw new RangeError(`player ${result.white} cannot play himself`);
  const existing = record.rounds.find((r) => r.round === round) ?? { round, games: [], byes: [] };
  const same = (g: BoardResult): boolean => g.white === result.white && g.black === result.black;
  const clash = existing.games.find((g) => !same(g) && [g.white, g.black].some((id) => id === result.white || id === result.black));
  if (clash)
    throw new RangeError(
      `round ${round}: player ${[result.white, result.black].find((id) => id === clash.white || id === clash.black)} already has a result (${clash.white}-${clash.black})`,
    );
  const games = [...existing.games.filter((g) => !same(g)), result];
  const rounds = [...record.rounds.filter((r) => r.round !== round), { ...existing, games }].sort((a, b) => a.round - b.round);
  return { ...record, rounds };
}

/**
 * `recordBoardResult` for many results at once, in order, with the same checks and the same record
 * (a later result of the same game replaces the earlier one and goes last; a clash throws the same
 * error): linear in the results, where one call per result copies its round each time (a round of
 * 1,000 games: a million steps, on the clocks' event loop at every desk change).
 */
export function recordBoardResults(
  section: EventSection,
  record: SectionRecord,
  results: readonly { readonly round: number; readonly result: BoardResult }[],
): SectionRecord {
  if (results.length === 0) return record;
  const ids = new Set(section.players.map((p) => p.id));
  const pairKey = (g: BoardResult): string => `${g.white}-${g.black}`;
  const touched = new Map<number, { games: Map<string, BoardResult>; playerIn: Map<number, string>; existing: RoundResults }>();
  const roundOf = (round: number) => {
    let r = touched.get(round);
    if (!r) {
      const existing = record.rounds.find((x) => x.round === round) ?? { round, games: [], byes: [] };
      r = { games: new Map(), playerIn: new Map(), existing };
      for (const g of existing.games) {
        r.games.set(pairKey(g), g);
        r.playerIn.set(g.white, pairKey(g)).set(g.black, pairKey(g));
      }
      touched.set(round, r);
    }
    return r;
  };
  for (const { round, result } of results) {
    for (const id of [result.white, result.black]) if (!ids.has(id)) throw new RangeError(`section '${section.id}' has no player ${id}`);
    if (result.white === result.black) throw new RangeError(`player ${result.white} cannot play himself`);
    const r = roundOf(round);
    const own = pairKey(result);
    const clashing = new Set([result.white, result.black].map((id) => r.playerIn.get(id)).filter((k) => k !== undefined && k !== own));
    if (clashing.size > 0) {
      // The first in the round's order, as recordBoardResult names it.
      const clash = [...r.games.entries()].find(([k]) => clashing.has(k))![1];
      throw new RangeError(
        `round ${round}: player ${[result.white, result.black].find((id) => id === clash.white || id === clash.black)} already has a result (${clash.white}-${clash.black})`,
      );
    }
    r.games.delete(own);
    r.games.set(own, result);
    r.playerIn.set(result.white, own).set(result.black, own);
  }
  const rounds = [
    ...record.rounds.filter((x) => !touched.has(x.round)),
    ...[...touched.values()].map((r) => ({ ...r.existing, games: [...r.games.values()] })),
  ].sort((a, b) => a.round - b.round);
  return { ...record, rounds };
}

/**
 * Round robin: the games of `round` against players who have withdrawn, scored as forfeits at once
 * (the withdrawn player loses; two withdrawn players: both lose).
 */
export function withdrawalForfeits(event: ZeitnotEvent, sectionId: string, record: SectionRecord, round: number): BoardResult[] {
  const section = findSection(event, sectionId);
  if (section.format.kind !== 'round-robin') return [];
  return roundBoards(event, sectionId, round).boards.flatMap((board): BoardResult[] => {
    const white = isWithdrawn(record, board.white.id, round);
    const black = isWithdrawn(record, board.black.id, round);
    if (!white && !black) return [];
    const result = white && black ? '---' : white ? '--+' : '+--';
    return [{ white: board.white.id, black: board.black.id, result, termination: 'forfeit: withdrawn' }];
  });
}

/**
 * Incidents the clock saw: a player not at the board when the clock started (the late-arrival fine
 * of the Cairns Cup). A player who never came lost by default, which is sanction enough: no fine.
 */
export function clockIncidents(section: EventSection, round: number, game: { readonly white: number; readonly black: number }, state: GameState): Incident[] {
  if (!section.fines.some((f) => f.offence === 'late-arrival')) return [];
  const forfeited = state.result?.result === '+--' || state.result?.result === '--+' || state.result?.result === '---';
  if (forfeited) return [];
  const late = new Set(state.alerts.filter((a) => a.code === 'late-player' && a.side !== undefined).map((a) => a.side));
  return (['white', 'black'] as const)
    .filter((side) => late.has(side))
    .map((side) => ({ round, player: game[side], offence: 'late-arrival' as const, note: 'not at the board when the clock started' }));
}
