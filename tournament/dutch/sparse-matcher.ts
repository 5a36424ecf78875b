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
// it does not; pair.ts then runs the whole-field matching. Each stage has its own graph, over its
// own players only, with weights shortened to the score fields its players have (stage-weights.ts).
// Its graph first holds the bracket alone: the next score group enters only through a check that
// the floaters leave it the best C8 value any choice of floaters could (c8Holds), else the stage widens.
// Where a stage of an odd field reaches the bye's score (C9, the bye assignee's unplayed games,
// can enter the weights) with players still below it, it switches to the exact weights over
// everyone left, which by then is few. A last stage, holding everyone left, has no pair outside
// it: it keeps its own graph, and only if its optimum leaves no complete pairing is it solved on
// the exact graph, no larger. See docs/dutch-pairing.md for the argument in full.
import { Completion } from './completion.ts';
import { WeightedGraph } from './matching.ts';
import type { BracketMatcher } from './brackets.ts';
import type { PlayerState } from './players.ts';
import { StagePairWeights, StageWeights } from './stage-weights.ts';
import { completionPart, completionShift, type ByeContext, type WeightLayout } from './weights.ts';

/** The bracket-sized matching cannot vouch for its optimum: use the whole-field matching. */
export class NeedsFullGraph extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NeedsFullGraph';
  }
}

const edgeIndex = (a: number, b: number): number => (a > b ? (a * (a - 1)) / 2 + b : (b * (b - 1)) / 2 + a);

export class SparseMatcher implements BracketMatcher {
  /** The stage's graph (local vertex numbers), or once exact the graph over everyone left. */
  private graph: WeightedGraph = new WeightedGraph(0);
  private exact = false;
  /** Once exact: the players left when it became so, by their vertex in the exact graph. */
  private left: number[] = [];
  /** local[v]: v's vertex in the stage graph (-1 outside the stage), or once exact in the exact graph. */
  private readonly local: Int32Array;
  /** The stage's weights by number (the procedure's, as edgeWeights numbers them). */
  private weights: readonly bigint[] = [];
  /** The weights the stage's pairs are set to, by number: quality and shortened weight. */
  private pairWeights: StagePairWeights | null = null;
  /**
   * The stage's pairs as the bracket procedure last set them, by local edge index: the number of
   * the weight in pairWeights (0: no edge), -1 for a pair neither set in this stage nor carried
   * over from the last.
   */
  private pairNumber = new Int32Array(0);
  /** The completion field of a pair with 0, 1 or 2 players who may not take the bye. */
  private readonly completionFields: readonly bigint[];
  private readonly mayNotTakeBye: Uint8Array;
  private readonly inStage: Uint8Array;
  private readonly frozen: Uint8Array;
  private readonly mate: number[];
  private stage: readonly number[] = [];
  /** Stage positions below this are the bracket (moved-down players and residents), the rest its next score group. */
  private bracketSize = 0;
  /**
   * The graph holds the bracket alone: the next score group enters through the C8 check
   * (c8Holds) instead of the matching, until a solve fails it and the stage widens to all its players.
   */
  private bracketOnly = false;
  private next = 0;
  /** For the C8 check: the bracket's single players (floaters) of the solve being checked. */
  private readonly floater: Uint8Array;
  /** Floaters and next score group, paired along the stage's pairs (never two floaters together). */
  private readonly nextGroup: Completion;
  /**
   * Everyone below the stage, the bye vertex (n) and a stand-in (n + 1) for the one player of the
   * next score group left over (adjacent to whom any of the candidates for that may meet).
   */
  private readonly below: Completion;
  private readonly standIn: Uint8Array;
  private standInMayTakeBye = false;
  private standInFor = '';
  /** Everyone below the stage, and the bye vertex in an odd field: fixed for a stage. */
  private belowPlayers: number[] | null = null;
  /** Whether everyone below can be paired among themselves (and the bye): fixed for a stage. */
  private belowAlone: boolean | null = null;
  /**
   * Stages begun on the bracket alone, and of those the ones that had to widen; last stages (everyone
   * left, the bye's score among them) kept stage-sized, and of those the ones solved exact.
   */
  readonly stageCounts = { bracketOnly: 0, widened: 0, lastStage: 0, lastStageExact: 0 };
  private bye: ByeContext;
  private readonly completion: Completion;
  /** The stage's shares (setShare), for a widened graph's cold start. */
  private readonly shares = new Map<number, bigint>();

  constructor(
    private readonly sorted: readonly PlayerState[],
    private readonly layout: WeightLayout,
    private readonly compatible: (u: number, v: number) => boolean,
    private readonly initialBye: ByeContext,
  ) {
    const n = sorted.length;
    if (initialBye.singleDownfloaterIsBye) throw new NeedsFullGraph('the bye is in the top score group');
    this.local = new Int32Array(n).fill(-1);
    this.inStage = new Uint8Array(n);
    this.frozen = new Uint8Array(n);
    this.mate = Array.from({ length: n }, (_, v) => v);
    this.mayNotTakeBye = new Uint8Array(n);
    this.bye = initialBye;
    this.completionFields = [0n, 1n, 2n].map((c) => (1n + c) << completionShift(layout));
    // The rest is paired among itself and with the stage's single players, never two of those
    // together. With an odd field, one more vertex (n) stands for the bye: it pairs with whoever
    // may take the bye, so the question is always whether everyone can be paired.
    this.completion = new Completion(n + 1, (u, v) =>
      u === n ? this.mayTakeBye(v) : v === n ? this.mayTakeBye(u) : compatible(u, v) && !(this.inStage[u] && this.inStage[v]),
    );
    this.floater = new Uint8Array(n);
    this.nextGroup = new Completion(n, (u, v) => !(this.floater[u] && this.floater[v]) && this.pairNumber[edgeIndex(this.local[u]!, this.local[v]!)]! > 0);
    this.standIn = new Uint8Array(n);
    const standIn = n + 1;
    this.below = new Completion(n + 2, (u, v) => {
      if (u === standIn || v === standIn) {
        const other = u === standIn ? v : u;
        return other === n ? this.standInMayTakeBye : this.standIn[other] === 1;
      }
      return u === n ? this.mayTakeBye(v) : v === n ? this.mayTakeBye(u) : compatible(u, v);
    });
  }

  /** Whether v may take the bye as the stage's bye context stands. */
  private mayTakeBye(v: number): boolean {
    return this.sorted[v]!.byeEligible && this.sorted[v]!.score <= this.bye.byeScore;
  }

  beginStage(bracket: readonly number[], next: number, bye: ByeContext, mdps: number, bracketSize: number, weights: readonly bigint[]): void {
    for (const v of this.stage) this.inStage[v] = 0;
    for (const v of bracket) this.inStage[v] = 1;
    this.stage = bracket;
    this.next = next;
    this.bye = bye;
    this.bracketSize = bracketSize;
    this.belowPlayers = null;
    this.belowAlone = null;
    this.standInFor = '';
    this.weights = weights;
    if (this.exact) return;
    const odd = this.sorted.length % 2 === 1;
    // A stage that holds everyone left has no pair outside it: its own weights are exact (the
    // argument in docs/dutch-pairing.md), whatever C9 adds to them.
    const mayReachBye = bye.singleDownfloaterIsBye || (odd && bracket.some((v) => this.sorted[v]!.score <= bye.byeScore));
    if (mayReachBye && next < this.sorted.length) {
      this.becomeExact();
      return;
    }
    if (mayReachBye) this.stageCounts.lastStage += 1;
    // A new graph over the stage's players; of the pairs set before, only those between two
    // players moved down from the last bracket (the first `mdps`) stay as they were: the procedure
    // sets all others (the last stage's next score group, now residents, among them).
    const carried = bracket.slice(0, mdps).filter((v) => this.local[v]! >= 0);
    const carriedPairs: [number, number, number][] = [];
    for (let i = 1; i < carried.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const number = this.pairNumber[edgeIndex(this.local[carried[i]!]!, this.local[carried[j]!]!)]!;
        if (number >= 0) carriedPairs.push([carried[i]!, carried[j]!, number]);
      }
    }
    for (const v of this.sorted.keys()) this.local[v] = -1;
    bracket.forEach((v, i) => (this.local[v] = i));
    const m = (bracket.length * (bracket.length - 1)) / 2;
    // The C8 check rests on a pair of moved-down players never being an edge (docs/dutch-pairing.md).
    const mdpPair = carriedPairs.some(([a, b, number]) => number !== 0 && this.local[a]! < mdps && this.local[b]! < mdps);
    // C9's terms (bye.singleDownfloaterIsBye) fall on the next score group's pairs too, which the
    // C8 check does not weigh: such a stage is solved whole.
    this.bracketOnly = bracketSize < bracket.length && !mdpPair && !bye.singleDownfloaterIsBye;
    if (this.bracketOnly) this.stageCounts.bracketOnly += 1;
    this.graph = new WeightedGraph(this.bracketOnly ? bracketSize : bracket.length);
    this.pairNumber = new Int32Array(m).fill(-1);
    const before = this.pairWeights;
    // A stage without a next score group holds bracket pairs only: it takes the bracket's weights
    // as its own. On the bracket alone they are a second table, for a graph that may widen.
    const scores = (players: readonly number[]): Set<number> => new Set(players.map((v) => this.sorted[v]!.score));
    const c9 = bye.singleDownfloaterIsBye;
    const pairWeights = new StagePairWeights(
      weights,
      this.completionFields,
      bracketSize === bracket.length ? StageWeights.forBracket(this.layout, scores(bracket), c9) : StageWeights.for(this.layout, scores(bracket), c9),
      this.bracketOnly ? StageWeights.forBracket(this.layout, scores(bracket.slice(0, bracketSize)), c9) : null,
    );
    this.pairWeights = pairWeights;
    this.shares.clear();
    for (const v of bracket) this.mayNotTakeBye[v] = this.mayTakeBye(v) ? 0 : 1;
    for (const [a, b, number] of carriedPairs) this.record(a, b, pairWeights.carried(before!, number));
  }

  /** Sets a pair of the stage graph to a weight by its number in pairWeights (-1: it has none). */
  private record(a: number, b: number, number: number): void {
    if (number < 0) throw new NeedsFullGraph(`the pair ${a}-${b} has no quality weight inside its stage`);
    const k = edgeIndex(this.local[a]!, this.local[b]!);
    // Unchanged: the graph holds it already (or, on the bracket alone, leaves it out).
    if (this.pairNumber[k] === number) return;
    this.pairNumber[k] = number;
    if (!this.bracketOnly) {
      this.graph.setWeight(this.local[a]!, this.local[b]!, this.pairWeights!.short[number]!, number);
      return;
    }
    if (this.local[a]! >= this.bracketSize || this.local[b]! >= this.bracketSize) return;
    const short = this.pairWeights!.bracketShort(number);
    if (short === null) throw new NeedsFullGraph(`the pair ${a}-${b} sets bits outside its bracket`);
    this.graph.setWeight(this.local[a]!, this.local[b]!, short, number);
  }

  setWeight(a: number, b: number, id: number, adjustment: number): void {
    if (this.exact) {
      this.graph.setWeight(this.local[a]!, this.local[b]!, id === 0 ? 0n : this.weights[id]! + BigInt(adjustment));
      return;
    }
    this.record(a, b, this.pairWeights!.numberOf(id, this.mayNotTakeBye[a]! + this.mayNotTakeBye[b]!, adjustment));
  }

  setShare(v: number, share: bigint): void {
    if (!this.bracketOnly || this.local[v]! < this.bracketSize) this.graph.setShare(this.local[v]!, share);
    if (!this.exact) this.shares.set(v, share);
  }

  solve(): readonly number[] {
    let found = this.graph.maximumWeightMatching();
    if (this.exact) return this.take(found);
    if (this.bracketOnly) {
      if (this.c8Holds(found)) return this.take(found);
      this.widen();
      found = this.graph.maximumWeightMatching();
    }
    if (this.completes(found)) return this.take(found);
    if (this.next < this.sorted.length) throw new NeedsFullGraph('the rest of the field cannot be completed');
    // The stage is everyone left, so its exact graph is no larger than the stage graph.
    this.becomeExact();
    this.stageCounts.lastStageExact += 1;
    return this.take(this.graph.maximumWeightMatching());
  }

  /**
   * From the bracket alone to the whole stage (the bracket and its next score group) over the
   * players not yet paired, from the pairs as the bracket procedure last set them.
   */
  private widen(): void {
    const active = this.stage.flatMap((v, i) => (this.frozen[v] ? [] : [i]));
    const graph = new WeightedGraph(this.stage.length, active);
    for (let i = 1; i < active.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const number = this.pairNumber[edgeIndex(active[i]!, active[j]!)]!;
        if (number > 0) graph.setWeight(active[i]!, active[j]!, this.pairWeights!.short[number]!, number);
      }
    }
    for (const [v, share] of this.shares) graph.setShare(this.local[v]!, share);
    this.graph = graph;
    this.bracketOnly = false;
    this.stageCounts.widened += 1;
  }

  excludes(a: number, b: number): boolean {
    // Every whole-field optimum is a stage optimum here (the stage's optimum leaves a completable
    // rest); on the bracket alone, its part in the bracket is a bracket optimum (the C8 check).
    if (this.bracketOnly && (this.local[a]! >= this.bracketSize || this.local[b]! >= this.bracketSize)) return false;
    return this.graph.excludes(this.local[a]!, this.local[b]!);
  }

  tryPair(a: number, b: number): readonly number[] | null {
    const plan = this.graph.planMatch(this.local[a]!, this.local[b]!);
    if (!plan) return null;
    if (this.exact) {
      this.graph.applyMatch(plan);
      return this.take(this.graph.matching());
    }
    // The changed optimum must leave a completable rest too.
    const found = this.graph.matching();
    for (const v of plan.singles) found[v] = v;
    for (const [u, v] of plan.pairs) {
      found[u] = v;
      found[v] = u;
    }
    if (this.bracketOnly ? !this.c8Holds(found) : !this.completes(found)) return null;
    this.graph.applyMatch(plan);
    return this.take(found);
  }

  /** Whether the players a stage matching (local vertices) leaves single, and everyone below, can all be paired. */
  private completes(found: readonly number[]): boolean {
    const { stage } = this;
    const rest: number[] = [];
    stage.forEach((v, i) => {
      if (!this.frozen[v] && found[i] === i) rest.push(v);
    });
    for (let v = this.next; v < this.sorted.length; v += 1) rest.push(v);
    if (this.sorted.length % 2 === 1) rest.push(this.sorted.length);
    return this.completion.completes(rest);
  }

  /**
   * On the bracket alone: whether the solve's bracket matching, with its single players (the
   * floaters F) moving down, lets the next score group G reach the best C8 value any choice of
   * floaters could: every floater paired into G, the rest of G paired among itself but for one
   * player when |F| + |G| is odd, and that one and everyone below completable.
   */
  private c8Holds(found: readonly number[]): boolean {
    const { stage, floater } = this;
    const floaters: number[] = [];
    for (let i = 0; i < found.length; i += 1) if (!this.frozen[stage[i]!] && found[i] === i) floaters.push(stage[i]!);
    const group = stage.slice(this.bracketSize);
    if (floaters.length > group.length) return false;
    floater.fill(0);
    for (const v of floaters) floater[v] = 1;
    const n = this.sorted.length;
    const below = (this.belowPlayers ??= this.playersBelow());
    const players = [...floaters, ...group];
    if (players.length % 2 === 0) {
      if (!this.nextGroup.completes(players)) return false;
      this.belowAlone ??= this.below.completes(below);
      return this.belowAlone;
    }
    const out = this.nextGroup.leftOut(players);
    const spare = out === null ? [] : out.filter((v) => !floater[v]);
    if (spare.length === 0) return false;
    const key = spare.join(' ');
    if (key !== this.standInFor) {
      this.standInFor = key;
      for (let b = this.next; b < n; b += 1) this.standIn[b] = spare.some((g) => this.compatible(g, b)) ? 1 : 0;
      this.standInMayTakeBye = spare.some((g) => this.mayTakeBye(g));
    }
    return this.below.completes([...below, n + 1]);
  }

  private playersBelow(): number[] {
    const n = this.sorted.length;
    const below: number[] = [];
    for (let v = this.next; v < n; v += 1) below.push(v);
    if (n % 2 === 1) below.push(n);
    return below;
  }

  /** mate from a matching of the graph (by local vertex: over the stage, or once exact everyone left). */
  private take(found: readonly number[]): readonly number[] {
    const { mate } = this;
    const players = this.exact ? this.left : this.stage;
    // A widened or exact graph leaves out the pairs frozen before: they keep their partners.
    players.forEach((v, i) => {
      if (!this.frozen[v]) mate[v] = i < found.length ? players[found[i]!]! : v;
    });
    return mate;
  }

  freeze(a: number, b: number): void {
    this.frozen[a] = this.frozen[b] = 1;
    this.graph.freezePair(this.local[a]!, this.local[b]!);
  }

  private completionWeight(a: number, b: number): bigint {
    const [higher, lower] = a < b ? [a, b] : [b, a];
    return completionPart(this.sorted[higher]!, this.sorted[lower]!, this.layout, this.bye);
  }

  /**
   * From now on: one graph over everyone not yet paired, with the whole-field weights. Its
   * vertices are those players alone, in ranking order (a graph over the whole field would hold
   * edge arrays for every pair of it: ~9 MB at 999 players, for the few dozen left).
   */
  private becomeExact(): void {
    const left = this.sorted.flatMap((_, v) => (this.frozen[v] ? [] : [v]));
    const exact = new WeightedGraph(left.length);
    for (let i = 1; i < left.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const u = left[j]!;
        const v = left[i]!;
        const k = this.local[u]! >= 0 && this.local[v]! >= 0 ? edgeIndex(this.local[u]!, this.local[v]!) : -1;
        let weight: bigint;
        if (k >= 0 && this.pairNumber[k]! >= 0)
          weight = this.pairNumber[k] === 0 ? 0n : this.pairWeights!.quality(this.pairNumber[k]!) + this.completionWeight(u, v);
        else weight = this.compatible(u, v) ? completionPart(this.sorted[u]!, this.sorted[v]!, this.layout, this.initialBye) : 0n;
        if (weight !== 0n) exact.setWeight(i, j, weight);
      }
    }
    for (const v of this.sorted.keys()) this.local[v] = -1;
    left.forEach((v, i) => (this.local[v] = i));
    this.left = left;
    this.graph = exact;
    this.exact = true;
    this.bracketOnly = false;
    this.pairWeights = null;
    this.pairNumber = new Int32Array(0);
  }
}
