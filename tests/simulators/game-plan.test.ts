// Simulated games a chief arbiter would recognise (issue 27): results in proportion to the ratings and
// the time control, ending by resignation, agreement after move 30, mate and flag, either colour
// winning; seeded, so the counts are exact, and each within the bounds stated beside it.
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import {
  planGame,
  resultOdds,
  seededRandom,
  startPlannedGame,
  WAITING_FOR_FLAG,
  type GameCategory,
  type GamePlan,
  type PlanInput,
} from '../../simulators/internal.ts';

const tally = (plans: readonly { result: string; ending?: string; termination?: string }[], key: (p: (typeof plans)[number]) => string) => {
  const out: Record<string, number> = {};
  for (const p of plans) out[key(p)] = (out[key(p)] ?? 0) + 1;
  return out;
};
/** `n` plans from one seed; ratings drawn by `ratings` from the same generator. */
function plans(
  seed: string,
  n: number,
  category: GameCategory,
  ratings: (random: ReturnType<typeof seededRandom>) => [number, number],
  drawOfferMinMove = 0,
): GamePlan[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const [whiteRating, blackRating] = ratings(random);
    return planGame(random, { whiteRating, blackRating, category, drawOfferMinMove });
  });
}
const close = (r: ReturnType<typeof seededRandom>): [number, number] => {
  const w = r.int(2300, 2600);
  return [w, w + r.int(-50, 50)];
};

describe('game plans', () => {
  it('the odds: a third of classical games drawn between equal ratings, fewer with a gap and in faster games, White a little ahead', () => {
    const equal = (category: GameCategory): PlanInput => ({ whiteRating: 2400, blackRating: 2400, category, drawOfferMinMove: 0 });
    expect(resultOdds(equal('standard')).draw).toBeCloseTo(0.34 * Math.exp(-((35 / 350) ** 2)), 10);
    expect(resultOdds(equal('standard')).white).toBeGreaterThan(resultOdds(equal('standard')).black);
    expect(resultOdds(equal('rapid')).draw).toBeLessThan(resultOdds(equal('standard')).draw);
    expect(resultOdds(equal('blitz')).draw).toBeLessThan(resultOdds(equal('rapid')).draw);
    const gap = resultOdds({ whiteRating: 2200, blackRating: 2600, category: 'standard', drawOfferMinMove: 0 });
    expect(gap.draw).toBeLessThan(0.12);
    expect(gap.black).toBeGreaterThan(0.75);
    for (const o of [gap, resultOdds(equal('blitz')), resultOdds({ category: 'standard', drawOfferMinMove: 0 })])
      expect(o.white + o.draw + o.black).toBeCloseTo(1, 12);
  });

  it('1,000 classical games between close ratings: about a third drawn, every ending, agreements after move 30', () => {
    const classical = plans('classical-close', 1000, 'standard', close);
    const results = tally(classical, (p) => p.result);
    // Bounds: draws 28-40 %; White scores 52-57 % (wins and half the draws).
    expect(results).toEqual({ '1-0': 401, '1/2-1/2': 304, '0-1': 295 });
    expect(tally(classical, (p) => p.ending ?? '')).toEqual({ resignation: 568, agreement: 304, flag: 69, checkmate: 59 });
    for (const p of classical) {
      if (p.ending === 'agreement') expect(p.atPly % 2 === 0 && p.atPly >= 60).toBe(true);
      // The loser is to move when his game ends: White after an even number of plies.
      else expect(p.atPly % 2).toBe(p.result === '1-0' ? 1 : 0);
    }
  });

  it("the event's draw-offer rule: no agreement before its move (Cairns: 30; an event with 40)", () => {
    const later = plans('forty', 300, 'standard', close, 40).filter((p) => p.ending === 'agreement');
    expect(later.length).toBe(90);
    expect(Math.min(...later.map((p) => p.atPly))).toBe(80);
  });

  it('a field of wide ratings (2000-2600, classical): fewer draws, the stronger wins most of the decisive games', () => {
    const random = seededRandom('wide');
    const games = Array.from({ length: 1000 }, () => {
      const a = random.int(2000, 2600);
      const b = random.int(2000, 2600);
      return { a, b, plan: planGame(random, { whiteRating: a, blackRating: b, category: 'standard', drawOfferMinMove: 0 }) };
    });
    const decisive = games.filter((g) => g.plan.result !== '1/2-1/2' && Math.abs(g.a - g.b) >= 200);
    const strongerWon = decisive.filter((g) => (g.plan.result === '1-0') === g.a > g.b).length;
    // Bounds: draws 18-30 %; with a gap of 200 or more the stronger wins over three quarters.
    expect(games.filter((g) => g.plan.result === '1/2-1/2').length).toBe(242);
    expect([strongerWon, decisive.length]).toEqual([357, 393]);
  });

  it('where a flag counts only on a claim (L2009 blitz, inadequate supervision), a planned flag is a resignation', () => {
    const random = (seed: string) => seededRandom(seed);
    const input = { whiteRating: 2500, blackRating: 2500, category: 'blitz', drawOfferMinMove: 0 } as const;
    const flags = Array.from({ length: 200 }, (_, i) => planGame(random(`claim/${i}`), input)).filter((p) => p.ending === 'flag');
    expect(flags.length).toBeGreaterThan(0);
    for (let i = 0; i < 200; i += 1) {
      const free = planGame(random(`claim/${i}`), input);
      const claimed = planGame(random(`claim/${i}`), { ...input, flagFalls: false });
      // The same result; only the way it ends (and so its last ply) changes.
      expect([claimed.result, claimed.ending]).toEqual([free.result, free.ending === 'flag' ? 'resignation' : free.ending]);
      if (free.ending !== 'flag') expect(claimed).toEqual(free);
    }
  });

  it('playoff games (blitz, equal players): either colour wins, fewer draws', () => {
    const blitz = plans('playoff', 200, 'blitz', () => [2500, 2500]);
    // Bounds: each colour wins 30-55 %, draws 10-25 %.
    expect(tally(blitz, (p) => p.result)).toEqual({ '1-0': 89, '0-1': 71, '1/2-1/2': 40 });
  });
});

describe('planned games: real moves (chess.js) to the planned end', () => {
  it('60 classical games: every move legal, each ends as planned or as the board ended it', () => {
    const think = { kind: 'fixed', ms: 30_000 } as const;
    const ends = Array.from({ length: 60 }, (_, i) => {
      const plan = planGame(seededRandom(`played/${i}`), { whiteRating: 2450, blackRating: 2420, category: 'standard', drawOfferMinMove: 30 });
      const game = startPlannedGame({ seed: `played/${i}`, thinkMs: think, plan });
      const chess = new Chess();
      let ply = 0;
      for (let move = game.move(0); move; move = game.move(++ply)) expect(chess.move(move.san).san).toBe(move.san);
      const outcome = game.outcome!;
      // A flag's loser has stopped moving: the clock (the engine) decides it, not the players.
      if (outcome.termination === WAITING_FOR_FLAG) expect(ply).toBe(plan.atPly);
      if (outcome.termination === 'agreement') expect(ply).toBeGreaterThanOrEqual(60);
      if (outcome.termination === 'checkmate') expect(chess.isCheckmate()).toBe(true);
      return { result: outcome.result, termination: outcome.termination };
    });
    expect(tally(ends, (e) => `${e.result} ${e.termination}`)).toEqual({
      '1-0 resignation': 21,
      '0-1 resignation': 11,
      '1/2-1/2 agreement': 22,
      '1-0 checkmate': 2,
      '0-1 checkmate': 1,
      [`1-0 ${WAITING_FOR_FLAG}`]: 2,
      [`0-1 ${WAITING_FOR_FLAG}`]: 1,
    });
  });
});
