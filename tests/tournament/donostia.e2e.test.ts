// Donostia 2009 end to end: four 10-player groups, 9 rounds each on simulated clocks; first place
// by 5-minute games / leagues and Armageddon, the other places by most Blacks, won games, SB.
// Each group is 45 games on clocks: CPU-bound, and slow on a loaded machine (120 s each).
import { describe, expect, it } from 'vitest';
import {
  appealsLog,
  applyPlayoff,
  awardPrizes,
  emptyRecord,
  findSection,
  playoffStatus,
  presetEvent,
  roundBoards,
  sectionStandings,
  startPlayoff,
  tiedForFirst,
  type SectionRecord,
} from '../../tournament/internal.ts';
import { playPlayoff, playRoundRobin, type RoundScript } from './run-section.ts';

const event = presetEvent('donostia-2009');

/** `leaders` draw among themselves and beat everyone else; the rest follow a fixed pattern. */
const scriptWithLeaders = (leaders: readonly number[]): RoundScript => ({
  score(white, black) {
    const w = leaders.includes(white);
    const b = leaders.includes(black);
    if (w && b) return 0.5;
    if (w) return 1;
    if (b) return 0;
    const pattern = (white * 3 + black) % 4;
    return pattern === 0 ? 0.5 : pattern === 1 ? 1 : pattern === 2 ? 0 : white < black ? 1 : 0;
  },
});

const play = (sectionId: string, leaders: number[]): SectionRecord => ({
  ...emptyRecord,
  rounds: playRoundRobin(event, sectionId, 9, scriptWithLeaders(leaders)),
});

describe('Donostia 2009 end to end', () => {
  it('keeps each group on its start time, the last round at 16:00, one hour default time', () => {
    expect(roundBoards(event, 'diputacion-foral', 1).boards[0]?.scheduledStart).toBe('2009-07-07T16:30:00+02:00');
    expect(roundBoards(event, 'kutxa', 1).boards[0]?.scheduledStart).toBe('2009-07-07T17:00:00+02:00');
    const last = roundBoards(event, 'kutxa', 9).boards[0]!;
    expect(last.scheduledStart).toBe('2009-07-16T16:00:00+02:00');
    expect(last.defaultTimeEndsMs - last.scheduledStartMs).toBe(3_600_000);
  });

  it('three tied: 5-minute leagues until two remain, then Armageddon; other places by BPG, WON, SB', () => {
    const section = findSection(event, 'diputacion-foral');
    const record = play('diputacion-foral', [1, 2, 3]);
    const standings = sectionStandings(event, 'diputacion-foral', record);
    expect(tiedForFirst(standings).sort()).toEqual([1, 2, 3]);
    expect(standings.slice(0, 3).every((r) => r.points === 8)).toBe(true);
    // Without forfeits, Berger colours decide "most blacks": numbers 6-10 have five Blacks, 1-5 four.
    for (const row of standings) expect(row.tiebreaks.BPG, `player ${row.id}`).toBe(row.id >= 6 ? 5 : 4);
    // Below the playoff, equal points are ordered by BPG, then WON, then SB.
    for (let i = 4; i < standings.length; i += 1) {
      const [a, b] = [standings[i - 1]!, standings[i]!];
      if (a.points !== b.points) continue;
      const key = (r: typeof a): number[] => [r.tiebreaks.BPG ?? 0, r.tiebreaks.WON ?? 0, r.tiebreaks.SB ?? 0];
      const [ka, kb] = [key(a), key(b)];
      const firstDiff = ka.findIndex((v, k) => v !== kb[k]);
      if (firstDiff === -1) expect(a.rank).toBe(b.rank);
      else expect(ka[firstDiff]).toBeGreaterThan(kb[firstDiff] as number);
    }

    // League 1: all draws, so all three play a second league; in it player 3 loses both games.
    const start = startPlayoff(section, tiedForFirst(standings), 2009);
    const { state, clocks } = playPlayoff(
      event,
      start,
      (white, black, id) => (id.startsWith('s1.1.') ? 0.5 : white === 3 ? 0 : black === 3 ? 1 : 0.5),
      Date.UTC(2009, 6, 16, 19),
    );
    expect(state.games.map((g) => g.game.id.split('.').slice(0, 2).join('.'))).toEqual(['s1.1', 's1.1', 's1.1', 's1.2', 's1.2', 's1.2', 's2.1']);
    expect(state.games.slice(0, 6).every((g) => g.game.timeControl === '300')).toBe(true);
    expect(clocks.slice(0, 6).every((c) => c.baseMs.white === 300_000 && c.baseMs.black === 300_000)).toBe(true);
    const armageddon = state.games[6]!.game;
    expect(armageddon).toMatchObject({ timeControl: 'W300-B240', armageddon: true });
    expect([armageddon.white, armageddon.black].sort()).toEqual([1, 2]);
    expect(state.winner).toBe(clocks[6]?.result === '1-0' ? armageddon.white : armageddon.black);
    expect(playoffStatus(state).state).toBe('decided');

    // The playoff decides the first place only (Art. 10). The other two are equal on most Blacks,
    // won games and Sonneborn-Berger, so they share places 2-3 and their prizes, whoever went out first.
    expect(standings.slice(0, 3).map((r) => r.rank)).toEqual([1, 1, 1]);
    const final = applyPlayoff(standings, state);
    const second = state.winner === 1 ? 2 : 1;
    expect(final.slice(0, 3).map((r) => [r.id, r.rank])).toEqual([
      [state.winner, 1],
      [second, 2],
      [3, 2],
    ]);
    const prizes = awardPrizes(section, final);
    expect(prizes.slice(0, 3).map((p) => [p.player, p.amount, p.prize])).toEqual([
      [state.winner, 3000, 'place 1'],
      [second, 1750, 'places 2-3 shared'],
      [3, 1750, 'places 2-3 shared'],
    ]);
  }, 120_000);

  it('two tied: two 5-minute games, then Armageddon', () => {
    const section = findSection(event, 'euskal-xake-eskola');
    const record = play('euskal-xake-eskola', [4, 7]);
    const standings = sectionStandings(event, 'euskal-xake-eskola', record);
    expect(tiedForFirst(standings).sort()).toEqual([4, 7]);
    const { state } = playPlayoff(event, startPlayoff(section, tiedForFirst(standings), 5), () => 1, Date.UTC(2009, 6, 16, 19));
    expect(state.games.map((g) => g.game.timeControl)).toEqual(['300', '300', 'W300-B240']);
    expect(state.winner).toBe(state.games[2]!.game.white);
  }, 120_000);

  it('plays the other two groups to the end with a tie for first each', () => {
    for (const [id, leaders] of [
      ['donostia-2016', [2, 9]],
      ['kutxa', [5, 6, 10]],
    ] as const) {
      const standings = sectionStandings(event, id, play(id, [...leaders]));
      expect(tiedForFirst(standings).sort((a, b) => a - b)).toEqual([...leaders]);
      expect(standings.reduce((s, r) => s + r.points, 0)).toBe(45);
    }
  }, 120_000);

  it('logs appeals with the one-hour deadline after the round', () => {
    const record: SectionRecord = {
      ...emptyRecord,
      appeals: [
        { player: 3, round: 2, endedAt: '2009-07-08T21:00:00+02:00', filedAt: '2009-07-08T21:50:00+02:00', text: 'flag fall' },
        { player: 4, round: 2, endedAt: '2009-07-08T21:00:00+02:00', filedAt: '2009-07-08T22:01:00+02:00', text: 'late' },
      ],
    };
    expect(appealsLog(event, record).map((a) => [a.deadline, a.inTime])).toEqual([
      ['2009-07-08T20:00:00.000Z', true],
      ['2009-07-08T20:00:00.000Z', false],
    ]);
  });
});
