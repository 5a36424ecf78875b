// The playing hall: every board of every section's round on the tables, kept only through the journal. Each device event and
// arbiter command is journaled first, then applied; listeners hear which boards changed. Time acts
// through the event's actor system (event-actor.ts) on the hall's one injected clock: the game-clock
// actor of each board this hall keeps time for aims its timer at the board's next deadline and reports
// it; the hall journals the deadline events (flag, default time, start) at their exact instant and only
// then applies them. A board another machine keeps time for has no actor here: it is the fold of its
// owner's journaled events.
import { createActor, type Actor } from 'xstate';
import type { ClockEvent, EventActor, GameState } from '../../clock-engine/index.ts';
import { advanceTo, applyClockEvent, flagNeedsClaim, moveInProgress, noDeadlineBy, samePlacement } from '../../clock-engine/index.ts';
import type { ClockDevice, DeviceMessage, DeviceOrigin } from '../../device-bridge/index.ts';
import type { Attention, ConsoleIncident, ConsoleStatus, HostCommandOutcome, JournalHealth } from '../contract/index.ts';
import { Board } from './board.ts';
import { agreementRefusal, boardCommandPlan, missedMovesRecords } from './board-commands.ts';
import { encodeSnapshot, SNAPSHOT_EVERY, usableSnapshots, type BoardSnapshot } from './board-snapshot.ts';
import { eventLogic, gameSystemId, roundPhase, roundSystemId, sectionSystemId } from './event-actor.ts';
import type { ConsoleNote, EntryPlace, Journal, JournalEntry, JournalRecord } from '../journal/index.ts';
import { JournalUnavailable } from '../journal/index.ts';
import type { ArbiterCommand, BoardView, RoundView } from '../contract/index.ts';
import { MAIN, checkRound, kindOf, pgnTimeControl, type Round } from '../contract/index.ts';
import { refusal, ruleRefusal, type Refusal, type RefusalCode } from '../contract/index.ts';
import { tableGroupSize, type RoundActorEvent, type RoundBoardInput, type RoundPhase } from './round-actor.ts';
import type { HallClock } from './time.ts';

export interface HallChange {
  readonly boards: readonly string[];
  /** Flag, result or a new alert: clients get it at once instead of at the next coalesced delta. */
  readonly key: boolean;
  /** The attention queue or the console's status changed. */
  readonly attention: boolean;
  /**
   * The boards whose items in the attention queue changed (one came, one left, the board left the
   * tables with its items): a page replaces those boards' items, never the whole queue, so a change
   * costs what it touches (at a round's start a queue of 2,000 late players was sent whole at each).
   */
  readonly attentionBoards: readonly string[];
  readonly round: boolean;
}

/**
 * A command carried out (journaled at `journalSeq`) or refused, with the refusal's code (refusal.ts);
 * `hosts`: a round-wide command on the bus, what each hall host did (docs/hall.md).
 */
export type CommandOutcome = { readonly ok: true; readonly journalSeq: number; readonly hosts?: readonly HostCommandOutcome[] } | Refusal;

/**
 * Who gives a command: an arbiter at the console (his name to show, the id of his credential to journal:
 * 'chief' for the printed token), or the console itself by a name ('system', 'console start', the
 * simulated arbiter), which has no credential.
 */
export type CommandBy = string | { readonly name: string; readonly credential: string };

/** The name and (where there is one) the credential of who gives a command, as the journal keeps them. */
export function actingAs(by: CommandBy): { readonly name: string; readonly credential?: string } {
  return typeof by === 'string' ? { name: by } : { name: by.name, credential: by.credential };
}

export interface HallOptions {
  /**
   * The boards this hall keeps time for (default every one). On the bus (docs/hall.md) a hall host
   * owns its boards and a console owns none: the others' clock events come from their owners' journals
   * (`receive`), never from this hall's deadlines or scheduled starts.
   */
  readonly owns?: (board: string) => boolean;
  /**
   * Boards per turn of the event loop when a seated round's game clocks are made and when its clocks
   * start (default 50): at 1,000 boards either, in one turn, held every press in the hall for
   * hundreds of ms, and a part of 100 still took 50–110 ms under load with its changes sent to every
   * page. A smaller round goes in one turn, as before.
   */
  readonly chunk?: number;
  /** Board snapshots (board-snapshot.ts): read at start and written as games go on (default); false: every entry folded. */
  readonly snapshots?: boolean;
}

/** Which hall host runs a board, and whether it is heard (a console on the bus). */
export interface BoardHost {
  readonly id: string;
  readonly reachable: boolean;
}

/** The console's incidents kept for the page (the latest). */
const MAX_INCIDENTS = 10;
/** How far apart the parts of a large seated round's boards go to the pages: past a coalescer's window (coalescer.ts), so each part is a delta of its own. */
const SEAT_PACE_MS = 120;

export class PlayingHall {
  /** The boards on the hall's tables now, by hall board number: each section's seated round. */
  readonly boards = new Map<string, Board>();
  /** The journal sequence number of the last applied entry. */
  version = 0;
  readonly #seated = new Map<string, Round>();
  /**
   * Each hall board's device connection as last journaled: the device stays on its board from round to round
   * (and may report before a round is seated there), so it outlives the game it was heard in.
   */
  readonly #connections = new Map<string, ConsoleNote>();
  /** Each section's boards on the tables (what `boards` holds, by section), so no change walks the whole hall. */
  readonly #sectionBoards = new Map<string, Board[]>();
  readonly #startAt = new Map<string, number>();
  readonly #boardVersion = new Map<string, number>();
  /** A seated board's number in its section (the section's board 1 may sit on any hall board). */
  readonly #sectionBoard = new Map<string, number>();
  readonly #listeners = new Set<(change: HallChange) => void>();
  readonly #devices = new Map<string, ClockDevice>();
  /** Each board's open alerts (their ids), so a change looks at the boards it touched only. */
  readonly #attentionKeys = new Map<string, string>();
  readonly #actor: Actor<ReturnType<typeof eventLogic>>;
  readonly #owns: (board: string) => boolean;
  readonly #chunk: number;
  /**
   * The parts of a seat, a start or a close still to come, in order, one a turn of the event loop
   * (cleared by `stop`): a round started while its clocks are still being made takes a turn for each
   * part of either, not one turn for both.
   */
  readonly #parts: (() => void)[] = [];
  #turn: NodeJS.Immediate | undefined;
  #stopped = false;
  /** Each seated game's `seat` record (its seq), which its snapshots name. */
  readonly #gameSeat = new Map<string, number>();
  /** Each board's entries since its last snapshot. */
  readonly #sinceSnapshot = new Map<string, number>();
  readonly #snapshots: boolean;
  /** While the journal is replayed from snapshots: those not yet taken by the game they belong to. */
  #restoring: Map<string, BoardSnapshot> | undefined;
  #live = false;
  /**
   * Boards whose queue items a seat changed with no record of theirs: the previous round's boards that
   * left the tables with open items, the new round's boards that come with items (a silent device).
   */
  readonly #attentionSeated = new Set<string>();
  /**
   * Boards a seat put on the tables or took off them, with no record of theirs: the pages are told
   * each one (a board taken off as gone), or they would show the previous round's games until each
   * new one next changes.
   */
  readonly #seatedBoards = new Set<string>();
  readonly #seatTimers = new Set<ReturnType<typeof setTimeout>>();
  /** Within `batch`: what changed so far, told at its end. */
  #pending: { boards: Set<string>; key: boolean; round: boolean; told: boolean } | undefined;
  /**
   * What the devices told while the journal could not write, in order: journaled (then applied) first
   * when it writes again, before anything else. Nothing of it is applied or acknowledged before.
   */
  readonly #held: JournalRecord[] = [];
  /** The journal's failures and recoveries, the latest first (console-wide, in memory). */
  #incidents: ConsoleIncident[] = [];
  #consoleChanged = false;
  readonly #unsubscribeJournal: () => void;
  /** A console on the bus: the hall host of each board (shown with the board). */
  hostOf: ((board: string) => BoardHost | undefined) | undefined;
  /** A console on the bus: a board's commands whose outcome on its host is not known yet, as queue items (`touch` tells of a change). */
  pendingOn: ((board: string) => readonly Attention[]) | undefined;

  /** `sections`: the event's sections, whose rounds the journal's `seat` records put on the boards. */
  constructor(
    readonly journal: Journal,
    readonly source: HallClock,
    sections: readonly string[] = [],
    options: HallOptions = {},
  ) {
    this.#owns = options.owns ?? (() => true);
    this.#chunk = options.chunk ?? 50;
    this.#snapshots = options.snapshots ?? true;
    this.#replay();
    // Host-driven clocks: the running clock kept running while the console was down (docs/console.md).
    const lastAt = journal.lastAt();
    const now = source.now();
    if (now > lastAt) {
      // One transaction for them all (1,000 commits took a tenth of a restart at 1,000 boards).
      const running = [...this.boards.values()].filter((board) => board.state.status === 'running' && this.#owns(board.id));
      if (running.length > 0) this.recordBatch(running.map((board) => ({ kind: 'note', board: board.id, note: { type: 'downtime', at: now, lastAt } })));
    }
    // Boards whose snapshots lag far behind (none yet: the first start of this code on the journal) get one now.
    this.#writeSnapshots([...this.boards.values()].filter((b) => (this.#sinceSnapshot.get(b.id) ?? 0) >= SNAPSHOT_EVERY));
    for (const id of this.boards.keys()) this.#attentionKeys.set(id, this.#attentionSignature(id));
    // The journal is replayed: restore each board's actor from its fold state (XState does not restore
    // delayed events from a snapshot, statelyai/xstate#5331), all on the hall's one clock.
    const all = [...new Set([...sections, ...this.#seated.keys()])];
    this.#actor = createActor(
      eventLogic(() => source.now()),
      { clock: source, systemId: 'event', input: { sections: all } },
    );
    this.#actor.start();
    this.#live = true;
    for (const seated of this.#seated.values()) this.#openRound(seated);
    for (const [section, startAt] of this.#startAt) if (startAt <= source.now()) this.#startDue(section, startAt);
    this.#unsubscribeJournal = journal.onHealth((health) => this.#journalHealth(health));
  }

  /**
   * Folds the journal: each board from its latest usable snapshot and its entries after it, the rest
   * entry by entry. A snapshot whose game the journal does not seat (it cannot be trusted, and its
   * board's entries were skipped) sends the hall back to folding every entry, without snapshots.
   */
  #replay(): void {
    const usable = this.#snapshots ? usableSnapshots(this.journal) : new Map<string, BoardSnapshot>();
    if (usable.size > 0) {
      // The journal's last entries may all be in snapshots: the hall stands at the latest of them.
      const latest = Math.max(...[...usable.values()].map((s) => s.seq));
      this.#restoring = usable;
      for (const entry of this.journal.entriesAfterSnapshots(new Map([...usable].map(([board, s]) => [board, s.seq])))) this.#apply(entry.record, entry.seq);
      this.#restoring = undefined;
      if (usable.size === 0) {
        this.version = Math.max(this.version, latest);
        return;
      }
      this.journal.snapshots.clear();
      this.#forget();
    }
    for (const entry of this.journal.entries()) this.#apply(entry.record, entry.seq);
  }

  /** Back to an empty hall (before a replay starts again). */
  #forget(): void {
    for (const map of [
      this.boards,
      this.#seated,
      this.#connections,
      this.#sectionBoards,
      this.#startAt,
      this.#boardVersion,
      this.#sectionBoard,
      this.#gameSeat,
      this.#sinceSnapshot,
    ])
      map.clear();
    this.version = 0;
  }

  /** Writes the boards' snapshots as of now (the hall's last applied entry); a failure only leaves the older ones. */
  #writeSnapshots(boards: readonly Board[]): void {
    if (!this.#snapshots) return;
    const stored = boards.flatMap((b) => {
      const seat = this.#gameSeat.get(b.id);
      return seat === undefined ? [] : [encodeSnapshot(b, seat, this.version, this.#boardVersion.get(b.id) ?? 0)];
    });
    try {
      this.journal.snapshots.put(stored);
      for (const b of boards) this.#sinceSnapshot.set(b.id, 0);
    } catch {
      // A snapshot is a cache: the entries are journaled, and a restart folds what no snapshot holds.
    }
  }

  /** The hall as a journal left it: its event's sections, every seated round replayed. */
  static fromJournal(journal: Journal, source: HallClock, options: HallOptions = {}): PlayingHall {
    const meta = journal.meta();
    if (!meta) throw new Error(`${journal.file} holds no event`);
    return new PlayingHall(journal, source, meta.event?.sections.map((s) => s.id) ?? [], options);
  }

  /** Whether this hall keeps time for `board` (on the bus: its hall host does). */
  owns(board: string): boolean {
    return this.#owns(board);
  }

  /** The round of the first section on the boards (a bare round's console has only that one). */
  get round(): Round {
    const first = this.#seated.values().next().value;
    if (!first) throw new Error('no round is on the boards yet');
    return first;
  }

  /** Each section's round on the boards. */
  get seated(): ReadonlyMap<string, Round> {
    return this.#seated;
  }

  /** The first seated section's start (a bare round's). */
  get startAt(): number | undefined {
    return this.#startAt.get(this.#seated.keys().next().value ?? '');
  }

  startOf(section: string): number | undefined {
    return this.#startAt.get(section);
  }

  /** The actor system's root (inspection, tests). */
  get system(): Actor<ReturnType<typeof eventLogic>>['system'] {
    return this.#actor.system;
  }

  /** The round's state: published (clocks waiting), playing, or results to confirm (every game over). */
  get phase(): RoundPhase {
    return this.phaseOf(this.round.section ?? MAIN, this.round.round) ?? 'published';
  }

  phaseOf(section: string, round: number): RoundPhase | undefined {
    return roundPhase(this.#actor.system, section, round);
  }

  /** Which section and round a hall board's game belongs to. */
  roundOf(board: string): Round | undefined {
    return this.boards.get(board)?.round;
  }

  #boardsOf(section: string): readonly Board[] {
    return this.#sectionBoards.get(section) ?? [];
  }

  #phaseNow(section: string): RoundPhase {
    const boards = this.#boardsOf(section);
    if (this.#startAt.get(section) === undefined || boards.some((b) => b.state.status === 'waiting')) return 'published';
    return boards.every((b) => b.state.status === 'finished') ? 'confirming' : 'playing';
  }

  /** Stops every timer of the hall (the console's stop), and the parts of a seat or a start still to come. */
  stop(): void {
    this.#stopped = true;
    clearImmediate(this.#turn);
    for (const timer of this.#seatTimers) clearTimeout(timer);
    this.#seatTimers.clear();
    this.#parts.length = 0;
    this.#unsubscribeJournal();
    this.#actor.stop();
  }

  /** `work` in a turn of the event loop of its own, after the parts before it (what waits for the loop runs first), unless the hall stops before. */
  #nextTurn(work: () => void): void {
    this.#parts.push(work);
    this.#turn ??= setImmediate(() => this.#nextPart());
  }

  #nextPart(): void {
    const work = this.#parts.shift();
    this.#turn = this.#parts.length > 0 ? setImmediate(() => this.#nextPart()) : undefined;
    if (work && !this.#stopped) work();
  }

  /**
   * Tells a section's actor about one of its rounds (the journal has the fact already): `draft`,
   * `discard`, `close` come from the tournament desk. A drafted round's actor is made here.
   */
  lifecycle(section: string, round: number, event: RoundActorEvent): void {
    const sectionActor = this.#actor.system.get(sectionSystemId(section));
    if (!sectionActor) return;
    if (this.phaseOf(section, round) === undefined) {
      if (event.type !== 'draft') return;
      sectionActor.send({ type: 'open', input: { section, round, phase: 'drafted' } });
      return;
    }
    // A large round's clocks are stopped in parts after it is closed (XState stops a parent's children in one turn).
    const inParts = event.type === 'close' && this.#live && this.#clocksOf(section, round) > this.#chunk;
    sectionActor.send({ type: 'toRound', round, event: inParts ? { type: 'close', inParts } : event });
    if (inParts) this.#stopClocks(section, round);
  }

  /** The game clocks a round's actor holds. */
  #clocksOf(section: string, round: number): number {
    const context = (this.#actor.system.get(roundSystemId(section, round))?.getSnapshot() as { context?: { boards?: readonly unknown[] } } | undefined)
      ?.context;
    return context?.boards?.length ?? 0;
  }

  /** A closed round's game clocks stopped `chunk` boards a turn, from this turn on. */
  #stopClocks(section: string, round: number): void {
    const actor = this.#actor.system.get(roundSystemId(section, round));
    const groups = (actor?.getSnapshot() as { context?: { groups?: number } } | undefined)?.context?.groups ?? 0;
    if (!actor || groups === 0 || this.phaseOf(section, round) !== 'closed') return;
    actor.send({ type: 'stopTables', groups: Math.max(1, Math.floor(this.#chunk / tableGroupSize)) });
    this.#nextTurn(() => this.#stopClocks(section, round));
  }

  /** Puts a section's round on its hall boards (journal first), replacing the section's previous round. */
  seat(round: Round): CommandOutcome {
    const section = round.section ?? MAIN;
    for (const b of round.boards) {
      const other = this.boards.get(b.id);
      if (other && (other.round.section ?? MAIN) !== section && other.state.status !== 'finished') {
        return refusal('board-in-use', `hall board ${b.id} is in use by section '${other.round.section ?? MAIN}' (round ${other.round.round})`);
      }
    }
    return { ok: true, journalSeq: this.record({ kind: 'seat', at: this.source.now(), round: checkRound(round) }) };
  }

  #seatApply(round: Round, seq: number): void {
    const section = round.section ?? MAIN;
    const previous = this.#seated.get(section);
    // Boards of the previous round that the new one keeps are told the pages with the new round's part.
    const staying = new Set(round.boards.map((b) => b.id));
    for (const board of this.#boardsOf(section)) {
      // The attention queue belongs to the round on the boards: the previous round's items leave it
      // (they stay in the journal and the board's history).
      if (this.#attentionKeys.get(board.id)) this.#attentionSeated.add(board.id);
      if (this.#live && !staying.has(board.id)) this.#seatedBoards.add(board.id);
      this.boards.delete(board.id);
      this.#boardVersion.delete(board.id);
      this.#attentionKeys.delete(board.id);
      this.#sectionBoard.delete(board.id);
    }
    if (previous && this.#live) this.lifecycle(section, previous.round, { type: 'close' });
    this.#seated.set(section, round);
    this.#startAt.delete(section);
    const seated = round.boards.map((info, k) => {
      const board = new Board(info, round.game, round);
      // The new game starts with its board's device as it is (connected, or silent: then in the queue).
      const connection = this.#connections.get(info.id);
      if (connection) board.applyNote(connection);
      const other = this.boards.get(info.id);
      // A finished board of another section that this round takes over leaves that section's tables.
      if (other) {
        this.#sectionBoards.set(
          other.round.section ?? MAIN,
          this.#boardsOf(other.round.section ?? MAIN).filter((b) => b !== other),
        );
        if (this.#attentionKeys.get(info.id)) this.#attentionSeated.add(info.id);
      }
      this.boards.set(info.id, board);
      if (this.#live && k < this.#chunk) this.#seatedBoards.add(info.id);
      this.#sectionBoard.set(info.id, k + 1);
      this.#gameSeat.set(info.id, seq);
      this.#sinceSnapshot.delete(info.id);
      const snapshot = this.#restoring?.get(info.id);
      if (snapshot?.seatSeq === seq) {
        this.#restoring!.delete(info.id);
        board.restore(snapshot.fold);
        // The board's connection is its hall board's last journaled one (the snapshot skipped that note).
        const connection = snapshot.fold.connection;
        if (connection) this.#connections.set(info.id, { type: 'connection', at: connection.at, state: connection.state, detail: connection.detail });
        this.#boardVersion.set(info.id, snapshot.boardVersion);
      }
      return board;
    });
    this.#sectionBoards.set(section, seated);
    // A large round's other boards are told the pages a part at a time, SEAT_PACE_MS apart (real time,
    // the pages' pace): every page gets each board whole, and one delta of 1,000 boards to every socket
    // held the publishing turn for half a second (a coalescer would merge parts told a turn apart).
    if (this.#live)
      for (let i = this.#chunk, part = 1; i < seated.length; i += this.#chunk, part += 1) {
        const boards = seated.slice(i, i + this.#chunk);
        const timer = setTimeout(() => {
          this.#seatTimers.delete(timer);
          this.#tellSeated(round, boards);
        }, part * SEAT_PACE_MS);
        this.#seatTimers.add(timer);
      }
    if (this.#live) {
      for (const id of round.boards.map((b) => b.id)) {
        const signature = this.#attentionSignature(id);
        this.#attentionKeys.set(id, signature);
        if (signature !== '') this.#attentionSeated.add(id);
      }
      this.#openRound(round, true);
    }
  }

  /** A part of a seated round's boards told the pages (`#seatApply`), while the round is still the one on them. */
  #tellSeated(round: Round, boards: readonly Board[]): void {
    if (this.#stopped || this.#seated.get(round.section ?? MAIN) !== round) return;
    for (const b of boards) if (this.boards.get(b.id) === b) this.#seatedBoards.add(b.id);
    if (this.#seatedBoards.size > 0) this.#afterChange([], false, false);
  }

  /**
   * Makes (or moves on) the seated round's actor and wires its game-clock actors to the hall: one for
   * each board this hall keeps time for. A board another machine owns gets none: its state is the fold
   * of its owner's journaled events (`receive`), with no timer, deadline or flag of its own here.
   * `inParts`: a round seated while the hall runs gets its clocks `chunk` boards a turn (`addBoards`);
   * each clock starts from its board's state when it is made, so a board started or pressed before its
   * clock is made loses nothing (the journal and the board have it; only its deadline timer waits).
   */
  #openRound(round: Round, inParts = false): void {
    const section = round.section ?? MAIN;
    const owned = this.#boardsOf(section).filter((b) => this.#owns(b.id));
    const first = inParts ? owned.slice(0, this.#chunk) : owned;
    const startAt = this.#startAt.get(section);
    this.#actor.send({ type: 'addSection', section });
    if (this.phaseOf(section, round.round) === undefined) {
      this.#actor.system.get(sectionSystemId(section))?.send({
        type: 'open',
        input: {
          section,
          round: round.round,
          phase: this.#phaseNow(section),
          boards: this.#clockInputs(section, round, first),
          ...(startAt !== undefined ? { startAt } : {}),
        },
      });
    } else {
      this.lifecycle(section, round.round, { type: 'publish', boards: this.#clockInputs(section, round, first) });
    }
    const roundActor = this.#actor.system.get(roundSystemId(section, round.round)) as
      { on(type: 'startDue', h: (e: { at: number }) => void): unknown } | undefined;
    roundActor?.on('startDue', ({ at }) => this.#startDue(section, at));
    this.#attachClocks(section, round, first);
    if (owned.length > first.length) this.#nextTurn(() => this.#moreClocks(round, owned.slice(first.length)));
  }

  /** The next part of a seated round's game clocks (`#openRound`), while the round is still the one on its boards. */
  #moreClocks(round: Round, boards: readonly Board[]): void {
    const section = round.section ?? MAIN;
    if (this.#seated.get(section) !== round) return;
    // A board another section took over meanwhile is no longer this round's.
    const part = boards.slice(0, this.#chunk).filter((b) => this.boards.get(b.id) === b);
    this.lifecycle(section, round.round, { type: 'addBoards', boards: this.#clockInputs(section, round, part) });
    this.#attachClocks(section, round, part);
    if (boards.length > this.#chunk) this.#nextTurn(() => this.#moreClocks(round, boards.slice(this.#chunk)));
  }

  /** What each board's game-clock actor starts from: the board's state now. */
  #clockInputs(section: string, round: Round, boards: readonly Board[]): RoundBoardInput[] {
    return boards.map((b) => ({
      systemId: gameSystemId(section, round.round, b.id),
      board: b.id,
      game: { config: b.config, state: b.state, deadlines: 'report' as const },
    }));
  }

  /** Each board takes its game-clock actor, and the hall hears the actor's deadlines. */
  #attachClocks(section: string, round: Round, boards: readonly Board[]): void {
    for (const board of boards) {
      const ref = this.#actor.system.get(gameSystemId(section, round.round, board.id)) as
        (Parameters<Board['attach']>[0] & { on(type: 'deadline', h: (e: { at: number }) => void): unknown }) | undefined;
      if (!ref) continue;
      board.attach(ref);
      ref.on('deadline', ({ at }) => this.#deadline(board, at));
    }
  }

  /** A board's actor reached a deadline: journal what falls due there, stamped with its instant, then apply. */
  #deadline(board: Board, at: number): void {
    if (this.boards.get(board.id) !== board || !this.#owns(board.id) || noDeadlineBy(board.config, board.state, at)) return;
    const emitted = advanceTo(board.config, board.state, at).emitted;
    // A journal that cannot write: the deadline is journaled when it writes again (#journalBack).
    if (emitted.length > 0) this.#recordUnlessFailing(emitted.map((e) => clock(board.id, e)));
  }

  /**
   * A section's scheduled start has come: every waiting clock of it starts at that instant, `chunk`
   * boards a turn, each part journaled (one transaction) before it is applied. The journal's
   * `scheduleStart` says the start: a console stopped midway starts the rest at the same instant on restart.
   */
  #startDue(section: string, at: number): void {
    const round = this.#seated.get(section);
    const waiting = this.#boardsOf(section).filter((b) => b.state.status === 'waiting' && this.#owns(b.id));
    if (waiting.length === 0) return this.#followPhase(section);
    // A journal that cannot write: no part now, and none after; `#journalBack` starts the rest at `at`.
    if (!this.#recordUnlessFailing(waiting.slice(0, this.#chunk).map((b) => clock(b.id, { type: 'start', at, by: { kind: 'system' } })))) return;
    if (waiting.length > this.#chunk) this.#nextTurn(() => this.#seated.get(section) === round && this.#startDue(section, at));
  }

  /** Tells the section's round actor what its boards now say (the journal has it already). */
  #followPhase(section: string): void {
    const round = this.#seated.get(section);
    if (!round) return;
    const now = this.#phaseNow(section);
    const was = this.phaseOf(section, round.round);
    if (was === undefined || now === was || was === 'closed') return;
    if (was === 'published' && now !== 'published') this.lifecycle(section, round.round, { type: 'started' });
    if (now === 'confirming') this.lifecycle(section, round.round, { type: 'finished' });
    if (now === 'playing' && this.phaseOf(section, round.round) === 'confirming') this.lifecycle(section, round.round, { type: 'reopened' });
  }

  /**
   * An entry of another journal (read from the bus: a hall host's clock events, a console's seats and
   * starts): copied into this journal as it is, then applied. A scheduled start it brings is acted on
   * here for the boards this hall owns.
   */
  receive(entry: Omit<JournalEntry, 'seq'>): number {
    const record = entry.record;
    const seq = entry.source === this.journal.source ? this.journal.recover(entry) : this.journal.copy(entry);
    if (seq === undefined) return this.version;
    const board = record.kind === 'clock' ? this.boards.get(record.board) : undefined;
    const before = board?.state.status;
    this.#apply(record, seq);
    if (this.#live && board && board.state.status !== before) this.#followPhase(board.round.section ?? MAIN);
    if (this.#live && record.kind === 'scheduleStart') {
      const section = record.section ?? this.#seated.keys().next().value;
      const seated = section === undefined ? undefined : this.#seated.get(section);
      if (section !== undefined && seated) {
        if (record.startAt <= this.source.now()) this.#startDue(section, record.startAt);
        else this.lifecycle(section, seated.round, { type: 'scheduleStart', startAt: record.startAt });
      }
    }
    this.#afterChange(
      record.kind === 'clock' || record.kind === 'note' ? [record.board] : [],
      isKey(record),
      record.kind === 'scheduleStart' || record.kind === 'seat',
    );
    return seq;
  }

  /**
   * Runs `work` (entries read together from the bus, `receive` for each) and tells the listeners once
   * at its end, of every board it changed: the views, the desk and the outbox act once per batch,
   * not once per entry.
   */
  batch(work: () => void): void {
    if (this.#pending) {
      work();
      return;
    }
    const pending = { boards: new Set<string>(), key: false, round: false, told: false };
    this.#pending = pending;
    try {
      work();
    } finally {
      this.#pending = undefined;
    }
    if (pending.told) this.#afterChange([...pending.boards], pending.key, pending.round);
  }

  /** Tells the listeners that these boards' views changed outside the journal (their host's reachability). */
  touch(boards: readonly string[]): void {
    this.#afterChange(boards, true, false);
  }

  subscribe(listener: (change: HallChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Journals (durably), then applies. Returns the journal sequence number. Deadlines the engine acts on
   * by itself (flag fall, default time) that passed before a clock event are journaled first, in order.
   */
  record(record: JournalRecord): number {
    return this.#recordAll([record]);
  }

  /** Journals several records in one transaction (one sync), then applies them in order. */
  recordBatch(records: readonly JournalRecord[]): number {
    return this.#recordAll(records);
  }

  /**
   * Journals a batch in one transaction, each clock event preceded by the deadlines the engine passed
   * before it (`applyClockEvent(...).emitted`, which replay would otherwise recompute unjournaled), then
   * applies them in that order.
   */
  #recordAll(batch: readonly JournalRecord[], heldBack = false): number {
    // While the journal fails nothing is tried but its own probe: the first write that goes through
    // must be what the devices told meanwhile (#journalBack), in the order they told it.
    const health = this.journal.health;
    if (!heldBack && (health.state === 'failing' || this.#held.length > 0))
      throw new JournalUnavailable(
        health.state === 'failing' ? health.code : 'held',
        health.state === 'failing' ? health.since : Date.now(),
        'writes wait for the journal to write again',
      );
    const records: JournalRecord[] = [];
    // The state after each clock record, folded here once and handed to its board when it is applied.
    const folded: (GameState | undefined)[] = [];
    const ahead = new Map<string, GameState>();
    for (const record of batch) {
      const board = record.kind === 'clock' ? this.boards.get(record.board) : undefined;
      if (board && record.kind === 'clock') {
        let state = ahead.get(board.id) ?? board.state;
        const step = applyClockEvent(board.config, state, record.event);
        // Deadlines passed before the event (rare: a flag, a start) are journaled each with its own state.
        for (const event of step.emitted) {
          state = applyClockEvent(board.config, state, event).state;
          records.push(clock(board.id, event));
          folded.push(state);
        }
        ahead.set(board.id, step.state);
        folded.push(step.state);
      } else folded.push(undefined);
      records.push(record);
    }
    const seqs = this.journal.appendAll(records, Date.now(), (r) => this.#placeOf(r));
    const moved = new Set<string>();
    records.forEach((r, i) => {
      const board = r.kind === 'clock' ? this.boards.get(r.board) : undefined;
      const before = board?.state.status;
      this.#apply(r, seqs[i]!, folded[i]);
      if (board && board.state.status !== before) moved.add(board.round.section ?? MAIN);
    });
    // A round's phase follows its boards' statuses: only a status change can move it.
    if (this.#live) for (const section of moved) this.#followPhase(section);
    this.#afterChange(
      records.flatMap((r) => (r.kind === 'clock' || r.kind === 'note' ? [r.board] : [])),
      records.some(isKey),
      records.some((r) => r.kind === 'scheduleStart' || r.kind === 'seat'),
    );
    return seqs[seqs.length - 1] ?? this.version;
  }

  /** Where a record belongs in the event: the section and round of its board. */
  #placeOf(record: JournalRecord): EntryPlace {
    if (record.kind === 'clock' || record.kind === 'note') {
      const round = this.boards.get(record.board)?.round;
      return round ? { section: round.section ?? MAIN, round: round.round } : {};
    }
    if (record.kind === 'scheduleStart') {
      const section = record.section ?? this.#seated.keys().next().value;
      const round = section === undefined ? undefined : this.#seated.get(section);
      return round ? { section: section!, round: round.round } : {};
    }
    return {};
  }

  /** `folded`: a clock record's state after it, when `#recordAll` has folded it already. */
  #apply(record: JournalRecord, seq: number, folded?: GameState): void {
    this.version = seq;
    if (record.kind === 'scheduleStart') {
      const section = record.section ?? this.#seated.keys().next().value;
      if (section !== undefined) this.#startAt.set(section, record.startAt);
      return;
    }
    if (record.kind === 'seat') {
      this.#seatApply(record.round, seq);
      return;
    }
    // The desk and the team apply their own records; a lease is the bus's (on-bus/board-owners.ts).
    if (record.kind === 'tournament' || record.kind === 'staff' || record.kind === 'lease') return;
    if (record.kind === 'note' && record.note.type === 'connection') this.#connections.set(record.board, record.note);
    const board = this.boards.get(record.board);
    if (!board) return; // a journal from another round's board list: kept, not applied
    if (record.kind === 'clock') board.applyClock(record.event, folded);
    else board.applyNote(record.note);
    this.#boardVersion.set(board.id, seq);
    const since = (this.#sinceSnapshot.get(board.id) ?? 0) + 1;
    this.#sinceSnapshot.set(board.id, since);
    if (this.#live && since >= SNAPSHOT_EVERY) this.#writeSnapshots([board]);
  }

  #afterChange(told: readonly string[], key: boolean, round: boolean): void {
    const boards = this.#seatedBoards.size > 0 ? [...told, ...this.#seatedBoards] : told;
    this.#seatedBoards.clear();
    if (this.#pending) {
      for (const b of boards) this.#pending.boards.add(b);
      this.#pending.key ||= key;
      this.#pending.round ||= round;
      this.#pending.told = true;
      return;
    }
    const now = this.source.now();
    const attentionBoards = new Set(this.#attentionSeated);
    this.#attentionSeated.clear();
    for (const id of new Set(boards)) {
      const signature = this.#attentionSignature(id);
      if (signature !== this.#attentionKeys.get(id)) attentionBoards.add(id);
      this.#attentionKeys.set(id, signature);
    }
    const attention = attentionBoards.size > 0 || this.#consoleChanged;
    this.#consoleChanged = false;
    for (const id of told) {
      const device = this.#devices.get(id);
      const board = this.boards.get(id);
      if (device && board) device.show(board.state, now);
    }
    const change: HallChange = { boards: [...new Set(boards)], key: key || attention, attention, attentionBoards: [...attentionBoards], round };
    for (const listener of this.#listeners) listener(change);
  }

  #attentionSignature(board: string): string {
    return this.#boardAttention(board)
      .map((a) => a.id)
      .join('|');
  }

  /** A board's items in the attention queue (none for a board not on the tables). */
  attentionOn(board: string): Attention[] {
    return this.boards.has(board) ? this.#boardAttention(board) : [];
  }

  #boardAttention(board: string): Attention[] {
    const own = this.boards.get(board)?.attention() ?? [];
    const pending = this.pendingOn?.(board);
    return pending && pending.length > 0 ? [...own, ...pending] : own;
  }

  /** An event's hall boards (every section's), known before any round is seated on them: a device may wait there. */
  layout: ReadonlySet<string> | undefined;

  attachDevice(device: ClockDevice): () => void {
    if (!this.boards.has(device.boardId) && !this.layout?.has(device.boardId)) throw new Error(`unknown board '${device.boardId}' for a ${device.kind} device`);
    this.#devices.set(device.boardId, device);
    // A device attached later to the same hall board (the next round's, a playoff game's) supersedes this
    // one: from then on this one is not heard, and detaching it leaves the new one in place.
    const current = (): boolean => this.#devices.get(device.boardId) === device;
    const unsubscribe = device.subscribe((message) => {
      if (current()) this.#fromDevice(device.boardId, message);
    });
    return () => {
      unsubscribe();
      if (current()) this.#devices.delete(device.boardId);
    };
  }

  #fromDevice(board: string, message: DeviceMessage): void {
    const now = this.source.now();
    switch (message.type) {
      case 'clockEvent':
        return this.#recordOrHold(clock(board, message.event, message.origin));
      case 'connection':
        return this.#recordOrHold({ kind: 'note', board, note: { type: 'connection', at: now, state: message.state, detail: message.detail } });
      case 'arbiterCall':
        return this.#recordOrHold({ kind: 'note', board, note: { type: 'arbiterCall', at: message.at, detail: message.detail } });
      case 'inputError':
        return this.#recordOrHold({ kind: 'note', board, note: { type: 'inputError', at: message.at, detail: message.detail, count: message.count } });
    }
  }

  /**
   * A device's message happened on the board whatever the disk does: while the journal cannot write it
   * is held, in order, and journaled when it writes again. A device is never told its message failed
   * (a DGT board's press that the console dropped would leave board and clock out of step for good).
   */
  #recordOrHold(record: JournalRecord): void {
    if (this.#held.length > 0 || this.journal.health.state === 'failing') {
      this.#held.push(record);
      return;
    }
    try {
      this.record(record);
    } catch (err) {
      if (!(err instanceof JournalUnavailable)) throw err;
      this.#held.push(record);
    }
  }

  /**
   * Journals what the hall's own clock made due; nothing while the journal fails (`#journalBack` catches up).
   * Whether it was journaled.
   */
  #recordUnlessFailing(records: readonly JournalRecord[]): boolean {
    if (this.#held.length > 0 || this.journal.health.state === 'failing') return false;
    try {
      this.#recordAll(records);
      return true;
    } catch (err) {
      if (!(err instanceof JournalUnavailable)) throw err;
      return false;
    }
  }

  #journalHealth(health: JournalHealth): void {
    if (health.state === 'failing') {
      this.#incident({
        code: 'journal-failing',
        wallMs: health.since,
        message: `the journal cannot write (${health.code}${health.code.startsWith('SQLITE_FULL') ? ': the disk is full' : ''}): commands are refused, devices are held in memory`,
      });
      this.#afterChange([], true, false);
      return;
    }
    this.#journalBack();
  }

  /**
   * The journal writes again: what the devices told meanwhile first (in order, one transaction), then
   * the deadlines and scheduled starts the hall's clock passed meanwhile, each at its own instant; every
   * board is told, so virtual players and the simulated arbiter go on by themselves.
   */
  #journalBack(): void {
    const failedAt = this.#incidents.find((i) => i.code === 'journal-failing')?.wallMs;
    const held = this.#held.splice(0);
    if (held.length > 0) {
      try {
        this.#recordAll(held, true);
      } catch (err) {
        this.#held.unshift(...held);
        if (err instanceof JournalUnavailable) return;
        throw err;
      }
    }
    const now = this.source.now();
    for (const board of this.boards.values()) if (this.#owns(board.id) && board.state.status === 'running') this.#deadline(board, now);
    for (const [section, startAt] of this.#startAt) if (startAt <= now) this.#startDue(section, startAt);
    const wallMs = Date.now();
    const after = failedAt === undefined ? '' : ` after ${Math.round((wallMs - failedAt) / 1000)} s`;
    this.#incident({
      code: 'journal-recovered',
      wallMs,
      message: `the journal writes again${after}; ${held.length} device event${held.length === 1 ? '' : 's'} held meanwhile journaled`,
    });
    this.#afterChange([...this.boards.keys()], true, false);
  }

  #incident(incident: Omit<ConsoleIncident, 'id'>): void {
    this.#incidents = [{ id: `${incident.code}-${incident.wallMs}`, ...incident }, ...this.#incidents].slice(0, MAX_INCIDENTS);
    this.#consoleChanged = true;
  }

  /** The journal's health and what the console went through, for the page's banner and queue. */
  consoleStatus(): ConsoleStatus {
    return { journal: this.journal.health, incidents: this.#incidents };
  }

  /** Device messages waiting for the journal (tests, /health). */
  get held(): number {
    return this.#held.length;
  }

  /** Checks an arbiter command, journals it, applies it. Refusals journal nothing. */
  command(command: ArbiterCommand, arbiter: CommandBy): CommandOutcome {
    const at = this.source.now();
    const by: EventActor = { kind: 'arbiter', ...actingAs(arbiter) };
    const refuse = (code: RefusalCode, reason: string): CommandOutcome => refusal(code, reason);
    switch (command.type) {
      case 'startAll': {
        const sections = command.section !== undefined ? [command.section] : [...this.#seated.keys()];
        if (command.section !== undefined && !this.#seated.has(command.section))
          return refuse('no-round', `section '${command.section}' has no round on the boards`);
        const open = sections.filter((section) => this.#startAt.get(section) === undefined);
        if (sections.length === 0) return refuse('no-round', 'no round is on the boards');
        if (open.length === 0) return refuse('already-started', 'the round start is already set');
        let seq = this.version;
        for (const section of open) {
          // Each section at its own scheduled start (Donostia: two groups at 16:30, two at 17:00).
          const startAt = Math.max(at, this.#seated.get(section)!.game.scheduledStart);
          seq = this.record({ kind: 'scheduleStart', section, startAt, at });
          if (startAt <= this.source.now()) this.#startDue(section, startAt);
          else this.lifecycle(section, this.#seated.get(section)!.round, { type: 'scheduleStart', startAt });
        }
        return { ok: true, journalSeq: Math.max(seq, this.version) };
      }
      case 'arriveAll': {
        const absent = [...this.boards.values()].flatMap((b) =>
          b.state.status === 'finished' || !this.#owns(b.id)
            ? []
            : (['white', 'black'] as const).filter((side) => !b.state.arrived[side]).map((side) => clock(b.id, { type: 'arrive', side, at, by })),
        );
        if (absent.length === 0) return refuse('nothing-to-do', 'every player is already marked present');
        return { ok: true, journalSeq: this.#recordAll(absent) };
      }
      case 'pauseAll': {
        const running = [...this.boards.values()].filter((b) => b.state.status === 'running' && this.#owns(b.id));
        if (running.length === 0) return refuse('nothing-to-do', 'no clock is running');
        return { ok: true, journalSeq: this.#recordAll(running.map((b) => clock(b.id, { type: 'pause', at, by, reason: command.reason }))) };
      }
      case 'resumeAll': {
        const paused = [...this.boards.values()].filter((b) => b.state.status === 'paused' && this.#owns(b.id));
        if (paused.length === 0) return refuse('nothing-to-do', 'no clock is paused');
        return { ok: true, journalSeq: this.#recordAll(paused.map((b) => clock(b.id, { type: 'resume', at, by }))) };
      }
      case 'dismiss': {
        const alert = this.attention().find((a) => a.id === command.alertId);
        if (!alert) return refuse('unknown-alert', `no open alert '${command.alertId}'`);
        return { ok: true, journalSeq: this.record({ kind: 'note', board: alert.board, note: { type: 'dismiss', at, alertId: alert.id } }) };
      }
      case 'dismissKind': {
        // One dismissal an item, as a single Dismiss journals it, in one transaction; a hall host dismisses its own boards'.
        const items = this.attention().filter((a) => kindOf(a) === command.kind && this.#owns(a.board));
        if (items.length === 0) return refuse('nothing-to-do', `no open item of the kind '${command.kind}'`);
        return {
          ok: true,
          journalSeq: this.#recordAll(items.map((a) => ({ kind: 'note', board: a.board, note: { type: 'dismiss', at, alertId: a.id } }))),
        };
      }
      case 'takeOverHost':
        // A hall of one process owns every board: there is no host to replace (on the bus, bus-console.ts).
        return refuse('not-on-bus', 'this console runs every board itself: hall hosts are taken over on the bus only (zeitnot serve --bus)');
      default:
        break;
    }
    const board = this.boards.get(command.board);
    if (!board) return refuse('unknown-board', `unknown board '${command.board}' (boards: ${[...this.boards.keys()].join(', ')})`);
    // The record is made whole after the game too.
    if (command.type === 'enterMissedMoves') return this.#enterMissedMoves(board, command.moves, actingAs(arbiter), by, at);
    const plan = boardCommandPlan(command, board, at, by);
    if (!plan.ok) return plan;
    if (plan.kind === 'ruled') return this.#ruled(board, plan.event);
    const seq = this.record(clock(board.id, plan.event));
    if (plan.kind === 'position') this.#devices.get(board.id)?.setBoardPosition?.(plan.fen);
    return { ok: true, journalSeq: seq };
  }

  /** Why a draw by agreement may not be recorded now on this board (board-commands.ts); undefined when it may. */
  agreementRefusal(boardId: string): Refusal | undefined {
    const board = this.boards.get(boardId);
    return board ? agreementRefusal(board) : undefined;
  }

  /**
   * A claim, an offer or a decision the clock engine rules on: journaled when the engine admits it, else
   * refused with the code of the engine's reason (never its message). A draw offer or agreement the
   * rules refuse is journaled all the same, as the engine rules it (the offer made, or lapsed): the
   * player did make it, and the queue shows the refusal (`draw-offer-refused`) to every arbiter.
   */
  #ruled(board: Board, event: ClockEvent): CommandOutcome {
    const before = board.state;
    const after = applyClockEvent(board.config, before, event).state;
    const refused = after.alerts.slice(before.alerts.length).find((a) => a.refusal !== undefined);
    if (!refused?.refusal) return { ok: true, journalSeq: this.record(clock(board.id, event)) };
    if (refused.code === 'draw-offer-refused') this.record(clock(board.id, event));
    return ruleRefusal(refused.refusal, refused.message);
  }

  /**
   * The arbiter's moves for the board's latest unread stretch (board-commands.ts), journaled; the board's
   * reading goes on with the move number the game has reached.
   */
  #enterMissedMoves(
    board: Board,
    moves: readonly string[],
    who: { readonly name: string; readonly credential?: string },
    by: EventActor,
    at: number,
  ): CommandOutcome {
    const s = board.state;
    const entered = missedMovesRecords(board, moves, who, by, at);
    if (!entered.ok) return entered;
    const seq = this.recordBatch(entered.records);
    // The board reads on from the move number the game has reached (the re-read may have guessed another).
    const now = board.line.plies.at(-1)?.fen;
    if (now && s.status !== 'finished' && s.fen !== undefined && now !== s.fen && samePlacement(now, s.fen))
      this.#devices.get(board.id)?.setBoardPosition?.(now);
    return { ok: true, journalSeq: seq };
  }

  attention(): Attention[] {
    return [...this.boards.keys()].flatMap((b) => this.#boardAttention(b)).sort((a, b) => a.at - b.at);
  }

  view(id: string): BoardView | undefined {
    const board = this.boards.get(id);
    if (!board) return undefined;
    const s = board.state;
    const device = this.#devices.get(id);
    const lastMove = board.lastMove();
    const stretch = board.unreadStretch;
    const host = this.hostOf?.(id);
    const section = board.round.section;
    return {
      id,
      ...(section !== undefined ? { section, sectionBoard: this.#sectionBoard.get(id)! } : {}),
      white: board.info.white,
      black: board.info.black,
      status: s.status,
      toMove: s.toMove,
      remainingMs: s.remainingMs,
      asOf: s.asOf,
      moveNumber: moveInProgress(s),
      presses: s.presses,
      moves: s.moves,
      period: { white: s.period.white + 1, black: s.period.black + 1 },
      arrived: s.arrived,
      penalties: s.penalties,
      ...(s.paused ? { paused: { reason: s.paused.reason, at: s.paused.at } } : {}),
      ...(s.result ? { result: s.result } : {}),
      ...(s.firstFlag ? { flag: s.firstFlag } : {}),
      ...(s.drawOffer ? { drawOffer: s.drawOffer } : {}),
      ...(s.quickplay ? { quickplay: s.quickplay } : {}),
      ...(flagNeedsClaim(board.config) ? { flagsOnClaim: true as const } : {}),
      ...(device ? { device: { kind: device.kind, connection: board.connection?.state ?? 'connecting' } } : {}),
      ...(s.clockUnreachable && board.config.timekeeper === 'device' ? { clockUnreachable: s.clockUnreachable } : {}),
      ...(lastMove ? { lastMove } : {}),
      ...(stretch ? { unreadStretch: { before: stretch.before, after: stretch.after } } : {}),
      ...(host ? { host } : {}),
      version: this.#boardVersion.get(id) ?? 0,
    };
  }

  /**
   * A board's version (the seq of its last applied entry: its view's `version`), without building its
   * view: what a board's serialized view is cached by (broadcast.ts; a snapshot of 1,000 boards asked
   * for each board's whole view only to read this).
   */
  versionOf(id: string): number | undefined {
    return this.boards.has(id) ? (this.#boardVersion.get(id) ?? 0) : undefined;
  }

  views(): BoardView[] {
    return [...this.boards.keys()].map((id) => this.view(id)!);
  }

  roundView(): RoundView {
    const r = this.#seated.values().next().value;
    // An event console before its first round is published: nothing on the boards yet.
    if (!r) return { event: '', site: '', round: 0, date: '', timeControl: '', defaultTimeMs: 0, scheduledStart: '' };
    return {
      event: r.event,
      site: r.site,
      round: r.round,
      date: r.date,
      timeControl: pgnTimeControl(r.game.timeControl),
      periodMoves: r.game.timeControl.periods.map((p) => p.moves ?? null),
      defaultTimeMs: r.game.defaultTimeMs,
      scheduledStart: r.scheduledStart,
      ...(this.startAt !== undefined ? { startAt: this.startAt } : {}),
    };
  }
}

/** `plies` alternating from `first`: how many each side made. */
function clock(board: string, event: ClockEvent, origin?: DeviceOrigin): JournalRecord {
  return origin ? { kind: 'clock', board, event, origin } : { kind: 'clock', board, event };
}

function isKey(record: JournalRecord): boolean {
  if (record.kind !== 'clock') return record.kind === 'note' && record.note.type !== 'inputError';
  return record.event.type === 'flag' || record.event.type === 'result' || record.event.type === 'forfeit';
}
