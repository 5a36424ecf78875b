// The edge weight computed once per kind of pair (edgeWeights) against edgeWeight itself, for
// every pair of random players, inside and outside the bracket, with and without C9 in play.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgeWeight, edgeWeights, weightLayout, type PairingByeContext as ByeContext, type PairingPlayerState as PlayerState } from '../../tournament/index.ts';

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
const names = ['score', 'colourImbalance', 'preference', 'repeatedColour', 'strong', 'absolute', 'absoluteImbalance', 'byeEligible', 'playedGames', 'floats'] as const;
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
          const unplayedRank = new Map([0, 1, 2, 3, 4].map((games) => [games, 4 - games]));
          const bye: ByeContext = { byeScore, singleDownfloaterIsBye, unplayedRank };
          const compatible = (a: PlayerState, b: PlayerState): boolean => meets[(a.rank * 14 + b.rank) % 200]!;
          const ctx = { layout, bye, compatible };
          const memoised = edgeWeights(ctx);
          // Twice over, so that the second pass reads the memo.
          for (let pass = 0; pass < 2; pass += 1) {
            for (let lower = 1; lower < players.length; lower += 1) {
              for (let higher = 0; higher < lower; higher += 1) {
                for (const [inBracket, inNext] of [[true, false], [false, true], [false, false]] as const) {
                  const h = players[higher]!;
                  const l = players[lower]!;
                  expect(memoised(h, l, inBracket, inNext)).toBe(edgeWeight(h, l, inBracket, inNext, ctx));
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
