// The login gate: a token is checked on the event loop in microseconds (a keyed SHA-256, team/credentials.ts),
// so a real token is answered at once and a wrong one turned away at once, whatever the flood, from 1
// address or 10,000; an address with too many wrong tokens is locked out.
//
// What still costs scrypt: the tokens of credentials whose hashes an earlier version stored as scrypt,
// until their first login rewrites them. scrypt runs on libuv's thread pool, which also reads files and
// resolves names, so for those at most `concurrent` checks run at once, a bounded number wait, each
// address has one check in flight at a time (so the queue goes round the addresses). A scrypt hash
// with a fingerprint screens guesses without scrypt, and a token whose fingerprint matches is checked
// next, ahead of anything queued, and is never told `busy` or `locked-out` (its address may be a NAT it
// shares with an attacker). Queueing fairly per address instead (round-robin) would still put a new
// address behind one scrypt per attacking address: 2,500 addresses × 50 ms is a minute.

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
 * The arbiter a token names, as a WebSocket hello and the import route both ask it: at once when its
 * hash says so (a valid token is never refused, from whatever address), the gate's refusal when it
 * turns the address away, else undefined for a wrong token (at once) or the scrypt check of a hash an
 * earlier version stored, through the gate.
 */
export function arbiterOfToken(
  credentials: Credentials,
  gate: LoginGate,
  address: string,
  token: string,
): Arbiter | GateRefusal | Promise<Arbiter | undefined> {
  const checked = credentials.check(token);
  if (checked.kind === 'valid') return checked.arbiter;
  const verify = () => credentials.verifyScrypt(token);
  const valid = (a: Arbiter | undefined) => a !== undefined;
  if (checked.kind === 'scrypt' && checked.screened) return gate.runFirst(token, address, verify, valid);
  const refusal = gate.refusal(address);
  if (refusal) return refusal;
  if (checked.kind === 'wrong') {
    gate.turnAway(address);
    return Promise.resolve(undefined);
  }
  return gate.run(address, verify, valid);
}

/** The failure lists are swept once they pass this many addresses, and again each time they double. */
const SWEEP_FROM = 1024;

export class LoginGate {
  readonly concurrent: number;
  readonly queued: number;
  readonly maxFailures: number;
  readonly failureWindowMs: number;
  readonly #now: () => number;
  #running = 0;
  /** scrypt checks of tokens whose fingerprint matched: served before `#waiting`. */
  readonly #first: (() => void)[] = [];
  readonly #waiting: (() => void)[] = [];
  readonly #inFlight = new Set<string>();
  /** The checks of matching tokens under way, by token: the team's tablets logging in at once with one token share one. */
  readonly #firstInFlight = new Map<string, Promise<unknown>>();
  readonly #failures = new Map<string, number[]>();
  #sweepAt = SWEEP_FROM;
  #checks = 0;
  #turnedAway = 0;

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
    return this.#first.length + this.#waiting.length;
  }

  /** scrypt checks started since start. */
  get checks(): number {
    return this.#checks;
  }

  /** Wrong tokens turned away at once, without scrypt. */
  get turnedAway(): number {
    return this.#turnedAway;
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

  /** A wrong token told at once: it counts against the address as a failed scrypt check does. */
  turnAway(address: string): void {
    this.#turnedAway += 1;
    this.#fail(address);
  }

  /**
   * Runs `check` when a slot is free; `ok(result)` tells whether it was a good token (a bad one counts
   * against the address). Call `refusal` first: `run` assumes it said yes.
   */
  async run<T>(address: string, check: () => Promise<T>, ok: (result: T) => boolean): Promise<T> {
    this.#inFlight.add(address);
    try {
      return await this.#check(this.#waiting, address, check, ok);
    } finally {
      this.#inFlight.delete(address);
    }
  }

  /**
   * Runs the scrypt check of a token whose fingerprint matched at the next free slot, before every check
   * waiting: at most `concurrent` checks stand in front of it, whatever the flood. A check of the same
   * `token` already under way is shared, not run again.
   */
  runFirst<T>(token: string, address: string, check: () => Promise<T>, ok: (result: T) => boolean): Promise<T> {
    const running = this.#firstInFlight.get(token) as Promise<T> | undefined;
    if (running) return running;
    const checked = this.#check(this.#first, address, check, ok).finally(() => this.#firstInFlight.delete(token));
    this.#firstInFlight.set(token, checked);
    return checked;
  }

  async #check<T>(queue: (() => void)[], address: string, check: () => Promise<T>, ok: (result: T) => boolean): Promise<T> {
    if (this.#running >= this.concurrent) await new Promise<void>((resolve) => queue.push(resolve));
    this.#running += 1;
    this.#checks += 1;
    try {
      const result = await check();
      if (!ok(result)) this.#fail(address);
      return result;
    } finally {
      this.#running -= 1;
      (this.#first.shift() ?? this.#waiting.shift())?.();
    }
  }

  #fail(address: string): void {
    const list = this.#recentFailures(address);
    list.push(this.#now());
    this.#failures.set(address, list);
    // Addresses that stopped trying are forgotten, so many of them cannot grow the map for good; swept
    // when it doubles, so thousands of addresses cost a sweep now and then, not one per wrong token.
    if (this.#failures.size > this.#sweepAt) {
      for (const a of [...this.#failures.keys()]) this.#recentFailures(a);
      this.#sweepAt = Math.max(SWEEP_FROM, 2 * this.#failures.size);
    }
  }

  #recentFailures(address: string): number[] {
    const since = this.#now() - this.failureWindowMs;
    const list = (this.#failures.get(address) ?? []).filter((t) => t > since);
    if (list.length === 0) this.#failures.delete(address);
    else this.#failures.set(address, list);
    return list;
  }
}
