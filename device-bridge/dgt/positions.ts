// Board positions to moves, in time. The board reports squares one at a time while pieces are in the air,
// so single field updates are never moves: the position must stay unchanged for `stableMs`, then the
// game reader (game-reader.ts) says how it follows from the game. A single move waits for its player's
// press (or `confirmMs`); a move that may be the first half of a slow castle waits for the press alone.
// Two or more explanations are quarantined for the arbiter, never guessed.
import type { Side } from '../../clock-engine/index.ts';
import { after, type CancelTimer, type Scheduler } from '../scheduler.ts';
import { GameReader, type Orientation, type PlayedMove, type Reading, type Reseed, type SignalledResult } from './game-reader.ts';
import type { BoardSquare, PieceLetter } from './protocol.ts';

export { placementOf, resultSignal, type Orientation, type SignalledResult } from './game-reader.ts';

export type PositionEvent =
  | { readonly type: 'move'; readonly side: Side; readonly san: string; readonly uci: string; readonly fen: string; readonly ply: number; readonly at: number }
  /** The board went back `plies` plies (a takeback, or a move replaced before the next one): now at `fen`. */
  | { readonly type: 'takeback'; readonly plies: number; readonly fen: string; readonly at: number }
  /** No move sequence explains the board: the game goes on from `reseed.fen` (moves in between unknown). */
  | { readonly type: 'reseed'; readonly reseed: Reseed; readonly at: number }
  | { readonly type: 'resultSignal'; readonly result: SignalledResult; readonly at: number }
  | { readonly type: 'ambiguous'; readonly candidates: readonly string[]; readonly at: number }
  | { readonly type: 'unrecognised'; readonly placement: string; readonly at: number }
  | { readonly type: 'orientation'; readonly orientation: Orientation; readonly at: number }
  | { readonly type: 'newGame'; readonly at: number };

export interface PositionTrackerOptions {
  readonly scheduler: Scheduler;
  /** The game's position to start from (a resumed game, from the journal); default the start position. */
  readonly fen?: string;
  /**
   * A resumed game whose journal has this side's press but not its move (the console stopped between
   * the press and the board's reading): the press already came, so its move is taken once the board is
   * still instead of waiting `confirmMs` for a press that will not come again.
   */
  readonly pressed?: Side;
  /**
   * A resumed game: the presses the journal has without their board moves (at least 1 with `pressed`).
   * They count the plies a re-seed skipped when no move sequence explains it (see `unreadPresses`).
   */
  readonly unreadPresses?: number;
  /** How long the board must be still before its position is read (the board scans in ~200-250 ms). */
  readonly stableMs?: number;
  /** A stable legal move waits this long for its clock press before it is taken anyway. */
  readonly confirmMs?: number;
  /** A stable position no move explains is reported after this long (pieces may simply be in the air). */
  readonly unrecognisedMs?: number;
  /** 'auto': decided by the start position the board shows (normal or rotated). */
  readonly orientation?: Orientation | 'auto';
  readonly onEvent: (event: PositionEvent) => void;
}

type Pending = Extract<Reading, { kind: 'explained' }>;

export class PositionTracker {
  private reader: GameReader;
  private raw: BoardSquare[] = Array.from({ length: 64 }, () => '.');
  private haveDump = false;
  /**
   * The position to read holds a board dump not read yet (after a reconnect): search deeper. Field
   * updates before that reading (a player moving while the board reconnects) keep it so.
   */
  private fromDump = false;
  private cancelStable: CancelTimer | undefined;
  private cancelConfirm: CancelTimer | undefined;
  private cancelUnrecognised: CancelTimer | undefined;
  private candidate: Pending | undefined;
  /** A clock press not yet matched with a move (the player pressed before the board was still). */
  private pressedBy: Side | undefined;
  private lastReported = '';
  /**
   * Presses not matched by a move read (the engine's presses minus moves, as this board has seen them):
   * a re-seed no move sequence explains has that many plies unseen, less the moves read after it.
   */
  private unreadPresses: number;
  /** Half-moves since the start position or the resumed position (for `ply`). */
  private plies = 0;
  private readonly stableMs: number;
  private readonly confirmMs: number;

  constructor(private readonly options: PositionTrackerOptions) {
    this.stableMs = options.stableMs ?? 400;
    this.confirmMs = options.confirmMs ?? 2500;
    this.reader = this.newReader(options.fen);
    if (options.fen) this.plies = plyOf(options.fen);
    this.pressedBy = options.pressed;
    this.unreadPresses = Math.max(options.unreadPresses ?? 0, options.pressed ? 1 : 0);
  }

  get boardOrientation(): Orientation | undefined {
    return this.reader.boardOrientation;
  }

  /** The board as the host believes it (board numbering, unrotated). */
  get squares(): readonly BoardSquare[] {
    return this.raw;
  }

  /** The game as read: moves in order, with the re-seeds where they happened. */
  get game(): GameReader['game'] {
    return this.reader.game;
  }

  /** The game's position as read so far (FEN). */
  get fen(): string {
    return this.reader.fen;
  }

  boardDump(squares: readonly BoardSquare[]): void {
    const same = this.haveDump && squares.every((piece, i) => this.raw[i] === piece);
    this.raw = [...squares];
    this.haveDump = true;
    // A dump that changes nothing (keep-alive, after a reconnect) must not restart the stability wait.
    if (!same) {
      this.changed();
      this.fromDump = true;
    }
  }

  fieldUpdate(square: number, piece: BoardSquare): void {
    // Field updates before any dump would build a position from nothing (arnsholt's driver refuses too).
    if (!this.haveDump || square < 0 || square > 63 || this.raw[square] === piece) return;
    this.raw[square] = piece;
    this.changed();
  }

  /**
   * The clock says `side` completed a move: a stable candidate move by that side is taken at once.
   * A press before the board is still is remembered for the next stable position.
   */
  clockPressed(side: Side): void {
    this.unreadPresses++;
    if (this.candidate && this.moverOf(this.candidate) === side) this.confirm();
    else this.pressedBy = side;
  }

  /** The arbiter says where the pieces stand (what no search explains); the game goes on from there. */
  setPosition(fen: string): Reseed {
    this.cancelTimers();
    this.candidate = undefined;
    const reseed = this.reader.setPosition(fen);
    this.plies = plyOf(reseed.fen);
    this.lastReported = '';
    this.fromDump = false;
    this.options.onEvent({ type: 'reseed', reseed, at: this.options.scheduler.now() });
    return reseed;
  }

  /** Reads the position now, as if it had been stable, and takes any candidate (tests, end of a replay). */
  settle(): void {
    this.cancelStable?.();
    this.cancelStable = undefined;
    this.evaluate();
    if (this.candidate) this.confirm();
  }

  dispose(): void {
    this.cancelTimers();
  }

  private newReader(fen: string | undefined): GameReader {
    return new GameReader({ ...(fen ? { fen } : {}), ...(this.options.orientation ? { orientation: this.options.orientation } : {}) });
  }

  private cancelTimers(): void {
    this.cancelStable?.();
    this.cancelUnrecognised?.();
    this.cancelConfirm?.();
    this.cancelStable = this.cancelUnrecognised = this.cancelConfirm = undefined;
  }

  private changed(): void {
    this.cancelTimers();
    this.candidate = undefined;
    this.cancelStable = after(this.options.scheduler, this.stableMs, () => {
      this.cancelStable = undefined;
      this.evaluate();
    });
  }

  /** The side whose press confirms a candidate: the one that makes its last move. */
  private moverOf(candidate: Pending): Side {
    const base = this.reader.sideToMove;
    const turns = candidate.moves.length - candidate.takeback;
    return (((turns % 2) + 2) % 2 === 1) === (base === 'white') ? 'white' : 'black';
  }

  private evaluate(): void {
    const at = this.options.scheduler.now();
    const { squares, learnt } = this.reader.orient(this.raw);
    if (learnt) this.options.onEvent({ type: 'orientation', orientation: learnt, at });
    const reading = this.reader.read(squares, this.fromDump, this.pressedBy !== undefined);
    switch (reading.kind) {
      case 'same':
        this.lastReported = '';
        this.fromDump = false;
        return;
      case 'newGame':
        this.reader.commit(reading);
        this.plies = 0;
        this.lastReported = '';
        this.pressedBy = undefined;
        this.unreadPresses = 0;
        this.fromDump = false;
        this.options.onEvent({ type: 'newGame', at });
        return;
      case 'resultSignal': {
        const key = `signal:${reading.result}`;
        if (this.lastReported !== key) this.options.onEvent({ type: 'resultSignal', result: reading.result, at });
        this.lastReported = key;
        return;
      }
      case 'ambiguous': {
        this.reader.commit(reading);
        const key = `ambiguous:${reading.candidates.join('|')}`;
        if (this.lastReported !== key) this.options.onEvent({ type: 'ambiguous', candidates: reading.candidates, at });
        this.lastReported = key;
        return;
      }
      case 'reseed':
        this.apply(reading, at);
        return;
      case 'unexplained': {
        this.reader.commit(reading);
        const key = `unrecognised:${reading.placement}`;
        if (this.lastReported === key) return;
        this.cancelUnrecognised = after(this.options.scheduler, this.options.unrecognisedMs ?? 5000, () => {
          this.cancelUnrecognised = undefined;
          this.lastReported = key;
          this.options.onEvent({ type: 'unrecognised', placement: reading.placement, at: this.options.scheduler.now() });
        });
        return;
      }
      case 'explained': {
        this.candidate = reading;
        const single = reading.moves.length === 1;
        const mover = this.moverOf(reading);
        // Both players moved within one window or the mover already pressed: nothing left to wait for.
        // Half a castle waits for the press (the king or rook may follow).
        // A takeback waits its full time (a piece held in the air can look like one).
        if (reading.takeback > 0) this.cancelConfirm = after(this.options.scheduler, this.confirmMs, () => this.confirm());
        else if (!single) this.confirm();
        else if (single && this.pressedBy === mover) this.confirm();
        else if (!reading.castlingHalf) this.cancelConfirm = after(this.options.scheduler, this.confirmMs, () => this.confirm());
        return;
      }
    }
  }

  private confirm(): void {
    this.cancelConfirm?.();
    this.cancelConfirm = undefined;
    const candidate = this.candidate;
    this.candidate = undefined;
    if (!candidate) return;
    this.apply(candidate, this.options.scheduler.now());
  }

  private apply(reading: Pending | Extract<Reading, { kind: 'reseed' }>, at: number): void {
    this.lastReported = '';
    this.pressedBy = undefined;
    this.fromDump = false;
    const back = reading.kind === 'explained' && reading.takeback > 0 ? this.reader.fenBack(reading.takeback) : undefined;
    // A re-seed no search explains: its plies counted from the clock before the reader restarts there, so
    // its FEN, and every move read after it, carries the move number the game has reached.
    const counted =
      reading.kind === 'reseed' && reading.reseed.plies === undefined
        ? { ...reading, reseed: this.countedByPresses(reading.reseed, reading.moves.length) }
        : reading;
    const done = this.reader.commit(counted);
    if (back !== undefined) {
      this.plies -= done.takenBack;
      this.unreadPresses += done.takenBack;
      this.options.onEvent({ type: 'takeback', plies: done.takenBack, fen: back, at });
    }
    if (done.reseed) {
      const reseed = done.reseed;
      this.unreadPresses -= reseed.plies ?? 0;
      this.plies = plyOf(reseed.fen);
      this.options.onEvent({ type: 'reseed', reseed, at });
    }
    for (const move of done.played) this.emitMove(move, at);
  }

  /**
   * The plies a re-seed no move sequence explains skipped, from the clock: the presses not matched by a
   * move, less the `after` moves read from the re-seeded position. Of those, each but the last was
   * pressed before the next was made; the last one's press may not have come yet, and the count's
   * parity (the side to move before and after) tells which. Without the count a board that lost
   * several plies (killed again before it read the moves made while the console was down) would stay
   * that many presses behind its clock for the rest of the game.
   */
  private countedByPresses(reseed: Reseed, after: number): Reseed {
    // 1 when the side to move differs.
    const odd = (plyOf(reseed.fromFen) + plyOf(reseed.fen)) % 2;
    let plies = this.unreadPresses - after;
    if (((plies % 2) + 2) % 2 !== odd) plies++;
    return plies > 0 ? { ...reseed, plies, fen: atPly(reseed.fen, plyOf(reseed.fromFen) + plies) } : reseed;
  }

  private emitMove(move: PlayedMove, at: number): void {
    // Below zero while a move read before its press waits for that press.
    this.unreadPresses--;
    this.plies++;
    this.options.onEvent({ type: 'move', side: move.side, san: move.san, uci: move.uci, fen: move.fen, ply: this.plies, at });
  }
}

/** `fen` with the move number of ply `ply` (its side to move agrees: countedByPresses keeps the parity). */
function atPly(fen: string, ply: number): string {
  const fields = fen.split(' ');
  fields[5] = String(Math.floor(ply / 2) + 1);
  return fields.join(' ');
}

/** Plies played before a FEN's position (from its move number and side to move). */
function plyOf(fen: string): number {
  const [, turn = 'w', , , , full = '1'] = fen.split(' ');
  return (Number(full) - 1) * 2 + (turn === 'b' ? 1 : 0);
}

export type { PieceLetter };
