// The shortcuts against the full computation (docs/dutch-pairing.md, "How it is made fast"):
// the bracket-sized matchings and the round-one pairing must give exactly the whole-field
// matching's pairing, on random tournaments and random round-one fields; the completion check
// must agree with exhaustive search.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PairingCompletion,
  pairRoundBy,
  type PairingEntrant,
  type PairingPath,
  type PairingRequest,
  type PairingRoundRecord,
  type RoundPairing,
} from '../../tournament/internal.ts';
import { seededRandom } from '../../simulators/index.ts';

type Outcome = ReturnType<typeof pairRoundBy> | 'no valid pairing';
type StageCounts = { -readonly [K in keyof NonNullable<ReturnType<typeof pairRoundBy>['stages']>]: number };

function attempt(request: PairingRequest, wholeField: boolean): Outcome {
  try {
    return pairRoundBy(request, { wholeField });
  } catch (error) {
    if ((error as Error).name !== 'NoValidPairingError') throw error;
    return 'no valid pairing';
  }
}

const pairingOf = (outcome: Outcome): RoundPairing | string => (typeof outcome === 'string' ? outcome : outcome.pairing);

interface Shape {
  readonly seed: number;
  readonly size: number;
  readonly rounds: number;
  readonly drawRate: number;
  readonly absentRate: number;
  readonly forbidden: boolean;
}

/** Plays a random tournament with the fast engine, comparing every round with the whole-field matching. */
function compareRounds(shape: Shape, paths: Map<PairingPath, number>, stages: StageCounts): void {
  const rand = seededRandom(shape.seed).next;
  const ids = Array.from({ length: shape.size }, (_, i) => i + 1);
  const history = new Map<number, PairingRoundRecord[]>(ids.map((id) => [id, []]));
  const leaves = new Map(ids.map((id) => [id, rand() < 0.1 ? 1 + Math.floor(rand() * shape.rounds) : Infinity]));
  const forbidden = shape.forbidden
    ? [
        [1, 2],
        [3, 4, 5],
      ]
    : [];
  for (let round = 0; round < shape.rounds; round += 1) {
    const absent = new Set(ids.filter((id) => round >= leaves.get(id)! || rand() < shape.absentRate));
    const entrants: PairingEntrant[] = ids.map((id) => ({ id, rounds: history.get(id)! }));
    const request: PairingRequest = {
      entrants,
      playedRounds: round,
      totalRounds: shape.rounds,
      absent,
      initialColour: rand() < 0.5 ? 'white' : 'black',
      points: { win: 10, draw: 5, loss: 0 },
      forbidden,
    };
    const fast = attempt(request, false);
    const full = attempt(request, true);
    expect(pairingOf(fast), `round ${round + 1}`).toEqual(pairingOf(full));
    if (typeof fast === 'string') return;
    paths.set(fast.path, (paths.get(fast.path) ?? 0) + 1);
    for (const key of Object.keys(stages) as (keyof StageCounts)[]) stages[key] += fast.stages?.[key] ?? 0;
    const { boards, bye } = fast.pairing;
    for (const { white, black } of boards) {
      const forfeit = rand() < 0.03;
      const r = rand();
      const whitePoints = r < shape.drawRate ? 5 : r < (1 + shape.drawRate) / 2 ? 10 : 0;
      const wp = forfeit ? (whitePoints >= 5 ? 10 : 0) : whitePoints;
      history.get(white)!.push({ opponent: black, colour: 'white', points: wp, played: !forfeit, paired: true });
      history.get(black)!.push({ opponent: white, colour: 'black', points: 10 - wp, played: !forfeit, paired: true });
    }
    if (bye !== null) history.get(bye)!.push({ opponent: null, colour: null, points: 10, played: false, paired: true });
    for (const id of absent) history.get(id)!.push({ opponent: null, colour: null, points: rand() < 0.3 ? 5 : 0, played: false, paired: false });
  }
}

/** Random tournaments of `shape`, every round compared: the paths and stages the fast engine took. */
function compareTournaments(shape: fc.Arbitrary<Shape>, runs: { numRuns: number; seed: number }): { paths: Map<PairingPath, number>; stages: StageCounts } {
  const paths = new Map<PairingPath, number>();
  const stages: StageCounts = { bracketOnly: 0, widened: 0, lastStage: 0, lastStageExact: 0 };
  fc.assert(
    fc.property(shape, (s) => compareRounds(s, paths, stages)),
    runs,
  );
  return { paths, stages };
}

describe('bracket-sized matchings give the whole-field pairing', () => {
  it('on random tournaments, round after round', () => {
    const { paths, stages } = compareTournaments(
      fc.record({
        seed: fc.integer({ min: 1, max: 1_000_000 }),
        size: fc.integer({ min: 9, max: 70 }),
        rounds: fc.integer({ min: 3, max: 9 }),
        drawRate: fc.constantFrom(0.1, 0.3, 0.6),
        absentRate: fc.constantFrom(0, 0.03, 0.1),
        forbidden: fc.boolean(),
      }),
      { numRuns: 30, seed: 14 },
    );
    // The comparison means something only if the shortcuts were taken, not fallen back from.
    const total = [...paths.values()].reduce((a, b) => a + b, 0);
    expect(paths.get('bracket-graphs') ?? 0).toBeGreaterThan(total / 2);
    expect(paths.get('round-one') ?? 0).toBeGreaterThan(10);
    // ...and the bracket alone was solved in most stages, widened to the whole stage in some.
    expect(stages.bracketOnly).toBeGreaterThan(300);
    expect(stages.widened).toBeGreaterThan(10);
    // Two engines on 30 tournaments: minutes when the shared cores are busy.
  }, 600_000);

  it("on odd fields paired down to their last stage (the bye's score and everyone below it)", () => {
    const { stages } = compareTournaments(
      fc.record({
        seed: fc.integer({ min: 1, max: 1_000_000 }),
        size: fc.integer({ min: 4, max: 30 }).map((k) => 2 * k + 1),
        rounds: fc.integer({ min: 4, max: 11 }),
        drawRate: fc.constantFrom(0.05, 0.2),
        // Absences make the bye candidates' unplayed games (C9) differ.
        absentRate: fc.constantFrom(0.1, 0.2, 0.3),
        forbidden: fc.boolean(),
      }),
      { numRuns: 100, seed: 15 },
    );
    // The last stages kept their own graphs (sparse-matcher.ts beginStage), and some of them had
    // a quality optimum that left no complete pairing and were solved on the exact graph.
    expect(stages.lastStage).toBeGreaterThan(300);
    expect(stages.lastStageExact).toBeGreaterThan(0);
  }, 600_000);
});

describe('round one by its known optimum', () => {
  it('equals the whole-field matching on random round-one fields', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom<'white' | 'black'>('white', 'black'),
        fc.array(fc.integer({ min: 1, max: 80 }), { maxLength: 4 }),
        fc.boolean(),
        (size, initialColour, absentees, forbid) => {
          const entrants = Array.from({ length: size }, (_, i) => ({ id: i + 1, rounds: [] }));
          const request: PairingRequest = {
            entrants,
            playedRounds: 0,
            totalRounds: 9,
            absent: new Set(absentees),
            initialColour,
            points: { win: 10, draw: 5, loss: 0 },
            forbidden: forbid ? [[1, Math.max(2, size)]] : [],
          };
          const fast = attempt(request, false);
          expect(pairingOf(fast)).toEqual(pairingOf(attempt(request, true)));
          if (!forbid && typeof fast !== 'string') expect(fast.path).toBe('round-one');
        },
      ),
      { numRuns: 120, seed: 14 },
    );
  });
});

/** Whether `vertices` can all be paired (all but one who may stay out, if odd), by exhaustive search. */
function completesExhaustively(vertices: readonly number[], adjacent: (u: number, v: number) => boolean, mayStayOut: (v: number) => boolean): boolean {
  const visit = (left: readonly number[], outUsed: boolean): boolean => {
    if (left.length === 0) return true;
    const [v, ...rest] = left as [number, ...number[]];
    if (!outUsed && left.length % 2 === 1 && mayStayOut(v) && visit(rest, true)) return true;
    return rest.some((u, i) => adjacent(v, u) && visit([...rest.slice(0, i), ...rest.slice(i + 1)], outUsed));
  };
  return visit(vertices, vertices.length % 2 === 0);
}

describe('completion check', () => {
  it('agrees with exhaustive search through changing vertex sets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 11 }),
        fc.array(fc.boolean(), { minLength: 66, maxLength: 66 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 11 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
        (size, edges, sets, byeOk) => {
          const key = (u: number, v: number): number => (u < v ? (v * (v - 1)) / 2 + u : (u * (u - 1)) / 2 + v);
          const adjacent = (u: number, v: number): boolean => u !== v && edges[key(u, v)]!;
          const completion = new PairingCompletion(size, adjacent);
          const mayStayOut = (v: number): boolean => byeOk[v]!;
          for (const set of sets) {
            const vertices = [...new Set(set.filter((v) => v < size))];
            expect(completion.completes(vertices, mayStayOut)).toBe(completesExhaustively(vertices, adjacent, mayStayOut));
          }
        },
      ),
      { numRuns: 300, seed: 14 },
    );
  });

  it('agrees with exhaustive search on dense sets and on pairs that stop or start meeting between calls', () => {
    const key = (u: number, v: number): number => (u < v ? (v * (v - 1)) / 2 + u : (u * (u - 1)) / 2 + v);
    const size = 16;
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 120, maxLength: 120 }),
        fc.array(fc.boolean(), { minLength: size, maxLength: size }),
        fc.array(fc.boolean(), { minLength: size, maxLength: size }),
        fc.array(
          fc.record({
            toggle: fc.array(fc.integer({ min: 0, max: size - 1 }), { maxLength: 3 }),
            flip: fc.array(fc.integer({ min: 0, max: 119 }), { maxLength: 4 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (density, draws, initial, byeOk, steps) => {
          // Dense graphs make blossoms within blossoms, the case the union-find has to get right.
          const edges = draws.map((d) => d < density);
          const adjacent = (u: number, v: number): boolean => u !== v && edges[key(u, v)]!;
          const mayStayOut = (v: number): boolean => byeOk[v]!;
          const inSet = [...initial];
          const completion = new PairingCompletion(size, adjacent);
          for (const { toggle, flip } of steps) {
            for (const v of toggle) inSet[v] = !inSet[v];
            // The kept matching may hold a pair that may no longer meet, or miss one that now may.
            for (const k of flip) edges[k] = !edges[k];
            const vertices = inSet.flatMap((member, v) => (member ? [v] : []));
            const perfect = perfectMatchings(adjacent);
            const all = vertices.reduce((mask, v) => mask | (1 << v), 0);
            // Those some maximum matching leaves out: with an odd set, those without whom the rest pairs.
            const out = vertices.length % 2 === 0 ? (perfect(all) ? [] : null) : vertices.filter((v) => perfect(all & ~(1 << v)));
            const expected = out?.length === 0 && vertices.length % 2 === 1 ? null : out;
            expect(completion.completes(vertices, mayStayOut)).toBe(completesExhaustively(vertices, adjacent, mayStayOut));
            expect(completion.leftOut(vertices)?.sort((a, b) => a - b) ?? null).toEqual(expected);
          }
        },
      ),
      { numRuns: 400, seed: 14 },
    );
  });
});

/** Whether the vertices of a bit mask can all be paired, by exhaustive search (memoised per mask). */
function perfectMatchings(adjacent: (u: number, v: number) => boolean): (mask: number) => boolean {
  const known = new Map<number, boolean>();
  const perfect = (mask: number): boolean => {
    if (mask === 0) return true;
    const cached = known.get(mask);
    if (cached !== undefined) return cached;
    const v = 31 - Math.clz32(mask & -mask);
    let found = false;
    for (let u = v + 1; u < 32 && !found; u += 1) if (mask & (1 << u) && adjacent(v, u)) found = perfect(mask & ~(1 << v) & ~(1 << u));
    known.set(mask, found);
    return found;
  };
  return perfect;
}
