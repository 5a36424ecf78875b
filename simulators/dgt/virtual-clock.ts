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
  private expiry: unknown;
  readonly incrementMs: number;
  /** Text on the display (DGT 3000 ASCII / XL segments), or undefined when it shows the times. */
  text: string | undefined;

  constructor(private readonly options: VirtualClockOptions) {
    this.ms = { left: options.leftMs ?? 300_000, right: options.rightMs ?? 300_000 };
    this.incrementMs = options.incrementMs ?? 0;
    this.leverUp = options.leverHigh ?? 'left';
    this.since = options.scheduler.now();
  }

  get leverHigh(): ClockSide {
    return this.leverUp;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The side counting down, if any. */
  get runningSide(): ClockSide | undefined {
    return this.running ? this.leverUp : undefined;
  }

  side(side: ClockSide): ClockSideState {
    const elapsed = this.running && side === this.leverUp ? this.options.scheduler.now() - this.since : 0;
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
    if (this.running) this.ms[side] += this.incrementMs;
    this.leverUp = other(side);
    this.changed();
    return true;
  }

  /** Set-and-run from the host: both times and what runs (the lever is not moved by software). */
  setAndRun(leftMs: number, rightMs: number, run: ClockSide | 'pause'): void {
    this.settle();
    this.ms.left = leftMs;
    this.ms.right = rightMs;
    this.finalFlag.left = this.finalFlag.right = false;
    this.running = run !== 'pause';
    if (run !== 'pause') this.leverUp = run;
    this.changed();
  }

  /** Fault: the running side's time is gone now (a flag fall without waiting for it). */
  expire(side: ClockSide): void {
    this.settle();
    this.ms[side] = 0;
    if (this.running && this.leverUp === side) this.flagFell(side);
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
    if (this.running) this.ms[this.leverUp] = Math.max(0, this.ms[this.leverUp] - (now - this.since));
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
      const side = this.leverUp;
      this.expiry = this.options.scheduler.setTimeout(() => {
        this.expiry = undefined;
        this.flagFell(side);
      }, this.ms[side]);
    }
    this.options.onChange?.();
  }
}
