import { describe, expect, it } from 'vitest';
import {
  applyPlayoff,
  awardPrizes,
  decidePlayoff,
  findSection,
  pendingGames,
  playoffOrder,
  playoffSitting,
  playoffStatus,
  presetEvent,
  recordPlayoffResult,
  startPlayoff,
  type PlayoffState,
  type StandingRow,
} from '../../tournament/internal.ts';
import type { GameResult } from '../../clock-engine/index.ts';

const cairns = findSection(presetEvent('cairns-cup-2019'), 'main');
const donostia = findSection(presetEvent('donostia-2009'), 'kutxa');

/** Plays every pending game with `decide` until nothing is pending. */
function run(state: PlayoffState, decide: (white: number, black: number, id: string) => GameResult): PlayoffState {
  let s = state;
  for (let guard = 0; guard < 100; guard += 1) {
    const game = pendingGames(s)[0];
    if (!game) return s;
    s = recordPlayoffResult(s, game.id, decide(game.white, game.black, game.id));
  }
  throw new Error('playoff did not end');
}

describe('Cairns Cup playoff ladder', () => {
  it('three tied: G/25+5 round robin decides when one player wins it', () => {
    const s = run(startPlayoff(cairns, [4, 8, 2], 1), (w, b) => (w === 8 ? '1-0' : b === 8 ? '0-1' : '1/2-1/2'));
    expect(s.games).toHaveLength(3);
    expect(s.games.every((g) => g.game.timeControl === '1500+5')).toBe(true);
    expect(s.winner).toBe(8);
    expect(playoffOrder(s)).toEqual([8, 4, 2]);
  });

  it('four tied, two still level: a 2-game G/10+5 match, then an Armageddon series', () => {
    // Round robin: 1 and 2 beat 3 and 4, draw each other -> 1 and 2 remain. Match: 1-1. Armageddon decides.
    const s = run(startPlayoff(cairns, [1, 2, 3, 4], 9), (w, b, id) => {
      if (id.startsWith('s1.')) return w <= 2 && b <= 2 ? '1/2-1/2' : w <= 2 ? '1-0' : b <= 2 ? '0-1' : '1/2-1/2';
      if (id.startsWith('s2.')) return '1-0';
      return '1/2-1/2';
    });
    const kinds = s.games.map((g) => g.game.timeControl);
    expect(kinds).toEqual([...Array(6).fill('1500+5'), '600+5', '600+5', 'W300-B240']);
    const armageddon = s.games[8]!.game;
    expect(s.winner).toBe(armageddon.black);
    expect(playoffOrder(s).slice(2).sort()).toEqual([3, 4]);
  });

  it('three still level after both round robins: Armageddon series from the bottom of the tie-break order', () => {
    const s0 = startPlayoff(cairns, [5, 6, 7], 3);
    const s = run(s0, (_w, _b, id) => (id.startsWith('s3.') ? '1-0' : '1/2-1/2'));
    const series = s.games.filter((g) => g.game.armageddon).map((g) => g.game);
    expect(series).toHaveLength(2);
    expect([series[0]!.white, series[0]!.black].sort()).toEqual([6, 7]);
    expect([series[1]!.white, series[1]!.black]).toContain(5);
    expect(s.winner).toBe(series[1]!.white);
  });

  it('more than four tied: the chief arbiter decides, with the math tie-breaks listed', () => {
    const s = startPlayoff(cairns, [1, 2, 3, 4, 5], 1);
    expect(pendingGames(s)).toEqual([]);
    const status = playoffStatus(s);
    expect(status.state).toBe('arbiter-decision');
    expect(status.message).toMatch(/5 players tied.*DE, BPG, KS, SB, WON/);
    const decided = decidePlayoff(s, 3, 'playoff between the top two on tie-breaks');
    expect(decided.winner).toBe(3);
    expect(() => decidePlayoff(s, 9, 'x')).toThrow(/not among/);
  });
});

describe('Donostia playoff', () => {
  it('replays 5-minute leagues while more than two remain', () => {
    const s = run(startPlayoff(donostia, [1, 2, 3, 4], 2), (_w, _b, id) => (id.startsWith('s1.1.') || id.startsWith('s1.2.') ? '1/2-1/2' : '1-0'));
    const legs = [...new Set(s.games.filter((g) => g.game.stage === 1).map((g) => g.game.id.split('.')[1]))];
    expect(legs.length).toBeGreaterThanOrEqual(3);
    expect(s.games.every((g) => (g.game.stage === 2 ? g.game.timeControl === 'W300-B240' : g.game.timeControl === '300'))).toBe(true);
    expect(s.winner).toBeDefined();
  });

  it('a drawn Armageddon goes to Black; the drawing of lots is reproducible from the seed', () => {
    const a = startPlayoff(donostia, [3, 7], 42);
    const b = startPlayoff(donostia, [3, 7], 42);
    expect(a.games).toEqual(b.games);
    const colours = new Set(Array.from({ length: 20 }, (_, seed) => startPlayoff(donostia, [3, 7], seed).games[0]!.game.white));
    expect(colours).toEqual(new Set([3, 7]));
    const s = run(a, (_w, _b, id) => (id.startsWith('s1.') ? (id.endsWith('.1') ? '1-0' : '1-0') : '1/2-1/2'));
    const armageddon = s.games[2]!.game;
    expect(s.winner).toBe(armageddon.black);
  });

  it('rejects unknown games and double results', () => {
    const s = startPlayoff(donostia, [3, 7], 1);
    expect(() => recordPlayoffResult(s, 'nope', '1-0')).toThrow(/no playoff game/);
    const once = recordPlayoffResult(s, s.games[0]!.game.id, '1-0');
    expect(() => recordPlayoffResult(once, s.games[0]!.game.id, '0-1')).toThrow(/already has a result/);
  });

  it('one player on top: no playoff', () => {
    expect(playoffStatus(startPlayoff(donostia, [5], 1)).state).toBe('not-needed');
  });
});

/** Main standings of a 10-player section: `top` tied on points with these ranks, the rest below. */
function standingsWith(top: readonly (readonly [id: number, rank: number])[]): StandingRow[] {
  const rest = Array.from({ length: 10 }, (_, i) => i + 1).filter((id) => !top.some(([t]) => t === id));
  return [
    ...top.map(([id, rank]) => ({ id, rank, points: 7, tiebreaks: {} })),
    ...rest.map((id, i) => ({ id, rank: top.length + i + 1, points: 5 - i * 0.5, tiebreaks: {} })),
  ];
}

/** A fixed playoff table: White's result from who plays whom. */
const table =
  (wins: Record<string, GameResult>) =>
  (white: number, black: number): GameResult => {
    const direct = wins[`${white}-${black}`];
    if (direct) return direct;
    const reverse = wins[`${black}-${white}`];
    if (!reverse) throw new Error(`no result for ${white}-${black}`);
    return reverse === '1-0' ? '0-1' : reverse === '0-1' ? '1-0' : reverse;
  };

const placesAndPrizes = (section: typeof cairns, rows: StandingRow[], state: PlayoffState) => {
  const final = applyPlayoff(rows, state);
  const prizes = new Map(awardPrizes(section, final).map((p) => [p.player, p.amount]));
  return final.slice(0, state.tied.length).map((r) => [r.id, r.rank, prizes.get(r.id)]);
};

describe('the final order of the tied players', () => {
  it('Cairns, 4 tied: a G/25+5 round robin ending 4:3:2:1 places them 4, 3, 2, 1 with the place prizes', () => {
    // The higher pairing number wins every game: 4 scores 3, 3 two, 2 one, 1 none.
    const s = run(startPlayoff(cairns, [1, 2, 3, 4], 5), (w, b) => (w > b ? '1-0' : '0-1'));
    expect(s.games).toHaveLength(6);
    expect(s.winner).toBe(4);
    expect(playoffOrder(s)).toEqual([4, 3, 2, 1]);
    expect(playoffStatus(s).state).toBe('decided');
    const rows = standingsWith([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(placesAndPrizes(cairns, rows, s)).toEqual([
      [4, 1, 45000],
      [3, 2, 30000],
      [2, 3, 20000],
      [1, 4, 15000],
    ]);
    // The players below keep their places and prizes.
    expect(
      applyPlayoff(rows, s)
        .slice(4)
        .map((r) => [r.id, r.rank]),
    ).toEqual(rows.slice(4).map((r) => [r.id, r.rank]));
  });

  it('Cairns: equal playoff scores fall back to the main tie-breaks, and share where those are equal too', () => {
    // 3 scores 2.5 and wins; 1 and 4 score 1.5 each; 2 scores 0.5.
    const result = table({ '3-4': '1/2-1/2', '3-1': '1-0', '3-2': '1-0', '1-2': '1-0', '1-4': '1/2-1/2', '4-2': '1/2-1/2' });
    const s = run(startPlayoff(cairns, [1, 2, 3, 4], 8), result);
    expect(s.winner).toBe(3);
    expect(s.eliminated.map((e) => [e.player, e.score]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [1, 1.5],
      [2, 0.5],
      [4, 1.5],
    ]);
    expect(playoffOrder(s)).toEqual([3, 1, 4, 2]);
    expect(
      placesAndPrizes(
        cairns,
        standingsWith([
          [1, 1],
          [2, 2],
          [3, 3],
          [4, 4],
        ]),
        s,
      ),
    ).toEqual([
      [3, 1, 45000],
      [1, 2, 30000],
      [4, 3, 20000],
      [2, 4, 15000],
    ]);
    // 1 and 4 equal on every tie-break of the main event: places 2-3 shared, (30,000 + 20,000) / 2 each.
    expect(
      placesAndPrizes(
        cairns,
        standingsWith([
          [1, 1],
          [4, 1],
          [2, 3],
          [3, 4],
        ]),
        s,
      ),
    ).toEqual([
      [3, 1, 45000],
      [1, 2, 25000],
      [4, 2, 25000],
      [2, 4, 15000],
    ]);
  });

  it('Cairns: a later stage beats a better score in an earlier one; the Armageddon series places by the leg', () => {
    // Round robin: 1 and 2 draw and beat 3 and 4; 3 beats 4. Match G/10+5: 2 wins both.
    const s = run(startPlayoff(cairns, [1, 2, 3, 4], 9), (w, b, id) => {
      if (id.startsWith('s1.')) return table({ '1-2': '1/2-1/2', '1-3': '1-0', '1-4': '1-0', '2-3': '1-0', '2-4': '1-0', '3-4': '1-0' })(w, b);
      return w === 2 ? '1-0' : '0-1';
    });
    expect(s.games.map((g) => g.game.timeControl)).toEqual([...Array(6).fill('1500+5'), '600+5', '600+5']);
    expect(playoffOrder(s)).toEqual([2, 1, 3, 4]);
    expect(
      placesAndPrizes(
        cairns,
        standingsWith([
          [1, 1],
          [2, 2],
          [3, 3],
          [4, 4],
        ]),
        s,
      ).map((r) => r[2]),
    ).toEqual([45000, 30000, 20000, 15000]);

    // Three level after both round robins: the series' first loser is third, its second loser second.
    const series = run(startPlayoff(cairns, [5, 6, 7], 3), (_w, _b, id) => (id.startsWith('s3.') ? '1-0' : '1/2-1/2'));
    const [first, second] = series.games.filter((g) => g.game.armageddon).map((g) => g.game);
    expect(playoffOrder(series)).toEqual([second!.white, second!.black, first!.black]);
  });

  it('Cairns, two tied: the match loser is second', () => {
    const s = run(startPlayoff(cairns, [6, 2], 4), (w) => (w === 6 ? '1-0' : '1/2-1/2'));
    expect(s.games).toHaveLength(2);
    expect(playoffOrder(s)).toEqual([6, 2]);
    expect(
      placesAndPrizes(
        cairns,
        standingsWith([
          [2, 1],
          [6, 2],
        ]),
        s,
      ),
    ).toEqual([
      [6, 1, 45000],
      [2, 2, 30000],
    ]);
  });

  it('Donostia: the playoff decides only the first place; the others follow Art. 10, then share', () => {
    // Tie-break order 2, 1, 3 (most Blacks, won games, SB). In the 5-minute league 3 wins both games and 1 beats 2.
    const s = run(startPlayoff(donostia, [2, 1, 3], 6), table({ '3-1': '1-0', '3-2': '1-0', '1-2': '1-0' }));
    expect(s.games).toHaveLength(3);
    expect(s.winner).toBe(3);
    expect(s.places).toBe(1);
    // Not 3, 1, 2 as the league scores would have it.
    expect(playoffOrder(s)).toEqual([3, 2, 1]);
    expect(
      placesAndPrizes(
        donostia,
        standingsWith([
          [2, 1],
          [1, 2],
          [3, 3],
        ]),
        s,
      ),
    ).toEqual([
      [3, 1, 3000],
      [2, 2, 2000],
      [1, 3, 1500],
    ]);
    // Equal on BPG, WON and SB: places 2-3 shared, (2,000 + 1,500) / 2 each.
    expect(
      placesAndPrizes(
        donostia,
        standingsWith([
          [2, 1],
          [1, 1],
          [3, 1],
        ]),
        s,
      ),
    ).toEqual([
      [3, 1, 3000],
      [2, 2, 1750],
      [1, 2, 1750],
    ]);
  });

  it('Donostia, 4 tied: whoever went out of the leagues first, the tie-breaks place the others', () => {
    // League 1: 4 loses every game and goes out; league 2 among 1, 2, 3: 1 wins both.
    const s = run(startPlayoff(donostia, [4, 3, 2, 1], 2), (w, b, id) => {
      if (id.startsWith('s1.1.')) return w === 4 ? '0-1' : b === 4 ? '1-0' : '1/2-1/2';
      return w === 1 ? '1-0' : b === 1 ? '0-1' : '1/2-1/2';
    });
    expect(s.winner).toBe(1);
    expect(s.eliminated.map((e) => [e.player, e.stage, e.leg])).toEqual([
      [4, 1, 1],
      [3, 1, 2],
      [2, 1, 2],
    ]);
    expect(playoffOrder(s)).toEqual([1, 4, 3, 2]);
    expect(
      placesAndPrizes(
        donostia,
        standingsWith([
          [4, 1],
          [3, 2],
          [2, 3],
          [1, 4],
        ]),
        s,
      ).map((r) => r[2]),
    ).toEqual([3000, 2000, 1500, 1000]);
  });
});

describe("the chief arbiter's ruling", () => {
  it('more than four tied at Cairns: after the ruling the playoff reads decided, the others by the tie-breaks', () => {
    const s = startPlayoff(cairns, [1, 2, 3, 4, 5], 1);
    expect(playoffStatus(s).state).toBe('arbiter-decision');
    const decided = decidePlayoff(s, 3, 'Armageddon between the top two on tie-breaks');
    const status = playoffStatus(decided);
    expect(status.state).toBe('decided');
    expect(status.winner).toBe(3);
    expect(status.message).toBe('chief arbiter: Armageddon between the top two on tie-breaks');
    expect(decided.log.at(-1)).toBe('chief arbiter: Armageddon between the top two on tie-breaks');
    expect(playoffOrder(decided)).toEqual([3, 1, 2, 4, 5]);
    expect(
      placesAndPrizes(
        cairns,
        standingsWith([
          [1, 1],
          [2, 2],
          [3, 3],
          [4, 4],
          [5, 5],
        ]),
        decided,
      ).map((r) => [r[0], r[2]]),
    ).toEqual([
      [3, 45000],
      [1, 30000],
      [2, 20000],
      [4, 15000],
      [5, 10000],
    ]);
    expect(() => decidePlayoff(decided, 1, 'again')).toThrow(/already decided/);
  });

  it('Donostia leagues still level after 20: the ruling decides among those still in', () => {
    const s = run(startPlayoff(donostia, [1, 2, 3], 1), () => '1/2-1/2');
    expect(s.games).toHaveLength(60);
    expect(playoffStatus(s).state).toBe('arbiter-decision');
    const decided = decidePlayoff(s, 2, 'drawing of lots');
    expect(playoffStatus(decided).state).toBe('decided');
    expect(playoffOrder(decided)).toEqual([2, 1, 3]);
  });

  it('is refused while the games decide, and for a player already out', () => {
    const s = startPlayoff(cairns, [1, 2, 3], 1);
    expect(() => decidePlayoff(s, 1, 'x')).toThrow(/in progress/);
    // Leagues: 4 loses every game of the first and goes out; the other three draw every league after it.
    const out = run(startPlayoff(donostia, [1, 2, 3, 4], 1), (w, b, id) =>
      id.startsWith('s1.1.') && (w === 4 || b === 4) ? (w === 4 ? '0-1' : '1-0') : '1/2-1/2',
    );
    expect(out.arbiterDecision).toMatch(/after 20 legs/);
    expect(() => decidePlayoff(out, 4, 'x')).toThrow(/player 4 is already out/);
    expect(() => decidePlayoff(out, 9, 'x')).toThrow(/not among/);
    expect(playoffOrder(decidePlayoff(out, 3, 'drawing of lots'))).toEqual([3, 1, 2, 4]);
  });
});

describe('the sittings of a playoff on the hall boards', () => {
  it('a round robin round by round, a match game by game, nothing once decided', () => {
    let s = startPlayoff(cairns, [1, 2, 3, 4], 5);
    const rounds: string[][] = [];
    for (let sitting = playoffSitting(s); sitting.length > 0; sitting = playoffSitting(s)) {
      rounds.push(sitting.map((g) => g.id));
      // No player twice in a sitting.
      expect(new Set(sitting.flatMap((g) => [g.white, g.black])).size).toBe(sitting.length * 2);
      for (const g of sitting) s = recordPlayoffResult(s, g.id, g.white > g.black ? '1-0' : '0-1');
    }
    expect(rounds).toEqual([
      ['s1.1.1.1', 's1.1.1.2'],
      ['s1.1.2.1', 's1.1.2.2'],
      ['s1.1.3.1', 's1.1.3.2'],
    ]);
    expect(s.winner).toBe(4);

    const match = startPlayoff(donostia, [3, 7], 1);
    expect(playoffSitting(match).map((g) => g.id)).toEqual(['s1.1.1']);
    expect(playoffSitting(recordPlayoffResult(match, 's1.1.1', '1-0')).map((g) => g.id)).toEqual(['s1.1.2']);
    expect(playoffSitting(startPlayoff(cairns, [1, 2, 3, 4, 5], 1))).toEqual([]);
  });
});
