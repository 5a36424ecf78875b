// Prize rules on hand-made standings: the research examples for equal sharing and Hort (§6).
import { describe, expect, it } from 'vitest';
import { awardPrizes, findSection, presetEvent, teamStandings, type EventSection, type StandingRow } from '../../tournament/internal.ts';

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
