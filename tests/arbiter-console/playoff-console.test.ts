// The playoff on the console's own boards and clocks: the Cairns Cup 2019 played to a forced two-way
// and a forced four-way tie, the arbiter starts the playoff, each sitting of playoff games appears on
// the section's hall boards with its time control, the clocks' results decide the next stage by
// themselves, to the final order and the prizes; a restart rebuilds the playoff.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameResult } from '../../clock-engine/index.ts';
import { manualSource, startAutopilot, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { PLAYOFF, SECTION, event, leadersScript, nameOf, ok, playMainEvent, source, turn } from './playoff-fixtures.ts';

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The sitting on the boards: board id, players, time control of its first period, whose clock is which. */
function sitting(c: RunningConsole): {
  round: number;
  boards: { id: string; game: string; white: string; black: string }[];
  baseMs: { white: number; black: number };
} {
  const seated = c.hall.seated.get(PLAYOFF)!;
  return {
    round: seated.round,
    boards: seated.boards.map((b) => ({ id: b.id, game: b.playoffGame!, white: b.white, black: b.black })),
    baseMs: seated.game.timeControl.periods[0]!.baseMs,
  };
}

/** Starts the sitting's clocks: the arbiter marks the players present and starts them. */
function startSitting(c: RunningConsole): void {
  ok(c.hall.command({ type: 'arriveAll' }, 'IA'));
  ok(c.hall.command({ type: 'startAll', section: PLAYOFF }, 'IA'));
}

async function endOnBoard(c: RunningConsole, board: string, result: GameResult): Promise<void> {
  source(c).advance(30_000);
  // Thirty seconds in, a draw is no agreement (the 30-move rule covers the playoff games): a repetition the arbiter upholds.
  ok(
    c.hall.command(
      result === '1/2-1/2'
        ? { type: 'result', board, result, termination: 'threefold repetition (9.2)', drawBy: 'ruling' }
        : { type: 'result', board, result, termination: 'resignation' },
      'IA',
    ),
  );
  await turn();
}

async function open(dir: string, at = 0): Promise<RunningConsole> {
  return startConsole({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(at) });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-playoff-'));
  dirs.push(dir);
  return dir;
}

describe('the playoff on the hall boards', () => {
  it('two tied: 2 x G/45+5, 2 x G/10+5 lost on time, Armageddon W5-B4 drawn goes to Black; prizes; a restart rebuilds it', async () => {
    const dir = tempDir();
    run = await open(dir);
    const desk = run.desks.get(SECTION)!;
    await playMainEvent(run, leadersScript([3, 6]));
    expect(desk.view('arbiter').crosstable.tiedForFirst).toEqual(expect.arrayContaining([3, 6]));
    expect(desk.view('arbiter').playoffPossible).toEqual({ possible: true });
    expect(run.hall.seated.get(PLAYOFF)).toBeUndefined();

    ok(desk.command({ type: 'startPlayoff', section: SECTION }, 'IA'));
    const played: { tc: { white: number; black: number }; white: string; black: string; result: string }[] = [];
    // Match G/45+5, two games, both drawn.
    for (const game of [1, 2]) {
      const s = sitting(run);
      expect(s).toMatchObject({ round: game, baseMs: { white: 2_700_000, black: 2_700_000 } });
      expect(s.boards.map((b) => [b.id, b.game])).toEqual([['1', `s1.1.${game}`]]);
      expect(run.hall.boards.get('1')!.state.status).toBe('waiting');
      startSitting(run);
      await endOnBoard(run, '1', '1/2-1/2');
      played.push({ tc: s.baseMs, white: s.boards[0]!.white, black: s.boards[0]!.black, result: '1/2-1/2' });
    }
    // Match G/10+5: White's flag falls in both games, at its exact instant on the clock's own timer.
    for (const game of [1, 2]) {
      const s = sitting(run);
      expect(s).toMatchObject({ round: 2 + game, baseMs: { white: 600_000, black: 600_000 } });
      expect(s.boards[0]!.game).toBe(`s2.1.${game}`);
      startSitting(run);
      const startedAt = run.hall.boards.get('1')!.startedAt!;
      // Ten minutes and the first move's five seconds (Fischer from move 1), then White's flag.
      expect(run.hall.view('1')!.remainingMs.white).toBe(605_000);
      source(run).advance(604_999);
      expect(run.hall.boards.get('1')!.state.status).toBe('running');
      source(run).advance(1);
      const board = run.hall.boards.get('1')!;
      expect(board.state.firstFlag).toEqual({ side: 'white', at: startedAt + 605_000 });
      expect(board.state.result?.result).toBe('0-1');
      await turn();
      played.push({ tc: s.baseMs, white: s.boards[0]!.white, black: s.boards[0]!.black, result: '0-1' });
    }
    // Armageddon: White 5 minutes, Black 4; drawn, so Black wins the playoff.
    const armageddon = sitting(run);
    expect(armageddon).toMatchObject({ round: 5, baseMs: { white: 300_000, black: 240_000 } });
    expect(armageddon.boards[0]!.game).toBe('s3.1.1');
    startSitting(run);
    // No increment: White 5 minutes, Black 4.
    expect(run.hall.view('1')!.remainingMs).toEqual({ white: 300_000, black: 240_000 });
    await endOnBoard(run, '1', '1/2-1/2');

    const view = desk.view('arbiter');
    const blackName = armageddon.boards[0]!.black;
    expect(view.playoff).toMatchObject({ state: 'decided', winner: { name: blackName } });
    expect(view.playoff!.games.map((g) => [g.id, g.timeControl, g.result, g.hallBoard])).toEqual([
      ['s1.1.1', '2700+5', '1/2-1/2', '1'],
      ['s1.1.2', '2700+5', '1/2-1/2', '1'],
      ['s2.1.1', '600+5', '0-1', '1'],
      ['s2.1.2', '600+5', '0-1', '1'],
      ['s3.1.1', 'W300-B240', '1/2-1/2', '1'],
    ]);
    // Colours alternate in each match: each player lost one G/10+5 game on time as White.
    expect(played[2]!.white).toBe(played[3]!.black);
    expect(run.journal.meta()).toBeDefined();
    const results = [...run.journal.entries(0, 'tournament')].flatMap((e) =>
      e.record.kind === 'tournament' && e.record.action.type === 'playoffResult' ? [e.record.action] : [],
    );
    expect(results.map((r) => [r.game, r.result, r.board, r.by])).toEqual([
      ['s1.1.1', '1/2-1/2', '1', 'clock'],
      ['s1.1.2', '1/2-1/2', '1', 'clock'],
      ['s2.1.1', '0-1', '1', 'clock'],
      ['s2.1.2', '0-1', '1', 'clock'],
      ['s3.1.1', '1/2-1/2', '1', 'clock'],
    ]);
    // The final order and the prizes: the Armageddon's Black first, the other tied player second.
    const whiteName = armageddon.boards[0]!.white;
    expect(view.crosstable.rows.slice(0, 2).map((r) => [r.rank, r.name])).toEqual([
      [1, blackName],
      [2, whiteName],
    ]);
    expect(view.prizes.awards.slice(0, 2).map((a) => [a.name, a.amount])).toEqual([
      [blackName, 45_000],
      [whiteName, 30_000],
    ]);
    expect(run.hall.phaseOf(PLAYOFF, 5)).toBe('closed');
    // Nothing more to seat or record once it is decided.
    await turn();
    expect(sitting(run).round).toBe(5);

    const boards = run.hall.views();
    const desks = desk.view('arbiter');
    const at = run.hall.source.now();
    const entries = [...run.journal.entries()].length;
    await run.stop();
    run = await open(dir, at);
    await turn();
    expect(run.resumed).toBe(true);
    expect(run.hall.views()).toEqual(boards);
    expect(run.desks.get(SECTION)!.view('arbiter')).toEqual(desks);
    expect([...run.journal.entries()].length).toBe(entries);
  }, 60_000);

  it('four tied: a G/25+5 round robin ending 3:2:1:0 places them in that order, two boards at a time', async () => {
    const dir = tempDir();
    run = await open(dir);
    const desk = run.desks.get(SECTION)!;
    await playMainEvent(run, leadersScript([2, 5, 7, 9]));
    ok(desk.command({ type: 'startPlayoff', section: SECTION }, 'IA'));
    const tied = desk.playoff!.tied;
    expect([...tied].sort((a, b) => a - b)).toEqual([2, 5, 7, 9]);
    // The later a player stands in the tie-break order, the more he wins: the last of them wins all three.
    const rank = (name: string): number => tied.findIndex((id) => nameOf(id) === name);
    for (const round of [1, 2, 3]) {
      const s = sitting(run);
      expect(s).toMatchObject({ round, baseMs: { white: 1_500_000, black: 1_500_000 } });
      expect(s.boards.map((b) => b.id)).toEqual(['1', '2']);
      expect(s.boards.map((b) => b.game)).toEqual([`s1.1.${round}.1`, `s1.1.${round}.2`]);
      startSitting(run);
      for (const b of s.boards) await endOnBoard(run, b.id, rank(b.white) > rank(b.black) ? '1-0' : '0-1');
    }
    const view = desk.view('arbiter');
    expect(view.playoff!.state).toBe('decided');
    const order = [...tied].reverse().map(nameOf);
    expect(view.crosstable.rows.slice(0, 4).map((r) => [r.rank, r.name])).toEqual(order.map((name, i) => [i + 1, name]));
    expect(view.prizes.awards.slice(0, 4).map((a) => [a.name, a.amount])).toEqual(order.map((name, i) => [name, [45_000, 30_000, 20_000, 15_000][i]]));
    // A playoff game on a board takes its result from the clock, not from the desk.
    expect(desk.command({ type: 'playoffResult', section: SECTION, game: 's1.1.3.1', result: '1-0' }, 'IA')).toMatchObject({ ok: false });
  }, 60_000);

  it("five tied: the chief arbiter's ruling decides, the playoff reads decided, nothing is seated", async () => {
    const dir = tempDir();
    run = await open(dir);
    const desk = run.desks.get(SECTION)!;
    await playMainEvent(run, leadersScript([1, 3, 4, 8, 10]));
    ok(desk.command({ type: 'startPlayoff', section: SECTION }, 'IA'));
    expect(desk.view('arbiter').playoff).toMatchObject({ state: 'arbiter-decision', message: expect.stringMatching(/5 players tied/) });
    expect(run.hall.seated.get(PLAYOFF)).toBeUndefined();
    expect(desk.command({ type: 'decidePlayoff', section: SECTION, winner: 2, reason: 'r' }, 'IA')).toEqual({
      ok: false,
      code: 'tournament-rule',
      reason: 'player 2 is not among the tied players',
    });
    ok(
      desk.command(
        { type: 'decidePlayoff', section: SECTION, winner: 8, reason: 'Armageddon between the two best on tie-breaks, played off the console' },
        'IA',
      ),
    );
    const view = desk.view('arbiter');
    expect(view.playoff).toMatchObject({
      state: 'decided',
      winner: { id: 8 },
      message: 'chief arbiter: Armageddon between the two best on tie-breaks, played off the console',
    });
    expect(view.crosstable.rows[0]).toMatchObject({ rank: 1, id: 8 });
    // The other four follow in the main tie-break order (equal on every tie-break, they share a place).
    const others = view.crosstable.rows.slice(1, 5);
    expect(others.map((r) => r.id).sort((a, b) => a - b)).toEqual([1, 3, 4, 10]);
    expect(others[0]!.rank).toBe(2);
    expect(others.map((r) => r.rank)).toEqual([...others.map((r) => r.rank)].sort((a, b) => a - b));
    expect(view.prizes.awards[0]).toMatchObject({ player: 8, amount: 45_000 });
    expect(desk.command({ type: 'decidePlayoff', section: SECTION, winner: 1, reason: 'again' }, 'IA')).toEqual({
      ok: false,
      code: 'tournament-rule',
      reason: 'the playoff is already decided',
    });
    await turn();
    expect(run.hall.seated.get(PLAYOFF)).toBeUndefined();
    const at = run.hall.source.now();
    await run.stop();
    run = await open(dir, at);
    expect(run.desks.get(SECTION)!.view('arbiter')).toEqual(view);
  }, 60_000);

  it('five tied in a simulated event: the simulated arbiter starts the playoff and rules for the best by the tie-breaks', async () => {
    run = await open(tempDir());
    const desk = run.desks.get(SECTION)!;
    await playMainEvent(run, leadersScript([1, 3, 4, 8, 10]));
    const best = desk.view('arbiter').crosstable.tiedForFirst[0];
    const pilot = startAutopilot(run.hall, run.desks, { confirm: false, start: false, publish: false, playoff: true });
    try {
      for (let i = 0; i < 10 && desk.view('arbiter').playoff?.state !== 'decided'; i++) await turn();
    } finally {
      pilot.stop();
    }
    const view = desk.view('arbiter');
    expect(view.playoff).toMatchObject({
      state: 'decided',
      winner: { id: best },
      message: expect.stringMatching(/^chief arbiter: simulated ruling: the best of those still in by the tie-breaks/),
    });
    expect(view.crosstable.rows[0]).toMatchObject({ rank: 1, id: best });
    expect(run.hall.seated.get(PLAYOFF)).toBeUndefined();
  }, 60_000);
});
