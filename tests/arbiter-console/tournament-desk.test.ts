// The tournament desk on a real journal file with an injected clock: results from the clocks,
// confirmations and corrections, next-round drafts with journaled changes, publishing, playoffs,
// incidents, and a restart that rebuilds all of it from the journal alone.
import { afterEach, describe, expect, it } from 'vitest';
import { boardHistory, boardPgn, TournamentDesk, type TournamentRecord } from '../../arbiter-console/internal.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import { pairSwissRound } from '../../tournament/index.ts';
import { MIN, press } from './fixtures.ts';
import { smallRoundRobin, smallSwiss, swissRoundOne, testDesk, type TestDesk } from './tournament-fixtures.ts';

let t: TestDesk;
afterEach(() => t?.cleanup());

const tournamentRecords = (): TournamentRecord[] =>
  [...t.journal.entries(0, 'tournament')].flatMap((e) => (e.record.kind === 'tournament' ? [e.record.action] : []));

function arrive(board: string, side: 'white' | 'black'): void {
  t.hall.record({ kind: 'clock', board, event: { type: 'arrive', side, at: t.source.now(), by: { kind: 'player', side } } });
}

/** Players 1 and 2 beat everyone else and draw each other: a tie for first. */
const tieForFirst = (white: number, black: number): GameResult => {
  const top = (id: number) => id === 1 || id === 2;
  if (top(white) && top(black)) return '1/2-1/2';
  if (top(white)) return '1-0';
  if (top(black)) return '0-1';
  return '1/2-1/2';
};

describe('tournament desk', () => {
  it('a result entered for a game still on the clock ends it there; one the clock ended differently is a correction kept as the clock ended it', () => {
    const event = smallRoundRobin();
    t = testDesk(event);
    const desk = t.desk;
    for (const board of ['1', '2']) for (const side of ['white', 'black'] as const) arrive(board, side);
    t.source.set(10_000);
    expect(t.hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
    press(t, '1', 'white', 20_000, 'e4');
    // Board 1 is still running: the scoresheets say Black resigned.
    const before = t.journal.count();
    expect(desk.command({ type: 'enterResult', round: 1, white: 1, black: 4, result: '1-0', reason: 'Black resigned, both signed' }, 'IA Smith')).toMatchObject(
      { ok: true },
    );
    const board1 = t.hall.boards.get('1')!;
    expect(board1.state.status).toBe('finished');
    expect(board1.state.result).toMatchObject({ result: '1-0', termination: 'result entered by the arbiter: Black resigned, both signed' });
    // The clock's end is journaled first, then the desk's result, by the same arbiter.
    const added = [...t.journal.entries(before)].map((e) => e.record);
    expect(added.map((r) => r.kind)).toEqual(['clock', 'tournament']);
    expect(added[0]).toMatchObject({ kind: 'clock', board: '1', event: { type: 'result', result: '1-0', by: { kind: 'arbiter', name: 'IA Smith' } } });
    expect(boardPgn(t.hall.round, board1, t.source.now())).toContain('[Result "1-0"]');
    expect(desk.view('spectator').rounds[0]!.games.map((g) => [g.board, g.result, g.source])).toEqual([
      [1, '1-0', 'arbiter'],
      [2, null, null],
    ]);
    // Board 2's clock ended the game (White's flag); the arbiter's draw is a correction: the clock's
    // record stays, the desk's result counts.
    t.hall.command({ type: 'result', board: '2', result: '0-1', termination: 'resignation' }, 'IA Smith');
    expect(
      desk.command(
        { type: 'enterResult', round: 1, white: 2, black: 3, result: '1/2-1/2', reason: 'draw agreed before the resignation was claimed' },
        'IA Smith',
      ),
    ).toMatchObject({ ok: true });
    const board2 = t.hall.boards.get('2')!;
    expect(board2.state.result?.result).toBe('0-1');
    // The board's PGN has the corrected result and says who corrected it, why, and what the clock had.
    const pgn = boardPgn(t.hall.round, board2, t.source.now()).replace(/\s+/g, ' ');
    expect(pgn).toContain('[Result "1/2-1/2"]');
    expect(pgn).toContain('result corrected to 1/2-1/2 by IA Smith: draw agreed before the resignation was claimed (the clock had 0-1)');
    expect(boardHistory(t.journal, '2').at(-1)).toMatchObject({
      by: 'IA Smith',
      what: 'result corrected to 1/2-1/2',
      why: 'draw agreed before the resignation was claimed',
    });
    // The same correction again changes nothing on the board.
    const notes = () => [...t.journal.entries(0, 'note')].length;
    const count = notes();
    expect(desk.command({ type: 'enterResult', round: 1, white: 2, black: 3, result: '1/2-1/2', reason: 'again' }, 'IA Smith')).toMatchObject({ ok: false });
    expect(notes()).toBe(count);
    expect(desk.view('spectator').rounds[0]!.games.map((g) => [g.board, g.result, g.source])).toEqual([
      [1, '1-0', 'arbiter'],
      [2, '1/2-1/2', 'arbiter'],
    ]);
  });

  it('fills results in from the clocks (flag fall, default time), takes confirmations and corrections, and rebuilds them after a restart', () => {
    // Laws 2009 (6.6): an absent player loses at the default time, with no arbiter's decision.
    const event = { ...smallRoundRobin(), lawsEdition: 'L2009' as const };
    t = testDesk(event);
    const desk = t.desk;
    expect([...desk.hallPairs]).toEqual([
      ['1', { white: 1, black: 4 }],
      ['2', { white: 2, black: 3 }],
    ]);
    arrive('1', 'white');
    arrive('1', 'black');
    arrive('2', 'white'); // Black of board 2 never comes.
    t.source.set(10_000);
    expect(t.hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
    press(t, '1', 'white', 20_000, 'e4');
    press(t, '1', 'black', 30_000, 'e5');
    let heard = 0;
    desk.subscribe(() => (heard += 1));
    // White of board 1 never moves again; Black of board 2 stays away past the 30-minute default time.
    t.source.set(10_000 + 3 * 60 * MIN);

    expect(heard).toBeGreaterThan(0);
    const live = desk.view('spectator').rounds.find((r) => r.round === 1)!;
    expect(live.status).toBe('live');
    expect(live.games.map((g) => [g.board, g.white.id, g.black.id, g.result, g.source])).toEqual([
      [1, 1, 4, '0-1', 'clock'],
      [2, 2, 3, '+--', 'clock'],
    ]);
    const points = () => Object.fromEntries(desk.view('spectator').crosstable.rows.map((r) => [r.id, r.points]));
    expect(points()).toEqual({ 1: 0, 2: 1, 3: 0, 4: 1 });
    expect(desk.view('spectator').crosstable.columns).toEqual(['DE', 'BPG', 'KS', 'SB', 'WON']);

    // Confirm board 1 as the clock gave it; the journal has it before the ack.
    const confirmed = desk.command({ type: 'confirmResult', round: 1, white: 1, black: 4 }, 'IA Smith');
    expect(confirmed).toEqual({ ok: true, journalSeq: t.journal.count() });
    expect(tournamentRecords().at(-1)).toMatchObject({ type: 'result', round: 1, white: 1, black: 4, result: '0-1', source: 'confirmed', by: 'IA Smith' });
    // Correct board 2: the arbiter's entry wins over the clock.
    expect(
      desk.command({ type: 'enterResult', round: 1, white: 2, black: 3, result: '1/2-1/2', reason: 'Black was excused in advance; agreed draw' }, 'IA Smith'),
    ).toMatchObject({ ok: true });
    expect(points()).toEqual({ 1: 0, 2: 0.5, 3: 0.5, 4: 1 });
    expect(desk.view('spectator').rounds[0]!.games.map((g) => g.source)).toEqual(['confirmed', 'arbiter']);
    // The crosstable's history of the game: what the clock had, the arbiter's result, who, why, when.
    const end = 10_000 + 3 * 60 * MIN;
    const p = (id: number) => ({ id, name: `Cairns player 0${id}` });
    const clockCorrection = {
      round: 1,
      white: p(2),
      black: p(3),
      from: '+--',
      to: '1/2-1/2',
      by: 'IA Smith',
      reason: 'Black was excused in advance; agreed draw',
      at: end,
    };
    expect(desk.view('spectator').corrections).toEqual([clockCorrection]);
    expect(tournamentRecords().at(-1)).toMatchObject({ type: 'result', source: 'arbiter', result: '1/2-1/2', replaces: '+--' });

    const before = t.journal.count();
    expect(desk.command({ type: 'enterResult', round: 1, white: 1, black: 2, result: '1-0', reason: 'r' }, 'IA')).toEqual({
      ok: false,
      code: 'unknown-game',
      reason: 'round 1 has no game Cairns player 01 (White) – Cairns player 02 (Black)',
    });
    expect(desk.command({ type: 'enterResult', round: 3, white: 1, black: 2, result: '1-0', reason: 'r' }, 'IA')).toEqual({
      ok: false,
      code: 'round-not-paired',
      reason: 'round 3 has no pairings yet (current round: 1)',
    });
    expect(t.journal.count()).toBe(before);
    // A confirmed result corrected later: its history follows the first correction's.
    t.source.set(end + 1_000);
    expect(
      desk.command({ type: 'enterResult', round: 1, white: 1, black: 4, result: '1-0', reason: 'Black had resigned before the flag fell' }, 'IA Jones'),
    ).toMatchObject({ ok: true });
    expect(desk.view('spectator').corrections).toEqual([
      clockCorrection,
      { round: 1, white: p(1), black: p(4), from: '0-1', to: '1-0', by: 'IA Jones', reason: 'Black had resigned before the flag fell', at: end + 1_000 },
    ]);

    const view = desk.view('arbiter');
    t.reopen(end + 1_000);
    expect(t.desk.view('arbiter')).toEqual(view);
  });

  it('pairs the next Swiss round as a draft, journals manual changes, publishes it, and rebuilds drafts and published rounds after a restart', () => {
    const event = smallSwiss();
    const first = swissRoundOne(event);
    t = testDesk(event);
    const desk = t.desk;
    expect(desk.pairingOf(1)!.games).toEqual(first.games);
    expect(desk.command({ type: 'pairNextRound' }, 'IA')).toEqual({
      ok: false,
      code: 'results-unconfirmed',
      reason: 'round 1 needs confirmed results: board 1, board 2, board 3',
    });
    const results: GameResult[] = ['1-0', '0-1', '1/2-1/2'];
    [...t.hall.boards.keys()].forEach((id, i) =>
      expect(t.hall.command({ type: 'result', board: id, result: results[i]!, termination: 'normal' }, 'IA')).toMatchObject({ ok: true }),
    );
    expect(desk.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: false, reason: expect.stringContaining('board 1 (clock result to confirm)') });
    for (const g of first.games) expect(desk.command({ type: 'confirmResult', round: 1, ...g }, 'IA')).toMatchObject({ ok: true });

    expect(desk.command({ type: 'pairNextRound' }, 'IA Jones')).toMatchObject({ ok: true });
    const engine = pairSwissRound(event, 'main', desk.record(), 2);
    const draft = desk.view('arbiter').draft!;
    expect(draft.round).toBe(2);
    expect(draft.games.map((g) => ({ white: g.white.id, black: g.black.id }))).toEqual(engine.games);
    expect(draft.rematches).toEqual([]);
    expect(desk.view('spectator').draft).toBeUndefined();
    expect(desk.view('arbiter').nextRound).toEqual({ round: 2, possible: false, why: 'the draft of round 2 is waiting: publish or discard it' });

    // Swap colours on board 1.
    expect(desk.command({ type: 'swapColours', board: 1, reason: 'colour history checked by hand' }, 'IA Jones')).toMatchObject({ ok: true });
    const swapped = desk.view('arbiter').draft!.games.map((g) => ({ white: g.white.id, black: g.black.id }));
    expect(swapped[0]).toEqual({ white: engine.games[0]!.black, black: engine.games[0]!.white });
    // Exchange opponents: refused where it would be a rematch, done where it would not.
    const met = (a: number, b: number) => first.games.some((g) => (g.white === a && g.black === b) || (g.white === b && g.black === a));
    const boardPairs = [
      [1, 2],
      [1, 3],
      [2, 3],
    ] as const;
    let exchanged: readonly [number, number] | undefined;
    for (const [a, b] of boardPairs) {
      const ga = swapped[a - 1]!;
      const gb = swapped[b - 1]!;
      const rematch = met(ga.white, gb.black) || met(gb.white, ga.black);
      const outcome = desk.command({ type: 'exchangeOpponents', board: a, otherBoard: b, reason: 'players from one club' }, 'IA Jones');
      if (rematch)
        expect(outcome).toMatchObject({
          ok: false,
          code: 'already-met',
          article: 'FIDE C.04.1',
          reason: expect.stringMatching(/already played each other in round 1$/),
        });
      else {
        expect(outcome).toMatchObject({ ok: true });
        exchanged = [a, b];
        break;
      }
    }
    expect(exchanged).toBeDefined();
    const [a, b] = exchanged!;
    const changed = desk.view('arbiter').draft!;
    expect(changed.games[a - 1]).toMatchObject({ white: { id: swapped[a - 1]!.white }, black: { id: swapped[b - 1]!.black } });
    expect(changed.games[b - 1]).toMatchObject({ white: { id: swapped[b - 1]!.white }, black: { id: swapped[a - 1]!.black } });
    expect(changed.changes).toEqual([
      { change: 'board 1: colours swapped', reason: 'colour history checked by hand', by: 'IA Jones' },
      { change: `boards ${a} and ${b}: opponents exchanged`, reason: 'players from one club', by: 'IA Jones' },
    ]);
    const draftBeforeRestart = desk.view('arbiter');

    // A restart with a draft pending rebuilds the draft with its changes.
    t.reopen(50_000);
    let again = t.desk;
    expect(again.view('arbiter')).toEqual(draftBeforeRestart);

    expect(again.command({ type: 'publishRound' }, 'IA Jones')).toMatchObject({ ok: true });
    const published = again.view('spectator');
    expect(published.currentRound).toBe(2);
    // Published is on the boards: the clocks of round 2 wait for their start.
    expect(published.rounds.find((r) => r.round === 2)).toMatchObject({
      status: 'live',
      games: changed.games.map((g) => ({ board: g.board, white: g.white, black: g.black, result: null })),
    });
    expect(again.view('arbiter').draft).toBeUndefined();
    expect(published.nextRound).toEqual({ round: 3, possible: false, why: 'round 2 needs confirmed results: board 1, board 2, board 3' });
    expect(tournamentRecords().map((r) => r.type)).toEqual([
      'draft',
      'publish',
      'result',
      'result',
      'result',
      'draft',
      'draftChange',
      'draftChange',
      'publish',
    ]);

    t.reopen(60_000);
    again = t.desk;
    expect(again.view('arbiter')).toEqual(published);
    // Round 2's results by hand, then round 3 is paired from them.
    for (const g of changed.games) {
      expect(again.command({ type: 'enterResult', round: 2, white: g.white.id, black: g.black.id, result: '1-0', reason: 'scoresheets' }, 'IA')).toMatchObject({
        ok: true,
      });
    }
    expect(again.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
    const third = again.view('arbiter').draft!;
    expect(third.round).toBe(3);
    expect(third.games.map((g) => ({ white: g.white.id, black: g.black.id }))).toEqual(pairSwissRound(event, 'main', again.record(), 3).games);
    expect(again.command({ type: 'discardDraft', reason: 'a player withdrew' }, 'IA')).toMatchObject({ ok: true });
    expect(again.view('arbiter').draft).toBeUndefined();
  });

  it('pairs round robin rounds from the Berger table, runs the playoff of a tie for first, and keeps fines; all survive a restart', () => {
    const event = smallRoundRobin();
    t = testDesk(event);
    const desk = t.desk;
    const enterRound = (round: number) => {
      for (const g of desk.view('spectator').rounds.find((r) => r.round === round)!.games) {
        expect(
          desk.command(
            { type: 'enterResult', round, white: g.white.id, black: g.black.id, result: tieForFirst(g.white.id, g.black.id), reason: 'scoresheets' },
            'IA',
          ),
        ).toMatchObject({ ok: true });
      }
    };
    enterRound(1);
    expect(desk.command({ type: 'startPlayoff' }, 'IA')).toEqual({
      ok: false,
      code: 'playoff-impossible',
      reason: 'the playoff follows the last round (round 1 of 3 is paired)',
    });
    for (const round of [2, 3]) {
      expect(desk.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
      const berger = desk.pairingOf(round)!.games;
      expect(desk.view('arbiter').draft!.games.map((g) => ({ white: g.white.id, black: g.black.id }))).toEqual(berger);
      expect(desk.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
      enterRound(round);
    }
    expect(desk.view('spectator').nextRound).toBeNull();
    expect(desk.command({ type: 'pairNextRound' }, 'IA')).toEqual({ ok: false, code: 'beyond-last-round', reason: 'all 3 rounds are paired' });
    const standings = desk.view('spectator').crosstable;
    expect(standings.rows.slice(0, 2).map((r) => r.points)).toEqual([2.5, 2.5]);
    expect([...standings.tiedForFirst].sort()).toEqual([1, 2]);

    expect(desk.command({ type: 'startPlayoff' }, 'IA')).toMatchObject({ ok: true });
    const playoff = desk.view('spectator').playoff!;
    expect(playoff.state).toBe('in-progress');
    expect(playoff.games).toHaveLength(2);
    expect(playoff.games.every((g) => g.timeControl === '2700+5' && !g.armageddon)).toBe(true);
    expect(new Set(playoff.games.flatMap((g) => [g.white, g.black]))).toEqual(new Set(['Cairns player 01', 'Cairns player 02']));
    expect(desk.command({ type: 'startPlayoff' }, 'IA')).toEqual({ ok: false, code: 'playoff-impossible', reason: 'the playoff has already been started' });
    expect(desk.command({ type: 'playoffResult', game: 'nope', result: '1-0' }, 'IA')).toEqual({
      ok: false,
      code: 'tournament-rule',
      reason: "no playoff game 'nope'",
    });
    expect(desk.command({ type: 'playoffResult', game: playoff.games[0]!.id, result: '1-0' }, 'IA')).toMatchObject({ ok: true });

    expect(desk.command({ type: 'recordIncident', round: 3, player: 1, offence: 'electronic-device', note: 'phone in the jacket' }, 'IA')).toMatchObject({
      ok: true,
    });
    expect(desk.command({ type: 'recordIncident', round: 3, player: 1, offence: 'device-noise-after-game' }, 'IA')).toEqual({
      ok: false,
      code: 'no-rule',
      reason: "the regulations of 'main' have no rule for 'device-noise-after-game' (rules: late-arrival, electronic-device, device-noise)",
    });
    const fines = desk.view('spectator').fines;
    expect(fines.entries).toEqual([
      {
        id: 'r3-p1-electronic-device',
        round: 3,
        player: 'Cairns player 01',
        playerId: 1,
        offence: 'electronic-device',
        fine: 1000,
        sanction: 'none',
        note: 'phone in the jacket',
        by: 'IA',
        source: 'arbiter',
      },
    ]);
    const prize = desk.view('spectator').prizes.awards.find((p) => p.player === 1)!;
    expect(prize.fine).toBe(1000);
    expect(prize.net).toBe(prize.amount - 1000);

    const view = desk.view('arbiter');
    t.reopen(10 * MIN);
    expect(t.desk.view('arbiter')).toEqual(view);
  });

  it('scores the Swiss pairing-allocated bye, leaves out requested byes and withdrawn players, and keeps them after a restart', () => {
    const event = smallSwiss(5);
    const first = swissRoundOne(event);
    expect(first.bye).not.toBeNull();
    t = testDesk(event);
    const desk = t.desk;
    expect(desk.pairingOf(1)).toMatchObject({ games: first.games, bye: first.bye });
    const pab = first.bye!;
    expect(desk.view('spectator').rounds[0]!.bye).toEqual({ id: pab, name: `Cairns player 0${pab}` });
    const row = (id: number) => desk.view('spectator').crosstable.rows.find((r) => r.id === id)!;
    expect(row(pab)).toMatchObject({ points: 1, rounds: [{ round: 1, opponent: null, colour: null, result: 'U' }] });

    expect(desk.command({ type: 'requestBye', round: 1, player: 1, kind: 'half', reason: 'r' }, 'IA')).toEqual({
      ok: false,
      code: 'round-paired',
      reason: 'round 1 is already paired',
    });
    expect(desk.command({ type: 'requestBye', round: 2, player: 1, kind: 'half', reason: 'asked before round 1 (regulations 6)' }, 'IA')).toMatchObject({
      ok: true,
    });
    expect(desk.command({ type: 'withdrawPlayer', player: 2, fromRound: 2, reason: 'ill' }, 'IA')).toMatchObject({ ok: true });
    expect(desk.command({ type: 'withdrawPlayer', player: 2, fromRound: 3, reason: 'again' }, 'IA')).toEqual({
      ok: false,
      code: 'already-recorded',
      reason: 'Cairns player 02 has already withdrawn',
    });
    for (const g of first.games)
      expect(desk.command({ type: 'enterResult', round: 1, ...g, result: '1-0', reason: 'scoresheets' }, 'IA')).toMatchObject({ ok: true });

    expect(desk.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
    const draft = desk.view('arbiter').draft!;
    const seated = draft.games.flatMap((g) => [g.white.id, g.black.id]);
    expect(seated).not.toContain(1);
    expect(seated).not.toContain(2);
    expect(draft.games).toHaveLength(1);
    expect(draft.bye).not.toBeNull();
    expect(draft.bye!.id).not.toBe(pab); // no second bye (C.04.3 C2)
    expect(desk.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
    const second = desk.view('spectator').rounds.find((r) => r.round === 2)!;
    expect(second.notPaired).toEqual([
      { id: 2, name: 'Cairns player 02', why: 'withdrawn' },
      { id: 1, name: 'Cairns player 01', why: 'half-point bye (requested)' },
    ]);
    expect(row(1).rounds[1]).toEqual({ round: 2, opponent: null, colour: null, result: 'H' });
    expect(row(draft.bye!.id).rounds[1]).toEqual({ round: 2, opponent: null, colour: null, result: 'U' });

    const view = desk.view('arbiter');
    t.reopen(MIN);
    expect(t.desk.view('arbiter')).toEqual(view);
  });

  it('refuses a section the event does not have', () => {
    const event = smallRoundRobin();
    t = testDesk(event, { publish: false });
    expect(() =>
      TournamentDesk.forSection(t.hall, event, 'nope', () => {
        throw new Error('no round is seated');
      }),
    ).toThrow(/nope/);
    expect(t.journal.count()).toBe(0);
  });
});
