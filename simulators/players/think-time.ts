// How long a virtual player thinks. Always whole milliseconds, drawn from a seeded `Random`.
import type { Random } from './random.ts';

export type ThinkTime =
  | { readonly kind: 'fixed'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly minMs: number; readonly maxMs: number }
  /**
   * Human-like: most moves quick, a long tail of deep thinks. `medianMs` is the typical move,
   * `sigma` the spread of ln(ms) (0.8–1.2 looks like real classical games); clamped to [minMs, maxMs].
   */
  | {
      readonly kind: 'lognormal';
      readonly medianMs: number;
      readonly sigma: number;
      readonly minMs?: number;
      readonly maxMs?: number;
    }
  /** Anything else: called once per move with the ply about to be played (0 = White's first move). */
  | { readonly kind: 'custom'; readonly draw: (random: Random, ply: number) => number };

export function drawThinkMs(thinkTime: ThinkTime, random: Random, ply: number): number {
  switch (thinkTime.kind) {
    case 'fixed':
      return wholeMs(thinkTime.ms);
    case 'uniform':
      return random.int(wholeMs(thinkTime.minMs), wholeMs(thinkTime.maxMs));
    case 'lognormal': {
      // Box–Muller; 1 - next() keeps the logarithm's argument in (0, 1].
      const u = 1 - random.next();
      const v = random.next();
      const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      const ms = Math.round(thinkTime.medianMs * Math.exp(thinkTime.sigma * normal));
      return Math.min(thinkTime.maxMs ?? Number.MAX_SAFE_INTEGER, Math.max(thinkTime.minMs ?? 0, ms));
    }
    case 'custom':
      return wholeMs(thinkTime.draw(random, ply));
  }
}

function wholeMs(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`think time must be a non-negative number of ms, got ${ms}`);
  return Math.round(ms);
}
