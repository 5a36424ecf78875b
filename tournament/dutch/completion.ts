// Can a set of players all be paired (C4, completion)? A maximum-cardinality matching (Edmonds'
// blossom algorithm without weights, machine integers only), kept between calls: the set changes by
// a few players at a time, so the previous matching is kept where it still holds and only the players
// left without a partner are searched from. With an odd set, one player stays out: the question
// is then whether a player who may take the bye can be the one (the vertices that some maximum
// matching leaves out are exactly those an even alternating path reaches from the one left out).

export class Completion {
  private readonly mate: Int32Array;
  private readonly member: Uint8Array;
  private members: number[] = [];
  // Search state, reused.
  private readonly parent: Int32Array;
  private readonly base: Int32Array;
  private readonly outer: Uint8Array;
  private readonly inBlossom: Uint8Array;
  private readonly onPath: Uint8Array;
  private readonly queue: Int32Array;

  /** `adjacent(u, v)`: u and v may be paired (symmetric). */
  constructor(
    readonly size: number,
    private readonly adjacent: (u: number, v: number) => boolean,
  ) {
    this.mate = new Int32Array(size).fill(-1);
    this.member = new Uint8Array(size);
    this.parent = new Int32Array(size);
    this.base = new Int32Array(size);
    this.outer = new Uint8Array(size);
    this.inBlossom = new Uint8Array(size);
    this.onPath = new Uint8Array(size);
    this.queue = new Int32Array(size);
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
    const { mate, member } = this;
    for (const v of this.members) member[v] = 0;
    for (const v of vertices) member[v] = 1;
    for (const v of this.members) {
      const m = mate[v]!;
      if (m >= 0 && (!member[v] || !member[m])) mate[v] = mate[m] = -1;
    }
    this.members = [...vertices];
    for (const v of vertices) {
      const m = mate[v]!;
      if (m >= 0 && !this.adjacent(v, m)) mate[v] = mate[m] = -1;
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
    this.augmentFrom(out);
    return this.members.filter((v) => this.outer[v] === 1);
  }

  /** Looks for an augmenting path from the single vertex `root`; applies it if found. */
  private augmentFrom(root: number): boolean {
    const { mate, parent, base, outer, queue, members } = this;
    for (const v of members) {
      parent[v] = -1;
      base[v] = v;
      outer[v] = 0;
    }
    outer[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const v = queue[head++]!;
      for (const to of members) {
        if (to === v || base[v] === base[to] || mate[v] === to || !this.adjacent(v, to)) continue;
        if (to === root || (mate[to]! >= 0 && parent[mate[to]!]! >= 0)) {
          // An odd cycle: shrink it into its base.
          const stem = this.commonBase(root, v, to);
          for (const x of members) this.inBlossom[x] = 0;
          this.markPath(v, stem, to);
          this.markPath(to, stem, v);
          for (const x of members) {
            if (this.inBlossom[base[x]!]) {
              base[x] = stem;
              if (!outer[x]) {
                outer[x] = 1;
                queue[tail++] = x;
              }
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (mate[to]! < 0) {
            // Flip the path root .. v - to.
            let u = to;
            while (u !== -1) {
              const pv = parent[u]!;
              const next = mate[pv]!;
              mate[u] = pv;
              mate[pv] = u;
              u = next;
            }
            return true;
          }
          outer[mate[to]!] = 1;
          queue[tail++] = mate[to]!;
        }
      }
    }
    return false;
  }

  private commonBase(root: number, a: number, b: number): number {
    const { mate, parent, base, onPath, members } = this;
    for (const x of members) onPath[x] = 0;
    let v = a;
    for (;;) {
      v = base[v]!;
      onPath[v] = 1;
      if (v === root || mate[v]! < 0) break;
      v = parent[mate[v]!]!;
    }
    let u = b;
    for (;;) {
      u = base[u]!;
      if (onPath[u]) return u;
      u = parent[mate[u]!]!;
    }
  }

  private markPath(start: number, stem: number, child: number): void {
    const { mate, parent, base, inBlossom } = this;
    let v = start;
    let c = child;
    while (base[v] !== stem) {
      inBlossom[base[v]!] = inBlossom[base[mate[v]!]!] = 1;
      parent[v] = c;
      c = mate[v]!;
      v = parent[mate[v]!]!;
    }
  }
}
