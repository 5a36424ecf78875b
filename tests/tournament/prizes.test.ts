// Prize rules on hand-made standings: the research examples for equal sharing and Hort (§6).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awardPrizes, findSection, presetEvent, splitFund, teamStandings, type EventSection, type StandingRow } from '../../tournament/internal.ts';

const base = findSection(presetEvent('sa-open-2009'), 'open');
const withPrizes = (prizes: Partial<NonNullable<EventSection['prizes']>>): EventSection => ({
  ...base,
  prizes: { currency: 'ZAR', places: [], sharing: 'equal', onePerPlayer: true, withdrawnOrForfeitedExcluded: false, special: [], ...prizes },
});
const row = (id: number, points: number, rank: number, tb = 0): StandingRow => ({ id, points, rank, tiebreaks: { 'BH-M1': tb, SB: 0, TPR: 0, PS: 0 } });
const amounts = (awards: ReturnType<typeof awardPrizes>) => Object.fromEntries(awards.map((a) => [a.player, a.amount]));

describe('prizes', () => {
  it('equal sharing: three tied for places 2-4 with 1000, 500, 300 get 600 each', () => {
    const section = withPrizes({ places: [2000, 1000, 500, 300] });
    const standings = [row(1, 7, 1), row(2, 6, 2, 30), row(3, 6, 3, 20), row(4, 6, 4, 10), row(5, 5, 5)];
    expect(amounts(awardPrizes(section, standings))).toEqual({ 1: 2000, 2: 600, 3: 600, 4: 600 });
  });

  it('Hort: A and B tied for 1000 and 500 get 875 and 625 (equal sharing: 750 each)', () => {
    const section = withPrizes({ places: [1000, 500] });
    const standings = [row(1, 7, 1, 30), row(2, 7, 2, 20), row(3, 5, 3)];
    expect(amounts(awardPrizes(section, standings, { sharing: 'hort' }))).toEqual({ 1: 875, 2: 625 });
    expect(amounts(awardPrizes(section, standings))).toEqual({ 1: 750, 2: 750 });
  });

  it('tie-break order: only a shared rank shares', () => {
    const section = withPrizes({ places: [1000, 500, 300], sharing: 'tiebreak' });
    const standings = [row(1, 7, 1), row(2, 6, 2), row(3, 6, 2), row(4, 6, 4)];
    expect(amounts(awardPrizes(section, standings))).toEqual({ 1: 1000, 2: 400, 3: 400 });
  });

  it('one prize per player: a better category prize moves the player out of the place prizes', () => {
    // A player rated under 2000 is third; the under-2000 prize pays more than place 3.
    const section = withPrizes({ places: [1000, 600, 200, 100], special: [{ name: 'Best under 2000', amount: 400, maxRating: 1999, combinable: false }] });
    const low = section.players.find((p) => (p.fideRating ?? p.nationalRating ?? 9999) <= 1999)!.id;
    const standings = [row(1, 8, 1), row(2, 7, 2), row(low, 6, 3), row(4, 5, 4), row(5, 4, 5)];
    const awards = awardPrizes(section, standings);
    expect(awards.filter((a) => a.player === low).map((a) => [a.prize, a.amount])).toEqual([['Best under 2000', 400]]);
    expect(amounts(awards)).toEqual({ 1: 1000, 2: 600, [low]: 400, 4: 200, 5: 100 });
    const combinable = withPrizes({ places: [1000, 600, 200, 100], special: [{ name: 'Best under 2000', amount: 400, maxRating: 1999, combinable: true }] });
    expect(
      awardPrizes(combinable, standings)
        .filter((a) => a.player === low)
        .map((a) => a.amount),
    ).toEqual([200, 400]);
  });

  it("a category prize goes by the ratings it is given: the chief's assigned rating qualifies an unrated player (SA Open)", () => {
    const section = withPrizes({ special: [{ name: 'Best under 2000', amount: 1500, maxRating: 1999, combinable: false }] });
    const unrated = section.players.find((p) => p.fideRating === undefined && p.nationalRating === undefined)!.id;
    const low = section.players.find((p) => (p.fideRating ?? 9999) <= 1999)!.id;
    const standings = [row(unrated, 6, 1), row(low, 5, 2)];
    const best = (ratings?: ReadonlyMap<number, number | null>) => awardPrizes(section, standings, ratings ? { ratings } : {}).map((a) => a.player);
    expect(best()).toEqual([low]);
    expect(
      best(
        new Map([
          [unrated, null],
          [low, 1970],
        ]),
      ),
    ).toEqual([low]);
    expect(
      best(
        new Map([
          [unrated, 1900],
          [low, 1970],
        ]),
      ),
    ).toEqual([unrated]);
    expect(
      best(
        new Map([
          [unrated, 2100],
          [low, 1970],
        ]),
      ),
    ).toEqual([low]);
  });

  it('excluded players pass their prize down; fines come off, never below zero', () => {
    const section = withPrizes({ places: [1000, 500], sharing: 'tiebreak' });
    const standings = [row(1, 8, 1), row(2, 7, 2), row(3, 6, 3)];
    const awards = awardPrizes(section, standings, {
      excluded: new Set([1]),
      fines: new Map([
        [3, 1000],
        [2, 100],
      ]),
    });
    expect(awards.map((a) => [a.player, a.amount, a.fine, a.net])).toEqual([
      [2, 1000, 100, 900],
      [3, 500, 1000, 0],
    ]);
  });

  it("team prize: sum of four members, ties by the members' tie-break sums, then shared", () => {
    const section: EventSection = {
      ...withPrizes({ places: [], team: { members: 4, places: [300, 100] } }),
      teams: [
        { name: 'A', members: [1, 2, 3, 4, 5] },
        { name: 'B', members: [6, 7, 8, 9] },
        { name: 'C', members: [10, 11, 12, 13] },
      ],
    };
    const standings = [
      ...[1, 2, 3, 4].map((id) => row(id, 5, id, 10)),
      row(5, 1, 5, 0),
      ...[6, 7, 8, 9].map((id) => row(id, 5, id, 12)),
      ...[10, 11, 12, 13].map((id) => row(id, 5, id, 12)),
    ];
    const teams = teamStandings(section, standings);
    expect(teams.map((t) => [t.team, t.rank, t.points, t.prize])).toEqual([
      ['B', 1, 20, 200],
      ['C', 1, 20, 200],
      ['A', 3, 20, 0],
    ]);
    expect(teams.find((t) => t.team === 'A')?.members).toEqual([1, 2, 3, 4]);
  });
});

describe('prizes to the cent (SA Open: "in the event of a tie for any position, prize money will be shared")', () => {
  const under2000 = base.players.filter((p) => (p.fideRating ?? p.nationalRating ?? 9999) <= 1999).map((p) => p.id);
  const over2000 = base.players.filter((p) => (p.fideRating ?? 0) >= 2000).map((p) => p.id);
  const totalCents = (xs: readonly number[]) => xs.reduce((s, x) => s + Math.round(x * 100), 0);

  it('a fund split into thirds: cents by largest remainder (666.67 + 666.67 + 666.66), or tens (670 + 670 + 660)', () => {
    expect(splitFund(2000, [1, 1, 1])).toEqual([666.67, 666.67, 666.66]);
    expect(splitFund(2000, [1, 1, 1], 'ten')).toEqual([670, 670, 660]);
    // A fund that is not a multiple of 10: the tens by largest remainder, the 5 below them in cents.
    expect(splitFund(1005, [1, 1, 1], 'ten')).toEqual([341.67, 331.67, 331.66]);
    expect(splitFund(100, [2, 1])).toEqual([66.67, 33.33]);
    expect(splitFund(0, [1, 1])).toEqual([0, 0]);
    expect(() => splitFund(100, [1.5, 1])).toThrow(RangeError);
  });

  it('three tied for places 1-3 of 2000 + 0 + 0 get 666.67, 666.67 and 666.66 (the first two on tie-breaks the extra cents)', () => {
    const section = withPrizes({ places: [2000] });
    const standings = [row(1, 7, 1, 30), row(2, 7, 2, 20), row(3, 7, 3, 10), row(4, 5, 4)];
    expect(awardPrizes(section, standings).map((a) => [a.player, a.amount, a.prize])).toEqual([
      [1, 666.67, 'places 1-3 shared'],
      [2, 666.67, 'places 1-3 shared'],
      [3, 666.66, 'places 1-3 shared'],
    ]);
    const tens = withPrizes({ places: [2000], rounding: 'ten' });
    expect(amounts(awardPrizes(tens, standings))).toEqual({ 1: 670, 2: 670, 3: 660 });
  });

  it('a category prize is shared by the players tied on points for it; one who keeps a bigger place prize is not among them', () => {
    const [a, b, c] = under2000 as [number, number, number];
    const [x, y, z] = over2000 as [number, number, number];
    const special = [{ name: 'Best under 2000', amount: 1500, maxRating: 1999, combinable: false }];
    // The three under 2000 tie on 5 points, below the place prizes: they share 1500.
    const section = withPrizes({ places: [1000, 600], special });
    const standings = [row(x, 8, 1), row(y, 7, 2), row(a, 5, 3, 30), row(b, 5, 4, 20), row(c, 5, 5, 10), row(z, 4, 6)];
    expect(awardPrizes(section, standings).map((p) => [p.player, p.amount, p.prize])).toEqual([
      [x, 1000, 'place 1'],
      [y, 600, 'place 2'],
      [a, 500, 'Best under 2000 (shared by 3)'],
      [b, 500, 'Best under 2000 (shared by 3)'],
      [c, 500, 'Best under 2000 (shared by 3)'],
    ]);
    // 2000 among three in tens: 670, 670, 660.
    const thirds = withPrizes({ places: [1000, 600], rounding: 'ten', special: [{ ...special[0]!, amount: 2000 }] });
    expect(amounts(awardPrizes(thirds, standings))).toEqual({ [x]: 1000, [y]: 600, [a]: 670, [b]: 670, [c]: 660 });
    // The three tie for first: places 1-3 (1000 + 600 + 500 = 700 each) against a share of 1500 (500):
    // each keeps his place share, and the prize passes to the next under 2000.
    const top = withPrizes({ places: [1000, 600, 500], special });
    const d = under2000[3]!;
    const tiedFirst = [row(a, 8, 1, 30), row(b, 8, 2, 20), row(c, 8, 3, 10), row(x, 6, 4), row(d, 5, 5), row(y, 4, 6)];
    expect(amounts(awardPrizes(top, tiedFirst))).toEqual({ [a]: 700, [b]: 700, [c]: 700, [d]: 1500 });
    // Not tied: a alone is best under 2000 (7 points) and takes the whole 1500 over place 3 (900), which
    // passes down to z and b, tied on 6 points (450 each).
    const mixed = withPrizes({ places: [2000, 1200, 900], special });
    const oneHolds = [row(x, 9, 1), row(y, 8, 2), row(a, 7, 3, 30), row(z, 6, 4), row(b, 6, 5, 20), row(c, 5, 6)];
    expect(amounts(awardPrizes(mixed, oneHolds))).toEqual({ [x]: 2000, [y]: 1200, [a]: 1500, [z]: 450, [b]: 450 });
    const tiedPair = [row(x, 9, 1), row(a, 7, 2, 30), row(b, 7, 3, 20), row(c, 5, 4)];
    const shareOrPlace = withPrizes({ places: [2000, 1200, 900], special });
    // a and b share places 2-3 (1050 each) against a share of 750: both keep places, c takes the prize.
    expect(amounts(awardPrizes(shareOrPlace, tiedPair))).toEqual({ [x]: 2000, [a]: 1050, [b]: 1050, [c]: 1500 });
    const combinable = withPrizes({ places: [2000, 1200, 900], special: [{ ...special[0]!, combinable: true }] });
    expect(
      awardPrizes(combinable, tiedPair)
        .filter((p) => p.prize.startsWith('Best'))
        .map((p) => [p.player, p.amount]),
    ).toEqual([
      [a, 750],
      [b, 750],
    ]);
  });

  it('a category prize moves tied players off the place prizes when their share is worth more, and the places pass down', () => {
    const [a, b] = under2000 as [number, number];
    const [x, y, z] = over2000 as [number, number, number];
    const section = withPrizes({ places: [3000, 500, 300, 100], special: [{ name: 'Best under 2000', amount: 2000, maxRating: 1999, combinable: false }] });
    // a and b share places 2-3 (400 each) against 1000 each of the category prize.
    const standings = [row(x, 9, 1), row(a, 8, 2, 30), row(b, 8, 3, 20), row(y, 7, 4), row(z, 6, 5)];
    expect(awardPrizes(section, standings).map((p) => [p.player, p.amount, p.prize])).toEqual([
      [x, 3000, 'place 1'],
      [a, 1000, 'Best under 2000 (shared by 2)'],
      [b, 1000, 'Best under 2000 (shared by 2)'],
      [y, 500, 'place 2'],
      [z, 300, 'place 3'],
    ]);
  });

  it('the SA Open fund of 44,000 shared among ties is paid to the cent: 44,000.00, never 44,000.02', () => {
    const section = withPrizes({ places: [15000, 10000, 7000, 5000, 3000, 2000, 1000, 1000] });
    // 3 tied for places 1-3 (32,000 / 3), 3 for places 4-6 (10,000 / 3), 3 for places 7-9 (2,000 / 3).
    const standings = Array.from({ length: 10 }, (_, i) => row(over2000[i]!, 9 - Math.floor(i / 3), i + 1, 10 - i));
    const awards = awardPrizes(section, standings);
    expect(awards.map((a) => a.amount)).toEqual([10666.67, 10666.67, 10666.66, 3333.34, 3333.33, 3333.33, 666.67, 666.67, 666.66]);
    expect(totalCents(awards.map((a) => a.amount))).toBe(4_400_000);
  });

  it('team prizes: three teams tied for 1000 get 333.34, 333.33 and 333.33 (in tens: 340, 330, 330)', () => {
    const teams = [
      { name: 'A', members: [1, 2, 3, 4] },
      { name: 'B', members: [5, 6, 7, 8] },
      { name: 'C', members: [9, 10, 11, 12] },
    ];
    const standings = Array.from({ length: 12 }, (_, i) => row(i + 1, 5, i + 1, 10));
    const prizeOf = (rounding: 'cent' | 'ten') =>
      teamStandings({ ...withPrizes({ places: [], rounding, team: { members: 4, places: [1000] } }), teams }, standings).map((t) => t.prize);
    expect(prizeOf('cent')).toEqual([333.34, 333.33, 333.33]);
    expect(prizeOf('ten')).toEqual([340, 330, 330]);
  });

  it('property: any split adds up to its fund exactly, each share within one unit of its exact value (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('cent' as const, 'ten' as const),
        (fundCents, weights, rounding) => {
          const fund = fundCents / 100;
          const parts = splitFund(fund, weights, rounding);
          expect(totalCents(parts)).toBe(fundCents);
          const sum = weights.reduce((s, w) => s + w, 0);
          const unit = rounding === 'cent' ? 1 : 1000;
          parts.forEach((p, i) => {
            const exact = sum === 0 ? 0 : (fundCents * weights[i]!) / sum;
            expect(Math.abs(Math.round(p * 100) - exact)).toBeLessThan(unit + 1);
          });
        },
      ),
      { seed: 2009, numRuns: 500 },
    );
  });

  it('property: place prizes (equal, Hort, tie-break order) pay out their whole fund, in either rounding (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2_000_000 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 10, maxLength: 20 }),
        fc.constantFrom('equal' as const, 'hort' as const, 'tiebreak' as const),
        fc.constantFrom('cent' as const, 'ten' as const),
        (placeCents, scores, sharing, rounding) => {
          const places = placeCents.map((c) => c / 100);
          const sorted = [...scores].sort((p, q) => q - p);
          // Ranks: tied on points share a rank half the time (sharing by tie-break order shares only those).
          const standings = sorted.map((points, i) => row(over2000[i] ?? under2000[i]!, points, i > 0 && sorted[i - 1] === points && i % 2 === 0 ? i : i + 1));
          const section = withPrizes({ places, sharing, rounding });
          const paid = totalCents(awardPrizes(section, standings).map((a) => a.amount));
          expect(paid).toBe(placeCents.reduce((s, c) => s + c, 0));
        },
      ),
      { seed: 44_000, numRuns: 300 },
    );
  });
});
