// The worked examples of the research notes (§3.4-3.7) and the per-edition rules for unplayed games.
import { describe, expect, it } from 'vitest';
import {
  bergerSchedule,
  buildCrosstable,
  dpFor,
  parseTiebreak,
  rankStandings,
  tiebreakContext,
  tiebreakValue,
  type RoundResults,
} from '../../tournament/internal.ts';

/** Round robin from a table of White's score per pairing ("i-j": score of i against j). */
function roundRobin(n: number, score: (a: number, b: number) => number, forfeits: Record<string, '+--' | '--+'> = {}): ReturnType<typeof buildCrosstable> {
  const rounds: RoundResults[] = bergerSchedule(n).map((r) => ({
    round: r.round,
    games: r.games.map((g) => {
      const forced = forfeits[`${r.round}:${g.white}-${g.black}`];
      if (forced) return { white: g.white, black: g.black, result: forced };
      const s = score(g.white, g.black);
      return { white: g.white, black: g.black, result: s === 1 ? '1-0' : s === 0 ? '0-1' : '1/2-1/2' };
    }),
  }));
  return buildCrosstable(
    Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `P${i + 1}`, rating: 2000 + i })),
    rounds,
  );
}

describe('research §3.7(a): six-player cyclic tie', () => {
  const wins: Record<string, number> = {
    '1-2': 1,
    '2-3': 1,
    '3-1': 1,
    '1-4': 1,
    '1-5': 1,
    '1-6': 0.5,
    '2-4': 0.5,
    '2-5': 1,
    '2-6': 1,
    '3-4': 1,
    '3-5': 0.5,
    '3-6': 1,
    '4-5': 1,
    '4-6': 0.5,
    '6-5': 1,
  };
  const score = (a: number, b: number): number => wins[`${a}-${b}`] ?? 1 - (wins[`${b}-${a}`] as number);
  const trf = roundRobin(6, score);
  const rows = rankStandings(trf, ['DE', 'BPG', 'KS', 'SB', 'WON'], { roundRobin: true });

  it('scores and tie-breaks as the notes work them out', () => {
    expect(trf.players.map((p) => p.points)).toEqual([3.5, 3.5, 3.5, 2, 0.5, 2]);
    const value = (id: number, code: string) => rows.find((r) => r.id === id)?.tiebreaks[code];
    expect([1, 2, 3].map((id) => value(id, 'BPG'))).toEqual([2, 2, 2]);
    expect([1, 2, 3].map((id) => value(id, 'KS'))).toEqual([1, 1, 1]);
    expect([1, 2, 3].map((id) => value(id, 'SB'))).toEqual([7, 7, 7.75]);
    expect([1, 2].map((id) => value(id, 'WON'))).toEqual([3, 3]);
    const ctx = tiebreakContext(trf, { roundRobin: true });
    expect([1, 2, 3].map((id) => tiebreakValue(ctx, 'KS-L-1', id))).toEqual([2.5, 2.5, 3]);
  });

  it('ranks 3 first on SB; 1 and 2 share second (DE is not re-applied after SB)', () => {
    expect(rows.slice(0, 3).map((r) => [r.id, r.rank])).toEqual([
      [3, 1],
      [1, 2],
      [2, 2],
    ]);
    const again = rankStandings(trf, ['DE', 'BPG', 'KS', 'SB', 'WON', 'DE'], { roundRobin: true });
    expect(again.slice(0, 3).map((r) => [r.id, r.rank])).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
    ]);
  });
});

describe('round-robin forfeits by rule set', () => {
  // Player 6 forfeits his round 1 game with Black against player 1 (1-6 in the Berger table).
  const trf = roundRobin(6, (a, b) => (a < b ? 1 : 0), { '1:1-6': '+--' });
  it('2023: a forfeit is a regular game (BPG, WON count it); 2026: the forfeit loss is left out of BPG', () => {
    const c2023 = tiebreakContext(trf, { roundRobin: true, unplayedRules: '2023' });
    const c2026 = tiebreakContext(trf, { roundRobin: true, unplayedRules: '2026' });
    expect(tiebreakValue(c2023, 'BPG', 6)).toBe(3);
    expect(tiebreakValue(c2026, 'BPG', 6)).toBe(2);
    expect(tiebreakValue(c2023, 'WON', 1)).toBe(5);
    expect(tiebreakValue(c2026, 'WON', 1)).toBe(5);
    expect(tiebreakValue(tiebreakContext(trf, { roundRobin: false }), 'WON', 1)).toBe(4);
    // Rating-based tie-breaks never count the forfeit.
    expect(tiebreakValue(c2023, 'ARO', 1)).toBe(Math.round((2001 + 2002 + 2003 + 2004) / 4));
  });
});

describe('withdrawals and the FIDE tables', () => {
  it("a withdrawn player counts his missing rounds as draws in his opponents' Buchholz (16.2.5)", () => {
    // 10 players Swiss-like: player 1 scores 3 in 6 rounds and withdraws; 9 rounds in all.
    const rounds: RoundResults[] = Array.from({ length: 9 }, (_, r) => ({
      round: r + 1,
      games: r < 6 ? [{ white: 1, black: r + 2, result: r % 2 === 0 ? '1-0' : '0-1' }] : [],
    }));
    const trf = buildCrosstable(
      Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `P${i + 1}` })),
      rounds,
      { roundsPlayed: 9 },
    );
    const ctx = tiebreakContext(trf, { roundRobin: false });
    expect(trf.players[0]?.points).toBe(3);
    expect(ctx.players.get(1)?.adjusted).toBe(4.5);
  });

  it('dp table and TPR example (e): 6.5/9 is p 0.72, dp 166', () => {
    expect(dpFor(6.5 / 9)).toBe(166);
    expect(dpFor(0.5)).toBe(0);
    expect(dpFor(0)).toBe(-800);
    expect(dpFor(1)).toBe(800);
    expect(dpFor(0.3)).toBe(-149);
  });

  it('normalises codes and rejects unknown ones', () => {
    expect(parseTiebreak('bh/c1').code).toBe('BH-C1');
    expect(parseTiebreak('BH-M1').median).toBe(1);
    expect(parseTiebreak('GE').code).toBe('REP');
    expect(() => parseTiebreak('XYZ')).toThrow(/unknown tie-break/);
    expect(() => parseTiebreak('WIN-C1')).toThrow(/takes no cut/);
  });
});
