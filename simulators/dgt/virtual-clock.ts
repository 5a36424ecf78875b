// A DGT XL / DGT 3000 as the board sees it: two displays, a lever, start/stop, flags, and the
// set-and-run command. Times are computed from the scheduler's `now()` at every reading, never by
// counting ticks.
import type { Scheduler } from '../../device-bridge/index.ts';

export type ClockSide = 'left' | 'right';
export type ClockModel = 'dgt3000' | 'xl' | 'none';

export interface VirtualClockOptions {
  readonly scheduler: Scheduler;
  readonly leftMs?: number;
  readonly rightMs?: number;
  /** Fischer increment credited to the side that presses (time-per-move indicator on). */
  readonly incrementMs?: number;
  /**
   * A two-period mode (a DGT 3000's "40 moves in 90 min, then 30 min"): the clock counts each side's
   * presses and adds `addMs` to a side at its `moves`-th press.
   */
  readonly nextPeriod?: { readonly moves: number; readonly addMs: number };
  /** Side whose lever is up at power-on (that clock runs on start). */
  readonly leverHigh?: ClockSide;
  /** Called whenever something the clock reports changed (press, start/stop, flag, set). */
  readonly onChange?: () => void;
}

export interface ClockSideState {
  readonly ms: number;
  readonly flag: boolean;
  readonly finalFlag: boolean;
}

const other = (side: ClockSide): ClockSide => (side === 'left' ? 'right' : 'left');

export class VirtualClock {
  private readonly ms: Record<ClockSide, number>;
  private readonly finalFlag: Record<ClockSide, boolean> = { left: false, right: false };
  private since: number;
  private running = false;
  private leverUp: ClockSide;
  /** The side that counts down while running: the lever's side until the host sets it. */
  private runs: ClockSide;
  /**
   * Whether a lever press switches the running clock. A clock on its own does; after a set-and-run
   * without "toggle at lever" (run byte bit 3) the host decides who runs and the lever is only an input.
   */
  private leverToggles = true;
  private expiry: unknown;
  readonly incrementMs: number;
  /** Presses each side made while the clock ran (the DGT 3000's move counter). */
  private readonly counted: Record<ClockSide, number> = { left: 0, right: 0 };
  /** Text on the display (DGT 3000 ASCII / XL segments), or undefined when it shows the times. */
  text: string | undefined;

  constructor(private readonly options: VirtualClockOptions) {
    this.ms = { left: options.leftMs ?? 300_000, right: options.rightMs ?? 300_000 };
    this.incrementMs = options.incrementMs ?? 0;
    this.leverUp = options.leverHigh ?? 'left';
    this.runs = this.leverUp;
    this.since = options.scheduler.now();
  }

  get leverHigh(): ClockSide {
    return this.leverUp;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The side that counts down when the clock runs. */
  get turn(): ClockSide {
    return this.runs;
  }

  /** The side counting down, if any. */
  get runningSide(): ClockSide | undefined {
    return this.running ? this.runs : undefined;
  }

  /** The presses the clock counted on `side` (its move counter). */
  moves(side: ClockSide): number {
    return this.counted[side];
  }

  side(side: ClockSide): ClockSideState {
    const elapsed = this.running && side === this.runs ? this.options.scheduler.now() - this.since : 0;
    return { ms: Math.max(0, this.ms[side] - elapsed), flag: false, finalFlag: this.finalFlag[side] };
  }

  /** The start/stop button. */
  startStop(): void {
    if (this.finalFlag.left || this.finalFlag.right) return;
    this.settle();
    this.running = !this.running;
    this.changed();
  }

  /** The player on `side` presses their half of the lever (only possible when it is up). */
  press(side: ClockSide): boolean {
    if (this.leverUp !== side || this.finalFlag.left || this.finalFlag.right) return false;
    this.settle();
    this.leverUp = other(side);
    if (this.leverToggles) {
      if (this.running) {
        this.ms[side] += this.incrementMs;
        this.counted[side]++;
        if (this.counted[side] === this.options.nextPeriod?.moves) this.ms[side] += this.options.nextPeriod.addMs;
      }
      this.runs = this.leverUp;
    }
    this.changed();
    return true;
  }

  /**
   * Set-and-run from the host: both times and which side runs. The lever is physical: software never
   * moves it, so a set-and-run racing a press cannot look like another press. Without `toggleAtLever`
   * the clock no longer switches sides at the lever (the host answers each press with a set-and-run).
   */
  setAndRun(leftMs: number, rightMs: number, run: ClockSide | 'pause', toggleAtLever = false): void {
    this.settle();
    this.ms.left = leftMs;
    this.ms.right = rightMs;
    this.finalFlag.left = this.finalFlag.right = false;
    this.running = run !== 'pause';
    if (run !== 'pause') this.runs = run;
    this.leverToggles = toggleAtLever;
    this.changed();
  }

  /** Fault: the running side's time is gone now (a flag fall without waiting for it). */
  expire(side: ClockSide): void {
    this.settle();
    this.ms[side] = 0;
    if (this.running && this.runs === side) this.flagFell(side);
    else {
      this.finalFlag[side] = true;
      this.changed();
    }
  }

  dispose(): void {
    if (this.expiry !== undefined) this.options.scheduler.clearTimeout(this.expiry);
    this.expiry = undefined;
  }

  private settle(): void {
    const now = this.options.scheduler.now();
    if (this.running) this.ms[this.runs] = Math.max(0, this.ms[this.runs] - (now - this.since));
    this.since = now;
  }

  private flagFell(side: ClockSide): void {
    this.settle();
    this.ms[side] = 0;
    this.finalFlag[side] = true;
    this.running = false;
    this.changed();
  }

  private changed(): void {
    this.dispose();
    if (this.running) {
      const side = this.runs;
      this.expiry = this.options.scheduler.setTimeout(() => {
        this.expiry = undefined;
        this.flagFell(side);
      }, this.ms[side]);
    }
    this.options.onChange?.();
  }
}
