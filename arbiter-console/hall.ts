// The playing hall: every board of the round, kept only through the journal. Each device event and
// arbiter command is journaled first, then applied; listeners hear which boards changed. Time acts
// through the round's actor system (round-actor.ts) on the hall's one injected clock: each board's
// game-clock actor aims its timer at the board's next deadline and reports it; the hall journals the
// deadline events (flag, default time, start) at their exact instant and only then applies them.
import { createActor, type Actor } from 'xstate';
import type { ClockEvent, EventActor, GameState } from '../clock-engine/index.ts';
import { advanceTo, applyClockEvent, moveInProgress, noDeadlineBy } from '../clock-engine/index.ts';
import type { ClockDevice, DeviceMessage } from '../device-bridge/index.ts';
import type { Attention } from './board.ts';
import { Board } from './board.ts';
import type { Journal, JournalRecord } from './journal.ts';
import type { ArbiterCommand, BoardView, RoundView } from './protocol.ts';
import type { Round } from './round.ts';
import { pgnTimeControl } from './round.ts';
import { roundLogic, type RoundPhase } from './round-actor.ts';
import type { HallClock } from './time.ts';

export interface HallChange {
  readonly boards: readonly string[];
  /** Flag, result or a new alert: clients get it at once instead of at the next coalesced delta. */
  readonly key: boolean;
  readonly attention: boolean;
  readonly round: boolean;
}

export type CommandOutcome = { readonly ok: true; readonly journalSeq: number } | { readonly ok: false; readonly reason: string };

export class PlayingHall {
  readonly boards = new Map<string, Board>();
  /** The journal sequence number of the last applied entry. */
  version = 0;
  startAt: number | undefined;
  /** Why the round may not start yet (the tournament desk: its pairing is still a draft); undefined when it may. */
  startHeld: (() => string | undefined) | undefined;
  readonly #boardVersion = new Map<string, number>();
  readonly #listeners = new Set<(change: HallChange) => void>();
  readonly #devices = new Map<string, ClockDevice>();
  /** Each board's open alerts (their ids), so a change looks at the boards it touched only. */
  readonly #attentionKeys = new Map<string, string>();
  readonly #actor: Actor<ReturnType<typeof roundLogic>>;

  constructor(
    readonly round: Round,
    readonly journal: Journal,
    readonly source: HallClock,
  ) {
    for (const info of round.boards) this.boards.set(info.id, new Board(info, round.game));
    let running = false;
    for (const entry of journal.entries()) {
      this.#apply(entry.record, entry.seq);
    }
    for (const board of this.boards.values()) if (board.state.status === 'running') running = true;
    // Host-driven clocks: the running clock kept running while the console was down (docs/console.md).
    const lastAt = journal.lastAt();
    const now = source.now();
    if (running && now > lastAt) {
      for (const board of this.boards.values()) {
        if (board.state.status === 'running') this.record({ kind: 'note', board: board.id, note: { type: 'downtime', at: now, lastAt } });
      }
    }
    for (const id of this.boards.keys()) this.#attentionKeys.set(id, this.#attentionSignature(id));
    // The journal is replayed: restore each board's actor from its fold state (XState does not restore
    // delayed events from a snapshot, statelyai/xstate#5331), on the hall's clock.
    this.#actor = createActor(roundLogic(() => source.now()), {
      clock: source,
      input: {
        section: 'main',
        round: round.round,
        phase: this.#phase(),
        boards: [...this.boards.values()].map((b) => ({ systemId: gameId(round.round, b.id), board: b.id, game: { config: b.config, state: b.state, deadlines: 'report' as const } })),
        ...(this.startAt !== undefined ? { startAt: this.startAt } : {}),
      },
    });
    this.#actor.on('startDue', ({ at }) => this.#startDue(at));
    this.#actor.start();
    for (const board of this.boards.values()) {
      const ref = this.#actor.system.get(gameId(round.round, board.id)) as Parameters<Board['attach']>[0] & { on: (type: 'deadline', handler: (e: { at: number }) => void) => unknown };
      board.attach(ref);
      ref.on('deadline', ({ at }) => this.#deadline(board.id, at));
    }
    if (this.startAt !== undefined && this.startAt <= source.now()) this.#startDue(this.startAt);
  }

  /** The round's state: published (clocks waiting), playing, or results to confirm (every game over). */
  get phase(): RoundPhase {
    return this.#actor.getSnapshot().context.phase;
  }

  #phase(): RoundPhase {
    const boards = [...this.boards.values()];
    if (this.startAt === undefined || boards.some((b) => b.state.status === 'waiting')) return 'published';
    return boards.every((b) => b.state.status === 'finished') ? 'confirming' : 'playing';
  }

  /** Stops every timer of the hall (the console's stop). */
  stop(): void {
    this.#actor.stop();
  }

  /** A board's actor reached a deadline: journal what falls due there, stamped with its instant, then apply. */
  #deadline(board: string, at: number): void {
    const b = this.boards.get(board);
    if (!b || noDeadlineBy(b.config, b.state, at)) return;
    const emitted = advanceTo(b.config, b.state, at).emitted;
    if (emitted.length > 0) this.#recordAll(emitted.map((e) => clock(board, e)));
  }

  /** The scheduled start has come: every waiting clock starts at that instant. */
  #startDue(at: number): void {
    const waiting = [...this.boards.values()].filter((b) => b.state.status === 'waiting');
    if (waiting.length > 0) this.#recordAll(waiting.map((b) => clock(b.id, { type: 'start', at, by: { kind: 'system' } })));
    else this.#followPhase();
  }

  /** Tells the round actor what the boards now say (the journal has it already). */
  #followPhase(): void {
    const now = this.#phase();
    const was = this.phase;
    if (now === was) return;
    if (was === 'published' && now !== 'published') this.#actor.send({ type: 'started' });
    if (now === 'confirming') this.#actor.send({ type: 'finished' });
    if (now === 'playing' && this.phase === 'confirming') this.#actor.send({ type: 'reopened' });
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

  /**
   * Journals a batch in one transaction, each clock event preceded by the deadlines the engine passed
   * before it (`applyClockEvent(...).emitted`, which replay would otherwise recompute unjournaled), then
   * applies them in that order.
   */
  #recordAll(batch: readonly JournalRecord[]): number {
    const records: JournalRecord[] = [];
    const ahead = new Map<string, GameState>();
    for (const record of batch) {
      const board = record.kind === 'clock' ? this.boards.get(record.board) : undefined;
      if (board && record.kind === 'clock') {
        const step = applyClockEvent(board.config, ahead.get(board.id) ?? board.state, record.event);
        for (const event of step.emitted) records.push(clock(board.id, event));
        ahead.set(board.id, step.state);
      }
      records.push(record);
    }
    const seqs = this.journal.appendAll(records);
    let statusChanged = false;
    records.forEach((r, i) => {
      const board = r.kind === 'clock' ? this.boards.get(r.board) : undefined;
      const before = board?.state.status;
      this.#apply(r, seqs[i]!);
      if (board && board.state.status !== before) statusChanged = true;
    });
    // The round's phase follows the boards' statuses: only a status change can move it.
    if (statusChanged && this.#actor) this.#followPhase();
    this.#afterChange(
      records.flatMap((r) => (r.kind === 'clock' || r.kind === 'note' ? [r.board] : [])),
      records.some(isKey),
      records.some((r) => r.kind === 'scheduleStart'),
    );
    return seqs[seqs.length - 1] ?? this.version;
  }

  #apply(record: JournalRecord, seq: number): void {
    this.version = seq;
    if (record.kind === 'scheduleStart') {
      this.startAt = record.startAt;
      return;
    }
    if (record.kind === 'tournament' || record.kind === 'staff') return; // the desk and the team apply their own records
    const board = this.boards.get(record.board);
    if (!board) return; // a journal from another round's board list: kept, not applied
    if (record.kind === 'clock') board.applyClock(record.event);
    else board.applyNote(record.note);
    this.#boardVersion.set(board.id, seq);
  }

  #afterChange(boards: readonly string[], key: boolean, round: boolean): void {
    const now = this.source.now();
    let attention = false;
    for (const id of new Set(boards)) {
      const signature = this.#attentionSignature(id);
      if (signature !== this.#attentionKeys.get(id)) attention = true;
      this.#attentionKeys.set(id, signature);
    }
    for (const id of boards) {
      const device = this.#devices.get(id);
      const board = this.boards.get(id);
      if (device && board) device.show(board.state, now);
    }
    const change: HallChange = { boards: [...new Set(boards)], key: key || attention, attention, round };
    for (const listener of this.#listeners) listener(change);
  }

  #attentionSignature(board: string): string {
    return (
      this.boards
        .get(board)
        ?.attention()
        .map((a) => a.id)
        .join('|') ?? ''
    );
  }

  attachDevice(device: ClockDevice): () => void {
    if (!this.boards.has(device.boardId)) throw new Error(`unknown board '${device.boardId}' for a ${device.kind} device`);
    this.#devices.set(device.boardId, device);
    const unsubscribe = device.subscribe((message) => this.#fromDevice(device.boardId, message));
    return () => {
      unsubscribe();
      this.#devices.delete(device.boardId);
    };
  }

  #fromDevice(board: string, message: DeviceMessage): void {
    const now = this.source.now();
    switch (message.type) {
      case 'clockEvent':
        this.record(clock(board, message.event));
        break;
      case 'connection':
        this.record({ kind: 'note', board, note: { type: 'connection', at: now, state: message.state, detail: message.detail } });
        break;
      case 'arbiterCall':
        this.record({ kind: 'note', board, note: { type: 'arbiterCall', at: message.at, detail: message.detail } });
        break;
      case 'inputError':
        this.record({ kind: 'note', board, note: { type: 'inputError', at: message.at, detail: message.detail, count: message.count } });
        break;
    }
  }

  /** Checks an arbiter command, journals it, applies it. Refusals journal nothing. */
  command(command: ArbiterCommand, arbiter: string): CommandOutcome {
    const at = this.source.now();
    const by: EventActor = { kind: 'arbiter', name: arbiter };
    const refuse = (reason: string): CommandOutcome => ({ ok: false, reason });
    switch (command.type) {
      case 'startAll': {
        if (this.startAt !== undefined) return refuse('the round start is already set');
        const held = this.startHeld?.();
        if (held !== undefined) return refuse(held);
        const startAt = Math.max(at, this.round.game.scheduledStart);
        const seq = this.record({ kind: 'scheduleStart', startAt, at });
        if (startAt <= this.source.now()) this.#startDue(startAt);
        else this.#actor.send({ type: 'scheduleStart', startAt });
        return { ok: true, journalSeq: Math.max(seq, this.version) };
      }
      case 'arriveAll': {
        const absent = [...this.boards.values()].flatMap((b) =>
          b.state.status === 'finished' ? [] : (['white', 'black'] as const).filter((side) => !b.state.arrived[side]).map((side) => clock(b.id, { type: 'arrive', side, at, by })),
        );
        if (absent.length === 0) return refuse('every player is already marked present');
        return { ok: true, journalSeq: this.#recordAll(absent) };
      }
      case 'pauseAll': {
        const running = [...this.boards.values()].filter((b) => b.state.status === 'running');
        if (running.length === 0) return refuse('no clock is running');
        return { ok: true, journalSeq: this.#recordAll(running.map((b) => clock(b.id, { type: 'pause', at, by, reason: command.reason }))) };
      }
      case 'resumeAll': {
        const paused = [...this.boards.values()].filter((b) => b.state.status === 'paused');
        if (paused.length === 0) return refuse('no clock is paused');
        return { ok: true, journalSeq: this.#recordAll(paused.map((b) => clock(b.id, { type: 'resume', at, by }))) };
      }
      case 'dismiss': {
        const alert = this.attention().find((a) => a.id === command.alertId);
        if (!alert) return refuse(`no open alert '${command.alertId}'`);
        return { ok: true, journalSeq: this.record({ kind: 'note', board: alert.board, note: { type: 'dismiss', at, alertId: alert.id } }) };
      }
      default:
        break;
    }
    const board = this.boards.get(command.board);
    if (!board) return refuse(`unknown board '${command.board}' (boards: ${[...this.boards.keys()].join(', ')})`);
    const s = board.state;
    if (s.status === 'finished') return refuse(`the game on board ${board.id} is finished (${s.result?.result ?? ''})`);
    let event: ClockEvent;
    switch (command.type) {
      case 'pause':
        if (s.status === 'paused') return refuse(`board ${board.id} is already paused`);
        event = { type: 'pause', at, by, reason: command.reason };
        break;
      case 'resume':
        if (s.status !== 'paused') return refuse(`board ${board.id} is not paused`);
        event = { type: 'resume', at, by };
        break;
      case 'addTime':
        if (s.remainingMs[command.side] + command.ms < 0) return refuse(`${command.side} has only ${s.remainingMs[command.side]} ms`);
        event = { type: 'addTime', at, by, side: command.side, ms: command.ms, reason: command.reason };
        break;
      case 'setTime':
        event = { type: 'setTime', at, by, side: command.side, ms: command.ms, reason: command.reason };
        break;
      case 'setMoveCounter':
        event = { type: 'setMoveCounter', at, by, side: command.side, counter: command.counter, moves: command.moves, reason: command.reason };
        break;
      case 'penalty':
        event = { type: 'penalty', at, by, offender: command.offender, offence: command.offence, reason: command.reason };
        break;
      case 'forfeit':
        event = { type: 'forfeit', at, by, side: command.side, reason: command.reason };
        break;
      case 'result':
        event = { type: 'result', at, by, result: command.result, termination: command.termination };
        break;
      case 'arrive':
        if (s.arrived[command.side]) return refuse(`${command.side} on board ${board.id} has already arrived`);
        event = { type: 'arrive', at, by, side: command.side };
        break;
    }
    return { ok: true, journalSeq: this.record(clock(board.id, event)) };
  }

  attention(): Attention[] {
    return [...this.boards.values()].flatMap((b) => b.attention()).sort((a, b) => a.at - b.at);
  }

  view(id: string): BoardView | undefined {
    const board = this.boards.get(id);
    if (!board) return undefined;
    const s = board.state;
    const device = this.#devices.get(id);
    const lastMove = board.lastMove();
    return {
      id,
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
      ...(device ? { device: { kind: device.kind, connection: board.connection?.state ?? 'connecting' } } : {}),
      ...(lastMove ? { lastMove } : {}),
      version: this.#boardVersion.get(id) ?? 0,
    };
  }

  views(): BoardView[] {
    return [...this.boards.keys()].map((id) => this.view(id)!);
  }

  roundView(): RoundView {
    const r = this.round;
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

/** The systemId of a board's game-clock actor. */
function gameId(round: number, board: string): string {
  return `game:main:${round}:${board}`;
}

function clock(board: string, event: ClockEvent): JournalRecord {
  return { kind: 'clock', board, event };
}

function isKey(record: JournalRecord): boolean {
  if (record.kind !== 'clock') return record.kind === 'note' && record.note.type !== 'inputError';
  return record.event.type === 'flag' || record.event.type === 'result' || record.event.type === 'forfeit';
}
