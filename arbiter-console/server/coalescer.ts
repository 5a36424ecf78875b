// Per-client delta coalescing: at most `limit` ordinary deltas in any `windowMs` (10 per second), key
// events (flag, result, alert) at once. Under that rate every change goes out immediately; beyond it,
// changes wait for the next free slot and go out together, each board once with its latest state.
// Real time here, not the round's clock: this is about how often a page is sent something.
// A flush its receiver cannot take yet ('busy': the spectators' last delta still being handed out)
// keeps its changes here, gathered with the next ones, until the receiver says it is `ready`.

export interface Pending {
  readonly boards: ReadonlySet<string>;
  readonly attention: boolean;
  /** The boards whose attention items changed (the delta carries theirs, not the whole queue). */
  readonly attentionBoards: ReadonlySet<string>;
  readonly round: boolean;
}

export interface CoalescerTimers {
  now(): number;
  schedule(fn: () => void, ms: number): () => void;
}

export class Coalescer {
  #boards = new Set<string>();
  #attention = false;
  #attentionBoards = new Set<string>();
  #round = false;
  /** When the last `limit` ordinary deltas went out, oldest first. */
  readonly #sent: number[] = [];
  #cancel: (() => void) | undefined;

  constructor(
    readonly timers: CoalescerTimers,
    /**
     * Sends the changes; `false`: sent to nobody (the spectators' stream with none), so it takes no slot;
     * `'busy'`: not taken, kept here until `ready()`.
     */
    readonly flush: (pending: Pending) => unknown,
    readonly limit = 10,
    readonly windowMs = 1000,
  ) {}

  mark(boards: readonly string[], change: { key: boolean; attention: boolean; attentionBoards: readonly string[]; round: boolean }): void {
    for (const b of boards) this.#boards.add(b);
    for (const b of change.attentionBoards) this.#attentionBoards.add(b);
    this.#attention ||= change.attention;
    this.#round ||= change.round;
    if (change.key) return this.#flushNow(false);
    if (this.#cancel) return;
    const wait = this.#nextSlot() - this.timers.now();
    if (wait <= 0) return this.#flushNow(true);
    this.#cancel = this.timers.schedule(() => {
      this.#cancel = undefined;
      this.#flushNow(true);
    }, wait);
  }

  /** When the next ordinary delta may go: now, or when the oldest of the last `limit` leaves the window. */
  #nextSlot(): number {
    if (this.#sent.length < this.limit) return -Infinity;
    return this.#sent[0]! + this.windowMs;
  }

  #flushNow(counted: boolean): void {
    this.#cancel?.();
    this.#cancel = undefined;
    if (this.#boards.size === 0 && !this.#attention && !this.#round) return;
    const pending: Pending = { boards: this.#boards, attention: this.#attention, attentionBoards: this.#attentionBoards, round: this.#round };
    this.#boards = new Set();
    this.#attention = false;
    this.#attentionBoards = new Set();
    this.#round = false;
    const sent = this.flush(pending);
    if (sent === 'busy') {
      this.#keep(pending);
      return;
    }
    if (sent !== false && counted) {
      this.#sent.push(this.timers.now());
      if (this.#sent.length > this.limit) this.#sent.shift();
    }
  }

  /** Changes the receiver did not take, back with any marked meanwhile. */
  #keep(pending: Pending): void {
    for (const b of pending.boards) this.#boards.add(b);
    for (const b of pending.attentionBoards) this.#attentionBoards.add(b);
    this.#attention ||= pending.attention;
    this.#round ||= pending.round;
  }

  /**
   * The receiver that said 'busy' takes again: what waited goes at once, whatever the rate (a slot
   * taken in between would send newer changes before it).
   */
  ready(): void {
    this.#flushNow(true);
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
