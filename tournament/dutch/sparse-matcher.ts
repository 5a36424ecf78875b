// The bracket procedure's matchings on a graph the size of the bracket, not of the field.
//
// In the whole-field graph, every edge weight is a completion field (C2, C4, C5: the same for
// every pair but for who may take the bye) plus, only for pairs inside the current bracket and
// next score group, the quality fields below it. A pair reaching below the next score group, or
// lying wholly below it, carries the completion field alone. So an optimum of the whole field is a
// completable matching that, inside the bracket, maximises the quality fields; and conversely a
// matching of the bracket alone, weighted by the quality fields only, that is optimal and leaves a
// rest (its single players and everyone below) that can all be paired (one left out with an odd
// field, who may take the bye) IS a whole-field optimum. This matcher solves the bracket alone,
// checks that its rest completes (completion.ts) after every solve, and throws NeedsFullGraph when
// it does not; pair.ts then runs the whole-field matching. Where C9 (the bye assignee's unplayed
// games) can enter the weights, near the bottom of an odd field, it switches to the exact weights
// over everyone left, which by then is few. See docs/dutch-pairing.md for the argument in full.
import { Completion } from './completion.ts';
import { WeightedGraph } from './matching.ts';
import type { BracketMatcher } from './brackets.ts';
import type { PlayerState } from './players.ts';
import { completionPart, type ByeContext, type WeightLayout } from './weights.ts';

/** The bracket-sized matching cannot vouch for its optimum: use the whole-field matching. */
export class NeedsFullGraph extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NeedsFullGraph';
  }
}

const edgeIndex = (a: number, b: number): number => (a > b ? (a * (a - 1)) / 2 + b : (b * (b - 1)) / 2 + a);

export class SparseMatcher implements BracketMatcher {
  private graph: WeightedGraph;
  /** Weights are the whole-field ones (true) or the quality fields alone, the completion field taken off. */
  private exact = false;
  /** Pairs whose weight the bracket procedure has set (all others still have the completion field alone). */
  private readonly touched: Uint8Array;
  private readonly inGraph: Uint8Array;
  private readonly inStage: Uint8Array;
  private readonly frozen: Uint8Array;
  private stage: readonly number[] = [];
  private next = 0;
  private bye: ByeContext;
  private readonly completion: Completion;

  constructor(
    private readonly sorted: readonly PlayerState[],
    private readonly layout: WeightLayout,
    private readonly compatible: (u: number, v: number) => boolean,
    private readonly initialBye: ByeContext,
  ) {
    const n = sorted.length;
    if (initialBye.singleDownfloaterIsBye) throw new NeedsFullGraph('the bye is in the top score group');
    this.graph = new WeightedGraph(n, []);
    this.touched = new Uint8Array((n * (n - 1)) / 2);
    this.inGraph = new Uint8Array(n);
    this.inStage = new Uint8Array(n);
    this.frozen = new Uint8Array(n);
    this.bye = initialBye;
    // The rest is paired among itself and with the stage's single players, never two of those
    // together. With an odd field, one more vertex (n) stands for the bye: it pairs with whoever
    // may take the bye, so the question is always whether everyone can be paired.
    const mayTakeBye = (v: number): boolean => sorted[v]!.byeEligible && sorted[v]!.score <= this.bye.byeScore;
    this.completion = new Completion(n + 1, (u, v) =>
      u === n ? mayTakeBye(v) : v === n ? mayTakeBye(u) : compatible(u, v) && !(this.inStage[u] && this.inStage[v]),
    );
  }

  beginStage(bracket: readonly number[], next: number, bye: ByeContext): void {
    for (const v of this.stage) this.inStage[v] = 0;
    for (const v of bracket) this.inStage[v] = 1;
    this.stage = bracket;
    this.next = next;
    this.bye = bye;
    if (this.exact) return;
    const odd = this.sorted.length % 2 === 1;
    if (bye.singleDownfloaterIsBye || (odd && bracket.some((v) => this.sorted[v]!.score <= bye.byeScore))) {
      this.becomeExact();
      return;
    }
    for (const v of bracket) {
      if (this.inGraph[v]) continue;
      this.inGraph[v] = 1;
      this.graph.activate(v);
    }
  }

  setWeight(a: number, b: number, weight: bigint): void {
    this.touched[edgeIndex(a, b)] = 1;
    if (this.exact || weight === 0n) {
      this.graph.setWeight(a, b, weight);
      return;
    }
    const quality = weight - this.completionWeight(a, b);
    if (quality <= 0n) throw new NeedsFullGraph(`the pair ${a}-${b} has no quality weight`);
    this.graph.setWeight(a, b, quality);
  }

  solve(): readonly number[] {
    const mate = this.graph.maximumWeightMatching();
    if (this.exact) return mate;
    const rest: number[] = [];
    for (const v of this.stage) if (!this.frozen[v] && mate[v] === v) rest.push(v);
    for (let v = this.next; v < this.sorted.length; v += 1) rest.push(v);
    if (this.sorted.length % 2 === 1) rest.push(this.sorted.length);
    if (!this.completion.completes(rest)) throw new NeedsFullGraph('the rest of the field cannot be completed');
    return mate;
  }

  freeze(a: number, b: number): void {
    this.frozen[a] = this.frozen[b] = 1;
    this.graph.freezePair(a, b);
  }

  private completionWeight(a: number, b: number): bigint {
    const [higher, lower] = a < b ? [a, b] : [b, a];
    return completionPart(this.sorted[higher]!, this.sorted[lower]!, this.layout, this.bye);
  }

  /** From now on: one graph over everyone not yet paired, with the whole-field weights. */
  private becomeExact(): void {
    const left = this.sorted.flatMap((_, v) => (this.frozen[v] ? [] : [v]));
    const exact = new WeightedGraph(this.sorted.length, left);
    for (let i = 1; i < left.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const u = left[j]!;
        const v = left[i]!;
        let weight: bigint;
        if (this.touched[edgeIndex(u, v)]) {
          const quality = this.graph.weight(u, v);
          weight = quality === 0n ? 0n : quality + this.completionWeight(u, v);
        } else {
          weight = this.compatible(u, v) ? completionPart(this.sorted[u]!, this.sorted[v]!, this.layout, this.initialBye) : 0n;
        }
        if (weight !== 0n) exact.setWeight(v, u, weight);
      }
    }
    this.graph = exact;
    this.exact = true;
  }
}
