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
  /** Where the limbs of edge (u, v)'s internal weight start in w4, -1 when there is no edge. */
  edge(u: number, v: number): number;
}

/** Scratch integer arrays for CandidateHeap.compact (two of them, grown as needed). */
const scratch: Int32Array[] = [new Int32Array(64), new Int32Array(64)];
function scratchInts(which: number, length: number): Int32Array {
  if (scratch[which]!.length < length) scratch[which] = new Int32Array(2 * length);
  return scratch[which]!.subarray(0, length);
}

/**
 * A min-heap of (key, vertex, stamp), keys of `width` limbs (limbs.ts), ties to the lower vertex.
 * Entries sit in slots that never move; the heap orders slot numbers, so a sift moves one integer
 * rather than a key's limbs. Slots of popped entries are reclaimed by compacting when they outnumber
 * the live ones.
 */
class CandidateHeap {
  /** By slot: key limbs, vertex, stamp. */
  private keys: Float64Array;
  private slotVertex: Int32Array;
  private slotStamp: Int32Array;
  private slotsUsed = 0;
  /** heap[i]: the slot of the i-th entry in heap order. */
  private heap: Int32Array;
  size = 0;
  /** How much of the episode log this heap has taken in. */
  read = 0;

  constructor(private readonly width: number) {
    this.keys = new Float64Array(8 * width);
    this.slotVertex = new Int32Array(8);
    this.slotStamp = new Int32Array(8);
    this.heap = new Int32Array(8);
  }

  /** The vertex and stamp of the top entry. */
  topVertex(): number {
    return this.slotVertex[this.heap[0]!]!;
  }

  topStamp(): number {
    return this.slotStamp[this.heap[0]!]!;
  }

  private less(i: number, j: number): boolean {
    const a = this.heap[i]!;
    const b = this.heap[j]!;
    const c = limbs.compare(this.keys, a * this.width, this.keys, b * this.width, this.width);
    return c < 0 || (c === 0 && this.slotVertex[a]! < this.slotVertex[b]!);
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!;
    this.heap[i] = this.heap[j]!;
    this.heap[j] = t;
  }

  /** Room for one more slot, compacting or growing the slot arrays. */
  private freeSlot(): number {
    if (this.slotsUsed === this.slotVertex.length) {
      if (2 * this.size <= this.slotsUsed) this.compact();
      else {
        const keys = new Float64Array(2 * this.keys.length);
        keys.set(this.keys);
        this.keys = keys;
        const vertices = new Int32Array(2 * this.slotsUsed);
        vertices.set(this.slotVertex);
        this.slotVertex = vertices;
        const stamps = new Int32Array(2 * this.slotsUsed);
        stamps.set(this.slotStamp);
        this.slotStamp = stamps;
        const heap = new Int32Array(2 * this.slotsUsed);
        heap.set(this.heap);
        this.heap = heap;
      }
    }
    this.slotsUsed += 1;
    return this.slotsUsed - 1;
  }

  /**
   * Moves the live entries to the first slots (the heap order stays), in place (new arrays for
   * each compaction came to 120 MB at 2,000 players round 5): taken in the order of their slots,
   * each moves down to its rank, never onto a live slot not yet moved.
   */
  private compact(): void {
    const { width, size } = this;
    const live = scratchInts(0, size);
    live.set(this.heap.subarray(0, size));
    live.sort();
    const rank = scratchInts(1, this.slotsUsed);
    for (let j = 0; j < size; j += 1) {
      const from = live[j]!;
      rank[from] = j;
      if (from === j) continue;
      limbs.copy(this.keys, j * width, this.keys, from * width, width);
      this.slotVertex[j] = this.slotVertex[from]!;
      this.slotStamp[j] = this.slotStamp[from]!;
    }
    for (let i = 0; i < size; i += 1) this.heap[i] = rank[this.heap[i]!]!;
    this.slotsUsed = size;
  }

  /** Pushes base[baseAt] - w4[w4At] for the vertex. */
  push(base: Float64Array, baseAt: number, w4: Float64Array, w4At: number, vertex: number, stamp: number): void {
    const slot = this.freeSlot();
    limbs.difference(this.keys, slot * this.width, base, baseAt, w4, w4At, this.width);
    this.slotVertex[slot] = vertex;
    this.slotStamp[slot] = stamp;
    let i = this.size;
    this.heap[i] = slot;
    this.size += 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): void {
    this.size -= 1;
    this.heap[0] = this.heap[this.size]!;
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

  /** Empty again, its arrays kept for the next run. */
  clear(): void {
    this.size = 0;
    this.slotsUsed = 0;
    this.read = 0;
  }

  /** Keeps only the entries for which `keep` holds. */
  filter(keep: (vertex: number, stamp: number) => boolean): void {
    let to = 0;
    for (let from = 0; from < this.size; from += 1) {
      const slot = this.heap[from]!;
      if (keep(this.slotVertex[slot]!, this.slotStamp[slot]!)) this.heap[to++] = slot;
    }
    this.size = to;
    for (let i = (to >> 1) - 1; i >= 0; i -= 1) this.siftDown(i);
  }
}

/**
 * Serves the runs of the search over one graph at one limb width, each begun by restart() (within
 * a run the duals of S-vertices only move by the common delta). The heaps' arrays are kept from
 * run to run: made anew for each, they were most of the matcher's typed-array garbage, which
 * waits for a full collection and showed in the peak memory.
 */
export class NearestS {
  private readonly heaps: (CandidateHeap | null)[];
  private readonly stamp: Int32Array;
  private readonly base: Float64Array;
  private logVertex: Int32Array = new Int32Array(64);
  private logStamp: Int32Array = new Int32Array(64);
  private logLength = 0;
  /**
   * A walk of the log passes over ended episodes without reading them: onward[i] leads (through
   * path halving) to the first entry from i on that was live when last looked at, or to the log's
   * end. Most of the log is ended episodes (every augmentation ends the episodes of two trees),
   * and each vertex's walk used to visit them all.
   */
  private onward: Int32Array = new Int32Array(65);
  /** logAt[u]: the log entry of u's current episode. */
  private readonly logAt: Int32Array;
  /** Episodes are numbered on across runs, so a stamp of an earlier run matches none of this one. */
  private episodes = 0;
  private readonly deltas: Float64Array;
  private labels: SLabels = { isS: () => false, blossomOf: (u) => u, edge: () => -1 };
  /** A heap holding more entries than this drops those of ended episodes. */
  private limit = 0;

  /** `w4`: the internal weights, numbers of `width` limbs, where SLabels.edge says. */
  constructor(
    size: number,
    readonly w4: Float64Array,
    private readonly width: number,
  ) {
    this.heaps = new Array<CandidateHeap | null>(size).fill(null);
    this.stamp = new Int32Array(size);
    this.base = new Float64Array(size * width);
    this.deltas = new Float64Array(width);
    this.logAt = new Int32Array(size);
  }

  /** A new run of the search: no S-vertex, no candidate, no dual change yet. */
  restart(labels: SLabels, limit: number): void {
    this.labels = labels;
    this.limit = limit;
    for (const heap of this.heaps) heap?.clear();
    this.logLength = 0;
    this.onward[0] = 0;
    limbs.clear(this.deltas, 0, this.width);
  }

  /** u's current (or last) S-episode: a number no other episode has. */
  episodeOf(u: number): number {
    return this.stamp[u]!;
  }

  /** The sum of the dual changes so far (read only): an S-vertex's dual + it is its base. */
  get lowered(): Float64Array {
    return this.deltas;
  }

  /** out[at] = the key of edge (u, v) from the S-vertex u: base(u) - the weight at w4[w4At]. */
  keyInto(out: Float64Array, at: number, u: number, w4At: number): void {
    limbs.difference(out, at, this.base, u * this.width, this.w4, w4At, this.width);
  }

  /** u has just become an S-vertex with the dual at dual[at]. */
  beginS(u: number, dual: Float64Array, at: number): void {
    this.episodes += 1;
    this.stamp[u] = this.episodes;
    const { width } = this;
    limbs.copy(this.base, u * width, dual, at, width);
    limbs.addTo(this.base, u * width, this.deltas, 0, width);
    const i = this.logLength;
    if (i + 1 >= this.logVertex.length) {
      const grow = (a: Int32Array, length: number): Int32Array => {
        const b = new Int32Array(length);
        b.set(a);
        return b;
      };
      this.logVertex = grow(this.logVertex, 2 * this.logVertex.length);
      this.logStamp = grow(this.logStamp, 2 * this.logStamp.length);
      this.onward = grow(this.onward, 2 * this.logVertex.length + 1);
    }
    this.logVertex[i] = u;
    this.logStamp[i] = this.episodes;
    this.onward[i] = i;
    this.onward[i + 1] = i + 1;
    this.logAt[u] = i;
    this.logLength = i + 1;
  }

  /** u is no longer an S-vertex (its tree was taken apart): no walk reads its episode again. */
  endS(u: number): void {
    const i = this.logAt[u]!;
    if (this.logStamp[i] === this.stamp[u] && this.onward[i] === i) this.onward[i] = i + 1;
  }

  /** The first entry from i on not known to be ended (the log's length if none). */
  private next(from: number): number {
    const { onward } = this;
    let i = from;
    while (onward[i] !== i) {
      const j = onward[i]!;
      onward[i] = onward[j]!;
      i = j;
    }
    return i;
  }

  /** The S-vertices' duals were all lowered by delta. */
  lower(delta: Float64Array): void {
    limbs.addTo(this.deltas, 0, delta, 0, this.width);
  }

  /** The S-vertex u with the least slack to v (lowest number on a tie), outside v's blossom; -1 if none. */
  nearest(v: number): number {
    const { labels, width } = this;
    let heap = this.heaps[v];
    if (!heap) heap = this.heaps[v] = new CandidateHeap(width);
    const live = (u: number, stamp: number): boolean => this.stamp[u] === stamp && labels.isS(u) && labels.blossomOf(u) !== labels.blossomOf(v);
    const end = this.logLength;
    for (let i = this.next(heap.read); i < end; i = this.next(i + 1)) {
      const u = this.logVertex[i]!;
      const stamp = this.logStamp[i]!;
      if (u === v || !live(u, stamp)) continue;
      const at = labels.edge(u, v);
      if (at !== -1) heap.push(this.base, u * width, this.w4, at, u, stamp);
    }
    heap.read = end;
    // An entry that is not live never becomes live again: a new episode brings a new entry, and
    // two vertices in one S-blossom stay together until it is expanded, which starts new episodes.
    if (heap.size > this.limit) heap.filter(live);
    while (heap.size > 0) {
      const u = heap.topVertex();
      if (live(u, heap.topStamp())) return u;
      heap.pop();
    }
    return -1;
  }
}

/**
 * Each vertex's best edge to an S-vertex u, kept as its key (base(u) - w4, fixed during u's
 * episode) with u's episode: while that episode lasts, slack = key + dual[v] - lowered. Once it
 * ends the key still bounds v's least key from below (see matching.ts). The slack a key stands
 * for is cached per dual change (epoch): the scans compare slacks edge by edge.
 */
export class BestKeys {
  /** edge[v]: v's best edge (-1: none); sized for blossoms too where the caller marks them. */
  readonly edge: Int32Array;
  readonly slacks: Float64Array;
  private readonly keys: Float64Array;
  private readonly episodes: Int32Array;
  private readonly epochs: Int32Array;

  constructor(
    size: number,
    vertices: number,
    private readonly width: number,
    private readonly dual: Float64Array,
    private readonly lowered: Float64Array,
  ) {
    this.edge = new Int32Array(size).fill(-1);
    this.slacks = new Float64Array(vertices * width);
    this.keys = new Float64Array(vertices * width);
    this.episodes = new Int32Array(vertices);
    this.epochs = new Int32Array(vertices).fill(-1);
  }

  /** v's best edge is k (-1: none), of key key[keyAt], to an S-vertex in its episode `episode`. */
  set(v: number, k: number, key: Float64Array, keyAt: number, episode: number): void {
    this.edge[v] = k;
    if (k === -1) return;
    limbs.copy(this.keys, v * this.width, key, keyAt, this.width);
    this.episodes[v] = episode;
    this.epochs[v] = -1;
  }

  /** The same, with its slack in dual epoch `epoch` known (slack[slackAt]). */
  found(v: number, k: number, key: Float64Array, keyAt: number, episode: number, slack: Float64Array, slackAt: number, epoch: number): void {
    this.set(v, k, key, keyAt, episode);
    limbs.copy(this.slacks, v * this.width, slack, slackAt, this.width);
    this.epochs[v] = epoch;
  }

  /** v takes `other`'s best edge for its own. */
  takeFrom(other: BestKeys, v: number): void {
    this.set(v, other.edge[v]!, other.keys, v * this.width, other.episodes[v]!);
  }

  /** The episode of the S-vertex v's best edge was found for. */
  episodeOf(v: number): number {
    return this.episodes[v]!;
  }

  /** Offset in `slacks` of the slack v's key stands for (or bounds) in dual epoch `epoch`. */
  slackAt(v: number, epoch: number): number {
    const { width } = this;
    if (this.epochs[v] !== epoch) {
      limbs.sumMinus(this.slacks, v * width, this.keys, v * width, this.dual, v * width, this.lowered, 0, width);
      this.epochs[v] = epoch;
    }
    return v * width;
  }

  /** Whether an edge of slack slack[at] would be v's best: v has none, or it is less. */
  improves(v: number, slack: Float64Array, at: number, epoch: number): boolean {
    return this.edge[v] === -1 || limbs.compare(slack, at, this.slacks, this.slackAt(v, epoch), this.width) < 0;
  }
}
