// A token bucket: `burst` requests at once after a quiet spell, `perSecond` for ever. The one rate-limit
// arithmetic of the server: a WebSocket connection's messages (client-session.ts) and an address's HTTP
// requests (address-rate.ts).

export interface Rate {
  /** Tokens added per second: the requests allowed per second for ever. */
  readonly perSecond: number;
  /** The bucket's size: the requests allowed at once after a quiet spell. */
  readonly burst: number;
}

export class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    readonly rate: Rate,
    now: number,
  ) {
    this.#tokens = rate.burst;
    this.#at = now;
  }

  /** Takes one token at `now` (ms): undefined if there was one, else the whole seconds until there is (≥ 1). */
  take(now: number): number | undefined {
    this.#tokens = this.#level(now);
    this.#at = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.rate.perSecond));
  }

  /** Whether the bucket is full again by `now`: nothing taken lately, so it may be forgotten. */
  fullAt(now: number): boolean {
    return this.#level(now) >= this.rate.burst;
  }

  #level(now: number): number {
    return Math.min(this.rate.burst, this.#tokens + ((now - this.#at) / 1000) * this.rate.perSecond);
  }
}
