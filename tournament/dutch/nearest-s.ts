// For each vertex v, its least-slack edge to an S-vertex, without rescanning every vertex each time
// the previous answer went stale (after an augmentation most of them do, which made the large
// re-solves quadratic in BigInt slacks per dual change).
//
// While a vertex u stays an S-vertex, every dual change lowers dual[u] by delta, so
// dual[u] + (all deltas so far) is fixed for that stretch ("episode"). The slack of (u, v) is then
// that fixed base - w4(u, v) + dual[v] - (all deltas so far): among the S-vertices the order of the
// slacks to v never changes during their episodes. Each v keeps a min-heap of (base - w4, u) over
// the episodes begun since; entries of ended episodes are dropped when they reach the top. Ties go
// to the lower vertex number, as a scan over the vertices in order would choose. Keys and duals
// are numbers of a few Float64 limbs (limbs.ts), as in the matcher.

import * as limbs from './limbs.ts';

export interface SLabels {
  /** Vertex u is an S-vertex now. */
  isS(u: number): boolean;
  /** Top-level blossom holding u. */
  blossomOf(u: number): number;
  /** Index of edge (u, v) in the internal weights, -1 when there is no edge. */
  edge(u: number, v: number): number;
}

/** A min-heap of (key, vertex, stamp), keys of `width` limbs (limbs.ts), ties to the lower vertex. */
class CandidateHeap {
  keys: Float64Array;
  vertices: Int32Array;
  stamps: Int32Array;
  size = 0;
  /** How much of the episode log this heap has taken in. */
  read = 0;

  constructor(private readonly width: number) {
    this.keys = new Float64Array(8 * width);
    this.vertices = new Int32Array(8);
    this.stamps = new Int32Array(8);
  }

  private less(i: number, j: number): boolean {
    const c = limbs.compare(this.keys, i * this.width, this.keys, j * this.width, this.width);
    return c < 0 || (c === 0 && this.vertices[i]! < this.vertices[j]!);
  }

  private swap(i: number, j: number): void {
    const { keys, width } = this;
    for (let t = 0, a = i * width, b = j * width; t < width; t += 1, a += 1, b += 1) {
      const k = keys[a]!;
      keys[a] = keys[b]!;
      keys[b] = k;
    }
    const v = this.vertices[i]!;
    this.vertices[i] = this.vertices[j]!;
    this.vertices[j] = v;
    const s = this.stamps[i]!;
    this.stamps[i] = this.stamps[j]!;
    this.stamps[j] = s;
  }

  /** Pushes base[baseAt] - w4[w4At] for the vertex. */
  push(base: Float64Array, baseAt: number, w4: Float64Array, w4At: number, vertex: number, stamp: number): void {
    if (this.size === this.vertices.length) {
      const keys = new Float64Array(2 * this.keys.length);
      keys.set(this.keys);
      this.keys = keys;
      const vertices = new Int32Array(2 * this.size);
      vertices.set(this.vertices);
      this.vertices = vertices;
      const stamps = new Int32Array(2 * this.size);
      stamps.set(this.stamps);
      this.stamps = stamps;
    }
    let i = this.size;
    this.size += 1;
    limbs.difference(this.keys, i * this.width, base, baseAt, w4, w4At, this.width);
    this.vertices[i] = vertex;
    this.stamps[i] = stamp;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): void {
    this.size -= 1;
    this.swap(0, this.size);
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const { size } = this;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && this.less(right, left) ? right : left;
      if (!this.less(child, i)) return;
      this.swap(i, child);
      i = child;
    }
  }

  /** Keeps only the entries for which `keep` holds. */
  filter(keep: (vertex: number, stamp: number) => boolean): void {
    const { width } = this;
    let to = 0;
    for (let from = 0; from < this.size; from += 1) {
      if (!keep(this.vertices[from]!, this.stamps[from]!)) continue;
      limbs.copy(this.keys, to * width, this.keys, from * width, width);
      this.vertices[to] = this.vertices[from]!;
      this.stamps[to] = this.stamps[from]!;
      to += 1;
    }
    this.size = to;
    for (let i = (to >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }
}

/** Lives for one run of the search (the duals of S-vertices only move by the common delta). */
export class NearestS {
  private readonly heaps: (CandidateHeap | null)[];
  private readonly stamp: Int32Array;
  private readonly base: Float64Array;
  private readonly logVertex: number[] = [];
  private readonly logStamp: number[] = [];
  private episodes = 0;
  private readonly deltas: Float64Array;

  /** `w4`: the internal weights, numbers of `width` limbs by edge index. */
  constructor(
    size: number,
    private readonly labels: SLabels,
    private readonly w4: Float64Array,
    private readonly width: number,
    private readonly limit: number,
  ) {
    this.heaps = new Array<CandidateHeap | null>(size).fill(null);
    this.stamp = new Int32Array(size);
    this.base = new Float64Array(size * width);
    this.deltas = new Float64Array(width);
  }

  /** u has just become an S-vertex with the dual at dual[at]. */
  beginS(u: number, dual: Float64Array, at: number): void {
    this.episodes += 1;
    this.stamp[u] = this.episodes;
    const { width } = this;
    limbs.copy(this.base, u * width, dual, at, width);
    limbs.addTo(this.base, u * width, this.deltas, 0, width);
    this.logVertex.push(u);
    this.logStamp.push(this.episodes);
  }

  /** The S-vertices' duals were all lowered by delta. */
  lowered(delta: Float64Array): void {
    limbs.addTo(this.deltas, 0, delta, 0, this.width);
  }

  /** The S-vertex u with the least slack to v (lowest number on a tie), outside v's blossom; -1 if none. */
  nearest(v: number): number {
    const { labels, width } = this;
    let heap = this.heaps[v];
    if (!heap) heap = this.heaps[v] = new CandidateHeap(width);
    const live = (u: number, stamp: number): boolean =>
      this.stamp[u] === stamp && labels.isS(u) && labels.blossomOf(u) !== labels.blossomOf(v);
    for (let i = heap.read; i < this.logVertex.length; i += 1) {
      const u = this.logVertex[i]!;
      const stamp = this.logStamp[i]!;
      if (u === v || !live(u, stamp)) continue;
      const k = labels.edge(u, v);
      if (k !== -1) heap.push(this.base, u * width, this.w4, k * width, u, stamp);
    }
    heap.read = this.logVertex.length;
    // An entry that is not live never becomes live again: a new episode brings a new entry, and
    // two vertices in one S-blossom stay together until it is expanded, which starts new episodes.
    if (heap.size > this.limit) heap.filter(live);
    while (heap.size > 0) {
      const u = heap.vertices[0]!;
      if (live(u, heap.stamps[0]!)) return u;
      heap.pop();
    }
    return -1;
  }
}
