// The tournament desk: the section's results, next-round pairing drafts, playoffs and incidents,
// next to the playing hall. Every action is checked, journaled through the hall (journal before ack)
// and applied; a restart replays the journal's tournament records. Results of the boards on the
// clocks are read from the hall (boardResultFromClock) and stay provisional until the arbiter
// confirms or corrects them.
import { createHash, randomInt } from 'node:crypto';
import {
  boardResultFromClock,
  clockIncidents,
  decidePlayoff,
  emptyRecord,
  findSection,
  NoValidPairingError,
  pairSwissRound,
  pairingsView,
  playersToPair,
  recordBoardResult,
  recordPlayoffResult,
  roundBoards,
  sectionRounds,
  sectionStandings,
  startPlayoff,
  tiedForFirst,
  type BoardResult,
  type EventPlayer,
  type EventSection,
  type Pairing,
  type PlayoffState,
  type SectionRecord,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import type { Attention } from '../contract/index.ts';
import type { Board } from '../hall/index.ts';
import { actingAs, type CommandBy, type CommandOutcome, type HallChange, type PlayingHall } from '../hall/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import { playoffBoardsStep, playoffHallSection, type SeatPlayoff } from './playoff-boards.ts';
import { MAIN, type Round } from '../contract/index.ts';
import type { TournamentCommand } from '../contract/index.ts';
import { refusal, within, type Refusal } from '../contract/index.ts';
import { planTrfImport, withRegistration } from './tournament-import.ts';
import type { DraftView, PairedGame, PairedPlayer, RegistrationUpdate, ResultCorrection, RoundPairings, TournamentRecord, TournamentView, TrfImportPreview, ViewParts } from '../contract/index.ts';
import { assembleViews } from './tournament-view-build.ts';

/**
 * Puts a published round on the hall's boards: the event console builds it (clock settings, hall board
 * numbers), its players taken by pairing number from `event` as the desk knows it (registration list, names corrected).
 */
export type SeatRound = (round: number, pairing: { readonly games: readonly Pairing[]; readonly bye: number | null }, event: ZeitnotEvent) => Round;

interface Draft {
  readonly round: number;
  readonly games: Pairing[];
  readonly bye: number | null;
  readonly changes: { change: string; reason: string; by: string }[];
}

type EnteredResult = Extract<TournamentRecord, { type: 'result' }>;
/** A tournament record with the console time it was journaled at. */
interface Journaled {
  readonly action: TournamentRecord;
  readonly at: number;
}

/** The journal's tournament records (of one section, on an event console), in order. */
function journaledActions(hall: PlayingHall, place: { section?: string }): Journaled[] {
  return [...hall.journal.entries(0, 'tournament', place)].flatMap((e) => (e.record.kind === 'tournament' ? [{ action: e.record.action, at: e.record.at }] : []));
}

const key = (round: number, white: number, black: number): string => `${round}:${white}:${black}`;

/** How a record names who gave the command: `by` his name, `credential` the id he acted with (if any). */
function signature(arbiter: CommandBy): { readonly by: string; readonly credential?: string } {
  const { name, credential } = actingAs(arbiter);
  return credential === undefined ? { by: name } : { by: name, credential };
}

/** A record with the credential of who gave the command (the console's own records have none). */
const signed = (record: TournamentRecord, credential: string | undefined): TournamentRecord => (credential === undefined ? record : { ...record, credential });

const isPlayoffStep = (action: TournamentRecord): boolean => action.type === 'playoffStart' || action.type === 'playoffResult' || action.type === 'playoffRuling';

/** Runs `work` once, a turn later, however often it is asked for before then. */
function nextTurn(work: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      work();
    });
  };
}

export class TournamentDesk {
  /** The event as this desk knows it: the event file, with the section's imported registration list. */
  #event: ZeitnotEvent;
  #section: EventSection;
  /** The section's players as an imported registration list or a name correction set them (undefined: as the event file has them). */
  #registered: EventPlayer[] | undefined;
  /** Hall board id -> the event players on it (by the pairing numbers the seat carries), for the seated round. */
  hallPairs = new Map<string, Pairing>();
  /** The hall board of each pair of the seated round (`white:black`): a view build asks it of every game. */
  #hallBoardOfPair = new Map<string, string>();
  #pairsOf: Round | undefined;
  /** The hall's section this desk's rounds are seated in (the event section's id). */
  readonly hallSection: string;
  /** Seats a published round. */
  readonly #seat: SeatRound;
  /** Seats a sitting of playoff games on the section's hall boards (an event console). */
  readonly #seatPlayoff: SeatPlayoff | undefined;
  /** Hall listeners run inside the hall's record: the playoff's own records follow a turn later. */
  readonly #queuePlayoff = nextTurn(() => this.#playoffOnBoards());
  /** Hall listeners run inside the hall's record: a contradiction's alert is journaled a turn later. */
  readonly #queueConflicts = nextTurn(() => this.#raiseConflicts());
  /** Playoff game id -> the hall board its clock gave the result on. */
  readonly #playoffBoardOf = new Map<string, string>();
  /** Why the next playoff sitting could not be seated (shown on the Playoffs page). */
  #playoffHeld: string | undefined;
  #closed = new Set<number>();
  readonly #entered = new Map<string, EnteredResult>();
  readonly #corrections: ResultCorrection[] = [];
  readonly #incidents: Extract<TournamentRecord, { type: 'incident' }>[] = [];
  readonly #byes: Extract<TournamentRecord, { type: 'bye' }>[] = [];
  readonly #withdrawals: Extract<TournamentRecord, { type: 'withdrawal' }>[] = [];
  readonly #imported: Extract<TournamentRecord, { type: 'import' }>[] = [];
  readonly #published = new Map<number, { games: readonly Pairing[]; bye: number | null }>();
  #draft: Draft | undefined;
  #discarded: number | undefined;
  #playoff: PlayoffState | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #finished = new Map<string, string>();
  #views: { version: number; arbiter: TournamentView; spectator: TournamentView } | undefined;
  #changes = 0;

  /**
   * The desk of one section of the event a hall runs: its records are the journal's tournament records
   * of that section, its rounds are seated on the hall's boards by `seat` when published.
   */
  static forSection(hall: PlayingHall, event: ZeitnotEvent, sectionId: string, seat: SeatRound, seatPlayoff?: SeatPlayoff): TournamentDesk {
    return new TournamentDesk(hall, event, sectionId, journaledActions(hall, { section: sectionId }), seat, seatPlayoff);
  }

  private constructor(
    readonly hall: PlayingHall,
    event: ZeitnotEvent,
    sectionId: string,
    records: readonly Journaled[],
    seat: SeatRound,
    seatPlayoff?: SeatPlayoff,
  ) {
    this.#event = event;
    this.#section = findSection(event, sectionId);
    this.hallSection = sectionId;
    this.#seat = seat;
    this.#seatPlayoff = seatPlayoff;
    this.#linkBoards();
    for (const { action, at } of records) this.#apply(action, at);
    for (const id of this.hallPairs.keys()) this.#finished.set(id, this.#finishSignature(id));
    hall.subscribe((change) => this.#onHall(change));
    // The actors follow the journal: a pending draft has its round actor, a fully confirmed round is closed.
    if (this.#draft && this.#draft.round > this.liveRound) hall.lifecycle(this.hallSection, this.#draft.round, { type: 'draft' });
    this.#closeIfConfirmed();
    // A console killed between a playoff game's end and its record, or before the next sitting: done now.
    this.#playoffOnBoards();
    // A journal whose clock result came after a different entered one (a hall host's, a replay): alerted now.
    this.#raiseConflicts();
  }

  get event(): ZeitnotEvent {
    return this.#event;
  }

  get section(): EventSection {
    return this.#section;
  }

  /**
   * The seated round's boards and the event players on them, by the pairing numbers each seat carries.
   * A seat journaled before seats had ids (names only) is linked by name only where that name is one
   * player's in the section: two entrants of one name are never told apart by it.
   */
  #linkBoards(): void {
    const seated = this.hall.seated.get(this.hallSection);
    if (seated === this.#pairsOf) return;
    this.#pairsOf = seated;
    this.hallPairs = new Map();
    const ids = new Set(this.section.players.map((p) => p.id));
    const named = new Map<string, number | null>();
    for (const p of this.section.players) named.set(p.name, named.has(p.name) ? null : p.id);
    const idOf = (id: number | undefined, name: string): number | undefined => (id !== undefined ? (ids.has(id) ? id : undefined) : (named.get(name) ?? undefined));
    for (const info of seated?.boards ?? []) {
      const white = idOf(info.whiteId, info.white);
      const black = idOf(info.blackId, info.black);
      if (white !== undefined && black !== undefined) this.hallPairs.set(info.id, { white, black });
    }
    this.#hallBoardOfPair = new Map([...this.hallPairs].map(([id, p]) => [`${p.white}:${p.black}`, id]));
    this.#finished.clear();
    for (const id of this.hallPairs.keys()) this.#finished.set(id, this.#finishSignature(id));
  }

  /** The round on the hall's boards (0 before the first is published). */
  get liveRound(): number {
    return this.hall.seated.get(this.hallSection)?.round ?? 0;
  }

  /** Every result of the live round confirmed or entered: the round actor is closed (once). */
  #closeIfConfirmed(): void {
    const round = this.liveRound;
    if (round === 0 || this.#closed.has(round) || this.hallPairs.size === 0) return;
    if (this.#missingResults(round).length > 0) return;
    this.#closed.add(round);
    this.hall.lifecycle(this.hallSection, round, { type: 'close' });
  }

  /** Whether the live round is closed (every result confirmed): the next one may be seated. */
  get liveRoundClosed(): boolean {
    return this.liveRound === 0 || this.#missingResults(this.liveRound).length === 0;
  }

  /** The hall board a game of the live round is played on (undefined: another round, or not on the boards). */
  hallBoardOf(round: number, white: number, black: number): string | undefined {
    return round === this.liveRound ? this.#hallBoardOfPair.get(`${white}:${black}`) : undefined;
  }

  get currentRound(): number {
    return Math.max(this.liveRound, this.importedRounds, ...this.#published.keys());
  }

  /** Rounds 1..N played elsewhere and imported from a TRF (0: none). */
  get importedRounds(): number {
    return Math.max(0, ...this.#imported.map((i) => i.rounds ?? 0));
  }

  get totalRounds(): number {
    return sectionRounds(this.section);
  }

  get playoff(): PlayoffState | undefined {
    return this.#playoff;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onHall(change: HallChange): void {
    const playoffBoards = this.hall.seated.get(this.playoffSection);
    // A game of the playoff's sitting moved, or its next sitting waits for boards another section still uses.
    if (this.#playoffHeld !== undefined || (playoffBoards && change.boards.some((id) => this.hall.boards.get(id)?.round === playoffBoards))) this.#queuePlayoff();
    let changed = false;
    if (change.round && this.hall.seated.get(this.hallSection) !== this.#pairsOf) {
      this.#linkBoards();
      changed = true;
    }
    for (const id of change.boards) {
      if (!this.hallPairs.has(id)) continue;
      const signature = this.#finishSignature(id);
      if (signature !== this.#finished.get(id)) {
        this.#finished.set(id, signature);
        changed = true;
      }
    }
    if (changed) {
      this.#queueConflicts();
      this.#changed();
    }
  }

  /**
   * Desk and clock agree, or the arbiter hears of it: a live board whose clock ended the game with a
   * result other than the one entered on the desk (a hall host's clock result arriving after this
   * console's entry, a journal replayed) gets a `resultConflict` note, once per pair of results: an
   * alert on the hall page until the arbiter keeps one of them (resolveResultConflict).
   */
  #raiseConflicts(): void {
    const notes: JournalRecord[] = [];
    const at = this.hall.source.now();
    for (const [id, pair] of this.hallPairs) {
      const board = this.#liveBoard(id);
      const clock = board?.state.result?.result;
      const entered = this.#entered.get(key(this.liveRound, pair.white, pair.black));
      if (!board || clock === undefined || !entered) continue;
      const shown = board.correctedResult ?? clock;
      if (shown === entered.result || board.resultConflicts.has(`${shown}:${entered.result}`)) continue;
      notes.push({ kind: 'note', board: id, note: { type: 'resultConflict', at, clock: shown, entered: entered.result, by: entered.by } });
    }
    if (notes.length === 0) return;
    this.hall.recordBatch(notes);
    this.#changed();
  }

  #contradiction(round: number, g: Pairing): { clockContradicts?: GameResult } {
    const conflict = this.#conflictOf(round, g.white, g.black);
    return conflict ? { clockContradicts: conflict.clock } : {};
  }

  /** The alert of a contradiction between a live game's clock and its entered result, if one is open. */
  #conflictOf(round: number, white: number, black: number): { board: Board; alert: Attention; clock: GameResult; entered: EnteredResult } | undefined {
    const id = this.hallBoardOf(round, white, black);
    const board = id === undefined ? undefined : this.#liveBoard(id);
    const alert = board?.attention().find((a) => a.code === 'result-contradicts');
    const entered = this.#entered.get(key(round, white, black));
    const clock = board?.correctedResult ?? board?.state.result?.result;
    return board && alert && entered && clock !== undefined ? { board, alert, clock, entered } : undefined;
  }

  /**
   * The arbiter settles a contradiction: the entered result kept (a correction note on the board: the
   * PGN's result is the desk's, with who and why), or the clock's taken (the desk's result corrected,
   * with the reason, and the alert dismissed), in one journaled step.
   */
  #resolveConflict(command: Extract<TournamentCommand, { type: 'resolveResultConflict' }>, arbiter: CommandBy): CommandOutcome {
    const who = signature(arbiter);
    const conflict = this.#conflictOf(command.round, command.white, command.black);
    if (!conflict) return refusal('no-conflict', `round ${command.round}: no contradiction between the clock and the desk for ${this.#player(command.white).name} – ${this.#player(command.black).name}`);
    const { board, alert, clock, entered } = conflict;
    const at = this.hall.source.now();
    let journalSeq: number;
    if (command.keep === 'entered') {
      journalSeq = this.hall.record({ kind: 'note', board: board.id, note: { type: 'correction', at, result: entered.result, ...who, reason: `the desk's ${entered.result} kept over the clock's ${clock}: ${command.reason}` } });
    } else {
      const action: TournamentRecord = { type: 'result', round: command.round, white: command.white, black: command.black, result: clock, source: 'arbiter', termination: board.state.result?.termination ?? 'clock', replaces: entered.result, reason: command.reason, ...who };
      journalSeq = this.hall.recordBatch([
        this.#entry(action, at),
        { kind: 'note', board: board.id, note: { type: 'dismiss', at, alertId: alert.id } },
      ]);
      this.#apply(action, at);
    }
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq };
  }

  /** The hall section of this section's playoff games. */
  get playoffSection(): string {
    return playoffHallSection(this.section.id);
  }

  /** A hall board's game, while it is this desk's seated round's (a playoff game may have taken the board since). */
  #liveBoard(id: string) {
    const board = this.hall.boards.get(id);
    return board && board.round === this.hall.seated.get(this.hallSection) ? board : undefined;
  }

  /**
   * The playoff on the hall's boards: every result a playoff board's clock gave is journaled as its
   * game's result (the playoff then opens its next stage by itself), and when every game on the boards
   * has one, the next sitting is seated (its clocks wait for the arbiter's start).
   */
  #playoffOnBoards(): void {
    if (!this.#seatPlayoff || !this.#playoff) return;
    let changed = false;
    for (let guard = 0; guard < 100; guard += 1) {
      const step = playoffBoardsStep(this.hall, this.section.id, this.#playoff);
      if (step.results.length > 0) {
        const at = this.hall.source.now();
        this.hall.recordBatch(step.results.map((action) => this.#entry(action, at)));
        for (const action of step.results) this.#apply(action, at);
        changed = true;
        continue;
      }
      if (step.next.length > 0) {
        const seated = this.hall.seat(this.#seatPlayoff(step.sitting + 1, step.next, this.event));
        this.#playoffHeld = seated.ok ? undefined : seated.reason;
        changed = true;
      } else if (step.sitting > 0 && (this.#playoff.winner !== undefined || this.#playoff.arbiterDecision) && this.hall.phaseOf(this.playoffSection, step.sitting) !== 'closed') {
        this.hall.lifecycle(this.playoffSection, step.sitting, { type: 'close' });
      }
      break;
    }
    if (changed) this.#changed();
  }

  #finishSignature(id: string): string {
    const state = this.#liveBoard(id)?.state;
    return state?.result ? `${state.result.result}:${state.result.termination}` : '';
  }

  #changed(): void {
    this.#changes += 1;
    this.#views = undefined;
    for (const listener of this.#listeners) listener();
  }

  #apply(record: TournamentRecord, at: number): void {
    switch (record.type) {
      case 'open':
        break;
      case 'result': {
        const k = key(record.round, record.white, record.black);
        // Journals before `replaces` was written: a different arbiter's result over an entered one is a correction too.
        const replaces = record.replaces ?? (record.source === 'arbiter' ? this.#entered.get(k)?.result : undefined);
        if (replaces !== undefined && replaces !== record.result) {
          this.#corrections.push({ round: record.round, white: this.#player(record.white), black: this.#player(record.black), from: replaces, to: record.result, by: record.by, reason: record.reason ?? '', at });
        }
        this.#entered.set(k, record);
        break;
      }
      case 'draft':
        this.#draft = { round: record.round, games: [...record.games], bye: record.bye, changes: [] };
        break;
      case 'draftChange': {
        const draft = this.#draft;
        if (!draft) break;
        const a = draft.games[record.board - 1];
        const b = record.otherBoard === undefined ? undefined : draft.games[record.otherBoard - 1];
        if (record.change === 'swapColours' && a) draft.games[record.board - 1] = { white: a.black, black: a.white };
        if (record.change === 'exchangeOpponents' && a && b) {
          draft.games[record.board - 1] = { white: a.white, black: b.black };
          draft.games[record.otherBoard! - 1] = { white: b.white, black: a.black };
        }
        const what = record.change === 'swapColours' ? `board ${record.board}: colours swapped` : `boards ${record.board} and ${record.otherBoard}: opponents exchanged`;
        draft.changes.push({ change: what, reason: record.reason, by: record.by });
        break;
      }
      case 'discardDraft':
        this.#discarded = this.#draft?.round;
        this.#draft = undefined;
        break;
      case 'publish':
        if (this.#draft) this.#published.set(this.#draft.round, { games: this.#draft.games, bye: this.#draft.bye });
        this.#draft = undefined;
        break;
      case 'playoffStart':
        this.#playoff = startPlayoff(this.section, record.tied, record.seed);
        break;
      case 'playoffRuling':
        if (this.#playoff) this.#playoff = decidePlayoff(this.#playoff, record.winner, record.reason);
        break;
      case 'playoffResult':
        if (this.#playoff) this.#playoff = recordPlayoffResult(this.#playoff, record.game, record.result);
        if (record.board !== undefined) this.#playoffBoardOf.set(record.game, record.board);
        break;
      case 'incident':
        this.#incidents.push(record);
        break;
      case 'bye':
        this.#byes.push(record);
        break;
      case 'import':
        this.#imported.push(record);
        if (record.players) this.#register(record.players);
        for (const g of record.games) {
          this.#entered.set(key(g.round, g.white, g.black), { type: 'result', ...g, source: 'arbiter', termination: 'imported', reason: `imported from ${record.from}`, by: record.by });
        }
        break;
      case 'withdrawal':
        this.#withdrawals.push(record);
        break;
      case 'rename':
        this.#setPlayers(this.#section.players.map((p) => (p.id === record.player ? { ...p, name: record.name } : p)));
        break;
    }
  }

  /** A registration list's updates applied to the section's players (the desk's event from now on). */
  #register(updates: readonly RegistrationUpdate[]): void {
    this.#setPlayers(withRegistration(this.#section.players, updates));
  }

  /** The section's players from now on (the desk's event; the view worker gets them with the view's parts). */
  #setPlayers(players: EventPlayer[]): void {
    this.#registered = players;
    this.#event = { ...this.#event, sections: this.#event.sections.map((s) => (s.id === this.#section.id ? { ...s, players } : s)) };
    this.#section = findSection(this.#event, this.#section.id);
    this.#names = undefined;
  }

  /**
   * The arbiter's TRF import into the section (a registration list before round 1, and/or rounds played
   * elsewhere: the console goes on with the next), checked against the section as it stands. With
   * `preview` nothing is journaled: the answer says what would change. Refused, changing nothing, when
   * the file is bad or does not fit (a player not in the section), or when this console has paired a
   * round of the section already or imported rounds before.
   */
  importTrf(request: { readonly trf: string; readonly from: string; readonly preview: boolean }, arbiter: CommandBy): Refusal | { ok: true; preview: TrfImportPreview; journalSeq?: number } {
    const where = `section '${this.section.id}'`;
    if (this.#draft) return refusal('import-too-late', `${where} has a draft of round ${this.#draft.round}: a TRF import comes before the first round is paired here (discard the draft first)`);
    const paired = Math.max(this.liveRound, ...this.#published.keys());
    if (paired > 0) return refusal('import-too-late', `${where}: round ${paired} is paired in this console already: a TRF import comes before its first round here; correct results on the Pairings page`);
    const earlier = this.#imported.find((i) => (i.rounds ?? 0) > 0);
    if (earlier) return refusal('import-too-late', `${where}: rounds 1–${earlier.rounds} were imported already (${earlier.from}, by ${earlier.by}): their results are corrected on the Pairings page, never by another import`);
    const digest = createHash('sha256').update(request.trf).digest('hex');
    const { by, credential } = signature(arbiter);
    const plan = planTrfImport(request.trf, this.section, { from: request.from, digest, by, totalRounds: this.totalRounds });
    if (!plan.ok) return plan;
    const record = plan.record;
    const rounds = record.rounds ?? 0;
    const byeAsked = this.#byes.find((b) => b.round <= rounds);
    if (byeAsked) return refusal('trf-mismatch', `${where}: a bye in round ${byeAsked.round} was asked for here, the file has that round played`);
    if (this.section.format.kind === 'round-robin') {
      for (let round = 1; round <= rounds; round += 1) {
        const table = roundBoards(this.event, this.section.id, round).boards;
        const games = record.games.filter((g) => g.round === round);
        const off = table.find((b) => !games.some((g) => g.white === b.white.id && g.black === b.black.id));
        if (off || games.length !== table.length) {
          return refusal('trf-mismatch', `${request.from}: round ${round} is not the Berger table's${off ? ` (it has ${off.white.name} – ${off.black.name}, White first)` : ''}: the console goes on with the table, so the rounds played must follow it`);
        }
      }
    }
    if (request.preview) return { ok: true, preview: plan.preview };
    if (record.games.length === 0 && record.byes.length === 0 && !record.players) return refusal('nothing-to-do', `${request.from}: nothing to import: every player of the file is registered as it says, and it has no results`);
    const at = this.hall.source.now();
    const journalSeq = this.#journal(signed(record, credential), at);
    this.#apply(record, at);
    this.#changed();
    return { ok: true, preview: plan.preview, journalSeq };
  }

  /** The result the clock gave a hall board (null while it plays or when its players are unknown). */
  clockResult(hallBoard: string): BoardResult | null {
    const pair = this.hallPairs.get(hallBoard);
    const board = this.#liveBoard(hallBoard);
    if (!pair || !board) return null;
    return boardResultFromClock(pair.white, pair.black, board.state);
  }

  /** The pairing of a round, where it is known: live boards, a published round, the Berger table. */
  pairingOf(round: number): { games: readonly Pairing[]; bye: number | null; status: RoundPairings['status'] } | undefined {
    const published = this.#published.get(round);
    if (round === this.liveRound && this.hallPairs.size > 0) return { games: published?.games ?? [...this.hallPairs.values()], bye: published?.bye ?? null, status: 'live' };
    if (published) return { ...published, status: 'published' };
    if (round === this.liveRound) return { games: [...this.hallPairs.values()], bye: this.#liveBye(), status: 'live' };
    const imported = this.#imported.flatMap((i) => i.games.filter((g) => g.round === round));
    if (imported.length > 0) {
      const bye = this.#imported.flatMap((i) => i.byes).find((b) => b.round === round && b.kind === 'pab');
      return { games: imported.map((g) => ({ white: g.white, black: g.black })), bye: bye?.player ?? null, status: 'imported' };
    }
    if (this.section.format.kind === 'round-robin' && round >= 1 && round <= this.totalRounds) {
      const table = roundBoards(this.event, this.section.id, round);
      return { games: table.boards.map((b) => ({ white: b.white.id, black: b.black.id })), bye: table.bye?.id ?? null, status: 'table' };
    }
    return undefined;
  }

  /**
   * The pairing-allocated bye of the live Swiss round when it was not paired here: the one player
   * who is on no board and not absent (withdrawn, late registrant, requested bye).
   */
  #liveBye(): number | null {
    if (this.section.format.kind !== 'swiss') return null;
    const seated = new Set([...this.hallPairs.values()].flatMap((p) => [p.white, p.black]));
    const absent = new Set([
      ...playersToPair(this.section, { ...emptyRecord, withdrawals: this.#withdrawals.map((w) => ({ player: w.player, fromRound: w.fromRound, reason: 'withdrew' as const })) }, this.liveRound).notPaired.map((n) => n.player.id),
      ...this.#byes.filter((b) => b.round === this.liveRound).map((b) => b.player),
    ]);
    const left = this.section.players.filter((p) => !seated.has(p.id) && !absent.has(p.id));
    return left.length === 1 ? left[0]!.id : null;
  }

  /** Results with their source: entered or confirmed ones from the journal, provisional ones from the clocks. */
  #results(): { round: number; result: BoardResult; source: 'clock' | 'confirmed' | 'arbiter' }[] {
    const out = [...this.#entered.values()].map((r): { round: number; result: BoardResult; source: 'clock' | 'confirmed' | 'arbiter' } => ({
      round: r.round,
      result: { white: r.white, black: r.black, result: r.result, termination: r.termination, ...(r.lessThanOneMove ? { lessThanOneMove: true } : {}) },
      source: r.source,
    }));
    for (const id of this.hallPairs.keys()) {
      const result = this.clockResult(id);
      if (result && !this.#entered.has(key(this.liveRound, result.white, result.black))) out.push({ round: this.liveRound, result, source: 'clock' as const });
    }
    return out;
  }

  /** The section record as it stands: every known result, the incidents, and the clocks' late arrivals. */
  record(): SectionRecord {
    let record: SectionRecord = emptyRecord;
    for (const { round, result } of this.#results().sort((a, b) => a.round - b.round)) record = recordBoardResult(this.section, record, round, result);
    const fromClocks = [...this.hallPairs].flatMap(([id, pair]) => {
      const state = this.#liveBoard(id)?.state;
      return state?.result ? clockIncidents(this.section, this.liveRound, pair, state) : [];
    });
    const entered = this.#incidents.map((i) => ({ round: i.round, player: i.player, offence: i.offence, ...(i.note ? { note: i.note } : {}) }));
    // Byes of the paired rounds: the Swiss pairing-allocated bye scores a point (TRF U); requested ones half or none.
    const byes = new Map<number, { player: number; kind: 'pab' | 'full' | 'half' | 'zero' }[]>();
    const addBye = (round: number, bye: { player: number; kind: 'pab' | 'full' | 'half' | 'zero' }) => byes.set(round, [...(byes.get(round) ?? []), bye]);
    for (const bye of this.#imported.flatMap((i) => i.byes)) addBye(bye.round, { player: bye.player, kind: bye.kind });
    if (this.section.format.kind === 'swiss') {
      for (let round = 1; round <= this.currentRound; round += 1) {
        const pairing = this.pairingOf(round);
        if (pairing && pairing.status !== 'imported' && pairing.bye !== null) addBye(round, { player: pairing.bye, kind: 'pab' });
      }
    }
    for (const bye of this.#byes) if (bye.round <= this.currentRound) addBye(bye.round, { player: bye.player, kind: bye.kind });
    let rounds = record.rounds;
    for (const [round, list] of byes) {
      const existing = rounds.find((r) => r.round === round) ?? { round, games: [] };
      rounds = [...rounds.filter((r) => r.round !== round), { ...existing, byes: [...(existing.byes ?? []), ...list] }].sort((a, b) => a.round - b.round);
    }
    const withdrawals = this.#withdrawals.map((w) => ({ player: w.player, fromRound: w.fromRound, reason: 'withdrew' as const }));
    return { ...record, rounds, withdrawals, incidents: [...fromClocks, ...entered] };
  }

  /** Checks a command against the section as it stands, journals its outcome, applies it. */
  command(command: TournamentCommand, arbiter: CommandBy): CommandOutcome {
    if (command.type === 'confirmRound') return this.#confirmRound(arbiter);
    if (command.type === 'resolveResultConflict') return this.#resolveConflict(command, arbiter);
    let action: TournamentRecord;
    try {
      const { by, credential } = signature(arbiter);
      const checked = this.#check(command, by);
      if ('ok' in checked) return checked;
      action = signed(checked, credential);
    } catch (err) {
      return ruleRefusal(err);
    }
    if (action.type === 'result' && action.source === 'arbiter') {
      const ended = this.#endOnClock(action);
      if (ended) return ended;
    }
    const at = this.hall.source.now();
    const journalSeq = this.#journal(action, at);
    this.#apply(action, at);
    this.#followRounds(action);
    const seated = this.#seatPublished(action);
    if (seated && !seated.ok) return seated;
    const seq = seated?.journalSeq ?? journalSeq;
    if (isPlayoffStep(action)) this.#playoffOnBoards();
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq: Math.max(seq, journalSeq) };
  }

  /**
   * A record another console's desk journaled (read from the bus, already in this journal): applied as
   * that desk applied it. The seat of a published round comes on its own (the hall's `seat` record).
   */
  receive(action: TournamentRecord, at: number): void {
    this.#apply(action, at);
    this.#followRounds(action);
    this.#linkBoards();
    this.#closeIfConfirmed();
    this.#queueConflicts();
    this.#changed();
  }

  /**
   * A result the arbiter enters for a game still going on a hall board ends that game on its clock,
   * journaled before the result (the PGN and the clocks page show it at once); the clock's refusal is
   * the command's. A game the clock has ended already keeps the clock's record: a different result
   * is the arbiter's correction, journaled on the board too (its PGN's result, with the reason).
   */
  #endOnClock(result: EnteredResult): Refusal | undefined {
    const hallBoard = this.hallBoardOf(result.round, result.white, result.black);
    const board = hallBoard === undefined ? undefined : this.hall.boards.get(hallBoard);
    if (!board) return undefined;
    if (board.state.status === 'finished') {
      const clock = board.correctedResult ?? board.state.result?.result;
      if (clock !== result.result) {
        this.hall.record({ kind: 'note', board: board.id, note: { type: 'correction', at: this.hall.source.now(), result: result.result, by: result.by, ...(result.credential !== undefined ? { credential: result.credential } : {}), reason: result.reason ?? '' } });
      }
      return undefined;
    }
    // A console on the bus owns no board: the owning host's clock is not ended from here (yet); a
    // different result its clock gives later is a contradiction the arbiter is alerted to (#raiseConflicts).
    if (!this.hall.owns(board.id)) return undefined;
    const termination = `result entered by the arbiter: ${result.reason ?? ''}`.slice(0, 100);
    const ended = this.hall.command({ type: 'result', board: board.id, result: result.result, termination }, result.credential !== undefined ? { name: result.by, credential: result.credential } : result.by);
    return ended.ok ? undefined : within(`board ${board.id}'s clock: `, ended);
  }

  /** The round actors follow a draft made or discarded. */
  #followRounds(action: TournamentRecord): void {
    if (action.type === 'draft') this.hall.lifecycle(this.hallSection, action.round, { type: 'draft' });
    if (action.type === 'discardDraft' && this.#discarded !== undefined) this.hall.lifecycle(this.hallSection, this.#discarded, { type: 'discard' });
  }

  /** A round this desk published goes on the hall's boards (undefined: the action seats nothing). */
  #seatPublished(action: TournamentRecord): CommandOutcome | undefined {
    if (action.type !== 'publish' || action.round <= this.liveRound) return undefined;
    const pairing = this.#published.get(action.round);
    if (!pairing) return undefined;
    const seated = this.hall.seat(this.#seat(action.round, pairing, this.event));
    if (seated.ok) this.#linkBoards();
    return seated;
  }

  /** Every clock result of the live round not yet confirmed or entered, confirmed in one journaled batch. */
  #confirmRound(arbiter: CommandBy): CommandOutcome {
    const actions = this.#roundConfirmations(arbiter);
    if (actions.length === 0) return this.#nothingToConfirm();
    const at = this.hall.source.now();
    const journalSeq = this.hall.recordBatch(actions.map((action) => this.#entry(action, at)));
    for (const action of actions) this.#apply(action, at);
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq };
  }

  /** The confirmations of every clock result of the live round not yet confirmed or entered. */
  #roundConfirmations(arbiter: CommandBy): TournamentRecord[] {
    const who = signature(arbiter);
    const round = this.liveRound;
    const actions: TournamentRecord[] = [];
    for (const id of this.hallPairs.keys()) {
      const clock = this.clockResult(id);
      if (!clock || this.#entered.has(key(round, clock.white, clock.black))) continue;
      actions.push({ type: 'result', round, white: clock.white, black: clock.black, result: clock.result, source: 'confirmed', termination: clock.termination ?? '', ...(clock.lessThanOneMove ? { lessThanOneMove: true } : {}), ...who });
    }
    return actions;
  }

  #nothingToConfirm(): Refusal {
    return this.liveRound === 0 ? refusal('no-round', 'no round is on the boards') : refusal('nothing-to-do', `round ${this.liveRound} has no clock result to confirm`);
  }

  /**
   * What a command would journal, checked against the section as it stands; nothing is journaled. A
   * console on the bus writes the records to the stream first (bus-desk.ts), then applies them as read.
   */
  prepare(command: TournamentCommand, arbiter: CommandBy): Refusal | { readonly ok: true; readonly actions: readonly TournamentRecord[] } {
    if (command.type === 'confirmRound') {
      const actions = this.#roundConfirmations(arbiter);
      return actions.length > 0 ? { ok: true, actions } : this.#nothingToConfirm();
    }
    try {
      const { by, credential } = signature(arbiter);
      const checked = this.#check(command, by);
      return 'ok' in checked ? checked : { ok: true, actions: [signed(checked, credential)] };
    } catch (err) {
      return ruleRefusal(err);
    }
  }

  /** The journal record of one of this desk's records. */
  journalRecord(action: TournamentRecord): JournalRecord {
    return this.#entry(action, this.hall.source.now());
  }

  /**
   * What the commanding desk does once its records are in (applied as read, like another console's:
   * `receive`): it seats a round it published on the hall and takes the playoff's next step.
   */
  afterCarriedOut(actions: readonly TournamentRecord[]): CommandOutcome {
    let seq = this.hall.version;
    for (const action of actions) {
      const seated = this.#seatPublished(action);
      if (seated && !seated.ok) return seated;
      if (seated) seq = seated.journalSeq;
      if (isPlayoffStep(action)) this.#playoffOnBoards();
    }
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq: Math.max(seq, this.hall.version) };
  }

  #journal(action: TournamentRecord, at: number): number {
    return this.hall.record(this.#entry(action, at));
  }

  /** One of this desk's records as the journal keeps it, with its section. */
  #entry(action: TournamentRecord, at: number): JournalRecord {
    return { kind: 'tournament', section: this.section.id, at, action };
  }

  /** A refusal or the record to journal. Throws (refused with its message, `tournament-rule`) on tournament-rule errors. */
  #check(command: TournamentCommand, by: string): Refusal | TournamentRecord {
    const name = (id: number): string => this.section.players.find((p) => p.id === id)?.name ?? `#${id}`;
    switch (command.type) {
      case 'enterResult':
      case 'confirmResult': {
        const { round, white, black } = command;
        if (round > this.currentRound) return refusal('round-not-paired', `round ${round} has no pairings yet (current round: ${this.currentRound})`);
        const pairing = this.pairingOf(round);
        if (pairing && !pairing.games.some((g) => g.white === white && g.black === black)) {
          return refusal('unknown-game', `round ${round} has no game ${name(white)} (White) – ${name(black)} (Black)`);
        }
        if (command.type === 'confirmResult') {
          const hallBoard = this.hallBoardOf(round, white, black);
          const clock = hallBoard === undefined ? null : this.clockResult(hallBoard);
          if (!clock) return refusal('no-clock-result', `no result from the clock for ${name(white)} – ${name(black)} in round ${round}`);
          const had = this.#entered.get(key(round, white, black));
          if (had?.source === 'confirmed' && had.result === clock.result) return refusal('already-recorded', `round ${round}: the clock's ${clock.result} for ${name(white)} – ${name(black)} is confirmed already (by ${had.by})`);
          return { type: 'result', round, white, black, result: clock.result, source: 'confirmed', termination: clock.termination ?? '', ...(clock.lessThanOneMove ? { lessThanOneMove: true } : {}), by };
        }
        const existing = this.#entered.get(key(round, white, black));
        if (existing?.source === 'arbiter' && existing.result === command.result) return refusal('already-recorded', `round ${round}: ${name(white)} – ${name(black)} is already ${command.result}`);
        const hallBoard = this.hallBoardOf(round, white, black);
        const before = existing?.result ?? (hallBoard === undefined ? undefined : this.clockResult(hallBoard)?.result);
        const replaces = before !== undefined && before !== command.result ? { replaces: before } : {};
        const record: TournamentRecord = { type: 'result', round, white, black, result: command.result, source: 'arbiter', termination: 'arbiter', reason: command.reason, ...replaces, by };
        recordBoardResult(this.section, this.record(), round, { white, black, result: command.result }); // clashes throw
        return record;
      }
      case 'pairNextRound':
        return this.#pairNext(by);
      case 'confirmRound':
      case 'resolveResultConflict':
        return refusal('internal', `${command.type} goes through command()`);
      case 'swapColours':
      case 'exchangeOpponents': {
        const draft = this.#draft;
        if (!draft) return refusal('no-draft', 'there is no draft pairing: pair the next round first');
        for (const board of [command.board, command.type === 'exchangeOpponents' ? command.otherBoard : command.board]) {
          if (!draft.games[board - 1]) return refusal('unknown-draft-board', `the draft of round ${draft.round} has boards 1–${draft.games.length}, not ${board}`);
        }
        const change: TournamentRecord =
          command.type === 'swapColours'
            ? { type: 'draftChange', change: 'swapColours', board: command.board, reason: command.reason, by }
            : { type: 'draftChange', change: 'exchangeOpponents', board: command.board, otherBoard: command.otherBoard, reason: command.reason, by };
        if (command.type === 'exchangeOpponents') {
          const a = draft.games[command.board - 1]!;
          const b = draft.games[command.otherBoard - 1]!;
          for (const [w, bl] of [[a.white, b.black], [b.white, a.black]] as const) {
            const met = this.#metIn(w, bl);
            if (met !== undefined) return refusal('already-met', `${name(w)} and ${name(bl)} already played each other in round ${met}`, 'FIDE C.04.1');
          }
        }
        return change;
      }
      case 'discardDraft':
        if (!this.#draft) return refusal('no-draft', 'there is no draft pairing to discard');
        return { type: 'discardDraft', reason: command.reason, by };
      case 'publishRound':
        if (!this.#draft) return refusal('no-draft', 'there is no draft pairing to publish: pair the next round first');
        if (this.#draft.round > this.liveRound && !this.liveRoundClosed) {
          return refusal('results-unconfirmed', `round ${this.liveRound} is still on the boards: confirm its results first (${this.#missingResults(this.liveRound).join(', ')})`);
        }
        return { type: 'publish', round: this.#draft.round, by };
      case 'startPlayoff': {
        const possible = this.#playoffPossible();
        if (!possible.possible) return refusal('playoff-impossible', possible.why!);
        const tied = tiedForFirst(sectionStandings(this.event, this.section.id, this.record()));
        return { type: 'playoffStart', tied, seed: randomInt(1, 2 ** 31 - 1), by };
      }
      case 'playoffResult': {
        if (!this.#playoff) return refusal('no-playoff', 'no playoff has been started');
        const onBoard = this.hall.seated.get(this.playoffSection)?.boards.find((b) => b.playoffGame === command.game);
        if (onBoard) return refusal('playoff-on-board', `playoff game ${command.game} is played on hall board ${onBoard.id}: its clock gives the result (end the game on the board: a result or a forfeit)`);
        recordPlayoffResult(this.#playoff, command.game, command.result); // unknown or decided game throws
        return { type: 'playoffResult', game: command.game, result: command.result, by };
      }
      case 'decidePlayoff': {
        if (!this.#playoff) return refusal('no-playoff', 'no playoff has been started');
        decidePlayoff(this.#playoff, command.winner, command.reason); // not the arbiter's to decide, or not a player still in: throws
        return { type: 'playoffRuling', winner: command.winner, reason: command.reason, by };
      }
      case 'requestBye': {
        if (!this.section.players.some((p) => p.id === command.player)) return refusal('unknown-player', `section '${this.section.id}' has no player ${command.player}`);
        if (this.section.format.kind !== 'swiss') return refusal('not-swiss', 'byes on request exist in a Swiss only (a round robin follows the Berger table)');
        if (command.round <= this.currentRound) return refusal('round-paired', `round ${command.round} is already paired`);
        if (this.#draft?.round === command.round) return refusal('draft-waiting', `round ${command.round} has a draft: discard it first, then pair again with the bye`);
        if (command.round > this.totalRounds) return refusal('beyond-last-round', `the section has ${this.totalRounds} rounds`);
        if (this.#byes.some((b) => b.round === command.round && b.player === command.player)) return refusal('already-recorded', `${name(command.player)} already has a bye in round ${command.round}`);
        return { type: 'bye', round: command.round, player: command.player, kind: command.kind, reason: command.reason, by };
      }
      case 'withdrawPlayer': {
        if (!this.section.players.some((p) => p.id === command.player)) return refusal('unknown-player', `section '${this.section.id}' has no player ${command.player}`);
        if (command.fromRound > this.totalRounds) return refusal('beyond-last-round', `the section has ${this.totalRounds} rounds`);
        if (this.#withdrawals.some((w) => w.player === command.player)) return refusal('already-recorded', `${name(command.player)} has already withdrawn`);
        return { type: 'withdrawal', player: command.player, fromRound: command.fromRound, reason: command.reason, by };
      }
      case 'renamePlayer': {
        const player = this.section.players.find((p) => p.id === command.player);
        if (!player) return refusal('unknown-player', `section '${this.section.id}' has no player ${command.player}`);
        if (player.name === command.name) return refusal('nothing-to-do', `player ${command.player} is '${command.name}' already`);
        return { type: 'rename', player: command.player, name: command.name, reason: command.reason, by };
      }
      case 'recordIncident': {
        if (!this.section.players.some((p) => p.id === command.player)) return refusal('unknown-player', `section '${this.section.id}' has no player ${command.player}`);
        if (command.round > this.currentRound) return refusal('round-not-paired', `round ${command.round} has not been paired yet`);
        if (!this.section.fines.some((f) => f.offence === command.offence)) {
          return refusal('no-rule', `the regulations of '${this.section.id}' have no rule for '${command.offence}' (rules: ${this.section.fines.map((f) => f.offence).join(', ') || 'none'})`);
        }
        return { type: 'incident', round: command.round, player: command.player, offence: command.offence, ...(command.note ? { note: command.note } : {}), by };
      }
    }
  }

  /** The round in which two players met, if they did (any colours). */
  #metIn(a: number, b: number, met = this.#meetings()): number | undefined {
    return met.get(a < b ? `${a}-${b}` : `${b}-${a}`);
  }

  #meetings(): Map<string, number> {
    const met = new Map<string, number>();
    for (const round of this.record().rounds) {
      for (const g of round.games) met.set(g.white < g.black ? `${g.white}-${g.black}` : `${g.black}-${g.white}`, round.round);
    }
    return met;
  }

  #nextRound(): TournamentView['nextRound'] {
    const round = this.currentRound + 1;
    if (round > this.totalRounds) return null;
    if (this.#draft) return { round, possible: false, why: `the draft of round ${this.#draft.round} is waiting: publish ${this.#draft.round === this.liveRound ? 'it' : 'or discard it'}` };
    if (this.section.format.kind === 'swiss') {
      const missing = this.#missingResults(this.currentRound);
      if (missing.length > 0) return { round, possible: false, why: `round ${this.currentRound} needs confirmed results: ${missing.join(', ')}` };
    }
    // A round robin's next round may be drafted from the Berger table while this one is played; its
    // boards are the live round's, so publishing waits (as publishRound refuses).
    if (!this.liveRoundClosed) return { round, possible: true, publishAfter: `round ${this.liveRound} is finished and its results confirmed` };
    return { round, possible: true };
  }

  /** Boards of a round without a result, or with one from the clock the arbiter has not confirmed yet. */
  #missingResults(round: number): string[] {
    const pairing = this.pairingOf(round);
    if (!pairing) return [];
    const results = this.#results().filter((r) => r.round === round);
    return pairing.games.flatMap((g, i) => {
      const found = results.find((r) => r.result.white === g.white && r.result.black === g.black);
      if (!found) return [`board ${i + 1}`];
      return found.source === 'clock' ? [`board ${i + 1} (clock result to confirm)`] : [];
    });
  }

  #pairNext(by: string): Refusal | TournamentRecord {
    const next = this.#nextRound();
    if (!next) return refusal('beyond-last-round', `all ${this.totalRounds} rounds are paired`);
    if (!next.possible) return refusal(this.#draft ? 'draft-waiting' : 'results-unconfirmed', next.why!);
    if (this.section.format.kind === 'swiss') {
      const byes = this.#byes.filter((b) => b.round === next.round).map((b) => ({ player: b.player, round: b.round, kind: b.kind }));
      const swiss = pairSwissRound(this.event, this.section.id, this.record(), next.round, byes);
      return { type: 'draft', round: next.round, games: swiss.games, bye: swiss.bye, by };
    }
    const table = roundBoards(this.event, this.section.id, next.round);
    return { type: 'draft', round: next.round, games: table.boards.map((b) => ({ white: b.white.id, black: b.black.id })), bye: table.bye?.id ?? null, by };
  }

  #playoffPossible(): { possible: boolean; why?: string } {
    if (this.section.playoff.kind === 'none') return { possible: false, why: `the regulations of '${this.section.id}' have no playoff: the tie-breaks decide` };
    if (this.#playoff) return { possible: false, why: 'the playoff has already been started' };
    if (this.currentRound < this.totalRounds) return { possible: false, why: `the playoff follows the last round (round ${this.currentRound} of ${this.totalRounds} is paired)` };
    const missing = this.#missingResults(this.totalRounds);
    if (missing.length > 0) return { possible: false, why: `the last round needs confirmed results: ${missing.join(', ')}` };
    const tied = tiedForFirst(sectionStandings(this.event, this.section.id, this.record()));
    if (tied.length < 2) return { possible: false, why: 'no tie for first place' };
    return { possible: true };
  }

  /** The pages' state; `arbiter` adds the unpublished draft. Cached until something changes. */
  view(role: 'arbiter' | 'spectator'): TournamentView {
    if (!this.#views || this.#views.version !== this.#changes) this.#views = { version: this.#changes, ...assembleViews(this.event, this.section.id, this.viewParts()) };
    return this.#views[role];
  }

  /**
   * What the view is made of that the desk knows at once (the rounds' games, what may happen next,
   * the section record): the crosstable, tie-breaks and prizes are derived from it by assembleViews,
   * in the view worker while the console plays (tournament-builder.ts). Plain data.
   */
  viewParts(): ViewParts {
    const record = this.record();
    const results = new Map(this.#results().map((r) => [key(r.round, r.result.white, r.result.black), r]));
    const rounds: RoundPairings[] = [];
    for (let round = 1; round <= this.currentRound; round += 1) {
      const pairing = this.pairingOf(round);
      if (!pairing || (pairing.status === 'table' && ![...results.values()].some((r) => r.round === round))) continue;
      const paired = pairingsView(this.event, this.section.id, record, round, pairing);
      const games: PairedGame[] = pairing.games.map((g, i) => {
        const found = results.get(key(round, g.white, g.black));
        const hallBoard = pairing.status === 'live' ? this.hallBoardOf(round, g.white, g.black) : undefined;
        return {
          board: i + 1,
          ...(hallBoard !== undefined ? { hallBoard } : {}),
          white: this.#player(g.white),
          black: this.#player(g.black),
          result: found?.result.result ?? null,
          source: found?.source ?? null,
          ...(found?.result.termination ? { termination: found.result.termination } : {}),
          ...(hallBoard !== undefined ? this.#contradiction(round, g) : {}),
        };
      });
      const requested = this.#byes
        .filter((b) => b.round === round)
        .map((b) => ({ ...this.#player(b.player), why: b.kind === 'half' ? 'half-point bye (requested)' : 'zero-point bye (requested)' }));
      rounds.push({ round, status: pairing.status, games, bye: pairing.bye === null ? null : this.#player(pairing.bye), notPaired: [...paired.notPaired, ...requested] });
    }
    const draft = this.#draftView();
    return {
      event: this.event.name,
      section: { id: this.section.id, name: this.section.name, format: this.section.format.kind, rounds: this.totalRounds },
      liveRound: this.liveRound,
      currentRound: this.currentRound,
      rounds,
      corrections: [...this.#corrections],
      unlinkedBoards: [...this.hall.boards.values()].filter((b) => (b.round.section ?? MAIN) === this.hallSection && !this.hallPairs.has(b.id)).map((b) => ({ board: b.id, white: b.info.white, black: b.info.black })),
      nextRound: this.#nextRound(),
      playoffPossible: this.#playoffPossible(),
      record,
      ...(this.#playoff ? { playoff: this.#playoff, playoffBoards: this.#playoffBoards(), ...(this.#playoffHeld !== undefined ? { playoffHeld: this.#playoffHeld } : {}) } : {}),
      ...(draft ? { draft } : {}),
      ...(this.#registered ? { players: this.#registered } : {}),
    };
  }

  /** Playoff game id -> the hall board it is (or was) played on. */
  #playoffBoards(): Record<string, string> {
    const boards = new Map(this.#playoffBoardOf);
    for (const b of this.hall.seated.get(this.playoffSection)?.boards ?? []) if (b.playoffGame !== undefined) boards.set(b.playoffGame, b.id);
    return Object.fromEntries(boards);
  }

  #names: Map<number, string> | undefined;
  #player(id: number): PairedPlayer {
    this.#names ??= new Map(this.section.players.map((p) => [p.id, p.name]));
    return { id, name: this.#names.get(id) ?? `#${id}` };
  }

  #draftView(): DraftView | undefined {
    const draft = this.#draft;
    if (!draft) return undefined;
    const meetings = this.#meetings();
    return {
      round: draft.round,
      games: draft.games.map((g, i) => ({ board: i + 1, white: this.#player(g.white), black: this.#player(g.black) })),
      bye: draft.bye === null ? null : this.#player(draft.bye),
      changes: draft.changes,
      rematches: draft.games.flatMap((g) => {
        const met = this.#metIn(g.white, g.black, meetings);
        return met === undefined ? [] : [`${this.#player(g.white).name} – ${this.#player(g.black).name} (round ${met})`];
      }),
    };
  }
}

/**
 * A command the tournament's own code refused by throwing: a RangeError is its rule (a result that
 * clashes, a playoff game decided already), as is a round the Dutch engine cannot pair; anything else
 * is the console's own failure.
 */
function ruleRefusal(err: unknown): Refusal {
  if (err instanceof RangeError || err instanceof NoValidPairingError) return refusal('tournament-rule', err.message);
  return refusal('internal', err instanceof Error ? err.message : String(err));
}
