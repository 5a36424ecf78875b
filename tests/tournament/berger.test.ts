import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bergerSchedule, roundRobinRounds } from '../../tournament/internal.ts';

// Research notes §4.1, the 10-player table (first-named player has White).
const table10 = [
  '1-10 2-9 3-8 4-7 5-6',
  '10-6 7-5 8-4 9-3 1-2',
  '2-10 3-1 4-9 5-8 6-7',
  '10-7 8-6 9-5 1-4 2-3',
  '3-10 4-2 5-1 6-9 7-8',
  '10-8 9-7 1-6 2-5 3-4',
  '4-10 5-3 6-2 7-1 8-9',
  '10-9 1-8 2-7 3-6 4-5',
  '5-10 6-4 7-3 8-2 9-1',
];
const printed = (players: number, cycles: 1 | 2 = 1): string[] =>
  bergerSchedule(players, { cycles }).map((r) => r.games.map((g) => `${g.white}-${g.black}`).join(' '));

/** The closed form of research §4.2, independent of the rotation. */
function closedForm(n: number, i: number, j: number): { round: number; white: number } {
  const N = n % 2 === 0 ? n : n + 1;
  const M = N - 1;
  const mod = (x: number): number => ((((x - 1) % M) + M) % M) + 1;
  if (j === N) return { round: mod(2 * i - 1), white: i <= N / 2 ? i : N };
  const [lo, hi] = i < j ? [i, j] : [j, i];
  return { round: mod(lo + hi - 1), white: (lo + hi) % 2 === 1 ? lo : hi };
}

describe('Berger tables', () => {
  it('prints the 10-player FIDE table', () => {
    expect(printed(10)).toEqual(table10);
  });

  it('uses the 10-player table for 9 players with number 10 as the bye', () => {
    const nine = bergerSchedule(9);
    expect(nine.map((r) => r.bye)).toEqual([1, 6, 2, 7, 3, 8, 4, 9, 5]);
    expect(nine.map((r) => r.games.map((g) => `${g.white}-${g.black}`).join(' '))).toEqual(
      table10.map((row) =>
        row
          .split(' ')
          .filter((g) => !g.split('-').includes('10'))
          .join(' '),
      ),
    );
  });

  it('gives players 1-5 five Whites and 6-10 four; player 1 starts W W, player 6 B B', () => {
    const colours = (p: number): string =>
      bergerSchedule(10)
        .map((r) => (r.games.some((g) => g.white === p) ? 'W' : 'B'))
        .join('');
    expect(colours(1)).toBe('WWBWBWBWB');
    expect(colours(6)).toBe('BBWBWBWBW');
    expect(colours(10)).toBe('BWBWBWBWB');
  });

  it('double round robin: second cycle reversed, last two rounds of the first swapped', () => {
    const double = printed(10, 2);
    expect(double).toHaveLength(18);
    expect(double.slice(0, 7)).toEqual(table10.slice(0, 7));
    expect(double[7]).toBe(table10[8]);
    expect(double[8]).toBe(table10[7]);
    const reversed = (row: string): string =>
      row
        .split(' ')
        .map((g) => g.split('-').reverse().join('-'))
        .join(' ');
    expect(double.slice(9)).toEqual(table10.map(reversed));
    // Nobody has three games in a row with the same colour across the cycle boundary.
    for (let p = 1; p <= 10; p += 1) {
      const colours = bergerSchedule(10, { cycles: 2 })
        .map((r) => (r.games.some((g) => g.white === p) ? 'W' : 'B'))
        .join('');
      expect(colours, `player ${p}`).not.toMatch(/WWW|BBB/);
    }
  });

  it('rejects fewer than two players', () => {
    expect(() => bergerSchedule(1)).toThrow(/at least 2 players/);
  });

  it('property: every pair meets exactly once per cycle, once per round, colours as the tables say', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.constantFrom<1 | 2>(1, 2), (n, cycles) => {
        const rounds = bergerSchedule(n, { cycles });
        expect(rounds).toHaveLength(roundRobinRounds(n, cycles));
        const N = n % 2 === 0 ? n : n + 1;
        const meetings = new Map<string, number>();
        const whites = new Map<number, number>();
        for (const round of rounds) {
          const seen = new Set<number>();
          for (const g of round.games) {
            for (const p of [g.white, g.black]) {
              expect(seen.has(p)).toBe(false);
              seen.add(p);
            }
            const key = [g.white, g.black].sort((a, b) => a - b).join('-');
            meetings.set(key, (meetings.get(key) ?? 0) + 1);
            whites.set(g.white, (whites.get(g.white) ?? 0) + 1);
          }
          if (round.bye !== null) seen.add(round.bye);
          expect(seen.size).toBe(n);
          expect(round.bye !== null).toBe(n % 2 === 1);
        }
        expect(meetings.size).toBe((n * (n - 1)) / 2);
        expect([...meetings.values()].every((count) => count === cycles)).toBe(true);
        for (let p = 1; p <= n; p += 1) {
          const w = whites.get(p) ?? 0;
          if (n % 2 === 1) expect(w).toBe(((n - 1) / 2) * cycles);
          else if (cycles === 1) expect(w).toBe(p <= n / 2 ? n / 2 : n / 2 - 1);
          else expect(w).toBe(n - 1);
        }
        if (cycles === 1) {
          for (let i = 1; i <= n; i += 1) {
            for (let j = i + 1; j <= n; j += 1) {
              const expected = closedForm(n, i, j === n && n === N ? N : j);
              const round = rounds[expected.round - 1];
              const game = round?.games.find((g) => (g.white === i && g.black === j) || (g.white === j && g.black === i));
              expect(game?.white, `${n} players, ${i} v ${j}`).toBe(expected.white);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
