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

/**
 * The one clock of the console's actor system: `now()` and the timers (XState's `clock` option) on the
 * same time scale, so a timer set for `ms` fires when `now()` has moved `ms` on.
 */
export interface HallClock extends MonotonicSource {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** A real clock starting at `startAt`, `scale` times faster than real time; timers do not keep the process alive. */
export function realClock(startAt: number, scale = 1): HallClock {
  const source = scaledSource(startAt, scale);
  return {
    scale,
    now: () => source.now(),
    setTimeout(callback, ms) {
      const timer = setTimeout(callback, Math.max(0, ms) / scale);
      timer.unref();
      return timer;
    },
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
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

/**
 * A clock that moves only when told to: tests and benchmarks assert exact values with it. Moving it runs
 * every timer that falls due on the way, each at its own instant (`now()` reads that instant inside the
 * callback), including timers those callbacks set, as real time would.
 */
export interface ManualSource extends HallClock {
  advance(ms: number): number;
  set(ms: number): number;
}

export function manualSource(startAt = 0): ManualSource {
  let t = startAt;
  let nextId = 0;
  const timers = new Map<number, { dueAt: number; order: number; callback: () => void }>();
  const runUntil = (target: number): number => {
    for (;;) {
      let due: [number, { dueAt: number; order: number; callback: () => void }] | undefined;
      for (const entry of timers) {
        if (entry[1].dueAt > target) continue;
        if (!due || entry[1].dueAt < due[1].dueAt || (entry[1].dueAt === due[1].dueAt && entry[1].order < due[1].order)) due = entry;
      }
      if (!due) break;
      timers.delete(due[0]);
      t = Math.max(t, due[1].dueAt);
      due[1].callback();
    }
    t = target;
    return t;
  };
  return {
    scale: 1,
    now: () => t,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { dueAt: t + Math.max(0, Math.ceil(ms)), order: id, callback });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
    advance(ms) {
      if (!Number.isInteger(ms) || ms < 0) throw new Error(`advance needs a non-negative integer, got ${ms}`);
      return runUntil(t + ms);
    },
    set(ms) {
      if (!Number.isInteger(ms) || ms < t) throw new Error(`time cannot go back from ${t} to ${ms}`);
      return runUntil(ms);
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
