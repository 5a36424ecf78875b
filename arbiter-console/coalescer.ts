// Per-client delta coalescing: at most one delta per `intervalMs` (10 per second), except key
// events (flag, result, alert), which go at once. Real time here, not the round's clock: this is
// about how often a page is sent something.

export interface Pending {
  readonly boards: ReadonlySet<string>;
  readonly attention: boolean;
  readonly round: boolean;
}

export interface CoalescerTimers {
  now(): number;
  schedule(fn: () => void, ms: number): () => void;
}

export class Coalescer {
  #boards = new Set<string>();
  #attention = false;
  #round = false;
  #lastFlush = -Infinity;
  #cancel: (() => void) | undefined;

  constructor(
    readonly intervalMs: number,
    readonly timers: CoalescerTimers,
    readonly flush: (pending: Pending) => void,
  ) {}

  mark(boards: readonly string[], change: { key: boolean; attention: boolean; round: boolean }): void {
    for (const b of boards) this.#boards.add(b);
    this.#attention ||= change.attention;
    this.#round ||= change.round;
    if (change.key) return this.#flushNow();
    if (this.#cancel) return;
    const wait = this.#lastFlush + this.intervalMs - this.timers.now();
    if (wait <= 0) return this.#flushNow();
    this.#cancel = this.timers.schedule(() => {
      this.#cancel = undefined;
      this.#flushNow();
    }, wait);
  }

  #flushNow(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    if (this.#boards.size === 0 && !this.#attention && !this.#round) return;
    const pending: Pending = { boards: this.#boards, attention: this.#attention, round: this.#round };
    this.#boards = new Set();
    this.#attention = false;
    this.#round = false;
    this.#lastFlush = this.timers.now();
    this.flush(pending);
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
