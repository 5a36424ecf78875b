// The edge weight computed once per kind of pair (edgeWeights) against edgeWeight itself, for
// every pair of random players, inside and outside the bracket, with and without C9 in play; and
// a stage's numbered, shortened weights (StagePairWeights) against the exact quality weights.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  completionPart,
  edgeWeight,
  edgeWeights,
  StagePairWeights,
  StageWeights,
  weightLayout,
  type PairingByeContext as ByeContext,
  type PairingPlayerState as PlayerState,
} from '../../tournament/internal.ts';

const colour = fc.constantFrom('white' as const, 'black' as const, null);
const float = fc.constantFrom('down' as const, 'up' as const, 'none' as const);
const player = fc.record({
  score: fc.constantFrom(0, 5, 10, 15),
  colourImbalance: fc.nat(3),
  preference: colour,
  repeatedColour: colour,
  strong: fc.boolean(),
  absolute: fc.boolean(),
  absoluteImbalance: fc.boolean(),
  byeEligible: fc.boolean(),
  playedGames: fc.nat(4),
  floats: fc.tuple(float, float),
});
type Fields = typeof player extends fc.Arbitrary<infer T> ? T : never;
const names = [
  'score',
  'colourImbalance',
  'preference',
  'repeatedColour',
  'strong',
  'absolute',
  'absoluteImbalance',
  'byeEligible',
  'playedGames',
  'floats',
] as const;
// Players made from a few prototypes, each with at most one field of another player's: players
// of one kind, and near misses differing in a single field, are the cases a memo can get wrong.
const field = fc
  .tuple(fc.array(player, { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(fc.nat(2), fc.nat(names.length), player), { minLength: 2, maxLength: 14 }))
  .map(([prototypes, picks]): Fields[] =>
    picks.map(([proto, which, other]) => {
      const base = prototypes[proto % prototypes.length]!;
      const name = names[which];
      return name === undefined ? base : { ...base, [name]: other[name] };
    }),
  );

/** Rank of each played-games count among the bye candidates, for C9 (fewer games, higher rank). */
const unplayedRank = new Map([0, 1, 2, 3, 4].map((games) => [games, 4 - games]));
/** Who may meet whom: a fixed pattern over the two ranks. */
const meetsBy =
  (meets: readonly boolean[]) =>
  (a: PlayerState, b: PlayerState): boolean =>
    meets[(a.rank * 14 + b.rank) % 200]!;
/** The completion field of a pair with 0, 1 or 2 players not allowed the bye. */
const completionFieldsOf = (player: PlayerState, layout: ReturnType<typeof weightLayout>, bye: ByeContext): bigint[] =>
  [0, 1, 2].map((c) => completionPart({ ...player, byeEligible: c < 1, score: -1 }, { ...player, byeEligible: c < 2, score: -1 }, layout, bye));
/** A larger field: `copies` of each generated player, in ranking order. */
const copiesOf = (fields: readonly Fields[], copies: number): PlayerState[] =>
  fields
    .flatMap((f, i) =>
      Array.from({ length: copies }, (_, c) => ({ ...f, id: i * copies + c + 1, rank: i * copies + c, unacceleratedScore: f.score, colours: [] })),
    )
    .sort((a, b) => b.score - a.score || a.rank - b.rank);
/** The next of `choices` below n, round and round. */
const picker = (choices: readonly number[]): ((n: number) => number) => {
  let choice = 0;
  return (n) => choices[choice++ % choices.length]! % n;
};

describe('edgeWeights', () => {
  it('gives edgeWeight for every pair, whatever fields the players share', () => {
    fc.assert(
      fc.property(
        field,
        fc.constantFrom(0, 5, 10),
        fc.boolean(),
        fc.nat(3),
        fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
        (fields, byeScore, singleDownfloaterIsBye, playedRounds, meets) => {
          const players: PlayerState[] = fields
            .map((f, i) => ({ ...f, id: i + 1, rank: i, unacceleratedScore: f.score, colours: [] }))
            .sort((a, b) => b.score - a.score || a.rank - b.rank);
          const layout = weightLayout(players, playedRounds);
          const bye: ByeContext = { byeScore, singleDownfloaterIsBye, unplayedRank };
          const ctx = { layout, bye, compatible: meetsBy(meets) };
          const memoised = edgeWeights(ctx, players);
          const reference = edgeWeights(ctx, players, false);
          // Twice over, so that the second pass reads the memo.
          for (let pass = 0; pass < 2; pass += 1) {
            for (let lower = 1; lower < players.length; lower += 1) {
              for (let higher = 0; higher < lower; higher += 1) {
                for (const [inBracket, inNext] of [
                  [true, false],
                  [false, true],
                  [false, false],
                ] as const) {
                  const h = players[higher]!;
                  const l = players[lower]!;
                  const exact = edgeWeight(h, l, inBracket, inNext, ctx);
                  expect(memoised.weights[memoised.weigh(higher, lower, inBracket, inNext)]).toBe(exact);
                  expect(reference.weights[reference.weigh(higher, lower, inBracket, inNext)]).toBe(exact);
                }
              }
            }
          }
        },
      ),
      { seed: 20260201, numRuns: 400 },
    );
  });
});

describe('StagePairWeights', () => {
  // A stage of a larger field: the layout counts every player (8 of each generated one, so that
  // score groups are wide enough to be shortened), the stage holds the generated players only.
  it('numbers each weight by its exact quality, and shortening keeps the order of every two matchings', () => {
    let shortenedStages = 0;
    fc.assert(
      fc.property(
        field,
        fc.constantFrom(0, 5, 10),
        fc.nat(3),
        fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        fc.boolean(),
        (fields, byeScore, playedRounds, meets, choices, singleDownfloaterIsBye) => {
          const copies = 8;
          const everyone = copiesOf(fields, copies);
          // The stage: one of each generated player, of some of the field's scores (the others' bits go).
          const scores = [...new Set(everyone.map((p) => p.score))];
          const kept = scores.filter((_, i) => (choices[63]! >> i) % 2 === 1 || scores.length === 1);
          const stage = everyone.filter((p) => p.rank % copies === 0 && kept.includes(p.score));
          if (stage.length < 2) return;
          const layout = weightLayout(everyone, playedRounds);
          // With C9 in play its room is kept (its terms are set), without it it goes.
          const bye: ByeContext = { byeScore, singleDownfloaterIsBye, unplayedRank };
          const ctx = { layout, bye, compatible: meetsBy(meets) };
          const weighed = edgeWeights(ctx, stage);
          const fields3 = completionFieldsOf(stage[0]!, layout, bye);
          const shortening = StageWeights.for(layout, new Set(stage.map((p) => p.score)), singleDownfloaterIsBye);
          const table = new StagePairWeights(weighed.weights, fields3, shortening);
          let shortened = false;
          const g = layout.groupBits;
          const pick = picker(choices);
          // Every pair of the stage, as the procedure sets it: base weight, ordering fields, a bump.
          const number: number[][] = [];
          const quality: bigint[][] = [];
          const seen = new Map<number, bigint>();
          const numberOfExact = new Map<bigint, number>();
          for (let lower = 1; lower < stage.length; lower += 1) {
            number.push([]);
            quality.push([]);
            for (let higher = 0; higher < lower; higher += 1) {
              const h = stage[higher]!;
              const l = stage[lower]!;
              const inBracket = pick(3) > 0;
              const id = weighed.weigh(higher, lower, inBracket, !inBracket);
              const s1 = pick(stage.length);
              const adjustment = ((higher < s1 ? 2 ** (2 * g) : 0) - higher) * 2 + [0, 1, -1, stage.length][pick(4)]!;
              const c = (h.byeEligible && h.score <= byeScore ? 0 : 1) + (l.byeEligible && l.score <= byeScore ? 0 : 1);
              const k = table.numberOf(id, c, adjustment);
              const exact = id === 0 ? 0n : edgeWeight(h, l, inBracket, !inBracket, ctx) - completionPart(h, l, layout, bye) + BigInt(adjustment);
              expect(k).toBeGreaterThanOrEqual(0);
              expect(table.quality(k)).toBe(exact);
              expect(table.numberOf(id, c, adjustment)).toBe(k);
              // Another count of players not allowed the bye: another quality.
              const other = (c + 1 + pick(2)) % 3;
              const elsewhere = table.numberOf(id, other, adjustment);
              if (id !== 0 && elsewhere >= 0) expect(table.quality(elsewhere)).toBe(exact + fields3[c]! - fields3[other]!);
              // One number, one weight; one weight, one number.
              if (seen.has(k)) expect(seen.get(k)).toBe(exact);
              seen.set(k, exact);
              if (numberOfExact.has(exact)) expect(numberOfExact.get(exact)).toBe(k);
              numberOfExact.set(exact, k);
              if (!shortening) expect(table.short[k]).toBe(exact);
              if (table.short[k]! < exact) shortened = true;
              number[lower - 1]!.push(k);
              quality[lower - 1]!.push(exact);
            }
          }
          // Every two pairs (each a matching of one pair), and random matchings of the stage, compared
          // two by two: exact and shortened totals agree in order.
          const pairs = number.flatMap((row, i) => row.map((k, j) => [k, quality[i]![j]!] as const));
          const misordered: string[] = [];
          for (const [k, exact] of pairs) {
            for (const [k2, exact2] of pairs) {
              const [short, short2] = [table.short[k]!, table.short[k2]!];
              if (short < short2 !== exact < exact2 || (short === short2) !== (exact === exact2)) misordered.push(`${exact} ${exact2}`);
            }
          }
          expect(misordered).toEqual([]);
          const matching = (): [bigint, bigint] => {
            const order = stage.map((_, v) => v).sort((a, b) => ((a * 7919 + pick(1000)) % 997) - ((b * 7919 + pick(1000)) % 997));
            let exact = 0n;
            let short = 0n;
            for (let i = 0; i + 1 < order.length; i += 2) {
              if (pick(4) === 0) continue;
              const [a, b] = [order[i]!, order[i + 1]!];
              const [lower, higher] = a > b ? [a, b] : [b, a];
              exact += quality[lower - 1]![higher]!;
              short += table.short[number[lower - 1]![higher]!]!;
            }
            return [exact, short];
          };
          for (let trial = 0; trial < 6; trial += 1) {
            const [a, b] = [matching(), matching()];
            expect(Math.sign(Number(a[1] - b[1]))).toBe(Math.sign(Number(a[0] - b[0])));
          }
          if (shortened) shortenedStages += 1;
        },
      ),
      { seed: 20261202, numRuns: 300 },
    );
    expect(shortenedStages).toBeGreaterThan(50);
  });

  it("on the bracket alone drops C8, C9, the next score group and a single score's copies, and keeps the order of every two matchings", () => {
    let shorterStages = 0;
    let singleScoreStages = 0;
    fc.assert(
      fc.property(
        field,
        fc.nat(3),
        fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        fc.boolean(),
        (fields, playedRounds, meets, choices, singleDownfloaterIsBye) => {
          const copies = 8;
          const everyone = copiesOf(fields, copies);
          // The stage: one of each generated player; its bracket all but the lowest score (if two or more).
          const stage = everyone.filter((p) => p.rank % copies === 0);
          const lowest = stage[stage.length - 1]!.score;
          const inBracket = (p: PlayerState): boolean => p.score > lowest || stage[0]!.score === lowest;
          const bracketSize = stage.filter(inBracket).length;
          if (bracketSize < 2) return;
          const layout = weightLayout(everyone, playedRounds);
          // With C9 in play (a stage with no next score group may have it) its room stays.
          const bye: ByeContext = { byeScore: lowest, singleDownfloaterIsBye, unplayedRank };
          const ctx = { layout, bye, compatible: meetsBy(meets) };
          const weighed = edgeWeights(ctx, stage);
          const fields3 = completionFieldsOf(stage[0]!, layout, bye);
          const scoresOf = (players: readonly PlayerState[]): Set<number> => new Set(players.map((p) => p.score));
          const bracketShortening = StageWeights.forBracket(layout, scoresOf(stage.slice(0, bracketSize)), singleDownfloaterIsBye);
          const table = new StagePairWeights(weighed.weights, fields3, StageWeights.for(layout, scoresOf(stage)), bracketShortening);
          const pick = picker(choices);
          const g = layout.groupBits;
          const pairs: { exact: bigint; short: bigint; higher: number; lower: number }[] = [];
          let shorter = false;
          for (let lower = 1; lower < stage.length; lower += 1) {
            for (let higher = 0; higher < lower; higher += 1) {
              const h = stage[higher]!;
              const l = stage[lower]!;
              const c = (h.byeEligible && h.score <= lowest ? 0 : 1) + (l.byeEligible && l.score <= lowest ? 0 : 1);
              const adjustment = ((higher < bracketSize / 2 ? 2 ** (2 * g) : 0) - higher) * 2 + [0, 1, -1, stage.length][pick(4)]!;
              if (lower >= bracketSize) {
                // A pair into the next score group sets C8: it has no weight on the bracket alone.
                const id = weighed.weigh(higher, lower, false, true);
                if (id !== 0 && higher < bracketSize && bracketShortening) expect(table.bracketShort(table.numberOf(id, c, adjustment))).toBeNull();
                continue;
              }
              const id = weighed.weigh(higher, lower, true, false);
              if (id === 0) continue;
              const k = table.numberOf(id, c, adjustment);
              const short = table.bracketShort(k);
              expect(short).not.toBeNull();
              expect(table.bracketShort(k)).toBe(short);
              if (short! < table.short[k]!) shorter = true;
              pairs.push({ exact: edgeWeight(h, l, true, false, ctx) - completionPart(h, l, layout, bye) + BigInt(adjustment), short: short!, higher, lower });
            }
          }
          if (!bracketShortening) expect(shorter).toBe(false);
          // Every two pairs, and random matchings of the bracket, in the same order exact and shortened.
          for (const a of pairs) {
            for (const b of pairs)
              expect([Math.sign(Number(a.short - b.short)), a.short === b.short]).toEqual([Math.sign(Number(a.exact - b.exact)), a.exact === b.exact]);
          }
          const matching = (): [bigint, bigint] => {
            const used = new Set<number>();
            let exact = 0n;
            let short = 0n;
            for (const pair of pairs) {
              if (used.has(pair.higher) || used.has(pair.lower) || pick(3) === 0) continue;
              used.add(pair.higher).add(pair.lower);
              exact += pair.exact;
              short += pair.short;
            }
            return [exact, short];
          };
          for (let trial = 0; trial < 6; trial += 1) {
            const [a, b] = [matching(), matching()];
            expect(Math.sign(Number(a[1] - b[1]))).toBe(Math.sign(Number(a[0] - b[0])));
          }
          if (shorter) shorterStages += 1;
          if (shorter && scoresOf(stage.slice(0, bracketSize)).size === 1) singleScoreStages += 1;
        },
      ),
      { seed: 20261203, numRuns: 300 },
    );
    expect(shorterStages).toBeGreaterThan(50);
    // Brackets of one score, where C7 and C18-C21 go as copies of C6 and C14-C17.
    expect(singleScoreStages).toBeGreaterThan(20);
  });

  it('carries a pair over to the next stage with its exact quality', () => {
    const players: PlayerState[] = [10, 10, 5, 5, 5, 0, 0, 0].flatMap((score, i) =>
      Array.from({ length: 8 }, (_, c) => ({
        id: i * 8 + c + 1,
        rank: i * 8 + c,
        score,
        unacceleratedScore: score,
        colourImbalance: c % 3,
        preference: c % 2 === 0 ? ('white' as const) : ('black' as const),
        repeatedColour: null,
        strong: c % 4 === 0,
        absolute: false,
        absoluteImbalance: false,
        byeEligible: true,
        playedGames: 3,
        floats: [c % 3 === 0 ? ('down' as const) : ('none' as const), 'none' as const] as const,
        colours: [],
      })),
    );
    const layout = weightLayout(players, 3);
    const bye: ByeContext = { byeScore: 0, singleDownfloaterIsBye: false, unplayedRank: new Map() };
    const ctx = { layout, bye, compatible: () => true };
    const fields3 = completionFieldsOf(players[0]!, layout, bye);
    const weighed = edgeWeights(ctx, players);
    const stageOne = new StagePairWeights(weighed.weights, fields3, StageWeights.for(layout, new Set([10, 5])));
    const stageTwo = new StagePairWeights(edgeWeights(ctx, players).weights, fields3, StageWeights.for(layout, new Set([5, 0])));
    const [h, l] = [players[20]!, players[30]!];
    const k = stageOne.numberOf(weighed.weigh(20, 30, true, false), 2, -37);
    const exact = edgeWeight(h, l, true, false, ctx) - completionPart(h, l, layout, bye) - 37n;
    expect(stageOne.quality(k)).toBe(exact);
    const carried = stageTwo.carried(stageOne, k);
    expect(stageTwo.quality(carried)).toBe(exact);
    expect(stageTwo.carried(stageOne, k)).toBe(carried);
    // Shortened for its own stage: the score sub-fields of 10 go, those of 0 stay.
    expect(stageTwo.short[carried]).not.toBe(stageOne.short[k]);
    expect(stageTwo.quality(0)).toBe(0n);
  });
});
