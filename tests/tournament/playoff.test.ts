import { describe, expect, it } from 'vitest';
import {
  decidePlayoff,
  findSection,
  pendingGames,
  playoffOrder,
  playoffStatus,
  presetEvent,
  recordPlayoffResult,
  startPlayoff,
  type PlayoffState,
} from '../../tournament/index.ts';
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
    expect(s.games.every((g) => g.game.stage === 2 ? g.game.timeControl === 'W300-B240' : g.game.timeControl === '300')).toBe(true);
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
