// The bracket procedure of the Dutch system (FIDE C.04.3, rules in force from February 2026) as
// a sequence of maximum-weight matchings. Brackets are paired from the top score down; each
// bracket's matching also sees the next score group (C8) and every lower player (completion, C4),
// and its decisions are frozen one at a time in the order of the FIDE generation rules (MDPs first,
// then exchanges between S1 and S2, then S1's opponents), so the result equals the first acceptable
// candidate of the FIDE procedure. Every decision reads only what all optimal matchings of the
// moment agree on (see docs/dutch-pairing.md), so any exact maximum-weight matcher gives the same
// pairing: the whole-field graph (pair.ts) or the bracket-sized one (sparse-matcher.ts).
import type { PlayerState } from './players.ts';
import { NoValidPairingError } from './model.ts';
import { edgeWeights, type ByeContext, type EdgeContext, type WeightLayout } from './weights.ts';

/** A maximum-weight matching over the players not yet paired, as the bracket procedure drives it. */
export interface BracketMatcher {
  /**
   * A stage begins: `bracket` (by vertex: its first `mdps` the moved-down players, up to
   * `bracketSize` the residents, then the next score group) is paired; players from `next` on are
   * below it. `weights`: the stage's weights by number (edgeWeights), growing as pairs are weighed.
   */
  beginStage(bracket: readonly number[], next: number, bye: ByeContext, mdps: number, bracketSize: number, weights: readonly bigint[]): void;
  /**
   * The pair a-b (both in the current bracket) weighs weights[id] + adjustment; id 0: they may
   * not meet (weight 0, the adjustment ignored). The adjustment is the procedure's own: ordering
   * fields and bumps, below the base weights' lowest unit.
   */
  setWeight(a: number, b: number, id: number, adjustment: number): void;
  /**
   * A hint for the matcher's start, never for the optimum: v is expected to carry `share` of its
   * pair's weight (the generation order's S1 addend of a player expected in S1).
   */
  setShare(v: number, share: bigint): void;
  /** mate[v]: v's partner in a maximum-weight matching (v itself when single). */
  solve(): readonly number[];
  /** a-b, matched now, is decided: every later optimum keeps it. */
  freeze(a: number, b: number): void;
  /**
   * No maximum-weight matching of the moment pairs a with b, as the current duals show (their
   * edge is not tight; complementary slackness). False when that cannot be shown.
   */
  excludes(a: number, b: number): boolean;
  /**
   * The optimum changed, without solving, to one that pairs a with b, if that is shown to be an
   * optimum too (no weight changed since the last solve); null when it cannot be shown.
   */
  tryPair(a: number, b: number): readonly number[] | null;
}

/**
 * Pairs every bracket of `sorted` (ranking order: score, then pairing number). Returns each
 * vertex's partner, -1 for the player left without one. `memoise`: compute each kind of pair's
 * weight once (edgeWeights); the reference computation weighs every pair by itself. A pair's
 * weight goes to the matcher as its base weight's number and the procedure's adjustment (a
 * machine integer), so no BigInt is computed per pair.
 */
export function pairBrackets(
  sorted: readonly PlayerState[],
  layout: WeightLayout,
  compatible: EdgeContext['compatible'],
  initialBye: ByeContext,
  matcher: BracketMatcher,
  memoise = true,
): number[] {
  const n = sorted.length;
  const topScore = sorted[0]!.score;
  let bye = initialBye;
  const ctx = (): EdgeContext => ({ layout, bye, compatible });
  const matched = new Array<boolean>(n).fill(false);
  const partner = new Array<number>(n).fill(-1);
  let mate: readonly number[] = [];
  const rematch = (): void => {
    mate = matcher.solve();
  };
  // A decided pair leaves the matching problem: every later optimum keeps it.
  const freeze = (a: number, b: number): void => matcher.freeze(a, b);

  // The bracket: moved-down players, then the score group's residents, then the next score group.
  let bracket: number[] = [];
  let next = 0;
  while (next < n && sorted[next]!.score >= topScore) bracket.push(next++);
  let mdps = 0;
  let groupStart = 0;

  while (bracket.length > 1 || next < n) {
    const bracketSize = bracket.length;
    const groupEnd = groupStart + (bracketSize - mdps);
    const nextGroupStart = next;
    if (next < n) {
      const score = sorted[next]!.score;
      while (next < n && sorted[next]!.score >= score) bracket.push(next++);
    } else if (mdps === bracketSize) {
      throw new NoValidPairingError('the last bracket cannot be completed');
    }
    const players = bracket.map((v) => sorted[v]!);
    const weighed = edgeWeights(ctx(), players, memoise);
    matcher.beginStage(bracket, next, bye, mdps, bracketSize, weighed.weights);
    const at = (position: number): PlayerState => players[position]!;
    const inGroup = (vertex: number): boolean => vertex >= groupStart && vertex < groupEnd;
    const pairedInBracket = (vertex: number): boolean => mate[vertex]! > vertex && mate[vertex]! < groupEnd;

    const s1Flag = 2 ** (2 * layout.groupBits);
    /** The ordering fields added to a base weight: fewest exchanges, smallest BSN differences (D.2). */
    const order = (higherIndex: number, s1Size: number): number => ((higherIndex < s1Size ? s1Flag : 0) - higherIndex) * 2;
    // An S1 player paired downwards carries its addend alone: each of its edges as the higher
    // player has it. Given to its dual at the start (setShare), the S1 -> S2 pairs start tight where
    // halving every edge would put half of each S1 addend on the S2 side, far from the optimum's duals.
    const shareOrder = (vertex: number, index: number, s1Size: number): void => {
      if (index < s1Size) matcher.setShare(vertex, BigInt(order(index, s1Size)));
    };
    // Without moved-down players the remainder is every resident, and S1 is, but for the few a
    // bracket of that size floats down, its first half: the first solve already carries the
    // ordering fields for that S1 (they cannot change which pairings are optimal, only choose
    // among them), so the ordered solve below has nothing left to do when the guess is right.
    const s1Guess = mdps === 0 ? Math.floor(bracketSize / 2) : -1;
    // base[lower][higher], positions in the bracket: the number of the pair's base weight (0: no edge).
    const base: Int32Array[] = [];
    for (let lower = 0; lower < bracket.length; lower += 1) {
      const row = new Int32Array(lower >= mdps ? lower : 0);
      for (let higher = 0; higher < row.length; higher += 1) {
        const id = (row[higher] = weighed.weigh(higher, lower, lower < bracketSize, lower >= bracketSize));
        matcher.setWeight(bracket[higher]!, bracket[lower]!, id, s1Guess >= 0 && lower < bracketSize ? order(higher, s1Guess) : 0);
      }
      base.push(row);
    }
    for (let position = 0; position < s1Guess; position += 1) shareOrder(bracket[position]!, position, s1Guess);
    rematch();

    // Which moved-down players are paired here (C6, C7): highest scores first, then ranking order.
    let subgroupScore = Number.NaN;
    let remaining = 0;
    let remainingPaired = 0;
    const residents = bracketSize - mdps;
    for (let position = 0; position < mdps; position += 1) {
      if (position === 0 || at(position).score < subgroupScore) {
        subgroupScore = at(position).score;
        remaining = 0;
        remainingPaired = 0;
        for (let m = position; m < bracket.length && at(m).score >= subgroupScore; m += 1) {
          remaining += 1;
          if (inGroup(mate[bracket[m]!]!)) remainingPaired += 1;
        }
      }
      if (remainingPaired === 0) continue;
      const v = bracket[position]!;
      if (remaining <= remainingPaired) {
        matched[v] = true;
        continue;
      }
      remaining -= 1;
      if (!inGroup(mate[v]!)) {
        for (let opp = mdps; opp < bracketSize; opp += 1) {
          const id = base[opp]![position]!;
          if (id !== 0) matcher.setWeight(v, bracket[opp]!, id, 1);
        }
        rematch();
      }
      if (inGroup(mate[v]!)) {
        matched[v] = true;
        remainingPaired -= 1;
        for (let opp = mdps; opp < bracketSize; opp += 1) {
          const id = base[opp]![position]!;
          if (id !== 0) matcher.setWeight(v, bracket[opp]!, id, residents + 1);
        }
      }
    }

    // Their opponents: the highest resident that keeps the bracket optimal.
    for (let position = 0; position < mdps; position += 1) {
      const v = bracket[position]!;
      if (!matched[v]) continue;
      let addend = bracket.length;
      for (let opp = bracketSize - 1; opp >= mdps; opp -= 1) {
        const ov = bracket[opp]!;
        if (matched[ov]) continue;
        const id = base[opp]![position]!;
        if (id !== 0) {
          matcher.setWeight(v, ov, id, addend);
          addend += 1;
        }
      }
      rematch();
      const m = mate[v]!;
      matched[m] = true;
      freeze(v, m);
    }

    // The remainder: S1 = its first `s1Size` players (those the optimum pairs downwards), S2 the rest.
    const remainder: number[] = [];
    let s1Size = 0;
    for (let position = mdps; position < bracketSize; position += 1) {
      const v = bracket[position]!;
      if (mate[v]! < groupStart) continue;
      remainder.push(position);
      if (mate[v]! < v) s1Size += 1;
    }
    const vx = (index: number): number => bracket[remainder[index]!]!;
    /** The number of the base weight of remainder players a and b (a before b). */
    const baseOf = (a: number, b: number): number => base[remainder[b]!]![remainder[a]!]!;
    const setOrdered = (a: number, b: number, extra = 0): void => matcher.setWeight(vx(a), vx(b), baseOf(a, b), order(a, s1Size) + extra);
    for (let b = 0; b < remainder.length; b += 1) {
      for (let a = 0; a < b; a += 1) setOrdered(a, b);
    }
    for (let a = 0; a < s1Size; a += 1) shareOrder(vx(a), a, s1Size);
    rematch();
    let exchanges = 0;
    for (let a = 0; a < s1Size; a += 1) if (!pairedInBracket(vx(a))) exchanges += 1;

    // D.2: move the lowest possible S1 players to S2...
    let left = exchanges;
    for (let a = s1Size - 1; a >= 0 && left > 0; a -= 1) {
      const v = vx(a);
      if (pairedInBracket(v)) {
        for (let b = a + 1; b < remainder.length; b += 1) if (baseOf(a, b) !== 0) setOrdered(a, b, -1);
        rematch();
      }
      const exchange = !pairedInBracket(v);
      if (exchange) left -= 1;
      for (let b = a + 1; b < remainder.length; b += 1) {
        if (exchange) base[remainder[b]!]![remainder[a]!] = 0;
        setOrdered(a, b);
      }
    }
    // ...and the highest possible S2 players to S1.
    left = exchanges;
    for (let a = s1Size; a < remainder.length && left > 1; a += 1) {
      const v = vx(a);
      const already = pairedInBracket(v);
      if (!already) {
        for (let b = a + 1; b < remainder.length; b += 1) if (baseOf(a, b) !== 0) setOrdered(a, b, 1);
        rematch();
      }
      if (pairedInBracket(v)) {
        left -= 1;
        for (let b = 0; b < a; b += 1) {
          base[remainder[a]!]![remainder[b]!] = 0;
          matcher.setWeight(v, vx(b), 0, 0);
        }
        for (let opp = bracketSize; opp < bracket.length; opp += 1) {
          base[opp]![remainder[a]!] = 0;
          matcher.setWeight(v, bracket[opp]!, 0, 0);
        }
      }
      if (!already) {
        for (let b = a + 1; b < remainder.length; b += 1) setOrdered(a, b);
      }
    }
    // Only S1 -> S2 edges remain. They keep their ordering fields: every optimum now pairs each S1
    // player with an S2 player, so those fields add the same to every optimum and choose nothing,
    // while the matching and duals stay optimal (only unmatched edges are removed) and D.1 can
    // start without a solve.
    for (let a = 0; a < remainder.length; a += 1) {
      for (let b = a + 1; b < remainder.length; b += 1) {
        if (!pairedInBracket(vx(a)) || pairedInBracket(vx(b))) base[remainder[b]!]![remainder[a]!] = 0;
        setOrdered(a, b);
      }
    }
    // D.1: each S1 player, in order, gets the first S2 player that keeps the bracket optimal.
    for (let a = 0; a < remainder.length; a += 1) {
      const position = remainder[a]!;
      const v = bracket[position]!;
      if (!pairedInBracket(v)) continue;
      // The first candidate some optimum accepts is the answer. Candidates the current duals
      // exclude from every optimum are passed over; the next one is tried without solving.
      const first = remainder.find((opp) => opp > position && !matched[bracket[opp]!] && base[opp]![position]! !== 0 && !matcher.excludes(v, bracket[opp]!));
      const shortcut = first === undefined ? null : matcher.tryPair(v, bracket[first]!);
      if (shortcut) mate = shortcut;
      else {
        let addend = 0;
        for (let b = remainder.length - 1; b >= 0; b -= 1) {
          const opp = remainder[b]!;
          const ov = bracket[opp]!;
          if (opp <= position || matched[ov]) continue;
          const id = base[opp]![position]!;
          if (id !== 0) matcher.setWeight(v, ov, id, order(a, s1Size) + addend);
          addend += 1;
        }
        rematch();
      }
      const m = mate[v]!;
      matched[v] = true;
      matched[m] = true;
      freeze(v, m);
    }

    // Paired players leave; the rest move down into the next bracket.
    let singleDownfloaterIsBye = n % 2 === 1 && nextGroupStart < n && bye.byeScore >= sorted[nextGroupStart]!.score;
    const moving: number[] = [];
    let movingDown = 0;
    bracket.forEach((v, position) => {
      if (position < bracketSize && matched[v]) {
        partner[v] = mate[v]!;
        partner[mate[v]!] = v;
        return;
      }
      moving.push(v);
      if (position < bracketSize) movingDown += 1;
      if (singleDownfloaterIsBye && sorted[mate[v]!]!.score < sorted[nextGroupStart]!.score) singleDownfloaterIsBye = false;
    });
    bye = { ...bye, singleDownfloaterIsBye };
    bracket = moving;
    mdps = movingDown;
    groupStart = groupEnd;
  }

  return partner;
}
