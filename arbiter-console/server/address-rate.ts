// The HTTP API's rate limit: a token bucket per remote address (docs/console.md, Security). One
// address looping on a feed is held to the rate and told when to come back (429, Retry-After); every
// other address keeps its own bucket, so it is served as before.

import { TokenBucket, type Rate } from './token-bucket.ts';

export type AddressRate = Rate;

/** Buckets kept before the full ones (addresses quiet long enough to be back at `burst`) are dropped. */
const SWEEP_FROM = 10_000;

export class AddressBuckets {
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(
    readonly rate: AddressRate,
    private readonly now: () => number,
  ) {}

  /** Takes one request's token from `address`: undefined if it may go on, else the seconds until it may (≥ 1). */
  take(address: string): number | undefined {
    const now = this.now();
    if (this.#buckets.size >= SWEEP_FROM) this.#sweep(now);
    let bucket = this.#buckets.get(address);
    if (!bucket) this.#buckets.set(address, (bucket = new TokenBucket(this.rate, now)));
    return bucket.take(now);
  }

  #sweep(now: number): void {
    for (const [address, bucket] of this.#buckets) if (bucket.fullAt(now)) this.#buckets.delete(address);
  }
}
