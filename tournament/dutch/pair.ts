// Pairs one Swiss round by the Dutch system (FIDE C.04.3, rules in force from February 2026), the
// way bbpPairings v6 does: the bracket procedure (brackets.ts) over maximum-weight matchings whose
// edge weights pack the criteria (weights.ts). Three computations give that same pairing
// (docs/dutch-pairing.md has the argument for each):
// - round one, when no one has a history: the top half against the bottom half, in order;
// - the bracket-sized matching (sparse-matcher.ts): each bracket's graph holds only its own
//   players and the next score group, every optimum checked to leave the rest completable;
// - the whole-field matching, the reference, used whenever the others do not apply or a check fails
//   (as the reference, with every pair weighed by itself rather than once per kind of pair).
import { Completion } from './completion.ts';
import { colourFor, publicationOrder } from './colours.ts';
import { pairBrackets, type BracketMatcher } from './brackets.ts';
import { WeightedGraph } from './matching.ts';
import { NoValidPairingError, type Board, type PairingRequest, type RoundPairing } from './model.ts';
import { rankPlayers, type PlayerState } from './players.ts';
import { NeedsFullGraph, SparseMatcher } from './sparse-matcher.ts';
import { byeSearchWeight, edgeWeight, weightLayout, type ByeContext, type WeightLayout } from './weights.ts';

/** Which computation gave the pairing. */
export type PairingPath = 'round-one' | 'bracket-graphs' | 'whole-field';

/** Pairs round `playedRounds + 1`. Throws NoValidPairingError when the absolute criteria cannot all hold. */
export function pairRound(request: PairingRequest): RoundPairing {
  return pairRoundBy(request).pairing;
}

/**
 * pairRound, also telling which computation gave the pairing. `wholeField` skips the shortcuts
 * (the reference computation the tests compare them with).
 */
export function pairRoundBy(
  request: PairingRequest,
  options: { wholeField?: boolean } = {},
): { pairing: RoundPairing; path: PairingPath; stages?: SparseMatcher['stageCounts'] } {
  const { ranked, toPair: sorted } = rankPlayers(request);
  if (sorted.length === 0) return { pairing: { boards: [], bye: null }, path: 'whole-field' };
  const compatible = compatibility(request, sorted);
  const layout = weightLayout(sorted, request.playedRounds);
  const result = (partner: readonly number[], path: PairingPath) => ({ pairing: roundPairing(sorted, partner, ranked, request), path });
  if (!options.wholeField) {
    const first = roundOnePartners(sorted, compatible);
    if (first) return result(first, 'round-one');
    const bye = byeFromCompletion(sorted, compatible);
    if (bye) {
      try {
        const matcher = new SparseMatcher(sorted, layout, compatible.at, bye);
        return { ...result(pairBrackets(sorted, layout, compatible.players, bye, matcher), 'bracket-graphs'), stages: matcher.stageCounts };
      } catch (error) {
        // The whole-field matching decides: a failed completion check, or no valid pairing.
        if (!(error instanceof NeedsFullGraph || error instanceof NoValidPairingError)) throw error;
      }
    }
  }
  const { bye, matcher } = wholeField(sorted, layout, compatible);
  return result(pairBrackets(sorted, layout, compatible.players, bye, matcher, !options.wholeField), 'whole-field');
}

/**
 * Round one in its plain form: everyone on the same score, no game played (so no colour
 * preference, no float), everyone may take the bye and anyone may meet anyone. Every edge then
 * has the same weight, and the bracket procedure pairs S1 (the top half) with S2 in order; with an
 * odd number the last player takes the bye. Null when the field is not of that form.
 */
function roundOnePartners(sorted: readonly PlayerState[], compatible: Compatibility): number[] | null {
  const n = sorted.length;
  const score = sorted[0]!.score;
  const plain = (p: PlayerState): boolean => p.score === score && p.playedGames === 0 && p.byeEligible && p.floats[0] === 'none' && p.floats[1] === 'none';
  if (!sorted.every(plain)) return null;
  for (let u = 0; u < n; u += 1) for (let v = u + 1; v < n; v += 1) if (!compatible.at(u, v)) return null;
  const half = Math.floor(n / 2);
  const partner = new Array<number>(n).fill(-1);
  for (let i = 0; i < half; i += 1) {
    partner[i] = half + i;
    partner[half + i] = i;
  }
  return partner;
}

function byeContext(sorted: readonly PlayerState[], byeScore: number, singleDownfloaterIsBye: boolean): ByeContext {
  const played = sorted.filter((p) => p.score === byeScore).map((p) => p.playedGames);
  played.sort((a, b) => b - a);
  const unplayedRank = new Map<number, number>();
  played.forEach((games, rank) => unplayedRank.set(games, rank));
  return { byeScore, singleDownfloaterIsBye, unplayedRank };
}

/**
 * The bye assignee's score (C5) without the whole-field matching: the lowest score of a player who
 * may take the bye and whom some maximum matching leaves out. Null when the field cannot be paired
 * (the whole-field matching reports it) or when the bye falls in the top score group (there the
 * first bracket's C9 depends on that matching too).
 */
function byeFromCompletion(sorted: readonly PlayerState[], compatible: Compatibility): ByeContext | null {
  const n = sorted.length;
  const out = new Completion(n, compatible.at).leftOut(Array.from({ length: n }, (_, v) => v));
  if (out === null) return null;
  if (n % 2 === 0) return { byeScore: 0, singleDownfloaterIsBye: false, unplayedRank: new Map() };
  const scores = out.filter((v) => sorted[v]!.byeEligible).map((v) => sorted[v]!.score);
  if (scores.length === 0) return null;
  const byeScore = Math.min(...scores);
  return byeScore >= sorted[0]!.score ? null : byeContext(sorted, byeScore, false);
}

/** The reference: one graph over the whole field, every pair an edge. */
function wholeField(sorted: readonly PlayerState[], layout: WeightLayout, compatible: Compatibility): { bye: ByeContext; matcher: BracketMatcher } {
  const n = sorted.length;
  const graph = new WeightedGraph(n);
  const topScore = sorted[0]!.score;
  // Who can take the bye, and from which score (C2, C4, C5)?
  let bye: ByeContext = { byeScore: 0, singleDownfloaterIsBye: false, unplayedRank: new Map() };
  const allEdges = (weight: (higher: PlayerState, lower: PlayerState) => bigint): void => {
    for (let lower = 1; lower < n; lower += 1) {
      for (let higher = 0; higher < lower; higher += 1) graph.setWeight(lower, higher, weight(sorted[higher]!, sorted[lower]!));
    }
  };
  const ctx = { layout, compatible: compatible.players };
  if (n % 2 === 1) allEdges((h, l) => byeSearchWeight(h, l, topScore, ctx));
  else allEdges((h, l) => edgeWeight(h, l, false, false, { ...ctx, bye }));
  const mate = graph.maximumWeightMatching();
  const single = mate.flatMap((m, v) => (m === v ? [v] : []));
  if (single.length > 1 || single.some((v) => !sorted[v]!.byeEligible)) {
    throw new NoValidPairingError('the players cannot all be paired without breaking an absolute criterion (C1-C3)');
  }
  if (n % 2 === 1) {
    const byeScore = sorted[single[0]!]!.score;
    let singleDownfloaterIsBye = byeScore >= topScore;
    for (let v = 0; singleDownfloaterIsBye && v < n && sorted[v]!.score >= topScore; v += 1) {
      if (sorted[mate[v]!]!.score < topScore) singleDownfloaterIsBye = false;
    }
    bye = byeContext(sorted, byeScore, singleDownfloaterIsBye);
    allEdges((h, l) => edgeWeight(h, l, false, false, { ...ctx, bye }));
  }
  let weights: readonly bigint[] = [];
  const matcher: BracketMatcher = {
    beginStage: (_bracket, _next, _bye, _mdps, _bracketSize, stageWeights) => {
      weights = stageWeights;
    },
    setWeight: (a, b, id, adjustment) => graph.setWeight(a, b, id === 0 ? 0n : weights[id]! + BigInt(adjustment)),
    setShare: (v, share) => graph.setShare(v, share),
    solve: () => graph.maximumWeightMatching(),
    freeze: (a, b) => graph.freezePair(a, b),
    excludes: (a, b) => graph.excludes(a, b),
    tryPair: (a, b) => {
      const plan = graph.planMatch(a, b);
      if (!plan) return null;
      graph.applyMatch(plan);
      return graph.matching();
    },
  };
  return { bye, matcher };
}

/** Who may meet whom (C1, C3), by vertex: a matrix built once, read for every edge. */
export interface Compatibility {
  readonly at: (u: number, v: number) => boolean;
  readonly players: (a: PlayerState, b: PlayerState) => boolean;
}

function compatibility(request: PairingRequest, sorted: readonly PlayerState[]): Compatibility {
  const n = sorted.length;
  const vertexOfId = new Map(sorted.map((p, v) => [p.id, v]));
  const vertexOfRank = new Int32Array(sorted.reduce((most, p) => Math.max(most, p.rank + 1), 0)).fill(-1);
  sorted.forEach((p, v) => (vertexOfRank[p.rank] = v));
  const matrix = new Uint8Array(n * n).fill(1);
  const forbid = (a: number, b: number): void => {
    const u = vertexOfId.get(a);
    const v = vertexOfId.get(b);
    if (u === undefined || v === undefined) return;
    matrix[u * n + v] = matrix[v * n + u] = 0;
  };
  for (const group of request.forbidden ?? []) for (const a of group) for (const b of group) if (a !== b) forbid(a, b);
  for (const entrant of request.entrants) {
    for (const record of entrant.rounds) if (record.played && record.opponent !== null) forbid(entrant.id, record.opponent);
  }
  const lastRound = request.playedRounds >= request.totalRounds - 1;
  // Topscorers: more than half the maximum possible score, when pairing the last round (A.7).
  const threshold = Math.floor((request.playedRounds * Math.max(request.points.win, request.points.draw)) / 2);
  // Two players with the same absolute colour preference cannot meet, except topscorers in the last round.
  const absolute = sorted.flatMap((p, v) => (p.absolute ? [v] : []));
  for (const u of absolute) {
    for (const v of absolute) {
      const a = sorted[u]!;
      const b = sorted[v]!;
      if (a.preference === b.preference && !(lastRound && (a.score > threshold || b.score > threshold))) matrix[u * n + v] = 0;
    }
  }
  for (let v = 0; v < n; v += 1) matrix[v * n + v] = 0;
  const at = (u: number, v: number): boolean => matrix[u * n + v] === 1;
  return { at, players: (a, b) => at(vertexOfRank[a.rank]!, vertexOfRank[b.rank]!) };
}

function roundPairing(sorted: readonly PlayerState[], partner: readonly number[], ranked: readonly PlayerState[], request: PairingRequest): RoundPairing {
  const boards: Board[] = [];
  let bye: number | null = null;
  sorted.forEach((player, v) => {
    const p = partner[v]!;
    if (p < 0) {
      if (bye !== null) throw new NoValidPairingError('more than one player is left without an opponent');
      bye = player.id;
      return;
    }
    const opponent = sorted[p]!;
    if (player.id > opponent.id) return;
    const colour = colourFor(player, opponent, request.initialColour);
    boards.push(colour === 'white' ? { white: player.id, black: opponent.id } : { white: opponent.id, black: player.id });
  });
  return { boards: publicationOrder(boards, new Map(ranked.map((p) => [p.id, p]))), bye };
}
