// Cairns Cup 2019 end to end: 10-player Berger round robin on simulated clocks, fines and sanctions,
// standings with DE, BPG, KS, SB, WON, a two-player playoff ladder to Armageddon, prizes.
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createGameClock, replayGame } from '../../clock-engine/internal.ts';
import {
  applyPlayoff,
  awardPrizes,
  sectionGameConfig,
  clockIncidents,
  crosstableView,
  emptyRecord,
  exportTrf,
  finesView,
  pairingsView,
  parseTrf,
  playoffView,
  prizesView,
  rankStandings,
  sectionTrf,
  playoffGameConfig,
  presetEvent,
  roundBoards,
  sanctionsLedger,
  sectionCrosstable,
  sectionStandings,
  startPlayoff,
  tiedForFirst,
  withdrawnOrForfeited,
  type SectionRecord,
} from '../../tournament/internal.ts';
import { playPlayoff, playRoundRobin, type RoundScript } from './run-section.ts';
import { playGame } from './simulate.ts';

const event = presetEvent('cairns-cup-2019');
const section = event.sections[0]!;

// 1 and 2 draw each other and beat everyone else; the rest follow a fixed pattern.
const script: RoundScript = {
  score(white, black) {
    if ((white === 1 && black === 2) || (white === 2 && black === 1)) return 0.5;
    if (white <= 2) return 1;
    if (black <= 2) return 0;
    const pattern = (white + black) % 3;
    if (pattern === 1) return 0.5;
    const lowerWins = pattern === 0;
    return white < black === lowerWins ? 1 : 0;
  },
  absent: (white, _black, round) => (round === 7 && white === 5 ? 'white' : undefined),
};

const record: SectionRecord = {
  ...emptyRecord,
  rounds: playRoundRobin(event, 'main', 9, script),
  incidents: [
    { round: 3, player: 1, offence: 'late-arrival' },
    { round: 5, player: 4, offence: 'device-noise' },
    { round: 6, player: 7, offence: 'electronic-device' },
    { round: 8, player: 7, offence: 'late-arrival' },
  ],
};

/** Points worked out from the script alone, with the two forfeits. */
function expectedPoints(): Map<number, number> {
  const points = new Map<number, number>(section.players.map((p) => [p.id, 0]));
  for (let round = 1; round <= 9; round += 1) {
    for (const board of roundBoards(event, 'main', round).boards) {
      const w = board.white.id;
      const b = board.black.id;
      let white: number = script.score(w, b, round);
      if (round === 7 && w === 5) white = 0;
      if (round === 5 && (w === 4 || b === 4)) white = w === 4 ? 0 : 1;
      points.set(w, (points.get(w) ?? 0) + white);
      points.set(b, (points.get(b) ?? 0) + 1 - white);
    }
  }
  return points;
}

describe('Cairns Cup 2019 end to end', () => {
  const standings = sectionStandings(event, 'main', record);

  it('records every result from the clocks, forfeits included', () => {
    const crosstable = sectionCrosstable(event, 'main', record);
    const expected = expectedPoints();
    for (const p of crosstable.players) expect(p.points, `player ${p.id}`).toBe(expected.get(p.id));
    const five = crosstable.players.find((p) => p.id === 5);
    expect(five?.rounds[6]).toEqual({ opponent: 3, colour: 'w', result: '-' });
    const four = crosstable.players.find((p) => p.id === 4);
    expect(four?.rounds[4]).toEqual({ opponent: 2, colour: 'w', result: '-' });
    expect(record.rounds[6]?.games.find((g) => g.white === 5)?.termination).toMatch(/default time/);
  });

  it('ranks with the regulation tie-breaks and has a tie for first', () => {
    expect(Object.keys(standings[0]?.tiebreaks ?? {})).toEqual(['DE', 'BPG', 'KS', 'SB', 'WON']);
    expect(tiedForFirst(standings)).toHaveLength(2);
    expect(standings.slice(0, 2).map((r) => r.points)).toEqual([8.5, 8.5]);
    // 1 and 2 drew (DE equal), both have 4 Blacks; Koya threshold 4.5 of 9.
    const [a, b] = standings;
    expect(a?.tiebreaks.DE).toBe(b?.tiebreaks.DE);
    expect([a?.tiebreaks.BPG, b?.tiebreaks.BPG]).toEqual([4, 4]);
    const ranks = standings.map((r) => r.rank);
    expect([...ranks].sort((x, y) => x - y)).toEqual(ranks);
  });

  it('fines $1,000 per late arrival and per device; a noisy device forfeits the game', () => {
    const ledger = sanctionsLedger(section, record);
    expect(Object.fromEntries(ledger.fines)).toEqual({ 1: 1000, 4: 1000, 7: 2000 });
    expect(ledger.forfeits).toEqual([{ round: 5, player: 4 }]);
  });

  it('turns a late arrival seen by the clock into a $1,000 incident', () => {
    const board = roundBoards(event, 'main', 4).boards[2]!;
    const config = sectionGameConfig(event, 'main', { scheduledStart: board.scheduledStartMs, autoStart: true });
    const t = board.scheduledStartMs;
    const state = replayGame(config, [
      { type: 'arrive', side: 'white', at: t - 60_000, by: { kind: 'player', side: 'white' } },
      { type: 'arrive', side: 'black', at: t + 300_000, by: { kind: 'player', side: 'black' } },
      { type: 'press', side: 'white', at: t + 310_000, by: { kind: 'player', side: 'white' } },
      { type: 'result', result: '1/2-1/2', termination: 'agreement', at: t + 400_000, by: { kind: 'arbiter', name: 'Arbiter' } },
    ]);
    expect(state.remainingMs.white).toBe(5_400_000 + 30_000 - 310_000 + 30_000);
    const incidents = clockIncidents(section, 4, { white: board.white.id, black: board.black.id }, state);
    expect(incidents).toEqual([{ round: 4, player: board.black.id, offence: 'late-arrival', note: 'not at the board when the clock started' }]);
    const ledger = sanctionsLedger(section, { ...emptyRecord, incidents });
    expect(ledger.fines.get(board.black.id)).toBe(1000);
  });

  it('refuses a draw offer before move 30, in the main event and the playoff', () => {
    const board = roundBoards(event, 'main', 1).boards[0]!;
    const config = sectionGameConfig(event, 'main', { scheduledStart: board.scheduledStartMs, autoStart: true });
    const t = board.scheduledStartMs;
    const state = replayGame(config, [
      { type: 'arrive', side: 'white', at: t - 1000, by: { kind: 'player', side: 'white' } },
      { type: 'arrive', side: 'black', at: t - 1000, by: { kind: 'player', side: 'black' } },
      { type: 'press', side: 'white', at: t + 5000, by: { kind: 'player', side: 'white' } },
      { type: 'drawOffer', side: 'black', at: t + 6000, by: { kind: 'player', side: 'black' } },
      { type: 'drawAccept', side: 'white', at: t + 7000, by: { kind: 'player', side: 'white' } },
    ]);
    expect(state.status).toBe('running');
    expect(state.alerts.some((a) => a.code === 'draw-offer-refused')).toBe(true);
  });

  it('plays the two-player ladder: 2 x G/45+5, 2 x G/10+5, then Armageddon won by Black on a draw', () => {
    const tied = tiedForFirst(standings);
    const start = startPlayoff(section, tied, 2019);
    const { state, clocks } = playPlayoff(event, start, () => 0.5);
    expect(state.games.map((g) => g.game.timeControl)).toEqual(['2700+5', '2700+5', '600+5', '600+5', 'W300-B240']);
    expect(clocks.map((c) => c.result)).toEqual(['1/2-1/2', '1/2-1/2', '1/2-1/2', '1/2-1/2', '1/2-1/2']);
    expect(clocks[4]?.baseMs).toEqual({ white: 300_000, black: 240_000 });
    const armageddon = state.games[4]!.game;
    expect(armageddon.armageddon).toBe(true);
    expect(state.winner).toBe(armageddon.black);
    // Colours alternate inside each match.
    expect(state.games[0]!.game.white).toBe(state.games[1]!.game.black);
    expect(state.games[2]!.game.white).toBe(state.games[3]!.game.black);

    const final = applyPlayoff(standings, state);
    expect(final[0]?.id).toBe(state.winner);
    expect(final.slice(0, 2).map((r) => r.rank)).toEqual([1, 2]);

    const crosstable = sectionCrosstable(event, 'main', record);
    const excluded = withdrawnOrForfeited(crosstable, record);
    expect([...excluded].sort()).toEqual([4, 5]);
    const prizes = awardPrizes(section, final, { excluded, fines: sanctionsLedger(section, record).fines });
    const first = prizes.find((p) => p.player === state.winner);
    expect(first?.amount).toBe(45_000);
    expect(first?.net).toBe(state.winner === 1 ? 44_000 : 45_000);
    expect(prizes.some((p) => p.player === 4 || p.player === 5)).toBe(false);
    // Prizes pass down past the excluded players: ten prizes, eight eligible players.
    expect(prizes).toHaveLength(8);
    expect(prizes.map((p) => p.amount)).toEqual([45000, 30000, 20000, 15000, 10000, 8000, 7000, 6000]);
  });

  it('runs the Armageddon game on the XState clock actor with simulated time, same result as the fold', () => {
    const start = startPlayoff(section, [1, 2], 7);
    const game = { ...start.games[0]!.game, timeControl: 'W300-B240', armageddon: true };
    const config = playoffGameConfig(event, game, 1_000_000);
    const { state: folded, events } = playGame(config, { end: 'flag', loser: 'black' }, 11);
    const clock = new SimulatedClock();
    clock.set(0);
    const actor = createGameClock(config, { clock });
    actor.start();
    for (const e of events) {
      clock.set(e.at);
      actor.send(e);
    }
    // Let simulated time run on second by second, as a wall clock would, to the flag instant
    // (XState's SimulatedClock runs a timer re-aimed inside a flush only at its next set()).
    const flagAt = folded.firstFlag?.at ?? 0;
    for (let t = clock.now(); t < flagAt; t = Math.min(flagAt, t + 1000)) clock.set(t);
    clock.set(flagAt);
    clock.set(flagAt);
    const live = actor.getSnapshot().context.game;
    actor.stop();
    expect(live.result).toEqual(folded.result);
    expect(live.firstFlag).toEqual(folded.firstFlag);
    expect(live.remainingMs).toEqual(folded.remainingMs);
    expect(folded.result?.result).toBe('1-0');
    expect(folded.remainingMs.black).toBe(0);
  });

  it('exports a TRF that reads back to the same standings, and feeds the console views', () => {
    const trf = sectionTrf(event, 'main', record);
    const text = exportTrf(trf);
    expect(text).toMatch(/^012 2019 Cairns Cup - Cairns Cup$/m);
    expect(text).toMatch(/^XXR 9$/m);
    expect(text).toMatch(/^212 DE,BPG,KS,SB,WON$/m);
    const back = parseTrf(text);
    expect(rankStandings(back, section.tiebreaks, { roundRobin: true })).toEqual(standings);
    expect(back.players.map((p) => p.rank)).toEqual(trf.players.map((p) => p.rank));

    const playoff = playPlayoff(event, startPlayoff(section, tiedForFirst(standings), 2019), () => 0.5).state;
    const view = crosstableView(event, 'main', record, playoff);
    expect(view.columns).toEqual(['DE', 'BPG', 'KS', 'SB', 'WON']);
    expect(view.rows).toHaveLength(10);
    expect(view.rows[0]?.id).toBe(playoff.winner);
    expect(view.rows[0]?.rounds).toHaveLength(9);
    expect(view.tiedForFirst).toHaveLength(2);

    const pairings = pairingsView(event, 'main', record, 1);
    expect(pairings.boards.map((b) => [b.white.id, b.black.id, b.result])).toEqual(record.rounds[0]!.games.map((g) => [g.white, g.black, g.result]));
    expect(playoffView(event, 'main', playoff).games.at(-1)).toMatchObject({ label: 'Armageddon', armageddon: true, result: '1/2-1/2' });
    expect(finesView(event, 'main', record).totals).toEqual([
      { player: 'Cairns player 01', fines: 1000, pointsDeducted: 0 },
      { player: 'Cairns player 04', fines: 1000, pointsDeducted: 0 },
      { player: 'Cairns player 07', fines: 2000, pointsDeducted: 0 },
    ]);
    const prizes = prizesView(event, 'main', record, playoff);
    expect(prizes.excluded.map((p) => p.id)).toEqual([4, 5]);
    expect(prizes.awards[0]?.player).toBe(playoff.winner);
  });
});
