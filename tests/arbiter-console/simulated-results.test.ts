// Simulated games a chief arbiter would recognise, on the console: the demo's round (npm start: the
// Cairns Cup's round 1, its seed and late arrivals) ends in varied results, and a whole simulated Cairns
// Cup has draws in about the proportion of classical chess between close ratings, both colours winning,
// by resignation, agreement after move 30, mate and flag. Without virtual hardware and accelerated so
// that it takes seconds; the games (seeded plans, chess.js moves) are the demo's. 500x keeps the round's
// results exact on a loaded machine (a stall of 1 s real is 8 min of game time, less than any clock
// left); the whole event runs at 1000x and is held to bounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { demoLateArrivals, startConsole, type ConsoleOptions, type RunningConsole } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';

const event = presetEvent('cairns-cup-2019');

/**
 * A console of its own for one test, stopped and removed after it (through the test's own hook: the two
 * tests run side by side, each mostly waiting on game time).
 */
async function consoleFor(onTestFinished: TestContext['onTestFinished'], prefix: string, options: Omit<ConsoleOptions, 'dataDir'>): Promise<RunningConsole> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const started: { run?: RunningConsole } = {};
  onTestFinished(async () => {
    await started.run?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  started.run = await startConsole({ dataDir: dir, ...options });
  return started.run;
}

type Game = { result: string; termination: string; plies: number };
/** Each game of a round as its PGN has it: result, Termination tag, plies played. */
async function gamesOf(c: RunningConsole, section: string, round: number): Promise<Game[]> {
  const pgn = await (await fetch(`${c.url}/api/pgn?section=${encodeURIComponent(section)}&round=${round}`)).text();
  return pgn
    .split(/\n(?=\[Event )/)
    .filter((g) => g.includes('[Result '))
    .map((g) => {
      const movetext = g.replace(/\[[^\]]*\]\s*/g, '').replace(/\{[^}]*\}/g, '');
      const plies = movetext.split(/\s+/).filter((t) => /^[a-hKQRBNO]/.test(t)).length;
      return { result: /\[Result "([^"]+)"\]/.exec(g)![1]!, termination: /\[Termination "([^"]+)"\]/.exec(g)?.[1] ?? '', plies };
    });
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 250));
}

const kind = (termination: string): string =>
  /resign/.test(termination)
    ? 'resignation'
    : /agreement/.test(termination)
      ? 'agreement'
      : /mate/.test(termination)
        ? 'checkmate'
        : /flag|time/.test(termination)
          ? 'flag'
          : termination;

describe.concurrent('simulated results', () => {
  it("the demo's round: the five games end in varied results", async ({ expect, onTestFinished }) => {
    const c = await consoleFor(onTestFinished, 'zeitnot-sim-demo-', {
      port: 0,
      noPage: true,
      event,
      scale: 500,
      firstRound: true,
      autoStart: true,
      simulate: { boards: 5, seed: event.id, hardware: 'none', late: demoLateArrivals },
    });
    await until(() => [...c.hall.boards.values()].filter((b) => b.state.status === 'finished').length === 5, 90_000);
    expect((await gamesOf(c, 'main', 1)).map((g) => [g.result, g.termination, g.plies])).toEqual([
      ['1-0', 'resignation', 57],
      ['0-1', 'resignation', 50],
      ['1/2-1/2', 'agreement', 84],
      ['1-0', 'resignation', 105],
      ['1-0', 'resignation', 75],
    ]);
  }, 120_000);

  it('a simulated Cairns Cup: draws about a third, both colours winning, by resignation and by agreement after move 30', async ({ expect, onTestFinished }) => {
    const c = await consoleFor(onTestFinished, 'zeitnot-sim-event-', {
      port: 0,
      noPage: true,
      event,
      scale: 1000,
      autoStart: true,
      autopilot: { confirm: true, playoff: true },
      simulate: { boards: 'all', seed: 'cairns-results', hardware: 'none' },
    });
    const desk = c.desks.get('main')!;
    await until(() => desk.view('arbiter').rounds.filter((r) => r.games.every((g) => g.source === 'confirmed')).length === 9, 240_000);
    const games = (await Promise.all(Array.from({ length: 9 }, (_, k) => gamesOf(c, 'main', k + 1)))).flat();
    expect(games).toHaveLength(45);
    const count = (f: (g: Game) => boolean) => games.filter(f).length;
    const draws = count((g) => g.result === '1/2-1/2');
    const tally = JSON.stringify(games.map((g) => `${g.result} ${kind(g.termination)}`).sort());
    // Bounds (45 games between ratings 2380-2560; about 14 draws, 17 White wins, 14 Black wins expected):
    // three standard deviations, since a machine stalled for seconds can still let a clock run out.
    expect(draws, tally).toBeGreaterThanOrEqual(5);
    expect(draws, tally).toBeLessThanOrEqual(27);
    expect(
      count((g) => g.result === '1-0'),
      tally,
    ).toBeGreaterThanOrEqual(6);
    expect(
      count((g) => g.result === '0-1'),
      tally,
    ).toBeGreaterThanOrEqual(5);
    const kinds = new Set(games.map((g) => kind(g.termination)));
    expect(kinds.has('resignation') && kinds.has('agreement')).toBe(true);
    // The Cairns Cup's 30-move rule: no agreement before move 30 (60 plies).
    for (const g of games.filter((x) => kind(x.termination) === 'agreement')) expect(g.plies).toBeGreaterThanOrEqual(60);
  }, 300_000);
});
