// The warm-started blossom matcher against exhaustive search, through the same sequences of
// weight changes, re-solves and frozen pairs the pairing procedure makes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WeightedGraph } from '../../tournament/internal.ts';

/** Best total weight over all matchings of `vertices` (exhaustive). */
function bestTotal(vertices: readonly number[], weight: (a: number, b: number) => bigint): bigint {
  const used = new Set<number>();
  let best = 0n;
  const visit = (i: number, total: bigint): void => {
    while (i < vertices.length && used.has(vertices[i]!)) i += 1;
    if (i >= vertices.length) {
      if (total > best) best = total;
      return;
    }
    const a = vertices[i]!;
    used.add(a);
    visit(i + 1, total);
    for (let j = i + 1; j < vertices.length; j += 1) {
      const b = vertices[j]!;
      const w = weight(a, b);
      if (used.has(b) || w === 0n) continue;
      used.add(b);
      visit(i + 1, total + w);
      used.delete(b);
    }
    used.delete(a);
  };
  visit(0, 0n);
  return best;
}

type Step = { kind: 'change'; vertex: number; others: number[]; weights: number[] } | { kind: 'freeze'; pick: number };

/** The matcher's matching of the vertices not frozen, checked against exhaustive search. */
function checkedSolve(graph: WeightedGraph, size: number, frozen: ReadonlySet<number>): number[] {
  const mate = graph.maximumWeightMatching();
  const active = [...Array(size).keys()].filter((v) => !frozen.has(v));
  let total = 0n;
  for (const v of active) {
    expect(mate[mate[v]!]).toBe(v);
    if (mate[v]! > v) {
      expect(graph.weight(v, mate[v]!)).toBeGreaterThan(0n);
      total += graph.weight(v, mate[v]!);
    }
  }
  expect(total).toBe(bestTotal(active, (a, b) => graph.weight(a, b)));
  return mate;
}

/**
 * The procedure's sequence: a vertex's weights changed (by `change`) or a matched pair frozen,
 * each followed by a checked solve.
 */
function replay(
  graph: WeightedGraph,
  size: number,
  steps: readonly Step[],
  mate: number[],
  change: (v: number, active: readonly number[], step: Extract<Step, { kind: 'change' }>) => void,
): void {
  const frozen = new Set<number>();
  for (const step of steps) {
    const active = [...Array(size).keys()].filter((v) => !frozen.has(v));
    if (active.length === 0) break;
    if (step.kind === 'change') change(active[step.vertex % active.length]!, active, step);
    else {
      const paired = active.filter((v) => mate[v] !== v);
      if (paired.length > 0) {
        const v = paired[step.pick % paired.length]!;
        graph.freezePair(v, mate[v]!);
        frozen.add(v).add(mate[v]!);
      }
    }
    mate = checkedSolve(graph, size, frozen);
  }
}

const scenario = fc.record({
  size: fc.integer({ min: 1, max: 10 }),
  // Few distinct values: the Dutch weights are full of ties, the hard case for blossoms.
  // Ties, and (the last set) weights whose sums and halves carry across the matcher's 48-bit limbs.
  values: fc.constantFrom([0, 1, 2], [0, 3, 5, 6], [0, 1, 1000, 1001], [0, 2 ** 47 + 1, 2 ** 48 - 1, 2 ** 48 + 2]),
  // Up to the width of a stage's Dutch weights (~300 bits).
  shift: fc.constantFrom(0n, 80n, 300n),
  initial: fc.array(fc.nat(3), { minLength: 45, maxLength: 45 }),
  steps: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('change' as const),
        vertex: fc.nat(9),
        others: fc.array(fc.nat(9), { minLength: 1, maxLength: 6 }),
        weights: fc.array(fc.nat(3), { minLength: 6, maxLength: 6 }),
      }),
      fc.record({ kind: fc.constant('freeze' as const), pick: fc.nat(9) }),
    ),
    { maxLength: 8 },
  ),
});

describe('WeightedGraph.maximumWeightMatching', () => {
  // Thousands of exhaustive searches: seconds on a free core, a minute with the cores shared.
  it('finds a maximum-weight matching after every change, re-solve and frozen pair', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(scenario, ({ size, values, shift, initial, steps }) => {
        const value = (index: number): bigint => BigInt(values[index % values.length]!) << shift;
        const graph = new WeightedGraph(size);
        let e = 0;
        for (let a = 1; a < size; a += 1) for (let b = 0; b < a; b += 1) graph.setWeight(a, b, value(initial[e++ % initial.length]!));
        replay(graph, size, steps as Step[], checkedSolve(graph, size, new Set()), (v, active, step) =>
          step.others.forEach((o, i) => graph.setWeight(v, active[o % active.length]!, value(step.weights[i]!))),
        );
      }),
      { seed: 20260201, numRuns: 1500 },
    );
  });

  // Thousands of exhaustive searches: seconds on a free core, a minute with the cores shared.
  it('planMatch only ever proposes another maximum-weight matching containing the pair', { timeout: 180_000 }, () => {
    let planned = 0;
    fc.assert(
      fc.property(scenario, fc.array(fc.tuple(fc.nat(9), fc.nat(9)), { minLength: 1, maxLength: 6 }), ({ size, values, shift, initial }, tries) => {
        const value = (index: number): bigint => BigInt(values[index % values.length]!) << shift;
        const graph = new WeightedGraph(size);
        let e = 0;
        for (let a = 1; a < size; a += 1) for (let b = 0; b < a; b += 1) graph.setWeight(a, b, value(initial[e++ % initial.length]!));
        graph.maximumWeightMatching();
        const all = [...Array(size).keys()];
        const best = bestTotal(all, (a, b) => graph.weight(a, b));
        for (const [x, y] of tries) {
          const a = x % size;
          const b = y % size;
          if (a === b || graph.weight(a, b) === 0n) continue;
          const plan = graph.planMatch(a, b);
          if (!plan) continue;
          planned += 1;
          graph.applyMatch(plan);
          const mate = graph.matching();
          expect(mate[a]).toBe(b);
          let total = 0n;
          for (const v of all) {
            expect(mate[mate[v]!]).toBe(v);
            if (mate[v]! > v) total += graph.weight(v, mate[v]!);
          }
          expect(total).toBe(best);
          // The matcher goes on from the changed optimum.
          graph.setWeight(a, b, graph.weight(a, b) + (1n << shift));
          const after = graph.maximumWeightMatching();
          expect(after[a]).toBe(b);
          graph.setWeight(a, b, graph.weight(a, b) - (1n << shift));
          graph.maximumWeightMatching();
        }
      }),
      { seed: 20260201, numRuns: 1500 },
    );
    expect(planned).toBeGreaterThan(100);
  });

  // Thousands of exhaustive searches: seconds on a free core, a minute with the cores shared.
  it('excludes a pair only when no maximum-weight matching contains it, also after edges are taken away without a solve', { timeout: 180_000 }, () => {
    let excluded = 0;
    let kept = 0;
    fc.assert(
      fc.property(scenario, fc.array(fc.tuple(fc.nat(9), fc.nat(9)), { minLength: 1, maxLength: 6 }), ({ size, values, shift, initial }, removals) => {
        const value = (index: number): bigint => BigInt(values[index % values.length]!) << shift;
        const graph = new WeightedGraph(size);
        let e = 0;
        for (let a = 1; a < size; a += 1) for (let b = 0; b < a; b += 1) graph.setWeight(a, b, value(initial[e++ % initial.length]!));
        graph.maximumWeightMatching();
        const all = [...Array(size).keys()];
        // Unmatched edges taken away after the solve: the matcher keeps its optimum and duals.
        for (const [x, y] of removals) {
          const mate = graph.matching();
          const a = x % size;
          const b = y % size;
          if (a !== b && mate[a] !== b) graph.setWeight(a, b, 0n);
        }
        const weight = (a: number, b: number): bigint => graph.weight(a, b);
        const best = bestTotal(all, weight);
        const mate = graph.matching();
        let total = 0n;
        for (const v of all) if (mate[v]! > v) total += weight(v, mate[v]!);
        expect(total).toBe(best);
        for (let a = 1; a < size; a += 1) {
          for (let b = 0; b < a; b += 1) {
            if (!graph.excludes(a, b)) continue;
            excluded += 1;
            const w = weight(a, b);
            const rest = all.filter((v) => v !== a && v !== b);
            // The best matching that pairs a with b falls short of the optimum.
            if (w !== 0n) expect(w + bestTotal(rest, weight)).toBeLessThan(best);
            else kept += 1;
          }
        }
        // The matcher goes on from there (an edge inside a blossom counts as a change).
        const after = graph.maximumWeightMatching();
        let afterTotal = 0n;
        for (const v of all) if (after[v]! > v) afterTotal += weight(v, after[v]!);
        expect(afterTotal).toBe(best);
      }),
      { seed: 20260201, numRuns: 1500 },
    );
    expect(excluded - kept).toBeGreaterThan(100);
  });

  it('stays exact when wider weights come after a solve (the limbs are laid out again)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }),
        fc.array(fc.nat(3), { minLength: 45, maxLength: 45 }),
        fc.array(fc.tuple(fc.nat(9), fc.nat(9), fc.bigInt({ min: 1n, max: (1n << 400n) - 1n })), { minLength: 1, maxLength: 8 }),
        (size, initial, wider) => {
          const graph = new WeightedGraph(size);
          let e = 0;
          for (let a = 1; a < size; a += 1) for (let b = 0; b < a; b += 1) graph.setWeight(a, b, BigInt(initial[e++]!));
          graph.maximumWeightMatching();
          for (const [x, y, w] of wider) if (x % size !== y % size) graph.setWeight(x % size, y % size, w);
          const mate = graph.maximumWeightMatching();
          const all = [...Array(size).keys()];
          let total = 0n;
          for (const v of all) if (mate[v]! > v) total += graph.weight(v, mate[v]!);
          expect(total).toBe(bestTotal(all, (a, b) => graph.weight(a, b)));
        },
      ),
      { seed: 20261202, numRuns: 500 },
    );
  });

  // Thousands of exhaustive searches: seconds on a free core, a minute with the cores shared.
  it('stays exact with any shares, at the cold start and rising between solves', { timeout: 180_000 }, () => {
    // The bracket procedure's case: the generation order's addend of the higher player on every
    // edge, its S1 players sharing it; and arbitrary shares, too small, too large, at S2 players.
    const sharesOf = fc.oneof(fc.constant('order' as const), fc.array(fc.bigInt({ min: 0n, max: 8n }), { minLength: 10, maxLength: 10 }));
    fc.assert(
      fc.property(scenario, sharesOf, fc.integer({ min: 0, max: 10 }), sharesOf, ({ size, values, shift, initial, steps }, first, s1, later) => {
        // The order's addend below the base weights' unit: 2 * (16 [higher < s1] - higher) on top of 2^6 * base.
        const orderAddend = (higher: number, s1Size: number): bigint => BigInt(2 * ((higher < s1Size ? 16 : 0) - higher));
        const value = (index: number): bigint => BigInt(values[index % values.length]!) << shift;
        const weightOf = (a: number, b: number, base: bigint, s1Size: number): bigint =>
          base === 0n ? 0n : (base << 6n) + (first === 'order' ? orderAddend(Math.min(a, b), s1Size) : 0n);
        const shareOf = (shares: typeof first, v: number, s1Size: number): bigint =>
          shares === 'order' ? (v < s1Size ? orderAddend(v, s1Size) : 0n) : shares[v]! << 4n;
        const graph = new WeightedGraph(size);
        const base: bigint[][] = Array.from({ length: size }, () => new Array<bigint>(size).fill(0n));
        let e = 0;
        for (let a = 1; a < size; a += 1) {
          for (let b = 0; b < a; b += 1) {
            base[a]![b] = base[b]![a] = value(initial[e++ % initial.length]!);
            graph.setWeight(a, b, weightOf(a, b, base[a]![b]!, s1));
          }
        }
        for (let v = 0; v < size; v += 1) graph.setShare(v, shareOf(first, v, s1));
        checkedSolve(graph, size, new Set());
        // Another S1 (the ordered re-solve) and other shares, then the procedure's changes.
        const s1Later = Math.max(0, s1 - 1);
        for (let a = 1; a < size; a += 1) for (let b = 0; b < a; b += 1) graph.setWeight(a, b, weightOf(a, b, base[a]![b]!, s1Later));
        for (let v = 0; v < size; v += 1) graph.setShare(v, shareOf(later, v, s1Later));
        replay(graph, size, steps as Step[], checkedSolve(graph, size, new Set()), (v, active, step) => {
          step.others.forEach((o, i) => graph.setWeight(v, active[o % active.length]!, value(step.weights[i]!) << 6n));
          graph.setShare(v, BigInt(step.weights[0]!) << 5n);
        });
      }),
      { seed: 20261203, numRuns: 1500 },
    );
  });

  it('refuses to freeze two players who are not paired together', () => {
    const graph = new WeightedGraph(3);
    graph.setWeight(0, 1, 5n);
    graph.maximumWeightMatching();
    expect(() => graph.freezePair(0, 2)).toThrow(/not matched/);
  });
});
