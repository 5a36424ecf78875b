// Keeps credential checks from starving the console. scrypt runs on libuv's thread pool, which also
// reads files and resolves names: a flood of wrong tokens must not take all of it. So at most
// `concurrent` checks run at once, a bounded number wait, each address has one check in flight at a
// time, and an address that failed `maxFailures` times in `failureWindowMs` is turned away unchecked.

export interface LoginGateOptions {
  /** scrypt checks at once (libuv has 4 threads by default). Default 2. */
  readonly concurrent?: number;
  /** Checks waiting for a slot; beyond it a hello is answered `busy` at once. Default 64. */
  readonly queued?: number;
  /** Wrong tokens per address in the window before it is locked out. Default 10. */
  readonly maxFailures?: number;
  readonly failureWindowMs?: number;
  /** Real time (ms); injected in tests. */
  readonly now?: () => number;
}

import type { Arbiter } from '../contract/index.ts';
import type { Credentials } from '../team/index.ts';

export type GateRefusal = { readonly code: 'busy' | 'locked-out'; readonly reason: string };

/**
 * The arbiter a token names, as a WebSocket hello and the import route both ask it: at once when the
 * token was accepted before, the gate's refusal when it turns the address away, else the check through
 * the gate (undefined: not a valid token).
 */
export function arbiterOfToken(
  credentials: Credentials,
  gate: LoginGate,
  address: string,
  token: string,
): Arbiter | GateRefusal | Promise<Arbiter | undefined> {
  const known = credentials.known(token);
  if (known) return known;
  const refusal = gate.refusal(address);
  if (refusal) return refusal;
  return gate.run(
    address,
    () => credentials.verify(token),
    (a) => a !== undefined,
  );
}

export class LoginGate {
  readonly concurrent: number;
  readonly queued: number;
  readonly maxFailures: number;
  readonly failureWindowMs: number;
  readonly #now: () => number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #inFlight = new Set<string>();
  readonly #failures = new Map<string, number[]>();

  constructor(options: LoginGateOptions = {}) {
    this.concurrent = options.concurrent ?? 2;
    this.queued = options.queued ?? 64;
    this.maxFailures = options.maxFailures ?? 10;
    this.failureWindowMs = options.failureWindowMs ?? 60_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Checks running now (for tests and /health). */
  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Why `address` may not have a check now, or undefined. */
  refusal(address: string): GateRefusal | undefined {
    const failures = this.#recentFailures(address);
    if (failures.length >= this.maxFailures) {
      const retryS = Math.ceil((failures[0]! + this.failureWindowMs - this.#now()) / 1000);
      return { code: 'locked-out', reason: `${failures.length} wrong tokens from ${address}: try again in ${retryS} s` };
    }
    if (this.#inFlight.has(address)) return { code: 'busy', reason: 'a token from this address is being checked; wait for its answer' };
    if (this.#running >= this.concurrent && this.#waiting.length >= this.queued)
      return { code: 'busy', reason: 'too many logins at once; try again in a moment' };
    return undefined;
  }

  /**
   * Runs `check` when a slot is free; `ok(result)` tells whether it was a good token (a bad one counts
   * against the address). Call `refusal` first: `run` assumes it said yes.
   */
  async run<T>(address: string, check: () => Promise<T>, ok: (result: T) => boolean): Promise<T> {
    this.#inFlight.add(address);
    try {
      if (this.#running >= this.concurrent) await new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.#running += 1;
      try {
        const result = await check();
        if (!ok(result)) this.#fail(address);
        return result;
      } finally {
        this.#running -= 1;
        this.#waiting.shift()?.();
      }
    } finally {
      this.#inFlight.delete(address);
    }
  }

  #fail(address: string): void {
    const list = this.#recentFailures(address);
    list.push(this.#now());
    this.#failures.set(address, list);
    // Addresses that stopped trying are forgotten, so many of them cannot grow the map for good.
    if (this.#failures.size > 1024) for (const a of [...this.#failures.keys()]) this.#recentFailures(a);
  }

  #recentFailures(address: string): number[] {
    const since = this.#now() - this.failureWindowMs;
    const list = (this.#failures.get(address) ?? []).filter((t) => t > since);
    if (list.length === 0) this.#failures.delete(address);
    else this.#failures.set(address, list);
    return list;
  }
}
