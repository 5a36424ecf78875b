// The HTTP API's rate limit: a token bucket per remote address (docs/console.md, Security). One
// address looping on a feed is held to the rate and told when to come back (429, Retry-After); every
// other address keeps its own bucket, so it is served as before.

export interface AddressRate {
  /** Tokens added per second: the requests an address may make per second for ever. */
  readonly perSecond: number;
  /** The bucket's size: the requests an address may make at once after a quiet spell. */
  readonly burst: number;
}

/** Buckets kept before the full ones (addresses quiet long enough to be back at `burst`) are dropped. */
const SWEEP_FROM = 10_000;

export class AddressBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly rate: AddressRate,
    private readonly now: () => number,
  ) {}

  /** Takes one request's token from `address`: undefined if it may go on, else the seconds until it may (≥ 1). */
  take(address: string): number | undefined {
    const now = this.now();
    if (this.#buckets.size >= SWEEP_FROM) this.#sweep(now);
    const bucket = this.#buckets.get(address) ?? { tokens: this.rate.burst, at: now };
    bucket.tokens = Math.min(this.rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond);
    bucket.at = now;
    this.#buckets.set(address, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate.perSecond));
  }

  #sweep(now: number): void {
    for (const [address, bucket] of this.#buckets)
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rate.perSecond >= this.rate.burst) this.#buckets.delete(address);
  }
}
