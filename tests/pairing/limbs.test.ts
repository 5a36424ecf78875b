// The matcher's fixed-width arithmetic (tournament/dutch/limbs.ts) against BigInt, on random values
// and on the edges where it could go wrong: limbs at 0, 2^48 - 1 and 2^48 (carries and borrows
// through every limb), negative numbers, values near the width's capacity.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairingLimbs as limbs } from '../../tournament/internal.ts';

const width = 7;
const capacity = 1n << BigInt(limbs.capacityBits(width) - 2);

/** Values built limb by limb from the awkward ones, plus plain random ones, within ±capacity. */
const edgeLimb = fc.constantFrom(0n, 1n, (1n << 47n) - 1n, 1n << 47n, (1n << 48n) - 1n, (1n << 48n) - 2n);
const value = fc.oneof(
  fc.bigInt({ min: -capacity, max: capacity }),
  fc
    .tuple(fc.array(edgeLimb, { minLength: width - 1, maxLength: width - 1 }), fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }))
    .map(([low, top]) => low.reduce((x, limb, i) => x + (limb << BigInt(48 * i)), top << BigInt(48 * (width - 1))))
    .filter((x) => x <= capacity && x >= -capacity),
);

const number = (x: bigint, at = 0, into = new Float64Array(width * 2)): Float64Array => {
  limbs.write(into, at, width, x);
  return into;
};
const back = (a: Float64Array, at = 0): bigint => limbs.read(a, at, width);
const normalised = (a: Float64Array, at = 0): boolean => {
  for (let i = 0; i < width - 1; i += 1) if (!(a[at + i]! >= 0 && a[at + i]! < 2 ** 48 && Number.isInteger(a[at + i]))) return false;
  return Number.isInteger(a[at + width - 1]);
};

// Thousands of random values each: a second on a free core, far more with the cores shared.
describe('limbs: fixed-width integers in Float64 limbs', { timeout: 120_000 }, () => {
  it('writes and reads back any value, normalised', () => {
    fc.assert(
      fc.property(value, (x) => {
        const a = number(x, 3, new Float64Array(width + 5));
        expect(normalised(a, 3)).toBe(true);
        expect(back(a, 3)).toBe(x);
      }),
      { seed: 1, numRuns: 3000 },
    );
  });

  it('adds, subtracts, takes slacks (a + b - c), doubles and halves as BigInt does', () => {
    fc.assert(
      fc.property(value, value, value, (x, y, z) => {
        const a = number(x);
        const b = number(y);
        const c = number(z);
        const out = new Float64Array(width);
        limbs.sumMinus(out, 0, a, 0, b, 0, c, 0, width);
        expect(normalised(out)).toBe(true);
        expect(back(out)).toBe(x + y - z);
        limbs.difference(out, 0, a, 0, b, 0, width);
        expect(back(out)).toBe(x - y);
        const sum = number(x);
        limbs.addTo(sum, 0, b, 0, width);
        expect(back(sum)).toBe(x + y);
        limbs.subtractFrom(sum, 0, c, 0, width);
        expect(back(sum)).toBe(x + y - z);
        expect(normalised(sum)).toBe(true);
        limbs.double(out, 0, a, 0, width);
        expect(back(out)).toBe(2n * x);
        // The matcher halves even numbers only; floor for odd ones.
        limbs.halve(out, 0, a, 0, width);
        expect(back(out)).toBe(x >= 0n || x % 2n === 0n ? x / 2n : x / 2n - 1n);
        expect(normalised(out)).toBe(true);
        limbs.halve(out, 0, number(2n * x), 0, width);
        expect(back(out)).toBe(x);
        expect(limbs.isEven(a, 0)).toBe(x % 2n === 0n);
      }),
      { seed: 2, numRuns: 3000 },
    );
  });

  it('compares, signs and tests zero as BigInt does', () => {
    fc.assert(
      fc.property(value, value, (x, y) => {
        const a = number(x);
        const b = number(y);
        expect(Math.sign(limbs.compare(a, 0, b, 0, width))).toBe(x < y ? -1 : x > y ? 1 : 0);
        expect(limbs.compare(a, 0, number(x), 0, width)).toBe(0);
        expect(limbs.sign(a, 0, width)).toBe(x < 0n ? -1 : x > 0n ? 1 : 0);
        expect(limbs.isZero(a, 0, width)).toBe(x === 0n);
      }),
      { seed: 3, numRuns: 3000 },
    );
  });

  it('has room for the values it is sized for', () => {
    for (const bits of [1, 48, 49, 96, 97, 300, 650]) {
      const n = limbs.limbsFor(bits);
      expect(limbs.capacityBits(n)).toBeGreaterThanOrEqual(bits);
      const x = (1n << BigInt(bits)) - 1n;
      const a = new Float64Array(n);
      limbs.write(a, 0, n, -x);
      expect(limbs.read(a, 0, n)).toBe(-x);
    }
  });
});
