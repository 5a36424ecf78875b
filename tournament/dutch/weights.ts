// One edge weight per possible pair, packing the Dutch criteria into a single number so that a
// maximum-weight matching optimises them lexicographically (the design bbpPairings uses).
// From the most significant field down:
//   completion (C4) and bye eligibility (C2, C5) | pairs in the bracket (C6) | scores of the MDPs
//   paired (C7) | pairs and MDP scores of the next bracket (C8) | bye assignee's unplayed games (C9)
//   | colours (C10-C13) | repeated floats (C14-C17) | their scores (C18-C21) | room for the
//   generation order of the bracket (B, D), filled in by the bracket procedure.
import type { PlayerState, Float } from './players.ts';

export interface WeightLayout {
  /** Bits for a count of players of one score group. */
  readonly groupBits: number;
  /** Bits for one flag per score group, lowest score in the lowest bits. */
  readonly scoreBits: number;
  /** Bit offset of each score's flag inside a scoreBits field. */
  readonly scoreShift: ReadonlyMap<number, number>;
  readonly playedRounds: number;
}

export interface ByeContext {
  /** Score of the player who must receive the pairing-allocated bye (C5); -1 when none is needed. */
  readonly byeScore: number;
  /** The bracket's only downfloater is the bye assignee, so C9 applies. */
  readonly singleDownfloaterIsBye: boolean;
  /** Rank of each played-games count among the bye candidates (fewer played games, higher rank). */
  readonly unplayedRank: ReadonlyMap<number, number>;
}

export const bitLength = (value: number): number => (value <= 0 ? 0 : Math.floor(Math.log2(value)) + 1);

export function weightLayout(sortedPlayers: readonly PlayerState[], playedRounds: number): WeightLayout {
  const scoreShift = new Map<number, number>();
  let shift = 0;
  let largest = 0;
  // Lowest score group first, so higher scores sit in more significant bits.
  for (let end = sortedPlayers.length; end > 0;) {
    const score = sortedPlayers[end - 1]!.score;
    let start = end - 1;
    while (start > 0 && sortedPlayers[start - 1]!.score === score) start -= 1;
    const size = end - start;
    scoreShift.set(score, shift);
    shift += bitLength(size);
    largest = Math.max(largest, size);
    end = start;
  }
  return { groupBits: bitLength(largest), scoreBits: shift, scoreShift, playedRounds };
}

const flag = (condition: boolean): bigint => (condition ? 1n : 0n);

const coloursCompatible = (a: PlayerState, b: PlayerState): boolean => a.preference === null || b.preference === null || a.preference !== b.preference;

/** The four colour fields (C10-C13), each a 0/1 flag in a groupBits-wide field, for (lower, higher). */
function colourFlags(lower: PlayerState, higher: PlayerState): bigint[] {
  const samePreference = lower.preference === higher.preference;
  // C10: no topscorer pair in which both would exceed a colour difference of 2.
  const c10 = !lower.absoluteImbalance || !higher.absoluteImbalance || !samePreference;
  // C11: no one gets the same colour three times running.
  let c11: boolean;
  if (!lower.absolute || !higher.absolute || !samePreference) c11 = true;
  else if (lower.colourImbalance === higher.colourImbalance) c11 = lower.repeatedColour === null || lower.repeatedColour !== higher.repeatedColour;
  else {
    const granted = lower.colourImbalance > higher.colourImbalance ? higher : lower;
    c11 = granted.repeatedColour !== (lower.preference === 'white' ? 'black' : 'white');
  }
  // C12: both preferences granted.
  const c12 = coloursCompatible(lower, higher);
  // C13: both strong preferences granted.
  const c13 = (!lower.strong && !lower.absolute) || (!higher.strong && !higher.absolute) || (lower.absolute && higher.absolute) || !samePreference;
  return [flag(c10), flag(c11), flag(c12), flag(c13)];
}

export interface EdgeContext {
  readonly layout: WeightLayout;
  readonly bye: ByeContext;
  readonly compatible: (a: PlayerState, b: PlayerState) => boolean;
}

/**
 * Weight of pairing `higher` (earlier in ranking order) with `lower`. `lowerInBracket`: the lower
 * player belongs to the bracket being paired; `lowerInNext`: to the next score group.
 */
export function edgeWeight(higher: PlayerState, lower: PlayerState, lowerInBracket: boolean, lowerInNext: boolean, ctx: EdgeContext): bigint {
  if (!ctx.compatible(higher, lower)) return 0n;
  const { layout, bye } = ctx;
  const g = BigInt(layout.groupBits);
  const s = BigInt(layout.scoreBits);
  const scoreFlag = (score: number): bigint => 1n << BigInt(layout.scoreShift.get(score) ?? 0);
  const candidate = (p: PlayerState): boolean => p.byeEligible && p.score <= bye.byeScore;

  let w = 1n + flag(!candidate(higher)) + flag(!candidate(lower));
  w = (w << g) + flag(lowerInBracket);
  w = (w << s) + (lowerInBracket ? scoreFlag(higher.score) : 0n);
  w = (w << g) + flag(lowerInNext);
  w = (w << s) + (lowerInNext ? scoreFlag(higher.score) : 0n);
  w <<= 2n * g;
  if (bye.singleDownfloaterIsBye) {
    if (higher.score === bye.byeScore) w += BigInt(bye.unplayedRank.get(higher.playedGames) ?? 0);
    if (lower.score === bye.byeScore) w += BigInt(bye.unplayedRank.get(lower.playedGames) ?? 0);
  }
  for (const f of colourFlags(lower, higher)) w = (w << g) + (lowerInBracket ? f : 0n);

  const downfloated = (p: PlayerState, back: number): boolean => p.floats[back - 1] === ('down' satisfies Float);
  const upfloatedAgainst = (back: number): boolean => lower.floats[back - 1] === 'up' && higher.score > lower.score;
  const roundsBack = [1, 2].filter((back) => layout.playedRounds >= back);
  for (const back of roundsBack) {
    // C14/C16: residents who downfloated before; C15/C17: MDP opponents who upfloated before.
    w <<= g;
    if (lowerInBracket) w += flag(downfloated(lower, back)) + flag(higher.score <= lower.score && downfloated(higher, back));
    w <<= g;
    if (lowerInBracket) w += flag(!upfloatedAgainst(back));
  }
  for (const back of roundsBack) {
    // C18-C21: the same, weighted by score.
    w <<= s;
    if (lowerInBracket) {
      if (downfloated(lower, back)) w += scoreFlag(lower.score);
      if (downfloated(higher, back)) w += scoreFlag(higher.score);
    }
    w <<= s;
    if (lowerInBracket && !upfloatedAgainst(back)) w += scoreFlag(higher.score);
  }
  // Room for the bracket procedure's ordering fields.
  return w << (3n * g + 1n);
}

/**
 * A stage's weights by number, for the bracket procedure and its matcher: weigh() gives the
 * number of the weight of a pair of the stage's players (by position) in `weights`, 0 for a pair
 * that may not meet (weights[0] is 0n). A matcher can then do its work on a weight once per
 * number rather than once per pair.
 */
export interface PairWeights {
  readonly weights: readonly bigint[];
  weigh(higher: number, lower: number, lowerInBracket: boolean, lowerInNext: boolean): number;
}

/**
 * edgeWeight by number over `players` (a stage's, in ranking order), computed once per kind of
 * pair. Besides whether the two may meet, a weight reads only each player's score, bye
 * eligibility, colour state and floats (and games played, where C9 is in play), and a stage holds
 * few kinds of player (at most ~50 at 2,000 players), so most of its pairs share a number, found
 * in a table by the two kinds. `memoise` false: the reference, every pair weighed by itself under
 * its own number.
 */
export function edgeWeights(ctx: EdgeContext, players: readonly PlayerState[], memoise = true): PairWeights {
  const weights: bigint[] = [0n];
  const numbered = (w: bigint): number => (w === 0n ? 0 : weights.push(w) - 1);
  if (!memoise) {
    return { weights, weigh: (higher, lower, inBracket, inNext) => numbered(edgeWeight(players[higher]!, players[lower]!, inBracket, inNext, ctx)) };
  }
  const kinds = new Map<string, number>();
  const kindOf = Int32Array.from(players, (p) => {
    const games = ctx.bye.singleDownfloaterIsBye ? p.playedGames : -1;
    const key = `${p.score} ${p.byeEligible} ${p.preference} ${p.strong} ${p.absolute} ${p.absoluteImbalance} ${p.colourImbalance} ${p.repeatedColour} ${p.floats[0]} ${p.floats[1]} ${games}`;
    let k = kinds.get(key);
    if (k === undefined) kinds.set(key, (k = kinds.size));
    return k;
  });
  const count = kinds.size;
  // memo[4 (count * kind(higher) + kind(lower)) + flags]: the number, -1 before it is weighed.
  const memo = new Int32Array(4 * count * count).fill(-1);
  const weigh = (higher: number, lower: number, lowerInBracket: boolean, lowerInNext: boolean): number => {
    const h = players[higher]!;
    const l = players[lower]!;
    if (!ctx.compatible(h, l)) return 0;
    const key = 4 * (count * kindOf[higher]! + kindOf[lower]!) + (lowerInBracket ? 2 : 0) + (lowerInNext ? 1 : 0);
    let id = memo[key]!;
    if (id < 0) memo[key] = id = numbered(edgeWeight(h, l, lowerInBracket, lowerInNext, ctx));
    return id;
  };
  return { weights, weigh };
}

/** Bits below the completion field (C2, C4, C5) of an edge weight. */
export function completionShift(layout: WeightLayout): bigint {
  const g = layout.groupBits;
  const s = layout.scoreBits;
  const roundsBack = Math.min(layout.playedRounds, 2);
  return BigInt(g + s + g + s + 2 * g + 4 * g + roundsBack * 2 * (g + s) + 3 * g + 1);
}

/**
 * Where edgeWeight's score-flag fields start (bit offsets, lowest first): C18-C21, then C8's and
 * C7's. Each is scoreBits wide, score sigma's flag count at scoreShift(sigma) inside it. Below
 * the lowest sit the generation order's 3 * groupBits + 1 bits.
 */
export function scoreFieldOffsets(layout: WeightLayout): number[] {
  const g = layout.groupBits;
  const s = layout.scoreBits;
  const roundsBack = Math.min(layout.playedRounds, 2);
  const order = 3 * g + 1;
  const floats = Array.from({ length: 2 * roundsBack }, (_, i) => order + i * s);
  const c8 = order + 2 * roundsBack * (s + g) + 6 * g;
  return [...floats, c8, c8 + s + g];
}

/**
 * The completion field of edgeWeight alone: the whole weight of a compatible pair outside the
 * bracket and the next score group (lowerInBracket and lowerInNext false) when C9 is not in play.
 */
export function completionPart(higher: PlayerState, lower: PlayerState, layout: WeightLayout, bye: ByeContext): bigint {
  const candidate = (p: PlayerState): boolean => p.byeEligible && p.score <= bye.byeScore;
  return (1n + flag(!candidate(higher)) + flag(!candidate(lower))) << completionShift(layout);
}

/** Weight used to find the bye assignee's score before brackets are paired (C5). */
export function byeSearchWeight(higher: PlayerState, lower: PlayerState, topScore: number, ctx: Pick<EdgeContext, 'layout' | 'compatible'>): bigint {
  if (!ctx.compatible(higher, lower)) return 0n;
  const shift = (p: PlayerState): number => ctx.layout.scoreShift.get(p.score) ?? 0;
  let w = 1n + flag(!higher.byeEligible) + flag(!lower.byeEligible);
  w = (w << BigInt(ctx.layout.scoreBits)) + BigInt(shift(lower) + shift(higher));
  return (w << BigInt(ctx.layout.groupBits)) + flag(lower.score >= topScore);
}
