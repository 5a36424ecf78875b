// Can a set of players all be paired (C4, completion)? A maximum-cardinality matching (Edmonds'
// blossom algorithm without weights, machine integers only), kept between calls: the set changes by
// a few players at a time, so the previous matching is kept where it still holds and only the players
// left without a partner are searched from. With an odd set, one player stays out: the question
// is then whether a player who may take the bye can be the one (the vertices that some maximum
// matching leaves out are exactly those an even alternating path reaches from the one left out).
//
// The checks run on every solve of a stage, over sets of a few hundred players, so a search costs
// only what it reaches: its labels are stamped with the search's number instead of being cleared
// for every player, a blossom's vertices are found by union-find towards its base instead of a
// pass over every player, the search that found the one player left out is read again for the
// even alternating paths from them instead of being run a second time, and a search ends as soon
// as nothing is left for it to find (see augmentFrom).

export class Completion {
  private readonly mate: Int32Array;
  /** The last call's vertices; inSet[v] === call marks them. */
  private readonly members: Int32Array;
  private count = 0;
  private readonly inSet: Int32Array;
  private call = 0;
  // One search's forest. A vertex's entries hold only while reached[v] === search: the others
  // are unreached, each its own blossom.
  private readonly reached: Int32Array;
  private search = 0;
  /** Outer (even distance from the root, 1) or inner (odd, 0). */
  private readonly outer: Uint8Array;
  private readonly parent: Int32Array;
  /** Union-find: the blossom a vertex was shrunk into, towards its base. */
  private readonly blossom: Int32Array;
  private readonly queue: Int32Array;
  private tail = 0;
  /** This search's reached vertices, and its outer blossoms (each outer vertex not yet shrunk is one). */
  private reachedCount = 0;
  private outerBlossoms = 0;
  /** For the common base of two outer vertices: seen[b] === walk marks the bases walked from the first. */
  private readonly seen: Int32Array;
  private walk = 0;
  /** The root of the last search if it failed and the matching has not changed since: its forest stands. */
  private failedRoot = -1;

  /** `adjacent(u, v)`: u and v may be paired (symmetric). */
  constructor(
    readonly size: number,
    private readonly adjacent: (u: number, v: number) => boolean,
  ) {
    this.mate = new Int32Array(size).fill(-1);
    this.members = new Int32Array(size);
    this.inSet = new Int32Array(size);
    this.reached = new Int32Array(size);
    this.outer = new Uint8Array(size);
    this.parent = new Int32Array(size);
    this.blossom = new Int32Array(size);
    this.queue = new Int32Array(size);
    this.seen = new Int32Array(size);
  }

  /**
   * Whether `vertices` can all be paired, or all but one for whom `mayStayOut` holds when their
   * number is odd. `adjacent` may have changed for pairs that are checked again here.
   */
  completes(vertices: readonly number[], mayStayOut: (v: number) => boolean = () => false): boolean {
    const out = this.match(vertices);
    if (out === null) return false;
    if (out < 0 || mayStayOut(out)) return true;
    return this.alsoLeftOut(out).some(mayStayOut);
  }

  /**
   * The vertices that some maximum matching of `vertices` leaves out: none when all can be paired,
   * null when two or more must stay out.
   */
  leftOut(vertices: readonly number[]): number[] | null {
    const out = this.match(vertices);
    if (out === null) return null;
    return out < 0 ? [] : this.alsoLeftOut(out);
  }

  /** A maximum matching of `vertices`: -1 if it pairs all, the one left out, or null if more stay out. */
  private match(vertices: readonly number[]): number | null {
    const { mate, members, inSet } = this;
    this.failedRoot = -1;
    const call = ++this.call;
    for (const v of vertices) inSet[v] = call;
    // A pair with a player no longer in the set, or who may no longer meet, comes apart.
    for (let i = 0; i < this.count; i += 1) {
      const v = members[i]!;
      const m = mate[v]!;
      if (m >= 0 && (inSet[v] !== call || inSet[m] !== call)) mate[v] = mate[m] = -1;
    }
    this.count = vertices.length;
    for (let i = 0; i < vertices.length; i += 1) {
      const v = vertices[i]!;
      members[i] = v;
      const m = mate[v]!;
      if (m > v && !this.adjacent(v, m)) mate[v] = mate[m] = -1;
    }
    // Greedy first: most players find a free partner directly.
    for (const v of vertices) {
      if (mate[v]! >= 0) continue;
      for (const u of vertices) {
        if (u !== v && mate[u]! < 0 && this.adjacent(v, u)) {
          mate[v] = u;
          mate[u] = v;
          break;
        }
      }
    }
    const allowedOut = vertices.length % 2;
    let out = -1;
    for (const v of vertices) {
      if (mate[v]! >= 0 || this.augmentFrom(v)) continue;
      // A vertex no augmenting path reaches now stays unreachable as the matching grows (Edmonds),
      // so it is left out by every maximum matching that this one grows into.
      if (out >= 0 || allowedOut === 0) return null;
      out = v;
    }
    return out;
  }

  /** With `out` the one vertex left out: every vertex an even alternating path from it reaches. */
  private alsoLeftOut(out: number): number[] {
    // The failed search from `out` labelled exactly those outer; it is run again only if an
    // augmentation from a later vertex changed the matching since.
    if (this.failedRoot !== out) this.augmentFrom(out);
    const { members, reached, outer, search } = this;
    const found: number[] = [];
    for (let i = 0; i < this.count; i += 1) {
      const v = members[i]!;
      if (reached[v] === search && outer[v] === 1) found.push(v);
    }
    return found;
  }

  /** Looks for an augmenting path from the single vertex `root`; applies it if found. */
  private augmentFrom(root: number): boolean {
    const { mate, members, reached, outer, parent, blossom, queue } = this;
    const search = ++this.search;
    this.reachedCount = 0;
    this.outerBlossoms = 0;
    this.reach(root, 1, -1);
    let head = 0;
    this.tail = 0;
    queue[this.tail++] = root;
    // Everyone reached and one outer blossom: no edge is left that could label or shrink anything
    // (each lies inside that blossom or ends at an inner vertex), so the search has failed as it
    // stands. In a score group nearly everyone may meet, and this comes after a few shrinks.
    while (head < this.tail && !(this.reachedCount === this.count && this.outerBlossoms === 1)) {
      const v = queue[head++]!;
      let vBase = this.baseOf(v);
      for (let i = 0; i < this.count; i += 1) {
        const to = members[i]!;
        if (to === v) continue;
        if (reached[to] === search) {
          // An edge to an inner vertex adds nothing; one to an outer vertex of another blossom
          // closes an odd cycle, shrunk into its base.
          if (outer[to] === 0) continue;
          const up = blossom[to]!;
          if (up === vBase || (blossom[up] !== up && this.baseOf(to) === vBase) || !this.adjacent(v, to)) continue;
          vBase = this.commonBase(v, to);
          this.shrinkPath(v, to, vBase);
          this.shrinkPath(to, v, vBase);
          if (this.reachedCount === this.count && this.outerBlossoms === 1) break;
        } else if (this.adjacent(v, to)) {
          this.reach(to, 0, v);
          const m = mate[to]!;
          if (m < 0) {
            // Flip the path root .. v - to.
            let u = to;
            while (u !== -1) {
              const pv = parent[u]!;
              const next = mate[pv]!;
              mate[u] = pv;
              mate[pv] = u;
              u = next;
            }
            this.failedRoot = -1;
            return true;
          }
          this.reach(m, 1, -1);
          queue[this.tail++] = m;
        }
      }
    }
    this.failedRoot = root;
    return false;
  }

  private reach(v: number, outer: 0 | 1, parent: number): void {
    this.reached[v] = this.search;
    this.outer[v] = outer;
    this.parent[v] = parent;
    this.blossom[v] = v;
    this.reachedCount += 1;
    this.outerBlossoms += outer;
  }

  /** The base of the outermost blossom holding a reached vertex (halving the paths on the way). */
  private baseOf(v: number): number {
    const { blossom } = this;
    while (blossom[v] !== v) {
      const up = blossom[blossom[v]!]!;
      blossom[v] = up;
      v = up;
    }
    return v;
  }

  /** The base where the tree paths from the outer vertices a and b meet, walked in turn. */
  private commonBase(a: number, b: number): number {
    const { mate, parent, seen } = this;
    const walk = ++this.walk;
    for (;;) {
      if (a >= 0) {
        a = this.baseOf(a);
        if (seen[a] === walk) return a;
        seen[a] = walk;
        // A base's partner is inner, its parent the next outer vertex up; the root has no partner.
        a = mate[a]! < 0 ? -1 : parent[mate[a]!]!;
      }
      const t = a;
      a = b;
      b = t;
    }
  }

  /**
   * Shrinks the path from x (reached across the edge from y) up to `base` into base's blossom:
   * its inner vertices become outer and are queued, and parents are set so that an augmenting
   * path through the blossom can be flipped from either side.
   */
  private shrinkPath(x: number, y: number, base: number): void {
    const { mate, outer, parent, blossom, queue } = this;
    while (this.baseOf(x) !== base) {
      parent[x] = y;
      y = mate[x]!;
      // The walk passes through each blossom on the path to its base, where the whole blossom
      // joins; an inner vertex on it, a blossom of its own, turns outer. (An outer y lies in x's
      // blossom already: only a base's partner is outside its blossom.)
      if (blossom[x] === x) {
        blossom[x] = base;
        this.outerBlossoms -= 1;
      }
      if (outer[y] === 0) {
        outer[y] = 1;
        queue[this.tail++] = y;
        blossom[y] = base;
      }
      x = parent[y]!;
    }
  }
}
