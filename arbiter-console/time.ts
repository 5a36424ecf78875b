// The console's clock: integer milliseconds from a monotonic source, optionally accelerated for demos.
// Across a restart the only bridge is the wall clock, so the journal keeps the wall time of its epoch
// and a restarted console continues from there (see docs/console.md, "Downtime").
import { performance } from 'node:perf_hooks';

export interface MonotonicSource {
  /** Integer ms; never goes backwards. */
  now(): number;
  /** Monotonic ms per real ms (1 in a real tournament; larger in an accelerated demo). */
  readonly scale: number;
}

/** A real monotonic source starting at `startAt`, running `scale` times faster than real time. */
export function scaledSource(startAt: number, scale = 1): MonotonicSource {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`time scale must be a positive number, got ${scale}`);
  const origin = performance.now();
  let last = startAt;
  return {
    scale,
    now() {
      const t = startAt + Math.floor((performance.now() - origin) * scale);
      last = Math.max(last, t);
      return last;
    },
  };
}

/** A source that moves only when told to: tests and benchmarks assert exact values with it. */
export interface ManualSource extends MonotonicSource {
  advance(ms: number): number;
  set(ms: number): number;
}

export function manualSource(startAt = 0): ManualSource {
  let t = startAt;
  return {
    scale: 1,
    now: () => t,
    advance(ms) {
      if (!Number.isInteger(ms) || ms < 0) throw new Error(`advance needs a non-negative integer, got ${ms}`);
      t += ms;
      return t;
    },
    set(ms) {
      if (!Number.isInteger(ms) || ms < t) throw new Error(`time cannot go back from ${t} to ${ms}`);
      t = ms;
      return t;
    },
  };
}

/**
 * Where a restarted console's monotonic time continues: the wall time since the journal's epoch,
 * scaled, but never before the last journaled event.
 */
export function resumeAt(epochWallMs: number, wallNowMs: number, scale: number, lastJournaledAt: number): number {
  return Math.max(lastJournaledAt, Math.floor((wallNowMs - epochWallMs) * scale));
}

/** Timers on the console's time scale, in the shape device bridges and simulators take (`Scheduler`). */
export function schedulerOf(source: MonotonicSource): {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
} {
  return {
    now: () => source.now(),
    setTimeout: (callback, ms) => setTimeout(callback, Math.max(0, ms) / source.scale),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
}
