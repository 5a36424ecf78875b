// The tournament desk: the section's results, next-round pairing drafts, playoffs and incidents,
// next to the playing hall. Every action is checked, journaled through the hall (journal before ack)
// and applied; a restart replays the journal's tournament records. Results of the boards on the
// clocks are read from the hall (boardResultFromClock) and stay provisional until the arbiter
// confirms or corrects them.
// This class owns the desk's state (desk-state.ts) and the seated round's boards, journals and tells
// its listeners; each step of the arbiter's work is its own file: the refusal checks (desk-checks.ts),
// results, clock results and contradictions (result-step.ts), drafts and pairings (pairing-step.ts),
// the playoff (playoff-step.ts), the TRF import (registration-step.ts).
import type { Refusal, Round } from '../contract/index.ts';
import type { RoundPairings, TournamentCommand, TournamentRecord, TournamentView, TrfImportPreview, ViewParts } from '../contract/index.ts';
import {
  sectionRounds,
  type BoardResult,
  type EventSection,
  type Pairing,
  type PlayoffState,
  type SectionRecord,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import type { CommandBy, CommandOutcome, HallChange, PlayingHall } from '../hall/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import { checkCommand, ruleRefusal } from './desk-checks.ts';
import { applyRecord, journalEntry, journaledActions, newDeskState, signature, signed, type DeskState, type Journaled } from './desk-state.ts';
import { deskViewParts } from './desk-view-parts.ts';
import { pairingPlan, roundPairing, swissDraft } from './pairing-step.ts';
import { playoffHallSection, type SeatPlayoff } from './playoff-boards.ts';
import { isPlayoffStep, playoffOnBoards } from './playoff-step.ts';
import { trfImport, type TrfImportRequest } from './registration-step.ts';
import {
  clockIncidentRecords,
  clockResultOf,
  conflictNotes,
  conflictSettlement,
  endOnClock,
  finishSignature,
  missingResults,
  nothingToConfirm,
  roundConfirmations,
  sectionRecordOf,
} from './result-step.ts';
import { inlinePairer, PairingFailure, type SwissPairer } from './swiss-pairer.ts';
import { assembleViews } from './tournament-view-build.ts';
import { isDeepStrictEqual } from 'node:util';
import { refusal } from '../contract/index.ts';

/**
 * Puts a published round on the hall's boards: the event console builds it (clock settings, hall board
 * numbers), its players taken by pairing number from `event` as the desk knows it (registration list, names corrected).
 */
export type SeatRound = (round: number, pairing: { readonly games: readonly Pairing[]; readonly bye: number | null }, event: ZeitnotEvent) => Round;

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
  /** The section as this desk knows it from its records. */
  readonly #state: DeskState;
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
  /**
   * The live boards to look at for a contradiction on the next turn: those whose clock ended or changed
   * its result since the last look, or 'all' (a round seated, a record from the bus, the start). At
   * 1,000 boards a look at every board for each of a round's 1,000 results took 0.5-0.7 s of the
   * event loop in the 15 s the results came in, and made a key string per board each time.
   */
  #conflictBoards: Set<string> | 'all' = 'all';
  readonly #listeners = new Set<() => void>();
  readonly #finished = new Map<string, string>();
  /** Who pairs a Swiss round for `pairNextRound` (the console's: a worker thread). */
  readonly #pairer: SwissPairer;
  /** The round being paired by `pairer` (undefined: none). */
  #pairing: number | undefined;
  #views: { version: number; arbiter: TournamentView; spectator: TournamentView } | undefined;
  #changes = 0;

  /**
   * The desk of one section of the event a hall runs: its records are the journal's tournament records
   * of that section, its rounds are seated on the hall's boards by `seat` when published.
   */
  static forSection(
    hall: PlayingHall,
    event: ZeitnotEvent,
    sectionId: string,
    seat: SeatRound,
    seatPlayoff?: SeatPlayoff,
    pairer: SwissPairer = inlinePairer(),
  ): TournamentDesk {
    return new TournamentDesk(hall, event, sectionId, journaledActions(hall, { section: sectionId }), seat, seatPlayoff, pairer);
  }

  private constructor(
    readonly hall: PlayingHall,
    event: ZeitnotEvent,
    sectionId: string,
    records: readonly Journaled[],
    seat: SeatRound,
    seatPlayoff: SeatPlayoff | undefined,
    pairer: SwissPairer,
  ) {
    this.#state = newDeskState(event, sectionId);
    this.#pairer = pairer;
    this.hallSection = sectionId;
    this.#seat = seat;
    this.#seatPlayoff = seatPlayoff;
    this.#linkBoards();
    for (const { action, at } of records) this.#apply(action, at);
    for (const id of this.hallPairs.keys()) this.#finished.set(id, finishSignature(this, id));
    hall.subscribe((change) => this.#onHall(change));
    // The actors follow the journal: a pending draft has its round actor, a fully confirmed round is closed.
    const draft = this.#state.draft;
    if (draft && draft.round > this.liveRound) hall.lifecycle(this.hallSection, draft.round, { type: 'draft' });
    this.#closeIfConfirmed();
    // A console killed between a playoff game's end and its record, or before the next sitting: done now.
    this.#playoffOnBoards();
    // A journal whose clock result came after a different entered one (a hall host's, a replay): alerted now.
    this.#raiseConflicts();
  }

  get event(): ZeitnotEvent {
    return this.#state.event;
  }

  get section(): EventSection {
    return this.#state.section;
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
    const idOf = (id: number | undefined, name: string): number | undefined =>
      id !== undefined ? (ids.has(id) ? id : undefined) : (named.get(name) ?? undefined);
    for (const info of seated?.boards ?? []) {
      const white = idOf(info.whiteId, info.white);
      const black = idOf(info.blackId, info.black);
      if (white !== undefined && black !== undefined) this.hallPairs.set(info.id, { white, black });
    }
    this.#hallBoardOfPair = new Map([...this.hallPairs].map(([id, p]) => [`${p.white}:${p.black}`, id]));
    this.#finished.clear();
    for (const id of this.hallPairs.keys()) this.#finished.set(id, finishSignature(this, id));
  }

  /** The round on the hall's boards (0 before the first is published). */
  get liveRound(): number {
    return this.hall.seated.get(this.hallSection)?.round ?? 0;
  }

  /** Every result of the live round confirmed or entered: the round actor is closed (once). */
  #closeIfConfirmed(): void {
    const round = this.liveRound;
    if (round === 0 || this.#state.closed.has(round) || this.hallPairs.size === 0) return;
    if (missingResults(this, this.#state, round).length > 0) return;
    this.#state.closed.add(round);
    this.hall.lifecycle(this.hallSection, round, { type: 'close' });
  }

  /** Whether the live round is closed (every result confirmed): the next one may be seated. */
  get liveRoundClosed(): boolean {
    return this.liveRound === 0 || missingResults(this, this.#state, this.liveRound).length === 0;
  }

  /** The hall board a game of the live round is played on (undefined: another round, or not on the boards). */
  hallBoardOf(round: number, white: number, black: number): string | undefined {
    return round === this.liveRound ? this.#hallBoardOfPair.get(`${white}:${black}`) : undefined;
  }

  get currentRound(): number {
    return Math.max(this.liveRound, this.importedRounds, ...this.#state.published.keys());
  }

  /** Rounds 1..N played elsewhere and imported from a TRF (0: none). */
  get importedRounds(): number {
    return Math.max(0, ...this.#state.imported.map((i) => i.rounds ?? 0));
  }

  get totalRounds(): number {
    return sectionRounds(this.section);
  }

  get playoff(): PlayoffState | undefined {
    return this.#state.playoff;
  }

  /** The hall section of this section's playoff games. */
  get playoffSection(): string {
    return playoffHallSection(this.section.id);
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #onHall(change: HallChange): void {
    const playoffBoards = this.hall.seated.get(this.playoffSection);
    // A game of the playoff's sitting moved, or its next sitting waits for boards another section still uses.
    if (this.#state.playoffHeld !== undefined || (playoffBoards && change.boards.some((id) => this.hall.boards.get(id)?.round === playoffBoards)))
      this.#queuePlayoff();
    let changed = false;
    if (change.round && this.hall.seated.get(this.hallSection) !== this.#pairsOf) {
      this.#linkBoards();
      this.#conflictBoards = 'all';
      changed = true;
    }
    for (const id of change.boards) {
      if (!this.hallPairs.has(id)) continue;
      const signature = finishSignature(this, id);
      if (signature !== this.#finished.get(id)) {
        this.#finished.set(id, signature);
        if (this.#conflictBoards !== 'all') this.#conflictBoards.add(id);
        changed = true;
      }
    }
    if (changed) {
      this.#queueConflicts();
      this.#changed();
    }
  }

  /** A contradiction between a live board's clock and the desk's entered result is journaled as an alert (result-step.ts). */
  #raiseConflicts(): void {
    const boards = this.#conflictBoards;
    this.#conflictBoards = new Set();
    const notes = conflictNotes(this, this.#state, this.hall.source.now(), boards === 'all' ? undefined : boards);
    if (notes.length === 0) return;
    this.hall.recordBatch(notes);
    this.#changed();
  }

  /** The arbiter settles a contradiction between the clock and the desk in one journaled step (result-step.ts). */
  #resolveConflict(command: Extract<TournamentCommand, { type: 'resolveResultConflict' }>, arbiter: CommandBy): CommandOutcome {
    const settled = conflictSettlement(this, this.#state, command, arbiter);
    if (!settled.ok) return settled;
    const journalSeq = settled.records.length === 1 ? this.hall.record(settled.records[0]!) : this.hall.recordBatch(settled.records);
    if (settled.result) this.#apply(settled.result, settled.at);
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq };
  }

  /** The playoff's clock results journaled and its next sitting seated (playoff-step.ts). */
  #playoffOnBoards(): void {
    if (playoffOnBoards(this, this.#state, this.#seatPlayoff, (action, at) => this.#apply(action, at))) this.#changed();
  }

  #changed(): void {
    this.#changes += 1;
    this.#views = undefined;
    for (const listener of this.#listeners) listener();
  }

  #apply(record: TournamentRecord, at: number): void {
    applyRecord(this.#state, record, at);
  }

  /**
   * The arbiter's TRF import into the section (a registration list before round 1, and/or rounds played
   * elsewhere: the console goes on with the next), checked against the section as it stands. With
   * `preview` nothing is journaled: the answer says what would change. Refused, changing nothing, when
   * the file is bad or does not fit (a player not in the section), or when this console has paired a
   * round of the section already or imported rounds before (registration-step.ts).
   */
  importTrf(request: TrfImportRequest, arbiter: CommandBy): Refusal | { ok: true; preview: TrfImportPreview; journalSeq?: number } {
    const planned = trfImport(this, this.#state, request, arbiter);
    if (!planned.ok || planned.record === undefined) return planned.ok ? { ok: true, preview: planned.preview } : planned;
    const at = this.hall.source.now();
    const journalSeq = this.#journal(planned.record, at);
    this.#apply(planned.record, at);
    this.#changed();
    return { ok: true, preview: planned.preview, journalSeq };
  }

  /** The result the clock gave a hall board (null while it plays or when its players are unknown). */
  clockResult(hallBoard: string): BoardResult | null {
    return clockResultOf(this, hallBoard);
  }

  /** The pairing of a round, where it is known: live boards, a published round, the Berger table. */
  pairingOf(round: number): { games: readonly Pairing[]; bye: number | null; status: RoundPairings['status'] } | undefined {
    return roundPairing(this, this.#state, round);
  }

  /** The section record as it stands: every known result, the incidents, and the clocks' late arrivals. */
  record(): SectionRecord {
    return sectionRecordOf(this, this.#state);
  }

  /** Checks a command against the section as it stands, journals its outcome, applies it. */
  command(command: TournamentCommand, arbiter: CommandBy): CommandOutcome {
    if (command.type === 'confirmRound') return this.#confirmRound(arbiter);
    if (command.type === 'resolveResultConflict') return this.#resolveConflict(command, arbiter);
    let action: TournamentRecord;
    try {
      const { by, credential } = signature(arbiter);
      const checked = checkCommand(this, this.#state, command, by);
      if ('ok' in checked) return checked;
      action = signed(checked, credential);
    } catch (err) {
      return ruleRefusal(err);
    }
    if (action.type === 'result' && action.source === 'arbiter') {
      const ended = endOnClock(this, action);
      if (ended) return ended;
    }
    return this.#carryOut(action, arbiter);
  }

  /**
   * `pairNextRound` with the Dutch engine off the event loop (the console's pairer: a worker thread),
   * so the clocks go on while a large Swiss is paired; a round robin's table is drawn at once. The
   * draft is journaled only if the section still stands as it was paired from; a section that moved
   * meanwhile (a result corrected, a bye) is paired again. A worker that fails: `pairing-failed`.
   */
  async pairNextRound(command: Extract<TournamentCommand, { type: 'pairNextRound' }>, arbiter: CommandBy): Promise<CommandOutcome> {
    if (this.#pairing !== undefined) return refusal('pairing-under-way', `round ${this.#pairing} of section '${this.section.id}' is being paired already`);
    for (let attempt = 1; ; attempt++) {
      let action: TournamentRecord;
      try {
        const { by, credential } = signature(arbiter);
        const plan = pairingPlan(this, this.#state, by);
        if ('code' in plan) return plan;
        if ('draft' in plan) return this.command(command, arbiter);
        this.#pairing = plan.swiss.round;
        const changes = this.#changes;
        let pairing;
        try {
          pairing = await this.#pairer.pair(plan.swiss);
        } finally {
          this.#pairing = undefined;
        }
        // Nothing changed meanwhile (the usual case): the plan stands without being made again.
        const now = this.#changes === changes ? plan : pairingPlan(this, this.#state, by);
        if (!('swiss' in now) || !isDeepStrictEqual(now.swiss, plan.swiss)) {
          if ('code' in now) return now;
          if (attempt < 3) continue;
          return refusal('pairing-failed', `section '${this.section.id}' kept changing while round ${plan.swiss.round} was paired: pair it again`);
        }
        action = signed(swissDraft(plan.swiss, pairing, by), credential);
      } catch (err) {
        return err instanceof PairingFailure ? refusal('pairing-failed', `${err.message}: nothing was paired, pair the round again`) : ruleRefusal(err);
      }
      return this.#carryOut(action, arbiter);
    }
  }

  /** Journals a checked record (with the clock incidents it settles), applies it and what follows from it. */
  #carryOut(action: TournamentRecord, arbiter: CommandBy): CommandOutcome {
    const at = this.hall.source.now();
    const incidents = clockIncidentRecords(this, this.#state, [action], arbiter);
    const journalSeq = incidents.length === 0 ? this.#journal(action, at) : this.hall.recordBatch([action, ...incidents].map((a) => this.#entry(a, at)));
    this.#apply(action, at);
    for (const incident of incidents) this.#apply(incident, at);
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
    this.#conflictBoards = 'all';
    this.#queueConflicts();
    this.#changed();
  }

  /** The round actors follow a draft made or discarded. */
  #followRounds(action: TournamentRecord): void {
    if (action.type === 'draft') this.hall.lifecycle(this.hallSection, action.round, { type: 'draft' });
    if (action.type === 'discardDraft' && this.#state.discarded !== undefined)
      this.hall.lifecycle(this.hallSection, this.#state.discarded, { type: 'discard' });
  }

  /** A round this desk published goes on the hall's boards (undefined: the action seats nothing). */
  #seatPublished(action: TournamentRecord): CommandOutcome | undefined {
    if (action.type !== 'publish' || action.round <= this.liveRound) return undefined;
    const pairing = this.#state.published.get(action.round);
    if (!pairing) return undefined;
    const seated = this.hall.seat(this.#seat(action.round, pairing, this.event));
    if (seated.ok) this.#linkBoards();
    return seated;
  }

  /** Every clock result of the live round not yet confirmed or entered, confirmed in one journaled batch. */
  #confirmRound(arbiter: CommandBy): CommandOutcome {
    const confirmations = roundConfirmations(this, this.#state, arbiter);
    if (confirmations.length === 0) return nothingToConfirm(this);
    const actions = [...confirmations, ...clockIncidentRecords(this, this.#state, confirmations, arbiter)];
    const at = this.hall.source.now();
    const journalSeq = this.hall.recordBatch(actions.map((action) => this.#entry(action, at)));
    for (const action of actions) this.#apply(action, at);
    this.#closeIfConfirmed();
    this.#changed();
    return { ok: true, journalSeq };
  }

  /**
   * What a command would journal, checked against the section as it stands; nothing is journaled. A
   * console on the bus writes the records to the stream first (bus-desk.ts), then applies them as read.
   */
  prepare(command: TournamentCommand, arbiter: CommandBy): Refusal | { readonly ok: true; readonly actions: readonly TournamentRecord[] } {
    if (command.type === 'confirmRound') {
      const actions = roundConfirmations(this, this.#state, arbiter);
      return actions.length > 0 ? { ok: true, actions: [...actions, ...clockIncidentRecords(this, this.#state, actions, arbiter)] } : nothingToConfirm(this);
    }
    try {
      const { by, credential } = signature(arbiter);
      const checked = checkCommand(this, this.#state, command, by);
      if ('ok' in checked) return checked;
      const action = signed(checked, credential);
      return { ok: true, actions: [action, ...clockIncidentRecords(this, this.#state, [action], arbiter)] };
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
    return journalEntry(this.section.id, action, at);
  }

  /** How many times the section has changed since start: what its views and HTTP feeds are cached by. */
  get changes(): number {
    return this.#changes;
  }

  /** The pages' state; `arbiter` adds the unpublished draft. Cached until something changes. */
  view(role: 'arbiter' | 'spectator'): TournamentView {
    if (!this.#views || this.#views.version !== this.#changes)
      this.#views = { version: this.#changes, ...assembleViews(this.event, this.section.id, this.viewParts()) };
    return this.#views[role];
  }

  /**
   * What the view is made of that the desk knows at once (the rounds' games, what may happen next,
   * the section record): the crosstable, tie-breaks and prizes are derived from it by assembleViews,
   * in the view worker while the console plays (tournament-builder.ts). Plain data (desk-view-parts.ts).
   */
  viewParts(): ViewParts {
    return deskViewParts(this, this.#state);
  }
}
