// Fixed-width signed integers in machine arithmetic, for the matcher's weights, duals and slacks.
// A BigInt addition allocates (~0.1–0.3 µs with its garbage), and the blossom search computes
// millions of slacks per round; here a number is L Float64 limbs of 48 bits, least significant
// first, in preallocated arrays (a number is the L slots from an offset), added and compared in
// place. Every limb operation is exact: limbs 0..L-2 lie in [0, 2^48) once normalised and the top
// limb holds the signed rest, so a sum of a few numbers stays far below 2^53 limb by limb, and a
// division by 2^48 (the carry) is exact in floating point. A normalised number has one
// representation, so comparing limbs from the top down compares the numbers.
// The caller keeps |values| < 2^capacityBits(L) (see WeightedGraph's layout).

const LIMB_BITS = 48;
const LIMB = 2 ** LIMB_BITS;
const HALF_LIMB = 2 ** (LIMB_BITS - 1);
const MASK = (1n << BigInt(LIMB_BITS)) - 1n;

/** The magnitude a number of L limbs may reach and still take a sum of three such and stay exact. */
export const capacityBits = (limbs: number): number => (limbs - 1) * LIMB_BITS + 48;

/** The limbs needed for magnitudes below 2^bits. */
export const limbsFor = (bits: number): number => Math.max(2, Math.ceil((bits - 48) / LIMB_BITS) + 1);

/** Carries limb overflows (and borrows) upwards: limbs below the top end in [0, 2^48). */
function normalise(a: Float64Array, at: number, limbs: number): void {
  const top = at + limbs - 1;
  for (let i = at; i < top; i += 1) {
    const x = a[i]!;
    if (x >= 0 && x < LIMB) continue;
    const carry = Math.floor(x / LIMB);
    a[i] = x - carry * LIMB;
    a[i + 1] = a[i + 1]! + carry;
  }
}

export function write(a: Float64Array, at: number, limbs: number, value: bigint): void {
  let x = value < 0n ? -value : value;
  for (let i = 0; i < limbs - 1; i += 1) {
    a[at + i] = x === 0n ? 0 : Number(x & MASK);
    if (x !== 0n) x >>= BigInt(LIMB_BITS);
  }
  a[at + limbs - 1] = Number(x);
  if (value < 0n) {
    for (let i = 0; i < limbs; i += 1) a[at + i] = -a[at + i]!;
    normalise(a, at, limbs);
  }
}

export function read(a: Float64Array, at: number, limbs: number): bigint {
  let x = BigInt(a[at + limbs - 1]!);
  for (let i = limbs - 2; i >= 0; i -= 1) x = (x << BigInt(LIMB_BITS)) + BigInt(a[at + i]!);
  return x;
}

/** Sign of a normalised number: -1, 0 or 1. */
export function sign(a: Float64Array, at: number, limbs: number): number {
  const top = a[at + limbs - 1]!;
  if (top !== 0) return top < 0 ? -1 : 1;
  for (let i = at + limbs - 2; i >= at; i -= 1) if (a[i] !== 0) return 1;
  return 0;
}

export function isZero(a: Float64Array, at: number, limbs: number): boolean {
  for (let i = at + limbs - 1; i >= at; i -= 1) if (a[i] !== 0) return false;
  return true;
}

/** Compares two normalised numbers: negative, 0 or positive as a <, =, > b. */
export function compare(a: Float64Array, at: number, b: Float64Array, bt: number, limbs: number): number {
  for (let i = limbs - 1; i >= 0; i -= 1) {
    const x = a[at + i]!;
    const y = b[bt + i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function copy(to: Float64Array, tt: number, from: Float64Array, ft: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = from[ft + i]!;
}

export function clear(a: Float64Array, at: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) a[at + i] = 0;
}

/** to += from (normalised). */
export function addTo(to: Float64Array, tt: number, from: Float64Array, ft: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = to[tt + i]! + from[ft + i]!;
  normalise(to, tt, limbs);
}

/** to -= from (normalised). */
export function subtractFrom(to: Float64Array, tt: number, from: Float64Array, ft: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = to[tt + i]! - from[ft + i]!;
  normalise(to, tt, limbs);
}

/** to = a + b - c (normalised): a slack. */
export function sumMinus(
  to: Float64Array,
  tt: number,
  a: Float64Array,
  at: number,
  b: Float64Array,
  bt: number,
  c: Float64Array,
  ct: number,
  limbs: number,
): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = a[at + i]! + b[bt + i]! - c[ct + i]!;
  normalise(to, tt, limbs);
}

/** to = a - b (normalised). */
export function difference(to: Float64Array, tt: number, a: Float64Array, at: number, b: Float64Array, bt: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = a[at + i]! - b[bt + i]!;
  normalise(to, tt, limbs);
}

/** to = 2 from (normalised). */
export function double(to: Float64Array, tt: number, from: Float64Array, ft: number, limbs: number): void {
  for (let i = 0; i < limbs; i += 1) to[tt + i] = 2 * from[ft + i]!;
  normalise(to, tt, limbs);
}

/** to = floor(from / 2) of a normalised number (exact for the even numbers the matcher halves). */
export function halve(to: Float64Array, tt: number, from: Float64Array, ft: number, limbs: number): void {
  let top = from[ft + limbs - 1]!;
  const half = Math.floor(top / 2);
  let carry = top - 2 * half; // 0 or 1
  to[tt + limbs - 1] = half;
  for (let i = limbs - 2; i >= 0; i -= 1) {
    top = from[ft + i]!;
    const x = carry * HALF_LIMB + Math.floor(top / 2);
    carry = top % 2;
    to[tt + i] = x;
  }
}

/** Whether a normalised number is even (the base is even, so limb 0 decides). */
export const isEven = (a: Float64Array, at: number): boolean => a[at]! % 2 === 0;
