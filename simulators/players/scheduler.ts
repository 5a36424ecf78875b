// Time for simulations. A `Scheduler` is a monotonic millisecond source with timers. It has the shape of
// XState's `Clock` plus `now()`, so XState's `SimulatedClock` is one too and a simulated round can share a
// single clock between the engine's actors and the virtual players.

export interface Scheduler {
  /** Monotonic integer milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface ManualScheduler extends Scheduler {
  /** Moves time forward, firing each due timer in order with `now()` equal to its due time. */
  advanceBy(ms: number): void;
  /**
   * Fires timers (including ones they schedule) until none is left, or `limit` ms have passed. With a
   * periodic timer (a heartbeat) there is always one left: pass a limit or use `advanceBy`.
   */
  runAll(limit?: number): void;
  /** Timers still waiting. */
  readonly pending: number;
}

/** Simulated time that only moves when told to: exact and instant. */
export function createManualScheduler(startAt = 0): ManualScheduler {
  let now = startAt;
  let nextId = 1;
  const timers = new Map<number, { dueAt: number; callback: () => void }>();

  const nextDue = (): [number, { dueAt: number; callback: () => void }] | undefined => {
    let best: [number, { dueAt: number; callback: () => void }] | undefined;
    // Map iteration is insertion order, so timers due at the same instant fire in the order they were set.
    for (const entry of timers) if (!best || entry[1].dueAt < best[1].dueAt) best = entry;
    return best;
  };
  const fireUntil = (until: number): void => {
    for (let due = nextDue(); due && due[1].dueAt <= until; due = nextDue()) {
      timers.delete(due[0]);
      now = Math.max(now, due[1].dueAt);
      due[1].callback();
    }
    now = Math.max(now, until);
  };

  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      timers.set(id, { dueAt: now + Math.max(0, Math.round(ms)), callback });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id as number);
    },
    advanceBy(ms) {
      if (ms < 0) throw new RangeError('time only moves forward');
      fireUntil(now + ms);
    },
    runAll(limit = Number.MAX_SAFE_INTEGER) {
      const until = now + limit;
      for (let due = nextDue(); due && due[1].dueAt <= until; due = nextDue()) fireUntil(due[1].dueAt);
    },
    get pending() {
      return timers.size;
    },
  };
}

/**
 * Real time, optionally accelerated: with `speed` 10 a 30 s think takes 3 s of wall time, and `now()`
 * reports simulated milliseconds (wall-clock elapsed × speed) from `performance.now()`, never from
 * counted ticks.
 */
export function createRealTimeScheduler(
  options: {
    readonly speed?: number;
    readonly startAt?: number;
    /** The monotonic wall source in ms; default `performance.now`. */
    readonly monotonic?: () => number;
    /** The real timers; default Node's. */
    readonly timers?: { setTimeout(callback: () => void, ms: number): unknown; clearTimeout(id: unknown): void };
  } = {},
): Scheduler {
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`speed must be positive, got ${speed}`);
  const monotonic = options.monotonic ?? (() => performance.now());
  const timers = options.timers ?? {
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
  const origin = monotonic();
  const startAt = options.startAt ?? 0;
  return {
    now: () => startAt + Math.floor((monotonic() - origin) * speed),
    setTimeout: (callback, ms) => timers.setTimeout(callback, Math.max(0, ms) / speed),
    clearTimeout: (id) => timers.clearTimeout(id),
  };
}
