// Time for device code: a monotonic `now()` in integer ms and one-shot timers, injected so that tests
// run on a simulated clock and assert exact values. The shape is XState's `Clock` plus `now()`, the
// same as the simulators' schedulers, so one simulated clock can drive devices, simulators and engine.
import { performance } from 'node:perf_hooks';

export interface Scheduler {
  /** Monotonic integer milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export type CancelTimer = () => void;

/** Real time: `performance.now()` (monotonic) and Node timers. */
export const systemScheduler: Scheduler = {
  now: () => Math.floor(performance.now()),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

/** Sets a timer and returns the function that cancels it. */
export function after(scheduler: Scheduler, ms: number, callback: () => void): CancelTimer {
  const id = scheduler.setTimeout(callback, ms);
  return () => scheduler.clearTimeout(id);
}
