// Maximum-weight matching in a general graph: Edmonds' blossom algorithm with the primal-dual
// method (Galil, "Efficient algorithms for finding maximum matching in graphs", 1986), kept warm
// between solves. The pairing procedure changes the weights at a few vertices and asks again,
// hundreds of times per round; re-solving from scratch would cost O(n^3) each time. Instead:
// - the previous matching, duals and blossoms are kept; a vertex whose edges changed leaves the
//   matching, the blossom holding it is dissolved (its dual pushed onto its vertices), and its dual
//   is raised until every edge is feasible again (a matched edge that only got heavier or lighter
//   keeps its pair when one end's dual can absorb the change);
// - single vertices with a positive dual are the roots of the search; one whose dual reaches 0 is
//   simply left single (a matched S-vertex reaching 0 gives its place to its root);
// - after an augmentation only the two trees involved are taken apart, the rest of the forest
//   stays; the least-slack edges for dual changes are looked up lazily and checked before use;
// - decided pairs leave the graph (freezePair).
//
// Weights come as BigInt because the Dutch criteria are packed into one lexicographic number that
// outgrows 53 bits. A weight of 0 means "no edge". Internally weights are 4w * 2^scale so that
// halving an S-S slack stays exact: slack(i, j) = dual[i] + dual[j] - w4(i, j). Those internal
// numbers, the duals and the slacks are fixed-width integers of a few Float64 limbs (limbs.ts),
// computed in place into scratch arrays: no allocation per slack. The width follows the widest
// weight set (the layout is redone, through BigInt, when a wider one comes).

import * as limbs from './limbs.ts';
import { BestKeys, NearestS } from './nearest-s.ts';

/** Vertices from which a graph holds its weights as a square matrix (see WeightedGraph.w4). */
const SQUARE_FROM = 512;

const edgeIndex = (a: number, b: number): number => (a > b ? (a * (a - 1)) / 2 + b : (b * (b - 1)) / 2 + a);

/** A change of the current optimum that keeps it optimal (see WeightedGraph.planMatch). */
export interface MatchPlan {
  /** Edges matched anew. */
  readonly pairs: readonly (readonly [number, number])[];
  /** Vertices left single (each has dual 0). */
  readonly singles: readonly number[];
}

/**
 * The edges changed since the last solve, in the order first changed, each with whether its
 * first-named end is the higher vertex. A flag per edge and a list, not a Map: a re-solve after
 * the ordering fields follows tens of thousands of changes, and a Map's entries were most of the
 * matcher's garbage (999 players round 2: 39 of 200 MB allocated).
 */
class ChangedEdges {
  /** state[k]: 0 unchanged, 1 changed with the lower end named first, 2 with the higher. */
  private readonly state: Uint8Array;
  private list: Int32Array = new Int32Array(64);
  size = 0;

  constructor(edges: number) {
    this.state = new Uint8Array(edges);
  }

  has(k: number): boolean {
    return this.state[k] !== 0;
  }

  /** The i-th edge changed. */
  edge(i: number): number {
    return this.list[i]!;
  }

  highFirst(k: number): boolean {
    return this.state[k] === 2;
  }

  add(k: number, highFirst: boolean): void {
    if (this.state[k] !== 0) return;
    this.state[k] = highFirst ? 2 : 1;
    if (this.size === this.list.length) {
      const longer = new Int32Array(2 * this.size);
      longer.set(this.list);
      this.list = longer;
    }
    this.list[this.size++] = k;
  }

  /** Keeps the edges `keep` accepts, in their order. */
  retain(keep: (k: number) => boolean): void {
    let kept = 0;
    for (let i = 0; i < this.size; i += 1) {
      const k = this.list[i]!;
      if (keep(k)) this.list[kept++] = k;
      else this.state[k] = 0;
    }
    this.size = kept;
  }

  clear(): void {
    for (let i = 0; i < this.size; i += 1) this.state[this.list[i]!] = 0;
    this.size = 0;
  }
}

export class WeightedGraph {
  /** Weight of edge k as given. */
  private readonly raw: bigint[];
  /** raw[k] !== 0n, kept apart: the scans test it for every edge, and a byte is read far faster. */
  private readonly present: Uint8Array;
  /**
   * Limbs per number (limbs.ts); w4 (4w * 2^scale, the scale the duals live in) and the duals as
   * such numbers, at cell(a, b). From SQUARE_FROM vertices w4 is a square matrix, each edge held
   * twice, at cell(a, b) and cell(b, a): the scans read one vertex's edges in a row, from
   * consecutive memory (read down a column of a triangle, each edge's limbs fell in another cache
   * line, and the scans were waiting on memory). Its rows and columns are the vertices in the graph
   * at the start (`position`), not all `size`: a widened stage graph spans the whole stage but
   * holds only the players not yet paired. A smaller graph keeps the triangle (edge k at
   * k * width): there the twice-held matrix measured no faster and its memory shows in the peak.
   */
  private width = 2;
  private w4: Float64Array;
  /** position[v]: v's row in w4, -1 for a vertex never in the graph; span: the rows. */
  private readonly position: Int32Array;
  private readonly span: number;
  private readonly square: boolean;
  private readonly edgeHigh: Int32Array;
  private readonly edgeLow: Int32Array;
  /** mate[v]: the remote endpoint (2k or 2k+1) of v's matched edge, or -1. */
  private readonly mate: Int32Array;
  private dual: Float64Array;
  /** Scratch numbers (slacks and the like), four of them. */
  private scratch: Float64Array;
  /** Every |weight| set is below 2^weightBits. */
  private weightBits = 0;
  private weightLimit = 1n;
  /** Limbs of w4 by weight, for the current width and scale (see writeW4). */
  private readonly converted = new Map<bigint, Float64Array>();
  /** The same by the caller's number of the weight, where it numbers them (setWeight). */
  private readonly convertedByNumber: (Float64Array | undefined)[] = [];
  private readonly inblossom: Int32Array;
  private readonly blossomparent: Int32Array;
  private readonly blossombase: Int32Array;
  private readonly blossomchilds: (number[] | null)[];
  private readonly blossomendps: (number[] | null)[];
  private readonly unusedblossoms: number[];
  /** Edges changed since the last solve: whether the first-named end is the higher vertex. */
  private readonly changed: ChangedEdges;
  private solved = false;
  /** Internal weights are 4w * 2^scale. */
  private scale = 0;
  /** Vertices still to be matched; a frozen pair leaves the graph for good. */
  private active: number[];
  private readonly frozen: Uint8Array;
  /** share[v]: the part of its pair's weight v is expected to carry (setShare); raise[v]: its rise not yet given to v's dual. */
  private readonly share: bigint[];
  private readonly raise = new Map<number, bigint>();
  /** The searches' nearest S-vertices, kept from solve to solve while w4 stays (runStages). */
  private nearestS: NearestS | null = null;
  /** Tight edges of the current search (all zero between solves). */
  private readonly allowedFlags: Uint8Array;

  /** `active`: the vertices in the graph (default all). */
  constructor(
    readonly size: number,
    active?: readonly number[],
  ) {
    const n = size;
    const m = (n * (n - 1)) / 2;
    this.raw = new Array<bigint>(m).fill(0n);
    this.present = new Uint8Array(m);
    this.active = active ? [...active] : Array.from({ length: n }, (_, i) => i);
    this.position = new Int32Array(n).fill(-1);
    this.active.forEach((v, i) => (this.position[v] = i));
    this.span = this.active.length;
    this.square = this.span >= SQUARE_FROM;
    // Laid out at the first weight (ensureWidth): a stage's weights are wider than the first
    // width, and a matrix at that width would be garbage at once (10 MB at 2,000 players).
    this.w4 = new Float64Array(0);
    this.edgeHigh = new Int32Array(m);
    this.edgeLow = new Int32Array(m);
    for (let i = 1, k = 0; i < n; i += 1) {
      for (let j = 0; j < i; j += 1, k += 1) {
        this.edgeHigh[k] = i;
        this.edgeLow[k] = j;
      }
    }
    this.mate = new Int32Array(n).fill(-1);
    this.dual = new Float64Array(2 * n * this.width);
    this.scratch = new Float64Array(4 * this.width);
    this.inblossom = Int32Array.from({ length: n }, (_, i) => i);
    this.blossomparent = new Int32Array(2 * n).fill(-1);
    this.blossombase = Int32Array.from({ length: 2 * n }, (_, i) => (i < n ? i : -1));
    this.blossomchilds = new Array<number[] | null>(2 * n).fill(null);
    this.blossomendps = new Array<number[] | null>(2 * n).fill(null);
    this.unusedblossoms = Array.from({ length: n }, (_, i) => 2 * n - 1 - i);
    this.frozen = new Uint8Array(n);
    this.share = new Array<bigint>(n).fill(0n);
    this.allowedFlags = new Uint8Array(m);
    this.changed = new ChangedEdges(m);
  }

  /**
   * Makes the limbs wide enough for the weights set and `extraScale` more doublings. Every value
   * the search holds (w4, duals, the nearest-S keys) stays within a few times the largest w4, and a
   * slack sums three of them: 8 bits over the largest w4 cover that. 16 more spare most re-layouts.
   */
  private ensureWidth(extraScale: number): void {
    const needed = this.weightBits + 2 + this.scale + extraScale + 8;
    if (needed <= limbs.capacityBits(this.width)) {
      if (this.w4.length === 0) this.w4 = new Float64Array(this.cells() * this.width);
      return;
    }
    const width = limbs.limbsFor(needed + 16);
    const old = this.width;
    const duals = Array.from({ length: this.dual.length / old }, (_, b) => limbs.read(this.dual, b * old, old));
    this.width = width;
    this.dual = new Float64Array(duals.length * width);
    duals.forEach((d, b) => limbs.write(this.dual, b * width, width, d));
    this.w4 = new Float64Array(this.cells() * width);
    const shift = BigInt(2 + this.scale);
    for (let k = 0; k < this.raw.length; k += 1) {
      if (!this.present[k] || this.position[this.edgeHigh[k]!]! < 0 || this.position[this.edgeLow[k]!]! < 0) continue;
      limbs.write(this.w4, this.cell(this.edgeHigh[k]!, this.edgeLow[k]!), width, this.raw[k]! << shift);
      if (this.square) limbs.copy(this.w4, this.cell(this.edgeLow[k]!, this.edgeHigh[k]!), this.w4, this.cell(this.edgeHigh[k]!, this.edgeLow[k]!), width);
    }
    this.scratch = new Float64Array(4 * width);
    this.converted.clear();
    this.convertedByNumber.length = 0;
  }

  /**
   * w4[k] from the weight. A stage's weights repeat (a few kinds of pair, a few adjustments of
   * each), and converting a BigInt limb by limb costs more than the matcher's use of it, so the
   * limbs of recent weights are kept (a bounded cache, emptied when the layout changes); a
   * numbered weight's by its number, without hashing the BigInt (whose hash reads only its lowest
   * 64 bits, which many of a stage's weights share).
   */
  private writeW4(k: number, weight: bigint, number: number): void {
    const high = this.edgeHigh[k]!;
    const low = this.edgeLow[k]!;
    // An edge of a vertex never in the graph is never read: nothing to convert. Nor is a weight 0
    // before the layout (it will read 0).
    if (this.position[high]! < 0 || this.position[low]! < 0 || this.w4.length === 0) return;
    const { width } = this;
    let cached = number >= 0 ? this.convertedByNumber[number] : this.converted.get(weight);
    if (cached === undefined) {
      cached = new Float64Array(width);
      limbs.write(cached, 0, width, weight << BigInt(2 + this.scale));
      if (number >= 0) this.convertedByNumber[number] = cached;
      else {
        if (this.converted.size >= 4096) this.converted.clear();
        this.converted.set(weight, cached);
      }
    }
    this.w4.set(cached, this.cell(high, low));
    if (this.square) this.w4.set(cached, this.cell(low, high));
  }

  private cells(): number {
    return this.square ? this.span * this.span : this.raw.length;
  }

  /** Offset of w4(a, b) in w4. */
  private cell(a: number, b: number): number {
    return (this.square ? this.position[a]! * this.span + this.position[b]! : edgeIndex(a, b)) * this.width;
  }

  /**
   * Fixes the pair a-b (matched to each other now) for good: as if their edge outweighed every
   * other, so every later optimum contains it. Both leave the graph, which makes later solves cheaper.
   */
  freezePair(a: number, b: number): void {
    if (this.mate[a]! < 0 || this.endpoint(this.mate[a]!) !== b) throw new Error(`cannot freeze ${a}-${b}: not matched to each other`);
    if (this.inblossom[a] !== a || this.inblossom[b] !== b) {
      // Not expected (a frozen pair is never inside a blossom) but keep the structure valid.
      for (const v of [a, b]) {
        const top = this.topBlossom(v);
        if (top >= this.size) this.dissolveTop(top, [a, b]);
      }
    }
    this.frozen[a] = this.frozen[b] = 1;
    this.active = this.active.filter((v) => v !== a && v !== b);
    this.changed.retain((k) => !this.frozen[this.edgeHigh[k]!] && !this.frozen[this.edgeLow[k]!]);
  }

  /**
   * A hint, never needed for the optimum: v is expected to carry `share` of its pair's weight,
   * as when every edge of v as the higher player carries an addend and the optimum pairs v
   * downwards. The cold start gives v's dual this share before splitting the rest of each edge;
   * once solved, a larger share raises v's dual by the increase at the next solve. Any such start is
   * feasible (duals only rise from a feasible start; see coldStart), so a wrong hint costs work only.
   */
  setShare(v: number, share: bigint): void {
    if (this.frozen[v] || share < 0n || share >= this.weightLimit) return;
    if (this.solved && share > this.share[v]!) this.raise.set(v, (this.raise.get(v) ?? 0n) + share - this.share[v]!);
    this.share[v] = share;
  }

  weight(a: number, b: number): bigint {
    return a === b ? 0n : this.raw[edgeIndex(a, b)]!;
  }

  /**
   * Changes one weight. Of the two ends, `a` is the one re-examined if the change needs it.
   * `number`: the caller's number for this weight, if it numbers its weights (one number, one
   * weight, for the graph's life); its limbs are then converted once per number.
   */
  setWeight(a: number, b: number, weight: bigint, number = -1): void {
    if (a === b) return;
    const k = edgeIndex(a, b);
    if (this.raw[k] === weight) return;
    if (weight >= this.weightLimit || (weight < 0n && -weight >= this.weightLimit)) {
      this.weightBits = (weight < 0n ? -weight : weight).toString(16).length * 4;
      this.weightLimit = 1n << BigInt(this.weightBits);
      this.ensureWidth(0);
    }
    this.raw[k] = weight;
    this.present[k] = weight === 0n ? 0 : 1;
    this.writeW4(k, weight, number);
    // Before the first solve nothing is kept to repair: the cold start reads every edge.
    if (!this.solved || this.frozen[a] || this.frozen[b]) return;
    // Taking away an unmatched edge that no blossom holds keeps the matching and the duals
    // optimal: one dual constraint goes, and no matched or blossom edge depended on it.
    if (weight === 0n && !this.changed.has(k) && !this.matchedEdge(k) && this.topBlossom(a) !== this.topBlossom(b)) return;
    this.changed.add(k, a > b);
  }

  /**
   * Whether the current duals show that no maximum-weight matching pairs a with b: their edge is
   * not tight, and complementary slackness holds between every optimal matching and every optimal
   * dual solution. With a and b in one blossom the blossom's dual enters their edge's slack, so
   * this answers false; also when weights changed since the last solve.
   */
  excludes(a: number, b: number): boolean {
    if (!this.solved || this.changed.size > 0 || a === b || this.frozen[a] || this.frozen[b]) return false;
    const k = edgeIndex(a, b);
    if (!this.present[k]) return true;
    return this.topBlossom(a) !== this.topBlossom(b) && this.slackSign(k) > 0;
  }

  private matchedEdge(k: number): boolean {
    const p = this.mate[this.edgeHigh[k]!]!;
    return p >= 0 && p >> 1 === k;
  }

  /** mate[v] is v's partner in a maximum-weight matching, or v itself when v stays single. */
  maximumWeightMatching(): number[] {
    if (!this.solved) this.coldStart();
    else this.warmStart();
    this.changed.clear();
    this.solved = true;
    this.runStages();
    this.shrink();
    return this.matching();
  }

  /** The current matching: mate[v] is v's partner, or v itself. */
  matching(): number[] {
    const result: number[] = [];
    for (let v = 0; v < this.size; v += 1) result.push(this.partner(v));
    return result;
  }

  /**
   * How to put a-b into the current optimum without solving again: a and b leave their partners,
   * and each partner left without one is either left single (if its dual is 0) or given a new one
   * along a short alternating path of tight edges (ending at a single vertex, at the other partner,
   * or releasing a vertex whose dual is 0). The result is an optimum too, by complementary
   * slackness with the current duals: its matched edges are tight, every single vertex has dual 0,
   * and no blossom is touched (no vertex involved lies in one). Null when no such change is found
   * within a short search, or weights changed since the last solve.
   */
  planMatch(a: number, b: number): MatchPlan | null {
    if (!this.solved || this.changed.size > 0) return null;
    if (this.partner(a) === b) return { pairs: [], singles: [] };
    const free = (v: number): boolean => this.inblossom[v] === v && !this.frozen[v];
    const tight = (u: number, v: number): boolean => {
      const k = edgeIndex(u, v);
      return this.present[k] === 1 && this.slackSign(k) === 0;
    };
    if (!free(a) || !free(b) || !tight(a, b)) return null;
    const now = new Map<number, number>([
      [a, b],
      [b, a],
    ]);
    const partnerNow = (v: number): number => now.get(v) ?? this.partner(v);
    const pairs: [number, number][] = [[a, b]];
    const singles: number[] = [];
    const used = new Set([a, b]);
    const left = [a, b].map((v) => this.partner(v)).filter((p) => p !== a && p !== b);
    for (const p of left) now.set(p, p);
    for (const start of left) {
      if (partnerNow(start) !== start) continue; // paired by the other one's path
      if (!free(start)) return null;
      if (this.dualIsZero(start)) {
        singles.push(start);
        used.add(start);
        continue;
      }
      const path = this.alternatingPath(start, used, partnerNow, free, tight);
      if (!path) return null;
      for (const [u, w] of path.pairs) {
        pairs.push([u, w]);
        now.set(u, w);
        now.set(w, u);
        used.add(u);
        used.add(w);
      }
      if (path.released >= 0) {
        singles.push(path.released);
        now.set(path.released, path.released);
        used.add(path.released);
      }
    }
    return { pairs, singles };
  }

  /** Breadth-first over tight edges from `start` (single now) to a way of pairing it; a few steps at most. */
  private alternatingPath(
    start: number,
    used: ReadonlySet<number>,
    partnerNow: (v: number) => number,
    free: (v: number) => boolean,
    tight: (u: number, v: number) => boolean,
  ): { pairs: [number, number][]; released: number } | null {
    const reachedFrom = new Map<number, number>(); // inner vertex -> the outer vertex before it
    const outerVia = new Map<number, number>(); // outer vertex -> its current partner (inner)
    const seen = new Set<number>([start]);
    const queue = [start];
    const flip = (outer: number, inner: number): [number, number][] => {
      const pairs: [number, number][] = [[outer, inner]];
      for (let t = outer; t !== start;) {
        const i = outerVia.get(t)!;
        const o = reachedFrom.get(i)!;
        pairs.push([o, i]);
        t = o;
      }
      return pairs;
    };
    for (let steps = 0; steps < 48 && steps < queue.length; steps += 1) {
      const u = queue[steps]!;
      for (const w of this.active) {
        if (w === u || seen.has(w) || used.has(w) || !free(w) || !tight(u, w)) continue;
        const wm = partnerNow(w);
        if (wm === w) return { pairs: flip(u, w), released: -1 };
        if (seen.has(wm) || used.has(wm) || !free(wm)) continue;
        seen.add(w);
        reachedFrom.set(w, u);
        if (this.dualIsZero(wm)) return { pairs: flip(u, w), released: wm };
        seen.add(wm);
        outerVia.set(wm, w);
        queue.push(wm);
      }
    }
    return null;
  }

  /** Carries out a plan from planMatch (no weight changed in between). */
  applyMatch(plan: MatchPlan): void {
    for (const v of plan.singles) this.mate[v] = -1;
    for (const [u, v] of plan.pairs) this.matchEdge(u, v);
  }

  private matchEdge(u: number, v: number): void {
    const k = edgeIndex(u, v);
    // mate[] holds the remote endpoint: 2k + 1 names the edge's lower vertex, 2k its higher.
    this.mate[u] = u > v ? 2 * k + 1 : 2 * k;
    this.mate[v] = v > u ? 2 * k + 1 : 2 * k;
  }

  private partner(v: number): number {
    return this.mate[v]! < 0 ? v : this.endpoint(this.mate[v]!);
  }

  private endpoint(p: number): number {
    return p & 1 ? this.edgeLow[p >> 1]! : this.edgeHigh[p >> 1]!;
  }

  /** slack(k) into `to` at `at`. */
  private slackInto(k: number, to: Float64Array, at: number): void {
    const width = this.width;
    const high = this.edgeHigh[k]!;
    const low = this.edgeLow[k]!;
    limbs.sumMinus(to, at, this.dual, high * width, this.dual, low * width, this.w4, this.cell(high, low), width);
  }

  private slackSign(k: number): number {
    this.slackInto(k, this.scratch, 0);
    return limbs.sign(this.scratch, 0, this.width);
  }

  private dualIsZero(b: number): boolean {
    return limbs.isZero(this.dual, b * this.width, this.width);
  }

  private leaves(b: number, out: number[] = []): number[] {
    if (b < this.size) out.push(b);
    else for (const t of this.blossomchilds[b]!) this.leaves(t, out);
    return out;
  }

  private topBlossom(v: number): number {
    let b = v;
    while (this.blossomparent[b]! !== -1) b = this.blossomparent[b]!;
    return b;
  }

  private coldStart(): void {
    // With shares p (setShare; 0 without a hint): y(v) = p(v) + half the largest reduced weight
    // w(u, v) - p(u) - p(v) over v's edges (at least 0), then at least 0. Feasible: y(u) + y(v) >=
    // p(u) + p(v) + (w(u, v) - p(u) - p(v)). All of one parity (every w4 and every share in w4 units
    // is a multiple of 4). Without shares this is half of each vertex's heaviest edge; with them an
    // edge weight that is mostly one end's addend (the generation order's S1 field) is given to that
    // end, where the optimum's duals hold it, rather than halved between both ends.
    const { active, width, dual, w4, scratch } = this;
    const shared = active.some((v) => this.share[v] !== 0n);
    const potential = new Float64Array(shared ? this.size * width : 0);
    if (shared) for (const v of active) limbs.write(potential, v * width, width, this.share[v]! << BigInt(2 + this.scale));
    for (const v of active) limbs.clear(dual, v * width, width);
    for (let i = 1; i < active.length; i += 1) {
      const vi = active[i]! * width;
      for (let j = 0; j < i; j += 1) {
        const k = edgeIndex(active[i]!, active[j]!);
        if (!this.present[k]) continue;
        const vj = active[j]! * width;
        if (shared) {
          limbs.difference(scratch, 0, w4, this.cell(active[i]!, active[j]!), potential, vi, width);
          limbs.subtractFrom(scratch, 0, potential, vj, width);
          limbs.halve(scratch, 0, scratch, 0, width);
        } else limbs.halve(scratch, 0, w4, this.cell(active[i]!, active[j]!), width);
        if (limbs.compare(scratch, 0, dual, vi, width) > 0) limbs.copy(dual, vi, scratch, 0, width);
        if (limbs.compare(scratch, 0, dual, vj, width) > 0) limbs.copy(dual, vj, scratch, 0, width);
      }
    }
    if (shared) {
      for (const v of active) {
        limbs.addTo(dual, v * width, potential, v * width, width);
        if (limbs.sign(dual, v * width, width) < 0) limbs.clear(dual, v * width, width);
      }
    }
    this.lowerDuals();
  }

  /**
   * Each vertex in turn lowers its dual as far as its edges allow: to the largest w4(u, v) - y(u),
   * at least 0. Every edge stays feasible, and a lowered vertex gets a tight edge (or dual 0). Half the
   * heaviest edge splits a part of the weight that belongs to one end (a flag of that player on
   * all its pairs, such as a float in the round before) between both, so only pairs of two
   * flagged players started tight; lowered, the unflagged ones come down to it and most pairs of
   * the stage start tight, which the first scans match without a dual change.
   */
  private lowerDuals(): void {
    const { active, width, dual, w4, scratch } = this;
    for (const v of active) {
      limbs.clear(scratch, 0, width);
      for (const u of active) {
        if (u === v) continue;
        const k = edgeIndex(u, v);
        if (!this.present[k]) continue;
        limbs.difference(scratch, width, w4, this.cell(v, u), dual, u * width, width);
        if (limbs.compare(scratch, width, scratch, 0, width) > 0) limbs.copy(scratch, 0, scratch, width, width);
      }
      if (limbs.compare(scratch, 0, dual, v * width, width) < 0) limbs.copy(dual, v * width, scratch, 0, width);
    }
  }

  private unmatch(v: number): void {
    const p = this.mate[v]!;
    if (p < 0) return;
    this.mate[this.endpoint(p)] = -1;
    this.mate[v] = -1;
  }

  /**
   * Dissolves the top-level blossom `top` and unmatches each of its vertices (but those in `keep`)
   * whose matched edge is no longer tight: one that left a dissolved sub-blossom.
   */
  private dissolveTop(top: number, keep: readonly number[] = []): void {
    const members = this.leaves(top);
    this.dissolve(top);
    for (const x of members) {
      const p = this.mate[x]!;
      if (p >= 0 && !keep.includes(x) && this.slackSign(p >> 1) !== 0) this.unmatch(x);
    }
  }

  /** Removes blossom `b` and all blossoms inside it, moving their duals onto the vertices. */
  private dissolve(b: number, extra: Float64Array = new Float64Array(this.width)): void {
    const { width, dual } = this;
    const carried = extra.slice();
    limbs.addTo(carried, 0, dual, b * width, width);
    for (const s of this.blossomchilds[b]!) {
      this.blossomparent[s] = -1;
      if (s < this.size) {
        limbs.addTo(dual, s * width, carried, 0, width);
        this.inblossom[s] = s;
      } else this.dissolve(s, carried);
    }
    this.blossomchilds[b] = this.blossomendps[b] = null;
    this.blossombase[b] = -1;
    limbs.clear(dual, b * width, width);
    this.unusedblossoms.push(b);
  }

  /** Smallest slack over v's edges other than `except` (edges to v's own blossom excluded) into `to`, or v's dual. */
  private minSlack(v: number, except: number, to: Float64Array, at: number): void {
    const { width, scratch } = this;
    let found = false;
    for (const u of this.active) {
      if (u === v) continue;
      const k = edgeIndex(u, v);
      if (k === except || !this.present[k]) continue;
      this.slackInto(k, scratch, 3 * width);
      if (!found || limbs.compare(scratch, 3 * width, to, at, width) < 0) limbs.copy(to, at, scratch, 3 * width, width);
      found = true;
    }
    if (!found) limbs.copy(to, at, this.dual, v * width, width);
  }

  private warmStart(): void {
    const n = this.size;
    const { width, dual, w4, scratch } = this;
    const dirty = new Set<number>();
    const single = (v: number): boolean => this.inblossom[v] === v;
    // Scratch: the slack at 0, the least other slack at `width`, a candidate dual at 2 * width.
    const slack = 0;
    const least = width;
    // Shares grown since the last solve (setShare): raising a dual keeps every edge feasible; a
    // matched edge it leaves loose is undone below, a blossom holding the vertex dissolved.
    const raised: number[] = [];
    for (const [v, rise] of this.raise) {
      if (this.frozen[v] || this.position[v]! < 0) continue;
      limbs.write(scratch, slack, width, rise << BigInt(2 + this.scale));
      limbs.addTo(dual, v * width, scratch, slack, width);
      raised.push(v);
    }
    this.raise.clear();
    // A changed edge inside a blossom: the blossom goes first, each vertex taking the duals of the
    // blossoms around it. A slack counts a blossom's dual once per end, so an edge no smaller
    // blossom with a positive dual separates keeps its slack: most matched edges stay matched,
    // and the changed edge is repaired below as any other. Marking both ends for re-examination
    // instead unmatched every player of a blossom spanning the stage (379 of 379 before one D.1 solve).
    const { changed } = this;
    for (let i = 0; i < changed.size; i += 1) {
      const k = changed.edge(i);
      const high = this.edgeHigh[k]!;
      if (this.inblossom[high] === this.inblossom[this.edgeLow[k]!]) this.dissolveTop(this.topBlossom(high));
    }
    // From here no changed edge lies inside a blossom. Matched edges first: the dual raised to
    // keep one tight also covers the other changed edges of that end. The end named first (the
    // vertex whose weights the caller changed) takes it.
    for (let i = 0; i < changed.size; i += 1) {
      const k = changed.edge(i);
      const high = this.edgeHigh[k]!;
      const low = this.edgeLow[k]!;
      if (!this.matchedEdge(k)) continue;
      this.slackInto(k, scratch, slack);
      const slackSign = limbs.sign(scratch, slack, width);
      if (slackSign === 0 && this.raw[k] !== 0n) continue;
      const [first, second] = changed.highFirst(k) ? [high, low] : [low, high];
      const end = single(first) ? first : single(second) ? second : -1;
      const absorbs = (): boolean => {
        if (limbs.compare(dual, end * width, scratch, slack, width) < 0) return false;
        this.minSlack(end, k, scratch, least);
        return limbs.compare(scratch, least, scratch, slack, width) >= 0;
      };
      if (this.raw[k] === 0n) {
        dirty.add(high);
        dirty.add(low);
      } else if (end >= 0 && (slackSign < 0 || absorbs())) limbs.subtractFrom(dual, end * width, scratch, slack, width);
      else {
        dirty.add(high);
        dirty.add(low);
      }
    }
    for (let i = 0; i < changed.size; i += 1) {
      const k = changed.edge(i);
      const high = this.edgeHigh[k]!;
      const low = this.edgeLow[k]!;
      if (this.matchedEdge(k)) continue;
      this.slackInto(k, scratch, slack);
      if (limbs.sign(scratch, slack, width) < 0) {
        // A vertex already re-examined will have its dual raised over all its edges anyway.
        if (dirty.has(high) || dirty.has(low)) continue;
        const end = changed.highFirst(k) ? high : low;
        if (this.mate[end] === -1 && single(end)) limbs.subtractFrom(dual, end * width, scratch, slack, width);
        else dirty.add(end);
      }
    }
    for (const v of raised) {
      if (!single(v)) dirty.add(v);
      else if (this.mate[v]! >= 0 && this.slackSign(this.mate[v]! >> 1) !== 0) this.unmatch(v);
    }
    for (const v of dirty) {
      const top = this.topBlossom(v);
      if (top >= n) this.dissolveTop(top);
    }
    for (const v of dirty) this.unmatch(v);
    const need = 2 * width;
    for (const v of dirty) {
      // need = max(dual[v], 0, max over edges of w4 - dual[u])
      if (limbs.sign(dual, v * width, width) > 0) limbs.copy(scratch, need, dual, v * width, width);
      else limbs.clear(scratch, need, width);
      for (const u of this.active) {
        if (u === v) continue;
        const k = edgeIndex(u, v);
        if (!this.present[k]) continue;
        limbs.difference(scratch, slack, w4, this.cell(v, u), dual, u * width, width);
        if (limbs.compare(scratch, slack, scratch, need, width) > 0) limbs.copy(scratch, need, scratch, slack, width);
      }
      limbs.copy(dual, v * width, scratch, need, width);
    }
    // The search keeps every S-S slack even (so halving it stays exact) only if all roots start
    // with duals of one parity. If not, double every weight and dual: nothing else changes.
    if (this.active.some((v) => this.mate[v] === -1 && !limbs.isEven(dual, v * width))) this.rescale(1);
  }

  /** Multiplies (direction 1) or divides (-1) every internal weight and dual by 2. */
  private rescale(direction: 1 | -1): void {
    if (direction === 1) this.ensureWidth(1);
    this.scale += direction;
    this.converted.clear();
    this.convertedByNumber.length = 0;
    const { width, w4, dual } = this;
    const shift = direction === 1 ? limbs.double : limbs.halve;
    // Only edges between vertices still in the graph are read again (a frozen pair's never are).
    const { active } = this;
    for (let i = 1; i < active.length; i += 1) {
      for (let j = 0; j < i; j += 1) {
        const k = edgeIndex(active[i]!, active[j]!);
        if (!this.present[k]) continue;
        shift(w4, this.cell(active[i]!, active[j]!), w4, this.cell(active[i]!, active[j]!), width);
        if (this.square) shift(w4, this.cell(active[j]!, active[i]!), w4, this.cell(active[j]!, active[i]!), width);
      }
    }
    for (let b = 0; b < 2 * this.size; b += 1) shift(dual, b * width, dual, b * width, width);
  }

  /** Undoes doublings that are no longer needed, keeping the numbers short. */
  private shrink(): void {
    const allEven = (): boolean => {
      for (let b = 0; b < 2 * this.size; b += 1) if (!limbs.isEven(this.dual, b * this.width)) return false;
      return true;
    };
    while (this.scale > 0 && allEven()) this.rescale(-1);
  }

  private runStages(): void {
    const n = this.size;
    const { mate, dual, w4, width, inblossom, blossomparent, blossombase, blossomchilds, blossomendps, position, span, square } = this;
    const active = this.active;
    const label = new Int8Array(2 * n);
    const labelend = new Int32Array(2 * n);
    /** Root (a single vertex) of the alternating tree holding each labelled blossom. */
    const root = new Int32Array(2 * n).fill(-1);
    /** Vertices whose best edge to the forest must be searched afresh (they left a tree). */
    const stale = new Uint8Array(n);
    /** S-vertices whose scan ran to the end in their current episode. */
    const scannedFull = new Uint8Array(n);
    // Slacks only change when the duals do: each dual change is an epoch (BestKeys' cache).
    let epoch = 0;
    /** Scratch numbers: an edge's slack (kslack) and key (kkey), the dual change (delta), a candidate for it. */
    const kslack = new Float64Array(width);
    const kkey = new Float64Array(width);
    const delta = new Float64Array(width);
    const candidate = new Float64Array(width);
    const far = (v: number, k: number): number => (this.edgeHigh[k] === v ? this.edgeLow[k]! : this.edgeHigh[k]!);
    const allowedFlags = this.allowedFlags;
    const allowedList: number[] = [];
    const allowed = {
      has: (k: number): boolean => allowedFlags[k] === 1,
      add: (k: number): void => {
        if (allowedFlags[k] === 0) {
          allowedFlags[k] = 1;
          allowedList.push(k);
        }
      },
      clear: (): void => {
        for (const k of allowedList) allowedFlags[k] = 0;
        allowedList.length = 0;
      },
    };
    let queue: number[] = [];
    const isS = (v: number): boolean => label[inblossom[v]!] === 1;
    // A new width or layout comes with a new w4 (ensureWidth).
    if (this.nearestS?.w4 !== w4) this.nearestS = new NearestS(n, w4, width);
    const { nearestS } = this;
    nearestS.restart(
      // v's row of w4: nearest(v) reads it for many u.
      { isS, blossomOf: (u) => inblossom[u]!, edge: (u, v) => (this.present[edgeIndex(u, v)] ? this.cell(v, u) : -1) },
      2 * active.length + 64,
    );
    // A best edge (u, v) is kept as its key, base(u) - w4(u, v), where base(u) = dual[u] + the
    // deltas so far is fixed while u stays an S-vertex (nearest-s.ts): slack = key + dual[v] -
    // lowered, for a vertex's best edge to the forest and an S-vertex's to the other S-blossoms
    // alike. The key of an edge never changes, so a best edge whose far end has left the forest
    // (another episode now) still bounds v's least key from below: every S-vertex then was at
    // least as far, every S-vertex since was compared when scanned. Only a bound below the delta
    // found without it needs the full search.
    /** Every vertex's (and, marked -1, blossom's) least-slack edge to an S-vertex. */
    const toForest = new BestKeys(2 * n, n, width, dual, nearestS.lowered);
    /** For an S-vertex: its least-slack edge to another S-blossom. */
    const toOtherS = new BestKeys(n, n, width, dual, nearestS.lowered);
    const bestedge = toForest.edge;
    const bestS = toOtherS.edge;
    /** kkey = the key of edge k from the S-vertex u. */
    const keyInto = (u: number, k: number): void => nearestS.keyInto(kkey, 0, u, this.cell(this.edgeHigh[k]!, this.edgeLow[k]!));
    /** Records v's best edge k (-1: none) in `best`, the key in kkey. */
    const setBest = (best: BestKeys, v: number, k: number): void => best.set(v, k, kkey, 0, k === -1 ? 0 : nearestS.episodeOf(far(v, k)));
    // A scan found edge k from the S-vertex u the best of v, with its slack in kslack.
    const foundBest = (best: BestKeys, v: number, u: number, k: number): void => {
      keyInto(u, k);
      best.found(v, k, kkey, 0, nearestS.episodeOf(u), kslack, 0, epoch);
    };
    /** Whether v's best edge in `best` still reaches the S-vertex it was found for (then it is v's least key). */
    const holds = (best: BestKeys, v: number): boolean => {
      const u = far(v, best.edge[v]!);
      return isS(u) && nearestS.episodeOf(u) === best.episodeOf(v);
    };
    const enterS = (vertices: readonly number[]): void => {
      for (const v of vertices) {
        nearestS.beginS(v, dual, v * width);
        // Its scan, before the next dual change, compares every S-vertex.
        bestS[v] = -1;
        scannedFull[v] = 0;
      }
      queue.push(...vertices);
    };
    const endpoint = (p: number): number => this.endpoint(p);
    const leaves = (b: number): number[] => this.leaves(b);

    const assignLabel = (w: number, t: number, p: number): void => {
      const b = inblossom[w]!;
      label[w] = label[b] = t;
      labelend[w] = labelend[b] = p;
      bestedge[w] = bestedge[b] = -1;
      root[w] = root[b] = p === -1 ? w : root[inblossom[endpoint(p)]!]!;
      if (t === 1) enterS(leaves(b));
      else {
        const base = blossombase[b]!;
        assignLabel(endpoint(mate[base]!), 1, mate[base]! ^ 1);
      }
    };

    const scanBlossom = (vIn: number, wIn: number): number => {
      let v = vIn;
      let w = wIn;
      const path: number[] = [];
      let base = -1;
      while (v !== -1 || w !== -1) {
        let b = inblossom[v]!;
        if (label[b]! & 4) {
          base = blossombase[b]!;
          break;
        }
        path.push(b);
        label[b] = 5;
        if (labelend[b] === -1) v = -1;
        else {
          v = endpoint(labelend[b]!);
          b = inblossom[v]!;
          v = endpoint(labelend[b]!);
        }
        if (w !== -1) [v, w] = [w, v];
      }
      for (const b of path) label[b] = 1;
      return base;
    };

    const addBlossom = (base: number, k: number): void => {
      let v = this.edgeHigh[k]!;
      let w = this.edgeLow[k]!;
      const bb = inblossom[base]!;
      let bv = inblossom[v]!;
      let bw = inblossom[w]!;
      const b = this.unusedblossoms.pop()!;
      blossombase[b] = base;
      blossomparent[b] = -1;
      blossomparent[bb] = b;
      const path: number[] = [];
      const endps: number[] = [];
      while (bv !== bb) {
        blossomparent[bv] = b;
        path.push(bv);
        endps.push(labelend[bv]!);
        v = endpoint(labelend[bv]!);
        bv = inblossom[v]!;
      }
      path.push(bb);
      path.reverse();
      endps.reverse();
      endps.push(2 * k);
      while (bw !== bb) {
        blossomparent[bw] = b;
        path.push(bw);
        endps.push(labelend[bw]! ^ 1);
        w = endpoint(labelend[bw]!);
        bw = inblossom[w]!;
      }
      blossomchilds[b] = path;
      blossomendps[b] = endps;
      label[b] = 1;
      labelend[b] = labelend[bb]!;
      root[b] = root[bb]!;
      limbs.clear(dual, b * width, width);
      for (const leaf of leaves(b)) {
        if (label[inblossom[leaf]!] === 2) enterS([leaf]);
        inblossom[leaf] = b;
      }
      for (const child of path) bestedge[child] = -1;
      bestedge[b] = -1;
    };

    const expandBlossom = (b: number, endstage: boolean): void => {
      for (const s of blossomchilds[b]!) root[s] = root[b]!;
      for (const s of blossomchilds[b]!) {
        blossomparent[s] = -1;
        if (s < n) inblossom[s] = s;
        else if (endstage && limbs.isZero(dual, s * width, width)) expandBlossom(s, endstage);
        else for (const leaf of leaves(s)) inblossom[leaf] = s;
      }
      if (!endstage && label[b] === 2) {
        const childs = blossomchilds[b]!;
        const endps = blossomendps[b]!;
        const at = (j: number): number => childs[(j + childs.length) % childs.length]!;
        const ep = (j: number): number => endps[(j + endps.length) % endps.length]!;
        const entrychild = inblossom[endpoint(labelend[b]! ^ 1)]!;
        let j = childs.indexOf(entrychild);
        let jstep: number;
        let endptrick: number;
        if (j & 1) {
          j -= childs.length;
          jstep = 1;
          endptrick = 0;
        } else {
          jstep = -1;
          endptrick = 1;
        }
        let p = labelend[b]!;
        while (j !== 0) {
          label[endpoint(p ^ 1)] = 0;
          label[endpoint(ep(j - endptrick) ^ endptrick ^ 1)] = 0;
          assignLabel(endpoint(p ^ 1), 2, p);
          allowed.add(ep(j - endptrick) >> 1);
          j += jstep;
          p = ep(j - endptrick) ^ endptrick;
          allowed.add(p >> 1);
          j += jstep;
        }
        const bv = at(j);
        label[endpoint(p ^ 1)] = label[bv] = 2;
        labelend[endpoint(p ^ 1)] = labelend[bv] = p;
        bestedge[bv] = -1;
        j += jstep;
        while (at(j) !== entrychild) {
          const child = at(j);
          if (label[child] === 1) {
            j += jstep;
            continue;
          }
          let found = -1;
          for (const leaf of leaves(child)) {
            if (label[leaf] !== 0) {
              found = leaf;
              break;
            }
          }
          if (found >= 0) {
            label[found] = 0;
            label[endpoint(mate[blossombase[child]!]!)] = 0;
            assignLabel(found, 2, labelend[found]!);
          }
          j += jstep;
        }
      }
      label[b] = labelend[b] = -1;
      blossomchilds[b] = blossomendps[b] = null;
      blossombase[b] = -1;
      bestedge[b] = -1;
      this.unusedblossoms.push(b);
    };

    const augmentBlossom = (b: number, v: number): void => {
      let t = v;
      while (blossomparent[t] !== b) t = blossomparent[t]!;
      if (t >= n) augmentBlossom(t, v);
      const childs = blossomchilds[b]!;
      const endps = blossomendps[b]!;
      const at = (j: number): number => childs[(j + childs.length) % childs.length]!;
      const ep = (j: number): number => endps[(j + endps.length) % endps.length]!;
      const i = childs.indexOf(t);
      let j = i;
      let jstep: number;
      let endptrick: number;
      if (i & 1) {
        j -= childs.length;
        jstep = 1;
        endptrick = 0;
      } else {
        jstep = -1;
        endptrick = 1;
      }
      while (j !== 0) {
        j += jstep;
        t = at(j);
        const p = ep(j - endptrick) ^ endptrick;
        if (t >= n) augmentBlossom(t, endpoint(p));
        j += jstep;
        t = at(j);
        if (t >= n) augmentBlossom(t, endpoint(p ^ 1));
        mate[endpoint(p)] = p ^ 1;
        mate[endpoint(p ^ 1)] = p;
      }
      blossomchilds[b] = childs.slice(i).concat(childs.slice(0, i));
      blossomendps[b] = endps.slice(i).concat(endps.slice(0, i));
      blossombase[b] = blossombase[blossomchilds[b]![0]!]!;
    };

    /** Shifts the matched edges along the tree path from s up to its root; s gets endpoint p (or none). */
    const walkToRoot = (start: number, startP: number): void => {
      let s = start;
      let p = startP;
      for (;;) {
        const bs = inblossom[s]!;
        if (bs >= n) augmentBlossom(bs, s);
        mate[s] = p;
        if (labelend[bs] === -1) break;
        const t = endpoint(labelend[bs]!);
        const bt = inblossom[t]!;
        s = endpoint(labelend[bt]!);
        const j = endpoint(labelend[bt]! ^ 1);
        if (bt >= n) augmentBlossom(bt, j);
        mate[j] = labelend[bt]!;
        p = labelend[bt]! ^ 1;
      }
    };

    const alive = new Set<number>();
    const freedFlag = new Uint8Array(n);

    /** Unlabels every blossom of the trees rooted at `dead`; tight edges from surviving trees regrow into them. */
    const resetTrees = (dead: readonly number[]): void => {
      for (const r of dead) alive.delete(r);
      // Tightness of an edge is only guaranteed while its ends keep their labels.
      allowed.clear();
      const killed = new Set(dead);
      const freed: number[] = [];
      const clear = (b: number, wasS: boolean): void => {
        label[b] = 0;
        labelend[b] = -1;
        root[b] = -1;
        bestedge[b] = -1;
        if (b < n) {
          nearestS.endS(b);
          freed.push(b);
          freedFlag[b] = 1;
          // A fully scanned S-vertex's best edge to the other S-blossoms bounds its least slack
          // to the forest left (no S-vertex remains in its blossom; those scanned since compared
          // with it, those still to scan will): it needs no full search. Others were labelled,
          // and scans skip a labelled T-vertex: they must search.
          if (wasS && scannedFull[b]) toForest.takeFrom(toOtherS, b);
          else stale[b] = 1;
          bestS[b] = -1;
        } else for (const c of blossomchilds[b]!) clear(c, wasS);
      };
      for (const v of active) {
        const b = inblossom[v]!;
        if (label[b] !== 0 && killed.has(root[b]!)) clear(b, label[b] === 1);
      }
      for (const v of active) {
        // Sub-vertices of surviving T-blossoms reached from a freed vertex forget it. Scans
        // skipped them while labelled: their best edge is searched in full if they need one.
        if (inblossom[v] !== v && label[v] === 2 && labelend[v]! >= 0 && freedFlag[endpoint(labelend[v]!)]) {
          label[v] = 0;
          labelend[v] = -1;
          stale[v] = 1;
        }
      }
      for (const f of freed) freedFlag[f] = 0;
    };

    /** Recomputes v's least-slack edge to another S-blossom. */
    const refreshBestS = (v: number): void => {
      const u = nearestS.nearest(v);
      const best = u === -1 ? -1 : edgeIndex(u, v);
      if (best !== -1) keyInto(u, best);
      setBest(toOtherS, v, best);
    };
    const refreshBest = (v: number): void => {
      // v is not an S-vertex, so no S-vertex shares its blossom.
      const u = nearestS.nearest(v);
      const best = u === -1 ? -1 : edgeIndex(u, v);
      if (best !== -1) keyInto(u, best);
      setBest(toForest, v, best);
      stale[v] = 0;
    };

    const scan = (v: number): void => {
      const rowV = position[v]! * span * width;
      for (let index = 0; index < active.length; index += 1) {
        const w = active[index]!;
        const bv = inblossom[v]!;
        const bw = inblossom[w]!;
        if (w === v || bv === bw) continue;
        // An edge to a labelled T-vertex changes nothing (its tightness would only be cached):
        // no slack to compute.
        if (label[bw] === 2 && label[w] !== 0) continue;
        const k = edgeIndex(v, w);
        if (!this.present[k]) continue;
        const p = v > w ? 2 * k + 1 : 2 * k; // endpoint at w
        if (!allowed.has(k)) {
          limbs.sumMinus(kslack, 0, dual, v * width, dual, w * width, w4, square ? rowV + position[w]! * width : k * width, width);
          if (limbs.sign(kslack, 0, width) <= 0) allowed.add(k);
        }
        if (allowed.has(k)) {
          if (label[bw] === 0) {
            if (mate[blossombase[bw]!] === -1) {
              // An unlabelled single vertex (zero dual): augment into it.
              const r = root[bv]!;
              walkToRoot(v, p);
              walkToRoot(w, p ^ 1);
              resetTrees([r]);
              return;
            }
            assignLabel(w, 2, p ^ 1);
          } else if (label[bw] === 1) {
            const base = scanBlossom(v, w);
            if (base >= 0) addBlossom(base, k);
            else {
              const r1 = root[bv]!;
              const r2 = root[bw]!;
              walkToRoot(v, p);
              walkToRoot(w, p ^ 1);
              resetTrees([r1, r2]);
              return;
            }
            if (label[inblossom[v]!] !== 1) return;
          } else if (label[w] === 0) {
            label[w] = 2;
            labelend[w] = p ^ 1;
          }
        } else if (label[bw] === 1) {
          if (toOtherS.improves(v, kslack, 0, epoch)) foundBest(toOtherS, v, w, k);
          if (toOtherS.improves(w, kslack, 0, epoch)) foundBest(toOtherS, w, v, k);
        } else if (label[w] === 0) {
          if (stale[w]) continue;
          // Below a bound that stands for every S-vertex: the least now, whether or not the best
          // edge's far end is still in the forest.
          if (toForest.improves(w, kslack, 0, epoch)) foundBest(toForest, w, v, k);
        }
      }
      scannedFull[v] = 1;
    };

    labelend.fill(-1);
    bestedge.fill(-1);
    queue = [];
    for (const v of active) {
      if (mate[v] === -1 && limbs.sign(dual, v * width, width) > 0 && label[inblossom[v]!] === 0) {
        assignLabel(v, 1, -1);
        alive.add(v);
      }
    }
    while (alive.size > 0) {
      while (queue.length > 0) {
        const v = queue.pop()!;
        if (isS(v)) scan(v);
      }
      if (alive.size === 0) break;
      // No augmenting path with the current duals: change them.
      let deltatype = -1;
      limbs.clear(delta, 0, width);
      let deltaedge = -1;
      let deltablossom = -1;
      let deltavertex = -1;
      const sVertices = active.filter(isS);
      for (const v of sVertices) {
        if (deltatype === -1 || limbs.compare(dual, v * width, delta, 0, width) < 0) {
          limbs.copy(delta, 0, dual, v * width, width);
          deltatype = 1;
          deltavertex = v;
        }
      }
      /** A candidate for the dual change: the least so far becomes delta, of its type, through edge k. */
      const offer = (value: Float64Array, at: number, type: number, k: number): void => {
        if (limbs.compare(value, at, delta, 0, width) >= 0) return;
        limbs.copy(delta, 0, value, at, width);
        deltatype = type;
        deltaedge = k;
      };
      const slackToForestAt = (v: number): number => toForest.slackAt(v, epoch);
      /** candidate = half the slack of the S-vertex v's best edge to another S-blossom. */
      const halfSlackToS = (v: number): Float64Array => {
        limbs.halve(candidate, 0, toOtherS.slacks, toOtherS.slackAt(v, epoch), width);
        return candidate;
      };
      // Best edges that still hold first; those that only bound their vertex's least slack are
      // searched in full afterwards, and only where the bound is below the delta found.
      const boundedFree: number[] = [];
      for (const v of active) {
        if (label[inblossom[v]!] !== 0) continue;
        if (stale[v]) refreshBest(v);
        if (bestedge[v] === -1) continue;
        if (holds(toForest, v)) offer(toForest.slacks, slackToForestAt(v), 2, bestedge[v]!);
        else boundedFree.push(v);
      }
      const boundedS: number[] = [];
      for (const v of sVertices) {
        if (bestS[v] === -1) continue;
        if (holds(toOtherS, v) && inblossom[far(v, bestS[v]!)] !== inblossom[v]) offer(halfSlackToS(v), 0, 3, bestS[v]!);
        else boundedS.push(v);
      }
      for (const v of boundedFree) {
        if (limbs.compare(toForest.slacks, slackToForestAt(v), delta, 0, width) >= 0) continue;
        refreshBest(v);
        if (bestedge[v] !== -1) offer(toForest.slacks, slackToForestAt(v), 2, bestedge[v]!);
      }
      for (const v of boundedS) {
        if (limbs.compare(halfSlackToS(v), 0, delta, 0, width) >= 0) continue;
        refreshBestS(v);
        if (bestS[v] !== -1) offer(halfSlackToS(v), 0, 3, bestS[v]!);
      }
      for (let b = n; b < 2 * n; b += 1) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1 && label[b] === 2 && limbs.compare(dual, b * width, delta, 0, width) < 0) {
          limbs.copy(delta, 0, dual, b * width, width);
          deltatype = 4;
          deltablossom = b;
        }
      }
      for (const v of active) {
        const l = label[inblossom[v]!];
        if (l === 1) limbs.subtractFrom(dual, v * width, delta, 0, width);
        else if (l === 2) limbs.addTo(dual, v * width, delta, 0, width);
      }
      for (let b = n; b < 2 * n; b += 1) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1) {
          if (label[b] === 1) limbs.addTo(dual, b * width, delta, 0, width);
          else if (label[b] === 2) limbs.subtractFrom(dual, b * width, delta, 0, width);
        }
      }
      nearestS.lower(delta);
      if (!limbs.isZero(delta, 0, width)) epoch += 1;
      if (deltatype === 1) {
        // An S-vertex reached dual 0. A single one is done; a matched one becomes single
        // by shifting the matched edges along its tree path, so its root gets matched.
        const bs = inblossom[deltavertex]!;
        const r = root[bs]!;
        if (mate[deltavertex] !== -1) {
          if (bs >= n) augmentBlossom(bs, deltavertex);
          mate[deltavertex] = -1;
          // Inside a root blossom the vertex simply becomes its (single) base.
          if (labelend[bs] !== -1) {
            const t = endpoint(labelend[bs]!);
            const bt = inblossom[t]!;
            const s = endpoint(labelend[bt]!);
            const j = endpoint(labelend[bt]! ^ 1);
            if (bt >= n) augmentBlossom(bt, j);
            mate[j] = labelend[bt]!;
            walkToRoot(s, labelend[bt]! ^ 1);
          }
        }
        resetTrees([r]);
      } else if (deltatype === 2) {
        allowed.add(deltaedge);
        let i = this.edgeHigh[deltaedge]!;
        if (!isS(i)) i = this.edgeLow[deltaedge]!;
        queue.push(i);
      } else if (deltatype === 3) {
        allowed.add(deltaedge);
        queue.push(this.edgeHigh[deltaedge]!);
      } else if (deltatype === 4) expandBlossom(deltablossom, false);
    }
    for (let b = n; b < 2 * n; b += 1) {
      if (blossomparent[b] === -1 && blossombase[b]! >= 0 && limbs.isZero(dual, b * width, width)) expandBlossom(b, true);
    }
    allowed.clear();
  }
}
