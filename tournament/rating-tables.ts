// FIDE rating-regulation tables (B.02 §8.1): p -> dp for TPR, rating difference -> expected score for PTP.

/** dp for p = 0.50 .. 1.00 in steps of 0.01 (index 0 = p 0.50). */
const dpFromHalf = [
  0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284,
  296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/** dp(p) for a fractional score p in 0..1, p looked up at two decimals rounded half up. */
export function dpFor(p: number): number {
  const hundredths = Math.round(p * 100 + 1e-9);
  if (hundredths < 0 || hundredths > 100) throw new RangeError(`fractional score ${p} is outside 0..1`);
  const above = hundredths >= 50 ? hundredths - 50 : 50 - hundredths;
  const dp = dpFromHalf[above] as number;
  return hundredths >= 50 ? dp : -dp;
}

/**
 * Upper bound of each rating-difference band and the higher-rated player's expected score in %
 * (B.02 8.1.2: 620-735 is .99, from 736 on 1.00), checked point by point against TieBreakServer's
 * table (tests/tournament/tiebreaks-reference.test.ts).
 */
const differenceBands: readonly (readonly [maxDifference: number, percent: number])[] = [
  [3, 50],
  [10, 51],
  [17, 52],
  [25, 53],
  [32, 54],
  [39, 55],
  [46, 56],
  [53, 57],
  [61, 58],
  [68, 59],
  [76, 60],
  [83, 61],
  [91, 62],
  [98, 63],
  [106, 64],
  [113, 65],
  [121, 66],
  [129, 67],
  [137, 68],
  [145, 69],
  [153, 70],
  [162, 71],
  [170, 72],
  [179, 73],
  [188, 74],
  [197, 75],
  [206, 76],
  [215, 77],
  [225, 78],
  [235, 79],
  [245, 80],
  [256, 81],
  [267, 82],
  [278, 83],
  [290, 84],
  [302, 85],
  [315, 86],
  [328, 87],
  [344, 88],
  [357, 89],
  [374, 90],
  [391, 91],
  [411, 92],
  [432, 93],
  [456, 94],
  [484, 95],
  [517, 96],
  [559, 97],
  [619, 98],
  [735, 99],
];

/** Expected score in hundredths of `rating` against `opponent` (full table, no 400-point cap). */
export function expectedScoreHundredths(rating: number, opponent: number): number {
  const difference = Math.abs(rating - opponent);
  const band = differenceBands.find(([max]) => difference <= max);
  const higher = band ? band[1] : 100;
  return rating >= opponent ? higher : 100 - higher;
}
