// Maximum-weight matching in a general graph: Edmonds' blossom algorithm with the primal-dual
// method (Galil, "Efficient algorithms for finding maximum matching in graphs", 1986), O(n^3).
// Weights are BigInt because the Dutch criteria are packed into one lexicographic number that
// outgrows 53 bits long before a 1,000-player bracket does. A weight of 0 means "no edge".

/** A complete graph on `size` vertices whose edge weights can be changed between solves. */
export class WeightedGraph {
  private readonly weights: bigint[][];

  constructor(readonly size: number) {
    this.weights = Array.from({ length: size }, (_, i) => new Array<bigint>(i).fill(0n));
  }

  weight(a: number, b: number): bigint {
    if (a === b) return 0n;
    return a > b ? this.weights[a]![b]! : this.weights[b]![a]!;
  }

  setWeight(a: number, b: number, weight: bigint): void {
    if (a === b) return;
    if (a > b) this.weights[a]![b] = weight;
    else this.weights[b]![a] = weight;
  }

  /** mate[v] is v's partner in a maximum-weight matching, or v itself when v stays single. */
  maximumWeightMatching(): number[] {
    const edges: Edge[] = [];
    for (let i = 1; i < this.size; i += 1) {
      const row = this.weights[i]!;
      for (let j = 0; j < i; j += 1) {
        const w = row[j]!;
        if (w > 0n) edges.push({ u: i, v: j, w: w * 2n });
      }
    }
    const mate = solve(this.size, edges);
    return mate.map((m, v) => (m < 0 ? v : m));
  }
}

interface Edge {
  readonly u: number;
  readonly v: number;
  readonly w: bigint;
}

// Endpoints are numbered 2k and 2k+1 for edge k (endpoint 2k is edge k's u, 2k+1 its v);
// blossoms are numbered n..2n-1 after the n single vertices.
function solve(n: number, edges: readonly Edge[]): number[] {
  const nedge = edges.length;
  if (n === 0) return [];
  let maxWeight = 0n;
  for (const e of edges) if (e.w > maxWeight) maxWeight = e.w;
  const endpoint: number[] = new Array<number>(2 * nedge);
  for (let k = 0; k < nedge; k += 1) {
    endpoint[2 * k] = edges[k]!.u;
    endpoint[2 * k + 1] = edges[k]!.v;
  }
  const neighbend: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < nedge; k += 1) {
    neighbend[edges[k]!.u]!.push(2 * k + 1);
    neighbend[edges[k]!.v]!.push(2 * k);
  }
  const mate = new Array<number>(n).fill(-1);
  const label = new Array<number>(2 * n).fill(0);
  const labelend = new Array<number>(2 * n).fill(-1);
  const inblossom = Array.from({ length: n }, (_, i) => i);
  const blossomparent = new Array<number>(2 * n).fill(-1);
  const blossomchilds: (number[] | null)[] = new Array<number[] | null>(2 * n).fill(null);
  const blossombase = Array.from({ length: 2 * n }, (_, i) => (i < n ? i : -1));
  const blossomendps: (number[] | null)[] = new Array<number[] | null>(2 * n).fill(null);
  const bestedge = new Array<number>(2 * n).fill(-1);
  const blossombestedges: (number[] | null)[] = new Array<number[] | null>(2 * n).fill(null);
  const unusedblossoms: number[] = Array.from({ length: n }, (_, i) => n + i);
  const dualvar: bigint[] = Array.from({ length: 2 * n }, (_, i) => (i < n ? maxWeight : 0n));
  const allowedge = new Array<boolean>(nedge).fill(false);
  let queue: number[] = [];

  const slack = (k: number): bigint => {
    const e = edges[k]!;
    return dualvar[e.u]! + dualvar[e.v]! - 2n * e.w;
  };
  const leaves = (b: number, out: number[] = []): number[] => {
    if (b < n) out.push(b);
    else for (const t of blossomchilds[b]!) leaves(t, out);
    return out;
  };

  const assignLabel = (w: number, t: number, p: number): void => {
    const b = inblossom[w]!;
    label[w] = label[b] = t;
    labelend[w] = labelend[b] = p;
    bestedge[w] = bestedge[b] = -1;
    if (t === 1) queue.push(...leaves(b));
    else if (t === 2) {
      const base = blossombase[b]!;
      assignLabel(endpoint[mate[base]!]!, 1, mate[base]! ^ 1);
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
        v = endpoint[labelend[b]!]!;
        b = inblossom[v]!;
        v = endpoint[labelend[b]!]!;
      }
      if (w !== -1) [v, w] = [w, v];
    }
    for (const b of path) label[b] = 1;
    return base;
  };

  const addBlossom = (base: number, k: number): void => {
    let v = edges[k]!.u;
    let w = edges[k]!.v;
    const bb = inblossom[base]!;
    let bv = inblossom[v]!;
    let bw = inblossom[w]!;
    const b = unusedblossoms.pop()!;
    blossombase[b] = base;
    blossomparent[b] = -1;
    blossomparent[bb] = b;
    const path: number[] = [];
    const endps: number[] = [];
    while (bv !== bb) {
      blossomparent[bv] = b;
      path.push(bv);
      endps.push(labelend[bv]!);
      v = endpoint[labelend[bv]!]!;
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
      w = endpoint[labelend[bw]!]!;
      bw = inblossom[w]!;
    }
    blossomchilds[b] = path;
    blossomendps[b] = endps;
    label[b] = 1;
    labelend[b] = labelend[bb]!;
    dualvar[b] = 0n;
    for (const leaf of leaves(b)) {
      if (label[inblossom[leaf]!] === 2) queue.push(leaf);
      inblossom[leaf] = b;
    }
    const bestedgeto = new Array<number>(2 * n).fill(-1);
    for (const child of path) {
      const nblists: number[][] =
        blossombestedges[child] === null ? leaves(child).map((leaf) => neighbend[leaf]!.map((p) => p >> 1)) : [blossombestedges[child]!];
      for (const nblist of nblists) {
        for (const kk of nblist) {
          let i = edges[kk]!.u;
          let j = edges[kk]!.v;
          if (inblossom[j] === b) [i, j] = [j, i];
          const bj = inblossom[j]!;
          if (bj !== b && label[bj] === 1 && (bestedgeto[bj] === -1 || slack(kk) < slack(bestedgeto[bj]!))) bestedgeto[bj] = kk;
        }
      }
      blossombestedges[child] = null;
      bestedge[child] = -1;
    }
    const best = bestedgeto.filter((kk) => kk !== -1);
    blossombestedges[b] = best;
    bestedge[b] = -1;
    for (const kk of best) if (bestedge[b] === -1 || slack(kk) < slack(bestedge[b]!)) bestedge[b] = kk;
  };

  const expandBlossom = (b: number, endstage: boolean): void => {
    for (const s of blossomchilds[b]!) {
      blossomparent[s] = -1;
      if (s < n) inblossom[s] = s;
      else if (endstage && dualvar[s] === 0n) expandBlossom(s, endstage);
      else for (const leaf of leaves(s)) inblossom[leaf] = s;
    }
    if (!endstage && label[b] === 2) {
      const childs = blossomchilds[b]!;
      const endps = blossomendps[b]!;
      const at = (j: number): number => childs[(j + childs.length) % childs.length]!;
      const ep = (j: number): number => endps[(j + endps.length) % endps.length]!;
      const entrychild = inblossom[endpoint[labelend[b]! ^ 1]!]!;
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
        label[endpoint[p ^ 1]!] = 0;
        label[endpoint[ep(j - endptrick) ^ endptrick ^ 1]!] = 0;
        assignLabel(endpoint[p ^ 1]!, 2, p);
        allowedge[ep(j - endptrick) >> 1] = true;
        j += jstep;
        p = ep(j - endptrick) ^ endptrick;
        allowedge[p >> 1] = true;
        j += jstep;
      }
      const bv = at(j);
      label[endpoint[p ^ 1]!] = label[bv] = 2;
      labelend[endpoint[p ^ 1]!] = labelend[bv] = p;
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
          label[endpoint[mate[blossombase[child]!]!]!] = 0;
          assignLabel(found, 2, labelend[found]!);
        }
        j += jstep;
      }
    }
    label[b] = labelend[b] = -1;
    blossomchilds[b] = blossomendps[b] = null;
    blossombase[b] = -1;
    blossombestedges[b] = null;
    bestedge[b] = -1;
    unusedblossoms.push(b);
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
      if (t >= n) augmentBlossom(t, endpoint[p]!);
      j += jstep;
      t = at(j);
      if (t >= n) augmentBlossom(t, endpoint[p ^ 1]!);
      mate[endpoint[p]!] = p ^ 1;
      mate[endpoint[p ^ 1]!] = p;
    }
    blossomchilds[b] = childs.slice(i).concat(childs.slice(0, i));
    blossomendps[b] = endps.slice(i).concat(endps.slice(0, i));
    blossombase[b] = blossombase[blossomchilds[b]![0]!]!;
  };

  const augmentMatching = (k: number): void => {
    const e = edges[k]!;
    for (const [start, startP] of [
      [e.u, 2 * k + 1],
      [e.v, 2 * k],
    ] as const) {
      let s = start;
      let p = startP;
      for (;;) {
        const bs = inblossom[s]!;
        if (bs >= n) augmentBlossom(bs, s);
        mate[s] = p;
        if (labelend[bs] === -1) break;
        const t = endpoint[labelend[bs]!]!;
        const bt = inblossom[t]!;
        s = endpoint[labelend[bt]!]!;
        const j = endpoint[labelend[bt]! ^ 1]!;
        if (bt >= n) augmentBlossom(bt, j);
        mate[j] = labelend[bt]!;
        p = labelend[bt]! ^ 1;
      }
    }
  };

  for (let stage = 0; stage < n; stage += 1) {
    label.fill(0);
    bestedge.fill(-1);
    for (let b = n; b < 2 * n; b += 1) blossombestedges[b] = null;
    allowedge.fill(false);
    queue = [];
    for (let v = 0; v < n; v += 1) if (mate[v] === -1 && label[inblossom[v]!] === 0) assignLabel(v, 1, -1);
    let augmented = false;
    for (;;) {
      while (queue.length > 0 && !augmented) {
        const v = queue.pop()!;
        for (const p of neighbend[v]!) {
          const k = p >> 1;
          const w = endpoint[p]!;
          if (inblossom[v] === inblossom[w]) continue;
          let kslack = 0n;
          if (!allowedge[k]) {
            kslack = slack(k);
            if (kslack <= 0n) allowedge[k] = true;
          }
          if (allowedge[k]) {
            if (label[inblossom[w]!] === 0) assignLabel(w, 2, p ^ 1);
            else if (label[inblossom[w]!] === 1) {
              const base = scanBlossom(v, w);
              if (base >= 0) addBlossom(base, k);
              else {
                augmentMatching(k);
                augmented = true;
                break;
              }
            } else if (label[w] === 0) {
              label[w] = 2;
              labelend[w] = p ^ 1;
            }
          } else if (label[inblossom[w]!] === 1) {
            const b = inblossom[v]!;
            if (bestedge[b] === -1 || kslack < slack(bestedge[b]!)) bestedge[b] = k;
          } else if (label[w] === 0) {
            if (bestedge[w] === -1 || kslack < slack(bestedge[w]!)) bestedge[w] = k;
          }
        }
      }
      if (augmented) break;
      // No augmenting path with the current duals: change them.
      let deltatype = 1;
      let delta = dualvar[0]!;
      for (let v = 1; v < n; v += 1) if (dualvar[v]! < delta) delta = dualvar[v]!;
      let deltaedge = -1;
      let deltablossom = -1;
      for (let v = 0; v < n; v += 1) {
        if (label[inblossom[v]!] === 0 && bestedge[v] !== -1) {
          const d = slack(bestedge[v]!);
          if (d < delta) {
            delta = d;
            deltatype = 2;
            deltaedge = bestedge[v]!;
          }
        }
      }
      for (let b = 0; b < 2 * n; b += 1) {
        if (blossomparent[b] === -1 && label[b] === 1 && bestedge[b] !== -1) {
          const d = slack(bestedge[b]!) / 2n;
          if (d < delta) {
            delta = d;
            deltatype = 3;
            deltaedge = bestedge[b]!;
          }
        }
      }
      for (let b = n; b < 2 * n; b += 1) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1 && label[b] === 2 && dualvar[b]! < delta) {
          delta = dualvar[b]!;
          deltatype = 4;
          deltablossom = b;
        }
      }
      for (let v = 0; v < n; v += 1) {
        const l = label[inblossom[v]!];
        if (l === 1) dualvar[v] = dualvar[v]! - delta;
        else if (l === 2) dualvar[v] = dualvar[v]! + delta;
      }
      for (let b = n; b < 2 * n; b += 1) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1) {
          if (label[b] === 1) dualvar[b] = dualvar[b]! + delta;
          else if (label[b] === 2) dualvar[b] = dualvar[b]! - delta;
        }
      }
      if (deltatype === 1) break;
      if (deltatype === 2) {
        allowedge[deltaedge] = true;
        let i = edges[deltaedge]!.u;
        const j = edges[deltaedge]!.v;
        if (label[inblossom[i]!] === 0) i = j;
        queue.push(i);
      } else if (deltatype === 3) {
        allowedge[deltaedge] = true;
        queue.push(edges[deltaedge]!.u);
      } else expandBlossom(deltablossom, false);
    }
    if (!augmented) break;
    for (let b = n; b < 2 * n; b += 1) {
      if (blossomparent[b] === -1 && blossombase[b]! >= 0 && label[b] === 1 && dualvar[b] === 0n) expandBlossom(b, true);
    }
  }
  return mate.map((p) => (p >= 0 ? endpoint[p]! : -1));
}
