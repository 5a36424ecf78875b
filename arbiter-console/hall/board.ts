// One board as the console sees it: the players, the game clock rebuilt from journaled events, the
// device's health, and what needs the arbiter's eyes.
import type { ClockEvent, Deadline, GameClock, GameConfig, GameResult, GameState, Side } from '../../clock-engine/index.ts';
import { applyClockEvent, initialGameState, nextDeadline, playMoves, remainingAt, startFen } from '../../clock-engine/index.ts';
import type { ConsoleNote } from '../journal/index.ts';
import { AFTER_THE_GAME, boardGameConfig, type Round, type RoundBoard } from '../contract/index.ts';
import type { Attention } from '../contract/index.ts';

/** A ply of the board's game (the live PGN), with its press's clock once the press is known. */
export interface BoardPly {
  readonly side: Side;
  readonly san: string;
  readonly fen: string;
  clock?: { readonly clockMs: number; readonly elapsedMs: number };
  /** Arbiter corrections and notices after this ply, in order (written in its one comment). */
  readonly notes: string[];
}

/** Where the board's game starts: the start position, or a position re-read with the moves before it. */
export interface BoardLine {
  /** FEN of the first position; undefined = the standard start position. */
  readonly fen?: string;
  /** A re-read position: the plies the board did not see before it, as counted (0 when unknown). */
  readonly unseen?: number;
  /** Notes before the first ply. */
  readonly notes: string[];
  readonly plies: BoardPly[];
}

/** A board's fold state (Board.fold): plain data, kept in its snapshot. */
export interface BoardFold {
  readonly state: GameState;
  readonly startedAt: number | undefined;
  readonly lines: readonly BoardLine[];
  readonly connection: Board['connection'];
  readonly correctedResult: GameResult | undefined;
  readonly resultConflicts: readonly string[];
  readonly notes: readonly Attention[];
  readonly dismissed: readonly string[];
  readonly settledAt: number;
  readonly moveStartedAt: number;
  readonly pendingPresses: Record<Side, ({ clockMs: number; elapsedMs: number } | undefined)[]>;
  readonly unseenPresses: number;
  readonly unreachableSince: number | undefined;
}

/** Readings from a physical clock may lag the engine by its 1 s resolution plus wire time. */
const DISAGREEMENT_MS = 2_000;

const fmt = (ms: number): string => {
  const s = Math.floor(Math.abs(ms) / 1000);
  return `${ms < 0 ? '-' : ''}${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

export class Board {
  state: GameState;
  startedAt: number | undefined;
  /** The game as the board read it; earlier lines end where a re-read position starts a new one. */
  readonly lines: BoardLine[] = [{ notes: [], plies: [] }];
  connection: { state: string; at: number; detail?: string } | undefined;
  /** The arbiter's correction of the result the clock ended the game with (the PGN's result). */
  correctedResult: GameResult | undefined;
  /** Contradictions between the clock's result and the desk's raised so far ("clock:entered"), settled or not. */
  readonly resultConflicts = new Set<string>();
  readonly #notes = new Map<string, Attention>();
  readonly #dismissed = new Set<string>();
  /** A result or forfeit the arbiter (or the board) recorded settles every earlier alert of the game. */
  #settledAt = -Infinity;
  /** When the side to move began its move (for %emt). */
  #moveStartedAt = 0;
  /**
   * Presses whose board move has not come yet (a press often comes before the board is read); a press
   * counted while the clock was unreachable has no clock of its own (undefined).
   */
  readonly #pendingPresses: Record<Side, ({ clockMs: number; elapsedMs: number } | undefined)[]> = { white: [], black: [] };
  /** Presses counted from the clock's reading after it was unreachable, since that stretch began. */
  #unseenPresses = 0;
  /** When the clock that keeps the time became unreachable, until its reading is taken (the PGN's note). */
  #unreachableSince: number | undefined;

  /** The round's rules with this board's timekeeper (round.ts). */
  readonly config: GameConfig;
  /**
   * The board's game-clock actor (clock-engine machine.ts, spawned by the round actor) on the machine
   * that keeps the board's time: it takes each state folded here (`adopt`) and owns the board's deadline
   * timer. Until it is attached (while the journal is replayed), and on a machine that does not keep
   * the board's time (a console on the bus: the board is a projection of its owner's journaled events),
   * there is none.
   */
  #clock: Pick<GameClock, 'send' | 'getSnapshot'> | undefined;

  constructor(
    readonly info: RoundBoard,
    game: GameConfig,
    /** The section's round this board's game belongs to. */
    readonly round: Round,
  ) {
    this.config = boardGameConfig(game, info);
    this.state = initialGameState(this.config);
  }

  /**
   * Everything the journal's entries folded into this board (its snapshot, board-snapshot.ts): with
   * `restore` it gives the same board as folding them again. Not the actor, which is attached afresh.
   */
  fold(): BoardFold {
    return {
      state: this.state,
      startedAt: this.startedAt,
      lines: this.lines,
      connection: this.connection,
      correctedResult: this.correctedResult,
      resultConflicts: [...this.resultConflicts],
      notes: [...this.#notes.values()],
      dismissed: [...this.#dismissed],
      settledAt: this.#settledAt,
      moveStartedAt: this.#moveStartedAt,
      pendingPresses: this.#pendingPresses,
      unseenPresses: this.#unseenPresses,
      unreachableSince: this.#unreachableSince,
    };
  }

  /** Takes a fold (a copy: the board goes on changing its parts) made by `fold` of the same game. */
  restore(fold: BoardFold): void {
    this.state = fold.state;
    this.startedAt = fold.startedAt;
    this.lines.splice(0, this.lines.length, ...fold.lines);
    this.connection = fold.connection;
    this.correctedResult = fold.correctedResult;
    this.resultConflicts.clear();
    for (const c of fold.resultConflicts) this.resultConflicts.add(c);
    this.#notes.clear();
    for (const a of fold.notes) this.#notes.set(a.id, a);
    this.#dismissed.clear();
    for (const id of fold.dismissed) this.#dismissed.add(id);
    this.#settledAt = fold.settledAt;
    this.#moveStartedAt = fold.moveStartedAt;
    this.#pendingPresses.white = fold.pendingPresses.white;
    this.#pendingPresses.black = fold.pendingPresses.black;
    this.#unseenPresses = fold.unseenPresses;
    this.#unreachableSince = fold.unreachableSince;
  }

  /** When the side to move began its move (pauses excluded): virtual players think from here. */
  get moveStartedAt(): number {
    return this.#moveStartedAt;
  }

  get id(): string {
    return this.info.id;
  }

  /** From here on every event also goes to the actor, which starts from the board's state. */
  attach(clock: Pick<GameClock, 'send' | 'getSnapshot'>): void {
    this.#clock = clock;
  }

  /** The actor's fold state (tests compare it with `state`: they are the same by construction). */
  clockState(): GameState | undefined {
    return this.#clock?.getSnapshot().context.game;
  }

  /**
   * A journaled clock event. `folded`: the state after it, when the hall folded it already (to journal
   * the deadlines it passed), so that each event is folded once.
   */
  applyClock(event: ClockEvent, folded?: GameState): void {
    const before = this.state;
    const after = folded ?? applyClockEvent(this.config, before, event).state;
    this.state = after;
    // The actor takes the state, not the event (no second fold). It may be busy reporting the deadline
    // that led here, and takes it right after: the board's state is known at once, the actor's a moment later.
    this.#clock?.send({ type: 'adopt', game: after });
    if (event.type === 'start' && before.status === 'waiting' && after.status === 'running') {
      this.startedAt = event.at;
      this.#moveStartedAt = event.at;
    }
    if (before.status !== 'finished' && after.status === 'finished' && (event.type === 'result' || event.type === 'forfeit')) this.#settledAt = event.at;
    if (event.type === 'boardMove') this.#boardMove(event.side, event.san, event.fen ?? after.fen ?? '');
    if (event.type === 'boardPosition') this.#boardPosition(event.fen, event.plies, event.detail);
    if (event.type === 'press' && after.presses[event.side] > before.presses[event.side]) {
      if (event.unseen) this.#unseenPresses++;
      this.#pressed(event.side, event.unseen ? undefined : { clockMs: after.remainingMs[event.side], elapsedMs: event.at - this.#moveStartedAt });
      this.#moveStartedAt = event.at;
      // Under a device timekeeper the engine itself compares (1 s) and takes the reading over.
      if (event.reading && this.config.timekeeper !== 'device') this.#compareReading(event.at, event.reading);
    }
    if (!before.clockUnreachable && after.clockUnreachable) this.#unreachableSince = after.clockUnreachable.since;
    if (event.type === 'clockReading' && this.#unreachableSince !== undefined) {
      this.#heardAgain(event.at - this.#unreachableSince, event.uncounted === true);
      this.#unreachableSince = undefined;
    }
    if (event.type === 'resume' && before.status === 'paused') this.#moveStartedAt += event.at - (before.paused?.at ?? event.at);
    const comment = correctionComment(event, remainingAt(before, event.at), after.remainingMs);
    if (comment) this.#comment(comment);
  }

  get line(): BoardLine {
    return this.lines[this.lines.length - 1]!;
  }

  #comment(text: string): void {
    const line = this.line;
    (line.plies.at(-1)?.notes ?? line.notes).push(text);
  }

  /** The press of `side` belongs to its latest ply still without a clock, or waits for its move. */
  #pressed(side: Side, clock: { clockMs: number; elapsedMs: number } | undefined): void {
    const last = this.line.plies.findLast((p) => p.side === side);
    if (last && !last.clock && this.line.plies.at(-1) === last) {
      if (clock) last.clock = clock;
    } else this.#pendingPresses[side].push(clock);
  }

  /** The clock that keeps the time is heard again: the live PGN says for how long it was not, and what was counted. */
  #heardAgain(unreachableMs: number, uncounted: boolean): void {
    const presses = this.#unseenPresses;
    this.#unseenPresses = 0;
    const counted = uncounted
      ? 'the presses made meanwhile cannot be counted from its times'
      : `${presses} ${presses === 1 ? 'press' : 'presses'} made meanwhile counted from its times`;
    this.#comment(`clock unreachable for ${fmt(unreachableMs)}; its reading taken, ${counted}`);
  }

  #boardMove(side: Side, san: string, fen: string): void {
    const clock = this.#pendingPresses[side].shift();
    this.line.plies.push({ side, san, fen, ...(clock ? { clock } : {}), notes: [] });
  }

  /** A takeback drops plies (their presses stay in the engine); a re-read position starts a new line. */
  #boardPosition(fen: string, plies: number, detail: string | undefined): void {
    if (plies < 0) {
      const dropped = this.line.plies.splice(this.line.plies.length + plies, -plies);
      this.#comment(`board: ${dropped.map((p) => p.san).join(' ')} taken back${detail ? ` (${detail})` : ''}`);
      return;
    }
    this.#pendingPresses.white = [];
    this.#pendingPresses.black = [];
    this.lines.push({ fen, unseen: plies, notes: [`board re-read${detail ? `: ${detail}` : ''}${plies > 0 ? `; ${plies} plies unseen` : ''}`], plies: [] });
  }

  /**
   * The latest stretch of the game the board did not read (a re-read position, or one the arbiter set):
   * the position before it, the position re-read after it, and the plies counted unseen in between.
   */
  get unreadStretch(): { readonly before: string; readonly after: string; readonly unseen: number } | undefined {
    const line = this.line;
    const previous = this.lines.at(-2);
    if (!previous || line.fen === undefined) return undefined;
    return { before: previous.plies.at(-1)?.fen ?? previous.fen ?? startFen, after: line.fen, unseen: line.unseen ?? 0 };
  }

  /**
   * The arbiter's moves for the latest unread stretch (checked by the hall): the re-read line joins the
   * line before it through them, so the live PGN carries the whole game, not a new start at a FEN. The
   * moves read after the stretch are replayed from the entered ones, so their positions carry the move
   * number the game reached (a move chess.js cannot replay keeps the position the board read).
   */
  #joinStretch(moves: readonly string[], by: string): void {
    const stretch = this.unreadStretch;
    if (!stretch) return;
    const line = this.lines.pop()!;
    const previous = this.line;
    const entered = playMoves(stretch.before, moves);
    if (!entered.ok) {
      this.lines.push(line);
      return;
    }
    const firstSide: Side = stretch.before.split(' ')[1] === 'b' ? 'black' : 'white';
    const sideOf = (i: number): Side => ((i % 2 === 0) === (firstSide === 'white') ? 'white' : 'black');
    entered.line.sans.forEach((san, i) => previous.plies.push({ side: sideOf(i), san, fen: entered.line.fens[i]!, notes: [] }));
    (previous.plies.at(-1)?.notes ?? previous.notes).push(`moves played while the board was not read, entered by ${by}`);
    const after = playMoves(
      entered.line.fens.at(-1) ?? stretch.before,
      line.plies.map((p) => p.san),
    );
    line.plies.forEach((ply, i) => previous.plies.push({ ...ply, fen: after.ok ? after.line.fens[i]! : ply.fen }));
  }

  #compareReading(at: number, reading: { white: number; black: number }): void {
    for (const side of ['white', 'black'] as const) {
      const diff = reading[side] - this.state.remainingMs[side];
      if (Math.abs(diff) > DISAGREEMENT_MS) {
        this.#note({
          code: 'clock-disagrees',
          side,
          at,
          message: `the clock shows ${fmt(reading[side])} for ${side}, the console ${fmt(this.state.remainingMs[side])}`,
        });
      }
    }
  }

  applyNote(note: ConsoleNote): void {
    switch (note.type) {
      case 'arbiterCall':
        this.#note({ code: 'arbiter-call', at: note.at, message: `arbiter call: ${note.detail}` });
        break;
      case 'connection':
        this.connection = { state: note.state, at: note.at, detail: note.detail };
        if (note.state === 'connected') {
          for (const [id, a] of this.#notes) if (a.code === 'silent-board') this.#notes.delete(id);
        } else if (note.state === 'silent' || note.state === 'disconnected') {
          this.#note({ code: 'silent-board', at: note.at, message: `device ${note.state}${note.detail ? `: ${note.detail}` : ''}` });
        }
        break;
      case 'disagreement':
        this.#note({ code: 'clock-disagrees', at: note.at, message: note.detail });
        break;
      case 'inputError':
        break;
      case 'notOwner':
        this.#note({
          code: 'not-owner',
          at: note.at,
          message: `a ${note.event} from hall host ${note.host} was not applied: board ${this.id} is ${note.owner === undefined ? 'nobody' : `${note.owner}`}'s (its lease)`,
        });
        break;
      case 'handedOver':
        this.#note({
          code: 'handed-over',
          at: note.at,
          message: `board ${this.id} handed over from hall host ${note.from} to ${note.to}${note.by ? ` by ${note.by}` : ''}: ${note.to} goes on with the game from the stream's state`,
        });
        break;
      case 'dismiss':
        this.#dismissed.add(note.alertId);
        break;
      case 'downtime':
        this.#comment(`console down ${fmt(note.at - note.lastAt)}; the running clock kept running`);
        break;
      case 'missedMoves':
        this.#joinStretch(note.moves, note.by);
        break;
      case 'resultConflict':
        this.resultConflicts.add(`${note.clock}:${note.entered}`);
        this.#note({
          code: 'result-contradicts',
          at: note.at,
          message: `the clock ended the game ${note.clock}, the desk has ${note.entered} (entered by ${note.by}): keep one of them`,
        });
        break;
      case 'correction':
        // The PGN's result is the desk's now: a contradiction between the two is settled.
        for (const [id, a] of this.#notes) if (a.code === 'result-contradicts') this.#notes.delete(id);
        this.correctedResult = note.result;
        this.#comment(`result corrected to ${note.result} by ${note.by}: ${note.reason} (the clock had ${this.state.result?.result ?? 'no result'})`);
        break;
    }
  }

  #note(a: Omit<Attention, 'id' | 'board'>): void {
    const id = `${this.id}:${a.code}:${a.side ?? '-'}:${a.at}`;
    this.#notes.set(id, { id, board: this.id, ...a });
  }

  /**
   * What needs the arbiter now: the engine's alerts and the device's notices, minus what is settled:
   * dismissed by the arbiter, a late player who has since arrived, move counts that agree again,
   * anything before a recorded result, and once the game is finished whatever was about the game in
   * play (AFTER_THE_GAME: a flag fall that ended the game stays until the arbiter dismisses it).
   */
  attention(): Attention[] {
    const s = this.state;
    const list: Attention[] = [];
    const finished = s.status === 'finished';
    for (const a of s.alerts) {
      if (a.code === 'ignored-event') continue;
      if (finished && !AFTER_THE_GAME.includes(a.code)) continue;
      if (a.code === 'late-player' && a.side && s.arrived[a.side] && s.defaultTimeExpiredAt === undefined) continue;
      // A board reports a move when its press confirms it: the counts agree again once it has.
      if (a.code === 'move-count-mismatch' && a.side && s.presses[a.side] === s.moves[a.side]) continue;
      // A claim waits for the arbiter's decision (a postponed one for his final decision), then leaves.
      if (a.code === 'quickplay-claim' && !(s.quickplay?.at === a.at && s.quickplay.status !== 'increment')) continue;
      // Conditions that end by themselves: the clock heard again, the press counters set by the arbiter.
      if (a.code === 'clock-unreachable' && !s.clockUnreachable) continue;
      if (a.code === 'presses-missed' && !s.periodHeld) continue;
      const { refusal: _ruled, ...shown } = a;
      list.push({
        id: `${this.id}:${a.code}:${a.side ?? '-'}:${a.at}`,
        board: this.id,
        ...shown,
        message: a.code === 'presses-missed' ? this.#missing(a.message) : a.message,
      });
    }
    for (const a of this.#notes.values()) if (!finished || AFTER_THE_GAME.includes(a.code)) list.push(a);
    // An alert is a condition, not a history: a newer one of the same kind and side supersedes the older.
    const latest = new Map<string, Attention>();
    for (const a of list) {
      if (this.#dismissed.has(a.id) || a.at <= this.#settledAt) continue;
      const key = `${a.code}:${a.side ?? '-'}`;
      const seen = latest.get(key);
      if (!seen || seen.at <= a.at) latest.set(key, a);
    }
    return [...latest.values()];
  }

  /** A held period's alert with how many presses are missing by the board's moves (when it shows more). */
  #missing(message: string): string {
    const s = this.state;
    const missing = s.moves.white + s.moves.black - s.presses.white - s.presses.black;
    return missing > 0 ? `${message}: ${missing} ${missing === 1 ? 'press' : 'presses'} missing by the board's moves` : message;
  }

  /** "23... Nf6": the last move the board has reported. */
  lastMove(): string | undefined {
    const line = this.line;
    const ply = line.plies.at(-1);
    if (!ply) return undefined;
    const [, turn = 'w', , , , full = '1'] = ply.fen.split(' ');
    // The FEN after the move: after White's move Black is to move in the same move number.
    const number = turn === 'b' ? Number(full) : Number(full) - 1;
    return `${number}${ply.side === 'white' ? '.' : '...'} ${ply.san}`;
  }

  remainingAt(now: number): { white: number; black: number } {
    return remainingAt(this.state, now);
  }

  nextDeadline(): Deadline | undefined {
    return nextDeadline(this.config, this.state);
  }
}

function correctionComment(event: ClockEvent, before: { white: number; black: number }, after: { white: number; black: number }): string | undefined {
  const who = event.by.kind === 'arbiter' ? `Arbiter ${event.by.name}` : event.by.kind;
  switch (event.type) {
    case 'addTime':
      return `${who}: ${event.ms >= 0 ? '+' : '-'}${fmt(Math.abs(event.ms))} to ${event.side} (${event.reason})`;
    case 'setTime':
      return `${who}: ${event.side}'s clock set to ${fmt(event.ms)} (${event.reason})`;
    case 'setMoveCounter':
      return `${who}: ${event.side}'s ${event.counter} counter set to ${event.moves} (${event.reason})`;
    case 'penalty': {
      const opponent = event.offender === 'white' ? 'black' : 'white';
      return `${who}: ${event.offence} by ${event.offender}, ${opponent} +${fmt(after[opponent] - before[opponent])} (${event.reason})`;
    }
    case 'pause':
      return `${who}: clock paused (${event.reason})`;
    case 'resume':
      return `${who}: clock resumed`;
    case 'forfeit':
      return `${who}: ${event.side} forfeits (${event.reason})`;
    default:
      return undefined;
  }
}
