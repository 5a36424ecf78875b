// One message's writes to many sessions, a part of them a turn of the event loop: at 1,000 boards a
// new tournament view goes to hundreds of sockets, and handed to all of them in one turn it held every
// press in the hall for tens of ms (each socket is a write of its own). The first part goes at once, as
// before (a small audience gets everything in the turn of the change); the rest follow a part a turn,
// in order. A session's messages keep their order: the next message to the same audience first writes
// what is left of the previous one (`write`), and anything else sent to a session (a snapshot, the rest
// of its first screen) first writes its own queued one (`drainFor`), so an older message never lands
// after the newer state. (The spectators' deltas are handed out by time instead: broadcast.ts.)

export class WritesInTurns<K> {
  /** The writes still to make, one per session, in order. */
  #queue = new Map<K, () => void>();
  #turn: NodeJS.Immediate | undefined;

  constructor(
    /** Sessions written a turn. */
    readonly perTurn: number,
  ) {}

  /** What is left of the previous message first; then the first `perTurn` of these now, the rest a part a turn. */
  write(writes: Iterable<readonly [K, () => void]>): void {
    this.drain();
    for (const [key, write] of writes) this.#queue.set(key, write);
    this.#next();
  }

  /** Makes every queued write now. */
  drain(): void {
    this.#cancelTurn();
    const queue = this.#queue;
    this.#queue = new Map();
    for (const write of queue.values()) write();
  }

  /** Makes `key`'s queued write now, if it has one (before something else is sent to it). */
  drainFor(key: K): void {
    const write = this.#queue.get(key);
    if (!write) return;
    this.#queue.delete(key);
    if (this.#queue.size === 0) this.#cancelTurn();
    write();
  }

  /** Sessions whose write is still queued (tests, the bench). */
  get queued(): number {
    return this.#queue.size;
  }

  /** Drops what is queued (the server stops). */
  stop(): void {
    this.#cancelTurn();
    this.#queue = new Map();
  }

  #cancelTurn(): void {
    if (this.#turn) clearImmediate(this.#turn);
    this.#turn = undefined;
  }

  #next(): void {
    this.#turn = undefined;
    const part: (() => void)[] = [];
    for (const [key, write] of this.#queue) {
      if (part.length === this.perTurn) break;
      part.push(write);
      this.#queue.delete(key);
    }
    if (this.#queue.size > 0) this.#turn = setImmediate(() => this.#next());
    for (const write of part) write();
  }
}
