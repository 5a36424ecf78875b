// The chief arbiter's playoff format (Cairns Cup 7, more than four tied): its check against the section,
// the cut by math tie-breaks, and each kind of stage played to a decision.
import { describe, expect, it } from 'vitest';
import type { GameResult } from '../../clock-engine/index.ts';
import {
  checkPlayoffFormat,
  emptyRecord,
  findSection,
  pendingGames,
  playoffPlaces,
  playoffQualifiers,
  playoffSitting,
  presetEvent,
  recordBoardResult,
  recordPlayoffResult,
  setPlayoffFormat,
  startPlayoff,
  type FormatStage,
  type PlayoffFormat,
  type PlayoffState,
} from '../../tournament/internal.ts';

const event = presetEvent('cairns-cup-2019');
const cairns = findSection(event, 'main');
const FIVE = [3, 1, 8, 4, 10];

const stage = (kind: FormatStage['kind'], games: number, timeControl: string, onTie: FormatStage['onTie'] = 'next-stage'): FormatStage => ({
  kind,
  games,
  timeControl,
  onTie,
});

/** Five tied for first: the regulation leaves it to the chief, and his format is set. */
function formatted(format: PlayoffFormat, qualified: readonly number[] = FIVE): PlayoffState {
  const open = startPlayoff(cairns, FIVE, 42);
  expect(open.arbiterDecision).toMatch(/5 players tied/);
  return setPlayoffFormat(open, format, qualified, 'format agreed with the Saint Louis Chess Club');
}

function run(state: PlayoffState, decide: (white: number, black: number, id: string) => GameResult): PlayoffState {
  let s = state;
  for (let guard = 0; guard < 200; guard += 1) {
    const game = pendingGames(s)[0];
    if (!game) return s;
    s = recordPlayoffResult(s, game.id, decide(game.white, game.black, game.id));
  }
  throw new Error('playoff did not end');
}

describe("the chief arbiter's playoff format", () => {
  it('a round robin of the five at G/10+5, two level on top go to an Armageddon; the order of all five places', () => {
    const s0 = formatted({ stages: [stage('round-robin', 1, '600+5'), stage('armageddon', 1, 'W300-B240')] });
    expect(s0.arbiterDecision).toBeUndefined();
    expect(s0.log.at(-1)).toBe(
      "chief arbiter's format (format agreed with the Saint Louis Chess Club): round robin, 1 game a pairing at 600+5, a tie to the next stage, then Armageddon (a draw to Black) at W300-B240",
    );
    // Five players: ten games in five rounds, two boards at a time.
    expect(s0.games).toHaveLength(10);
    expect(playoffSitting(s0)).toHaveLength(2);
    // 3 and 1 beat everyone else and draw each other; among the rest the lower number wins.
    const s = run(s0, (w, b, id) => {
      if (id.startsWith('s2.')) return '1/2-1/2';
      const top = (p: number): boolean => p === 3 || p === 1;
      if (top(w) && top(b)) return '1/2-1/2';
      if (top(w) !== top(b)) return top(w) ? '1-0' : '0-1';
      return w < b ? '1-0' : '0-1';
    });
    const armageddon = s.games.at(-1)!.game;
    expect(armageddon).toMatchObject({ id: 's2.1.1', armageddon: true, timeControl: 'W300-B240' });
    expect([armageddon.white, armageddon.black].sort()).toEqual([1, 3]);
    expect(s.winner).toBe(armageddon.black);
    // Round robin scores: 3 and 1 3.5, 4 2, 8 1, 10 0 -> after the Armageddon pair: 4, 8, 10.
    expect(playoffPlaces(s)).toEqual([[armageddon.black], [armageddon.white], [4], [8], [10]]);
  });

  it('a cut to four by the tie-breaks, then a knockout of 2-game matches, a level match decided by the tie-breaks', () => {
    const s0 = formatted({ cut: { to: 4, tiebreaks: ['KS', 'SB'] }, stages: [stage('knockout', 2, '900+10', 'tiebreaks')] }, [8, 3, 10, 1]);
    expect(s0.remaining).toEqual([8, 3, 10, 1]);
    expect(s0.eliminated).toEqual([{ player: 4, stage: 0, leg: 0, score: 0 }]);
    // First against last, second against third; game 1 of both matches side by side.
    const pairs = (games: readonly { game: { white: number; black: number } }[]): number[][] =>
      games.map((g) => [g.game.white, g.game.black].sort((a, b) => a - b));
    expect(s0.games.map((g) => g.game.id)).toEqual(['s1.1.1.1', 's1.1.1.2', 's1.1.2.1', 's1.1.2.2']);
    expect(pairs(s0.games)).toEqual([
      [1, 8],
      [3, 10],
      [1, 8],
      [3, 10],
    ]);
    expect(playoffSitting(s0).map((g) => g.id)).toEqual(['s1.1.1.1', 's1.1.1.2']);
    // Colours alternate within a match.
    expect(s0.games[2]!.game.white).toBe(s0.games[0]!.game.black);
    // Leg 1: 8–1 drawn twice (8 goes on by the tie-breaks), 10 beats 3 twice. Final: 10 wins both.
    const s = run(s0, (w, b) => {
      if (w === 10) return '1-0';
      if (b === 10) return '0-1';
      return '1/2-1/2';
    });
    expect(s.games.filter((g) => g.game.id.startsWith('s1.2.'))).toHaveLength(2);
    expect(pairs(s.games.filter((g) => g.game.id.startsWith('s1.2.')))).toEqual([
      [8, 10],
      [8, 10],
    ]);
    expect(s.winner).toBe(10);
    expect(s.log).toContain('stage 1 leg 1 (knockout 900+10): 8–1 1–1 (8 by the tie-breaks), 3–10 0–2');
    // The final's loser second; the first leg's losers by their scores; the player cut last.
    expect(playoffPlaces(s)).toEqual([[10], [8], [1], [3], [4]]);
  });

  it('a knockout of three: the best seed sits out, a level match sends those still in to the next stage', () => {
    const s0 = formatted(
      { cut: { to: 3, tiebreaks: ['BPG'] }, stages: [stage('knockout', 1, '600+5'), stage('round-robin', 3, '300+2', 'tiebreaks')] },
      [1, 3, 8],
    );
    expect(s0.games.map((g) => [g.game.white, g.game.black].sort((a, b) => a - b))).toEqual([[3, 8]]);
    const s1 = recordPlayoffResult(s0, 's1.1.1.1', '1/2-1/2');
    expect(s1.stageIndex).toBe(1);
    expect(s1.remaining).toEqual([1, 3, 8]);
    // Three games a pairing: nine games, each pair's colours alternating.
    const stage2 = s1.games.filter((g) => g.game.stage === 2).map((g) => g.game);
    expect(stage2).toHaveLength(9);
    for (const pair of [
      [1, 3],
      [1, 8],
      [3, 8],
    ]) {
      const games = stage2.filter((g) => pair.includes(g.white) && pair.includes(g.black));
      expect(games).toHaveLength(3);
      expect(games.map((g) => g.white)).toEqual([games[0]!.white, games[0]!.black, games[0]!.white]);
    }
    // Every game drawn: 3 each, the tie-breaks decide (1 is first in the order the playoff started from).
    const s = run(s1, () => '1/2-1/2');
    expect(s.winner).toBe(1);
    expect(s.log.at(-1)).toBe('stage 2 leg 1 (round-robin 300+2): 1: 3, 8: 3, 3: 3; tied, 1 first by the tie-breaks');
    expect(playoffPlaces(s)).toEqual([[1], [3], [8], [4], [10]]);
  });

  it('stages exhausted with a tie: back to the chief, who rules', () => {
    const s = run(formatted({ stages: [stage('round-robin', 1, '600+5')] }), () => '1/2-1/2');
    expect(s.winner).toBeUndefined();
    expect(s.arbiterDecision).toBe('the playoff stages are exhausted with a tie: the chief arbiter decides');
  });

  it('only where the regulations leave it to the chief, and only once', () => {
    const format: PlayoffFormat = { stages: [stage('armageddon', 1, 'W300-B240')] };
    expect(() => setPlayoffFormat(startPlayoff(cairns, [2, 5], 1), format, [2, 5], 'r')).toThrow(/regulations give/);
    const s = formatted(format);
    expect(() => setPlayoffFormat(s, format, FIVE, 'again')).toThrow(/already has/);
    expect(() => setPlayoffFormat(startPlayoff(cairns, FIVE, 1), format, [3, 2], 'r')).toThrow(/two or more of the tied/);
  });

  it('checks the format against the section: time controls by the clock engine, the cut, unreachable stages', () => {
    const ok: PlayoffFormat = { cut: { to: 2, tiebreaks: ['SB'] }, stages: [stage('round-robin', 2, '600+5'), stage('armageddon', 1, 'W300-B240')] };
    expect(checkPlayoffFormat(cairns, 5, ok)).toBeNull();
    // A code as the crosstable's columns write it, in any case, names the section's tie-break.
    expect(checkPlayoffFormat(cairns, 5, { ...ok, cut: { to: 2, tiebreaks: ['won', 'Sb'] } })).toBeNull();
    const saOpen = findSection(presetEvent('sa-open-2009'), 'open');
    expect(checkPlayoffFormat(saOpen, 5, { ...ok, cut: { to: 2, tiebreaks: ['BH-M1'] } })).toBeNull();
    expect(checkPlayoffFormat(saOpen, 5, { ...ok, cut: { to: 2, tiebreaks: ['BH'] } })).toMatchObject({ problem: 'format' });
    expect(checkPlayoffFormat(cairns, 5, { stages: [stage('round-robin', 1, '10 minutes')] })).toMatchObject({
      problem: 'time-control',
      message: expect.stringMatching(/^stage 1: bad time control '10 minutes'/),
    });
    expect(checkPlayoffFormat(cairns, 5, { ...ok, cut: { to: 2, tiebreaks: ['ARO'] } })).toEqual({
      problem: 'format',
      message: "the cut names ARO: the section's tie-breaks are DE, BPG, KS, SB, WON",
    });
    expect(checkPlayoffFormat(cairns, 5, { ...ok, cut: { to: 5, tiebreaks: ['SB'] } })).toEqual({
      problem: 'format',
      message: 'a cut of 5 tied players keeps 2 to 4, not 5',
    });
    expect(checkPlayoffFormat(cairns, 5, { stages: [stage('armageddon', 1, 'W300-B240'), stage('round-robin', 1, '600+5')] })).toEqual({
      problem: 'format',
      message: 'stage 1 always ends the playoff with one winner: stage 2 would never be played',
    });
  });

  it('the cut ranks the tied by the tie-breaks it names, equal ones in the main order', () => {
    // Round 1 of three games: a small record to rank.
    let record = emptyRecord;
    const games: [number, number, GameResult][] = [
      [1, 2, '1-0'],
      [3, 4, '0-1'],
      [5, 6, '1/2-1/2'],
    ];
    for (const [white, black, result] of games) record = recordBoardResult(cairns, record, 1, { white, black, result });
    const tied = [1, 4, 5, 6];
    // Without a cut every tied player plays, in the main order.
    expect(playoffQualifiers(event, 'main', record, tied, { stages: [] })).toEqual(tied);
    // By wins: 1 and 4 won, 5 and 6 drew (equal: kept in the main order).
    expect(playoffQualifiers(event, 'main', record, [6, 5, 4, 1], { cut: { to: 3, tiebreaks: ['WON'] }, stages: [] })).toEqual([4, 1, 6]);
    expect(playoffQualifiers(event, 'main', record, [6, 5, 4, 1], { cut: { to: 3, tiebreaks: ['won'] }, stages: [] })).toEqual([4, 1, 6]);
  });
});
