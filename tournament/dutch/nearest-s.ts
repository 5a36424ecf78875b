// For each vertex v, its least-slack edge to an S-vertex, without rescanning every vertex each time
// the previous answer went stale (after an augmentation most of them do, which made the large
// re-solves quadratic in BigInt slacks per dual change).
//
// While a vertex u stays an S-vertex, every dual change lowers dual[u] by delta, so
// dual[u] + (all deltas so far) is fixed for that stretch ("episode"). The slack of (u, v) is then
// that fixed base - w4(u, v) + dual[v] - (all deltas so far): among the S-vertices the order of the
// slacks to v never changes during their episodes. Each v keeps a min-heap of (base - w4, u) over
// the episodes begun since; entries of ended episodes are dropped when they reach the top. Ties go
// to the lower vertex number, as a scan over the vertices in order would choose.

export interface SLabels {
  /** Vertex u is an S-vertex now. */
  isS(u: number): boolean;
  /** Top-level blossom holding u. */
  blossomOf(u: number): number;
  /** Internal weight 4w * 2^scale of edge (u, v), 0n when there is no edge. */
  w4(u: number, v: number): bigint;
}

class CandidateHeap {
  readonly keys: bigint[] = [];
  readonly vertices: number[] = [];
  readonly stamps: number[] = [];
  /** How much of the episode log this heap has taken in. */
  read = 0;

  private less(i: number, j: number): boolean {
    const a = this.keys[i]!;
    const b = this.keys[j]!;
    return a < b || (a === b && this.vertices[i]! < this.vertices[j]!);
  }

  private swap(i: number, j: number): void {
    const k = this.keys[i]!;
    this.keys[i] = this.keys[j]!;
    this.keys[j] = k;
    const v = this.vertices[i]!;
    this.vertices[i] = this.vertices[j]!;
    this.vertices[j] = v;
    const s = this.stamps[i]!;
    this.stamps[i] = this.stamps[j]!;
    this.stamps[j] = s;
  }

  push(key: bigint, vertex: number, stamp: number): void {
    let i = this.keys.length;
    this.keys.push(key);
    this.vertices.push(vertex);
    this.stamps.push(stamp);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): void {
    const last = this.keys.length - 1;
    this.swap(0, last);
    this.keys.pop();
    this.vertices.pop();
    this.stamps.pop();
    this.siftDown(0);
  }

  private siftDown(start: number): void {
    const size = this.keys.length;
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
    let to = 0;
    for (let from = 0; from < this.keys.length; from += 1) {
      if (!keep(this.vertices[from]!, this.stamps[from]!)) continue;
      this.keys[to] = this.keys[from]!;
      this.vertices[to] = this.vertices[from]!;
      this.stamps[to] = this.stamps[from]!;
      to += 1;
    }
    this.keys.length = this.vertices.length = this.stamps.length = to;
    for (let i = (to >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }
}

/** Lives for one run of the search (the duals of S-vertices only move by the common delta). */
export class NearestS {
  private readonly heaps: (CandidateHeap | null)[];
  private readonly stamp: Int32Array;
  private readonly base: bigint[];
  private readonly logVertex: number[] = [];
  private readonly logStamp: number[] = [];
  private episodes = 0;
  private deltas = 0n;

  constructor(
    size: number,
    private readonly labels: SLabels,
    private readonly limit: number,
  ) {
    this.heaps = new Array<CandidateHeap | null>(size).fill(null);
    this.stamp = new Int32Array(size);
    this.base = new Array<bigint>(size).fill(0n);
  }

  /** u has just become an S-vertex with this dual. */
  beginS(u: number, dual: bigint): void {
    this.episodes += 1;
    this.stamp[u] = this.episodes;
    this.base[u] = dual + this.deltas;
    this.logVertex.push(u);
    this.logStamp.push(this.episodes);
  }

  /** The S-vertices' duals were all lowered by delta. */
  lowered(delta: bigint): void {
    this.deltas += delta;
  }

  /** The S-vertex u with the least slack to v (lowest number on a tie), outside v's blossom; -1 if none. */
  nearest(v: number): number {
    const { labels } = this;
    let heap = this.heaps[v];
    if (!heap) heap = this.heaps[v] = new CandidateHeap();
    const live = (u: number, stamp: number): boolean =>
      this.stamp[u] === stamp && labels.isS(u) && labels.blossomOf(u) !== labels.blossomOf(v);
    for (let i = heap.read; i < this.logVertex.length; i += 1) {
      const u = this.logVertex[i]!;
      const stamp = this.logStamp[i]!;
      if (u === v || !live(u, stamp)) continue;
      const w4 = labels.w4(u, v);
      if (w4 !== 0n) heap.push(this.base[u]! - w4, u, stamp);
    }
    heap.read = this.logVertex.length;
    // An entry that is not live never becomes live again: a new episode brings a new entry, and
    // two vertices in one S-blossom stay together until it is expanded, which starts new episodes.
    if (heap.keys.length > this.limit) heap.filter(live);
    while (heap.keys.length > 0) {
      const u = heap.vertices[0]!;
      if (live(u, heap.stamps[0]!)) return u;
      heap.pop();
    }
    return -1;
  }
}
