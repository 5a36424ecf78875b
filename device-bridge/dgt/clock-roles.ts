// The two ways a DGT clock takes part in a game.
// - mirror: the DGT clock is the authority. Its lever changes become presses carrying its own readings,
//   its start/stop becomes pause/resume, its flags become flag events; `compare` tells when the
//   engine's idea of the times has drifted more than 1 s from what the clock shows.
// - host: the engine is the authority. Every state the console shows is sent with set-and-run; lever
//   presses still come back as presses (without readings), because the players press the real lever.
import type { ClockAlert, ClockEvent, ClockReading, EventActor, GameState, Side, TimeControl } from '../../clock-engine/index.ts';
import { otherSide, pressesWhileUnreachable } from '../../clock-engine/index.ts';
import type { ClockSideName, ClockTimesMessage } from './messages.ts';

export type WhiteSide = ClockSideName | 'auto';

export interface RoleOutput {
  readonly event: (event: ClockEvent) => void;
  readonly arbiterCall: (at: number, detail: string) => void;
}

/** The clock shows whole seconds and its messages come up to a second apart. */
const READING_SLACK_MS = 2_000;
/** Without the time control: a period's bonus of an hour plus a minute's increment. */
const DEFAULT_MAX_BONUS_MS = 61 * 60_000;

const other = (side: ClockSideName): ClockSideName => (side === 'left' ? 'right' : 'left');

/** Which clock side is White's: fixed, or (auto) the board orientation until the clock says otherwise. */
export class SideMap {
  private side: ClockSideName | undefined;
  constructor(private readonly configured: WhiteSide) {
    if (configured !== 'auto') this.side = configured;
  }
  get white(): ClockSideName {
    return this.side ?? 'left';
  }
  get fixed(): boolean {
    return this.configured !== 'auto';
  }
  /** A guess (board orientation) or a fact (White's clock started first); only auto maps change. */
  learn(white: ClockSideName): void {
    if (this.configured === 'auto') this.side = white;
  }
  colour(side: ClockSideName): Side {
    return side === this.white ? 'white' : 'black';
  }
  clockSide(colour: Side): ClockSideName {
    return colour === 'white' ? this.white : other(this.white);
  }
  reading(m: ClockTimesMessage): ClockReading {
    const white = m[this.white].ms;
    const black = m[other(this.white)].ms;
    return { white, black };
  }
}

export interface LastReading {
  readonly reading: ClockReading;
  readonly at: number;
  readonly running: Side | 'none';
}

export class MirrorClock {
  private started = false;
  private paused = false;
  private expected: ClockSideName | 'none' = 'none';
  private lastLever: ClockSideName | undefined;
  private readonly flagged = { left: false, right: false };
  private last: LastReading | undefined;
  /** The engine's state a restarted host handed over, until the clock's first reading. */
  private resumed: GameState | undefined;
  /** The last reading followed, and one not followed since (a second like it confirms it). */
  private lastRaw: { readonly m: ClockTimesMessage; readonly at: number } | undefined;
  private suspect: ClockTimesMessage | undefined;
  /** The engine's latest state (`follow`): what the presses counted while unreachable are worked out against. */
  private engine: GameState | undefined;
  /** The clock could not be heard (unplugged, silent) since the game started: its next reading resyncs. */
  private unreachable = false;

  constructor(
    private readonly sides: SideMap,
    private readonly actor: EventActor,
    private readonly out: RoleOutput,
    private readonly onPress: (side: Side) => void = () => {},
    /** The most a side's time can rise at once (increment plus a period's bonus). */
    private readonly maxBonusMs: number = DEFAULT_MAX_BONUS_MS,
    /** The time control of the game on the board now: the presses made while the clock was unreachable are counted with it. */
    private readonly timeControl: () => TimeControl | undefined = () => undefined,
  ) {}

  get lastReading(): LastReading | undefined {
    return this.last;
  }

  /**
   * The engine's state before the clock's first reading (a console restarted mid-game): the game is
   * under way, so the clock running is no `start`, and a side other than the engine's to move means a
   * press made while nobody listened, reported with the first reading. Ignored once the clock spoke.
   */
  follow(state: GameState): void {
    this.engine = state;
    if (this.started || this.lastLever !== undefined) return;
    // Restarted while the clock could not be heard: its first reading resyncs the engine.
    if (state.clockUnreachable) this.unreachable = true;
    if (state.status !== 'running' && state.status !== 'paused') return;
    this.started = true;
    this.paused = state.status === 'paused';
    this.expected = this.sides.clockSide(state.toMove);
    this.resumed = state;
  }

  /**
   * With 'auto' sides, which side is White's was learned when the game started and is gone after a
   * restart: the first reading tells, as the mapping under which the clock's times are nearer the
   * engine's (a rotated board mid-game looks like any other).
   */
  private relearnSides(state: GameState, m: ClockTimesMessage, at: number): void {
    if (this.sides.fixed) return;
    const ran = state.status === 'running' ? Math.max(0, at - state.asOf) : 0;
    const engine = (side: Side) => state.remainingMs[side] - (state.toMove === side ? ran : 0);
    const apart = (white: ClockSideName) => Math.abs(m[white].ms - engine('white')) + Math.abs(m[other(white)].ms - engine('black'));
    const current = this.sides.white;
    if (apart(other(current)) < apart(current)) this.sides.learn(other(current));
    this.expected = this.sides.clockSide(state.toMove);
  }

  /**
   * The clock cannot be heard (the board unplugged or silent): the engine is told at once, so that no flag
   * falls from its guess, and the next reading resyncs it (`resync`). Before the game nothing is told.
   */
  lost(at: number, detail: string | undefined): void {
    if (!this.started || this.unreachable) return;
    this.unreachable = true;
    this.out.event({ type: 'clockUnreachable', at, by: this.actor, ...(detail ? { detail } : {}) });
  }

  /**
   * The first reading after the clock was unreachable: the presses it counted meanwhile, worked out from
   * its times against the engine's state (pressesWhileUnreachable), come as presses at this instant (the
   * last with the reading), then the reading itself; a count its times cannot give leaves the lever's
   * press alone and says so (`uncounted`).
   */
  private resync(m: ClockTimesMessage, at: number): void {
    this.unreachable = false;
    const reading = this.sides.reading(m);
    const toMove = this.sides.colour(m.runningSide === 'none' ? m.leverHigh : m.runningSide);
    const engine = this.engine;
    const first = engine?.toMove ?? this.sides.colour(this.expected === 'none' ? m.leverHigh : this.expected);
    const timeControl = this.timeControl();
    const counted = engine && timeControl ? pressesWhileUnreachable({ timeControl }, engine, reading, toMove, at) : undefined;
    const total = counted ? counted.white + counted.black : toMove === first ? 0 : 1;
    for (let i = 0, side = first; i < total; i++, side = otherSide(side)) {
      this.out.event({ type: 'press', side, at, by: this.actor, unseen: true, ...(i === total - 1 ? { reading } : {}) });
      this.onPress(side);
    }
    this.out.event({ type: 'clockReading', reading, toMove, at, by: this.actor, ...(counted ? {} : { uncounted: true }) });
    this.expected = m.running ? m.runningSide : this.sides.clockSide(toMove);
  }

  /** A new game on this board: the next time the clock starts is a `start` again. */
  newGame(): void {
    this.started = false;
    this.resumed = undefined;
    this.paused = false;
    this.expected = 'none';
    this.flagged.left = this.flagged.right = false;
  }

  /**
   * Why a reading is not to be followed, or undefined: all six time bytes zero without a flag, a flag
   * newly set on a side whose time could not have reached zero, or a side's time jumping by more than
   * the time since the last reading (down) or the largest bonus (up), plus the display's resolution.
   * A jump that the next reading confirms is the clock really set by hand: followed from then on.
   */
  private implausible(m: ClockTimesMessage, at: number): string | undefined {
    const flagged = (side: ClockSideName) => m[side].flag || m[side].finalFlag;
    if (m.left.ms === 0 && m.right.ms === 0 && !flagged('left') && !flagged('right')) return 'both times 0:00:00 without a flag';
    const last = this.lastRaw;
    // Before the game the arbiter sets the clock: any time is fine then.
    if (!last || !this.started) return undefined;
    const elapsed = Math.max(0, at - last.at) + READING_SLACK_MS;
    for (const side of ['left', 'right'] as const) {
      if (flagged(side) && !this.flagged[side] && m[side].ms > 0 && last.m[side].ms > elapsed) {
        return `a flag on the ${side} side showing ${formatMs(m[side].ms)}`;
      }
      const drop = last.m[side].ms - m[side].ms;
      const rise = -drop;
      if (drop > elapsed || rise > this.maxBonusMs + READING_SLACK_MS) {
        const confirmed = this.suspect && Math.abs(this.suspect[side].ms - m[side].ms) <= elapsed;
        if (!confirmed) return `the ${side} side jumped from ${formatMs(last.m[side].ms)} to ${formatMs(m[side].ms)} in ${at - last.at} ms`;
      }
    }
    return undefined;
  }

  clock(m: ClockTimesMessage, at: number): void {
    const why = this.implausible(m, at);
    if (why) {
      if (!this.suspect) this.out.arbiterCall(at, `DGT clock reading not followed: ${why}`);
      this.suspect = m;
      return;
    }
    this.suspect = undefined;
    this.lastRaw = { m, at };
    this.take(m, at);
  }

  private take(m: ClockTimesMessage, at: number): void {
    const by = this.actor;
    if (this.resumed) {
      this.relearnSides(this.resumed, m, at);
      this.resumed = undefined;
    }
    if (!this.started && m.running) {
      // White's clock is the one that starts a game.
      if (!this.sides.fixed) this.sides.learn(m.runningSide === 'none' ? this.sides.white : m.runningSide);
      this.started = true;
      this.expected = m.runningSide;
      this.out.event({ type: 'start', at, by });
    } else if (this.started) {
      if (this.unreachable) this.resync(m, at);
      const finalFlag = m.left.finalFlag || m.right.finalFlag;
      if (m.running) {
        if (this.paused) {
          this.paused = false;
          this.out.event({ type: 'resume', at, by });
        }
        if (m.runningSide !== this.expected && this.expected !== 'none') {
          const side = this.sides.colour(this.expected);
          this.out.event({ type: 'press', side, reading: this.sides.reading(m), at, by });
          this.onPress(side);
        }
        this.expected = m.runningSide;
      } else {
        if (!this.paused && !finalFlag) {
          this.paused = true;
          this.out.event({ type: 'pause', reason: 'stopped on the DGT clock', at, by });
        }
        if (this.lastLever !== undefined && m.leverHigh !== this.lastLever) {
          // Not a press: the clock decides on resume which side runs, and a changed side then is one.
          this.out.arbiterCall(at, `lever pressed on the ${this.lastLever} side while the clock was stopped`);
        }
      }
    }
    this.lastLever = m.leverHigh;
    for (const side of ['left', 'right'] as const) {
      if ((m[side].flag || m[side].finalFlag) && !this.flagged[side]) {
        this.flagged[side] = true;
        if (this.started) this.out.event({ type: 'flag', side: this.sides.colour(side), at, by });
      }
    }
    this.last = {
      reading: this.sides.reading(m),
      at,
      running: m.runningSide === 'none' ? 'none' : this.sides.colour(m.runningSide),
    };
  }

  /**
   * Compares the engine with the clock's latest reading. The clock shows whole seconds, so the engine's
   * time at the reading's instant may be up to a second off; more than that is an alert.
   */
  compare(state: GameState, toleranceMs = 1000): ClockAlert | undefined {
    const last = this.last;
    // An unheard clock has no reading to compare: its next one resyncs the engine.
    if (!last || state.status === 'waiting' || this.unreachable) return undefined;
    for (const side of ['white', 'black'] as const) {
      const runs = state.status === 'running' && state.toMove === side;
      const engineMs = state.remainingMs[side] - (runs ? last.at - state.asOf : 0);
      const diff = Math.abs(engineMs - last.reading[side]);
      if (diff > toleranceMs) {
        return {
          code: 'clock-disagrees',
          side,
          at: last.at,
          message: `${side}: DGT clock shows ${formatMs(last.reading[side])}, engine has ${formatMs(engineMs)} (${diff} ms apart)`,
        };
      }
    }
    return undefined;
  }
}

export function formatMs(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

export interface HostDisplay {
  readonly leftMs: number;
  readonly rightMs: number;
  readonly run: ClockSideName | 'pause';
}

/** Host role: what to send for an engine state, and which lever changes are presses. */
export class HostClock {
  private shown: { status: GameState['status']; toMove: Side } | undefined;
  private lastLever: ClockSideName | undefined;

  constructor(
    private readonly sides: SideMap,
    private readonly actor: EventActor,
    private readonly out: RoleOutput,
    private readonly onPress: (side: Side) => void = () => {},
  ) {}

  /** The engine's latest state: whose lever press is expected. */
  follow(state: GameState): void {
    this.shown = { status: state.status, toMove: state.toMove };
  }

  /** The engine's times at `now` for the clock's two displays. */
  display(state: GameState, now: number): HostDisplay {
    const running = state.status === 'running';
    const at = (side: Side) => state.remainingMs[side] - (running && state.toMove === side ? Math.max(0, now - state.asOf) : 0);
    const white = this.sides.white;
    return {
      leftMs: Math.max(0, white === 'left' ? at('white') : at('black')),
      rightMs: Math.max(0, white === 'right' ? at('white') : at('black')),
      run: running ? this.sides.clockSide(state.toMove) : 'pause',
    };
  }

  clock(m: ClockTimesMessage, at: number): void {
    const before = this.lastLever;
    this.lastLever = m.leverHigh;
    if (before === undefined || before === m.leverHigh) return;
    // The side that was up has been pressed down.
    const side = this.sides.colour(before);
    if (this.shown?.status === 'running' && this.shown.toMove === side) {
      this.shown = { ...this.shown, toMove: side === 'white' ? 'black' : 'white' };
      this.out.event({ type: 'press', side, at, by: this.actor });
      this.onPress(side);
    } else if (this.shown?.status !== 'running') {
      this.out.arbiterCall(at, `lever pressed on the ${before} side while the game's clock is not running`);
    }
  }
}
