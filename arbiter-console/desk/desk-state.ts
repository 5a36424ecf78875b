// What the tournament desk keeps of its section (the results entered, the draft, the rounds published,
// the byes, withdrawals, incidents, imports and the playoff) and how one journaled record changes it:
// the same on a command, on a record read from the bus and on a restart's replay. The steps of the
// arbiter's work (result-step.ts, pairing-step.ts, playoff-step.ts, registration-step.ts, desk-checks.ts)
// read it through the desk's face (DeskFace) and this state. A record changes it only through `applyRecord`;
// the rounds closed and a held playoff sitting are the desk's and the playoff step's own bookkeeping.
import {
  decidePlayoff,
  findSection,
  incidentId,
  recordPlayoffResult,
  setPlayoffFormat,
  startPlayoff,
  type BoardResult,
  type EventPlayer,
  type EventSection,
  type Pairing,
  type PlayoffState,
  type SectionRecord,
  type Withdrawal,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import { actingAs, type CommandBy, type PlayingHall } from '../hall/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import type { PairedPlayer, ResultCorrection, RoundPairings, TournamentRecord } from '../contract/index.ts';
import { withRegistration } from './tournament-import.ts';

export interface Draft {
  readonly round: number;
  readonly games: Pairing[];
  readonly bye: number | null;
  readonly changes: { change: string; reason: string; by: string }[];
}

export type EnteredResult = Extract<TournamentRecord, { type: 'result' }>;

/** A journaled incident, with its id (given on replay to one journaled before ids). */
export type JournaledIncident = Extract<TournamentRecord, { type: 'incident' }> & { readonly id: string };

/** The section as the desk knows it from its records. */
export interface DeskState {
  /** The event as this desk knows it: the event file, with the section's imported registration list. */
  event: ZeitnotEvent;
  section: EventSection;
  /** The section's players as an imported registration list or a name correction set them (undefined: as the event file has them). */
  registered: EventPlayer[] | undefined;
  /** Player id -> name, built on first use after the players last changed. */
  names: Map<number, string> | undefined;
  /** Playoff game id -> the hall board its clock gave the result on. */
  readonly playoffBoardOf: Map<string, string>;
  /** Why the next playoff sitting could not be seated (shown on the Playoffs page). */
  playoffHeld: string | undefined;
  readonly closed: Set<number>;
  readonly entered: Map<string, EnteredResult>;
  readonly corrections: ResultCorrection[];
  readonly incidents: JournaledIncident[];
  /** Incident id -> the chief's waiver of its fine. */
  readonly waivers: Map<string, { readonly by: string; readonly reason: string; readonly at: number }>;
  readonly byes: Extract<TournamentRecord, { type: 'bye' }>[];
  readonly withdrawals: Extract<TournamentRecord, { type: 'withdrawal' }>[];
  readonly imported: Extract<TournamentRecord, { type: 'import' }>[];
  /** The arbiter's decisions on players who lost by default (regulation-step.ts). */
  readonly noShows: Extract<TournamentRecord, { type: 'noShow' }>[];
  /** Ratings the chief assigned, the last per player standing. */
  readonly ratings: Map<number, Extract<TournamentRecord, { type: 'ratingAssigned' }>>;
  /** The appeals log in order, each with the console time it was lodged and the committee's decision. */
  readonly appeals: {
    readonly appeal: Extract<TournamentRecord, { type: 'appeal' }>;
    readonly at: number;
    decision?: { readonly record: Extract<TournamentRecord, { type: 'appealDecision' }>; readonly at: number };
  }[];
  /** Console time each game's first result was journaled (an appeal's deadline runs from its end). */
  readonly resultAt: Map<string, number>;
  readonly published: Map<number, { games: readonly Pairing[]; bye: number | null }>;
  draft: Draft | undefined;
  /** The round of the draft the last `discardDraft` dropped. */
  discarded: number | undefined;
  playoff: PlayoffState | undefined;
}

export function newDeskState(event: ZeitnotEvent, sectionId: string): DeskState {
  return {
    event,
    section: findSection(event, sectionId),
    registered: undefined,
    names: undefined,
    playoffBoardOf: new Map(),
    playoffHeld: undefined,
    closed: new Set(),
    entered: new Map(),
    corrections: [],
    incidents: [],
    waivers: new Map(),
    byes: [],
    withdrawals: [],
    imported: [],
    noShows: [],
    ratings: new Map(),
    appeals: [],
    resultAt: new Map(),
    published: new Map(),
    draft: undefined,
    discarded: undefined,
    playoff: undefined,
  };
}

/** What the steps read of the desk itself: the hall, the section as it stands, the seated round's boards. */
export interface DeskFace {
  readonly hall: PlayingHall;
  readonly event: ZeitnotEvent;
  readonly section: EventSection;
  readonly hallSection: string;
  readonly playoffSection: string;
  readonly hallPairs: ReadonlyMap<string, Pairing>;
  readonly liveRound: number;
  /** Whether the live round is closed (every result confirmed): the next one may be seated. */
  readonly liveRoundClosed: boolean;
  readonly currentRound: number;
  readonly totalRounds: number;
  pairingOf(round: number): { games: readonly Pairing[]; bye: number | null; status: RoundPairings['status'] } | undefined;
  hallBoardOf(round: number, white: number, black: number): string | undefined;
  clockResult(hallBoard: string): BoardResult | null;
  record(): SectionRecord;
}

/** A tournament record with the console time it was journaled at. */
export interface Journaled {
  readonly action: TournamentRecord;
  readonly at: number;
}

/** The journal's tournament records (of one section, on an event console), in order. */
export function journaledActions(hall: PlayingHall, place: { section?: string }): Journaled[] {
  return [...hall.journal.entries(0, 'tournament', place)].flatMap((e) =>
    e.record.kind === 'tournament' ? [{ action: e.record.action, at: e.record.at }] : [],
  );
}

/** One of a section desk's records as the journal keeps it, with its section. */
export const journalEntry = (section: string, action: TournamentRecord, at: number): JournalRecord => ({ kind: 'tournament', section, at, action });

export const key = (round: number, white: number, black: number): string => `${round}:${white}:${black}`;

/** How a record names who gave the command: `by` his name, `credential` the id he acted with (if any). */
export function signature(arbiter: CommandBy): { readonly by: string; readonly credential?: string } {
  const { name, credential } = actingAs(arbiter);
  return credential === undefined ? { by: name } : { by: name, credential };
}

/** A record with the credential of who gave the command (the console's own records have none). */
export const signed = (record: TournamentRecord, credential: string | undefined): TournamentRecord =>
  credential === undefined ? record : { ...record, credential };

/** A player of the section by id, with his name as the desk knows it. */
export function playerOf(state: DeskState, id: number): PairedPlayer {
  state.names ??= new Map(state.section.players.map((p) => [p.id, p.name]));
  return { id, name: state.names.get(id) ?? `#${id}` };
}

/** The section's players from now on (the desk's event; the view worker gets them with the view's parts). */
export function setPlayers(state: DeskState, players: EventPlayer[]): void {
  state.registered = players;
  state.event = { ...state.event, sections: state.event.sections.map((s) => (s.id === state.section.id ? { ...s, players } : s)) };
  state.section = findSection(state.event, state.section.id);
  state.names = undefined;
}

/** One journaled record applied to the state: on a command, a record read from the bus, a replay. */
export function applyRecord(state: DeskState, record: TournamentRecord, at: number): void {
  switch (record.type) {
    case 'open':
      break;
    case 'result': {
      const k = key(record.round, record.white, record.black);
      // Journals before `replaces` was written: a different arbiter's result over an entered one is a correction too.
      const replaces = record.replaces ?? (record.source === 'arbiter' ? state.entered.get(k)?.result : undefined);
      if (replaces !== undefined && replaces !== record.result) {
        state.corrections.push({
          round: record.round,
          white: playerOf(state, record.white),
          black: playerOf(state, record.black),
          from: replaces,
          to: record.result,
          by: record.by,
          reason: record.reason ?? '',
          at,
        });
      }
      state.entered.set(k, record);
      if (!state.resultAt.has(k)) state.resultAt.set(k, at);
      break;
    }
    case 'draft':
      state.draft = { round: record.round, games: [...record.games], bye: record.bye, changes: [] };
      break;
    case 'draftChange': {
      const draft = state.draft;
      if (!draft) break;
      const a = draft.games[record.board - 1];
      const b = record.otherBoard === undefined ? undefined : draft.games[record.otherBoard - 1];
      if (record.change === 'swapColours' && a) draft.games[record.board - 1] = { white: a.black, black: a.white };
      if (record.change === 'exchangeOpponents' && a && b) {
        draft.games[record.board - 1] = { white: a.white, black: b.black };
        draft.games[record.otherBoard! - 1] = { white: b.white, black: a.black };
      }
      const what =
        record.change === 'swapColours' ? `board ${record.board}: colours swapped` : `boards ${record.board} and ${record.otherBoard}: opponents exchanged`;
      draft.changes.push({ change: what, reason: record.reason, by: record.by });
      break;
    }
    case 'discardDraft':
      state.discarded = state.draft?.round;
      state.draft = undefined;
      break;
    case 'publish':
      if (state.draft) state.published.set(state.draft.round, { games: state.draft.games, bye: state.draft.bye });
      state.draft = undefined;
      break;
    case 'playoffStart':
      state.playoff = startPlayoff(state.section, record.tied, record.seed);
      break;
    case 'playoffRuling':
      if (state.playoff) state.playoff = decidePlayoff(state.playoff, record.winner, record.reason);
      break;
    case 'playoffFormat':
      if (state.playoff) state.playoff = setPlayoffFormat(state.playoff, record.format, record.qualified, record.reason);
      break;
    case 'playoffResult':
      if (state.playoff) state.playoff = recordPlayoffResult(state.playoff, record.game, record.result);
      if (record.board !== undefined) state.playoffBoardOf.set(record.game, record.board);
      break;
    case 'incident': {
      const id = record.id ?? nextIncidentId(state, record.round, record.player, record.offence);
      // Journaled twice (two consoles confirmed the same result): one incident.
      if (!state.incidents.some((i) => i.id === id)) state.incidents.push({ ...record, id });
      break;
    }
    case 'waiver':
      if (!state.waivers.has(record.incident)) state.waivers.set(record.incident, { by: record.by, reason: record.reason, at });
      break;
    case 'bye':
      state.byes.push(record);
      break;
    case 'import':
      state.imported.push(record);
      // A registration list's updates applied to the section's players (the desk's event from now on).
      if (record.players) setPlayers(state, withRegistration(state.section.players, record.players));
      for (const g of record.games) {
        if (!state.resultAt.has(key(g.round, g.white, g.black))) state.resultAt.set(key(g.round, g.white, g.black), at);
        state.entered.set(key(g.round, g.white, g.black), {
          type: 'result',
          ...g,
          source: 'arbiter',
          termination: 'imported',
          reason: `imported from ${record.from}`,
          by: record.by,
        });
      }
      break;
    case 'withdrawal':
      state.withdrawals.push(record);
      break;
    case 'noShow':
      state.noShows.push(record);
      break;
    case 'ratingAssigned':
      state.ratings.set(record.player, record);
      break;
    case 'appeal':
      state.appeals.push({ appeal: record, at });
      break;
    case 'appealDecision': {
      const appeal = state.appeals.find((a) => a.appeal.id === record.appeal);
      if (appeal) appeal.decision = { record, at };
      break;
    }
    case 'rename':
      setPlayers(
        state,
        state.section.players.map((p) => (p.id === record.player ? { ...p, name: record.name } : p)),
      );
      break;
  }
}

/** The id of the next incident of this round, player and offence (its occurrence counted from the journal). */
export function nextIncidentId(state: DeskState, round: number, player: number, offence: JournaledIncident['offence']): string {
  const ids = new Set(state.incidents.map((i) => i.id));
  let occurrence = 1;
  while (ids.has(incidentId(round, player, offence, occurrence))) occurrence += 1;
  return incidentId(round, player, offence, occurrence);
}

/** A hall board's game, while it is the desk's seated round's (a playoff game may have taken the board since). */
export function liveBoard(desk: Pick<DeskFace, 'hall' | 'hallSection'>, id: string) {
  const board = desk.hall.boards.get(id);
  return board && board.round === desk.hall.seated.get(desk.hallSection) ? board : undefined;
}

/** Every withdrawal of the section: the arbiter's, and the no-shows withdrawn without notification (SA Open). */
export function withdrawalsOf(state: DeskState): Withdrawal[] {
  return [
    ...state.withdrawals.map((w) => ({ player: w.player, fromRound: w.fromRound, reason: 'withdrew' as const })),
    ...state.noShows.flatMap((n) => (n.fromRound !== undefined ? [{ player: n.player, fromRound: n.fromRound, reason: 'no-show' as const }] : [])),
  ];
}
