// The playoff of a simulated event, killed with SIGKILL while it is played and restarted on the same
// data directory: the Cairns Cup 2019 to a forced four-way tie (played on the clocks in this process),
// then `zeitnot serve --simulate-event`: the simulated arbiter starts the playoff and its clocks,
// virtual players (on virtual DGT boards, the default) play the games on the hall boards, and the
// clocks' results decide the stages. The console rebuilt from the journal has the playoff the clients
// saw, and plays it on to the final order and the prizes without a game seated or recorded twice.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, manualSource, startConsole } from '../../arbiter-console/index.ts';
import type { PlayoffView } from '../../tournament/index.ts';
import { ConsoleProcesses } from '../support/console-process.ts';
import { untilRead } from '../support/wait.ts';
import { PLAYOFF, SECTION, event, leadersScript, playMainEvent } from './playoff-fixtures.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-playoff-crash-'));
const consoles = new ConsoleProcesses(dataDir);
afterAll(() => {
  consoles.killAll();
  rmSync(dataDir, { recursive: true, force: true });
});
const serve = (args: string[]) => consoles.serve(args);

const get = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
type Playoffs = { playoff: PlayoffView | null };
const playoffOf = async (url: string): Promise<PlayoffView | null> => (await get<Playoffs>(`${url}/api/playoffs?section=${SECTION}`)).playoff;
const decidedGames = (p: PlayoffView | null): number => p?.games.filter((g) => g.result !== null).length ?? 0;
/** The games of `earlier` that had their result, as `later` has them. */
const sameDecided = (later: PlayoffView, earlier: PlayoffView): void => {
  const decided = earlier.games.filter((g) => g.result !== null);
  expect(later.games.filter((g) => decided.some((d) => d.id === g.id))).toEqual(decided);
};

async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  child.kill(signal);
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
}

describe('a simulated playoff, killed and restarted', () => {
  it('SIGKILL while the playoff is played: the journal has the playoff as it was, the restart plays it on to the final order', async () => {
    // The main event: nine rounds on the clocks, players 2, 5, 7 and 9 tied for first.
    const setup = await startConsole({ dataDir, port: 0, noPage: true, event, scale: 5000, source: manualSource(0) });
    await playMainEvent(setup, leadersScript([2, 5, 7, 9]));
    expect([...setup.desks.get(SECTION)!.view('arbiter').crosstable.tiedForFirst].sort((a, b) => a - b)).toEqual([2, 5, 7, 9]);
    await setup.stop();

    const first = await serve(['--simulate-event']);
    // Killed once a playoff game has its result and before the playoff is decided.
    const before = await untilRead(
      () => playoffOf(first.url),
      (p) => decidedGames(p) >= 1,
      'a decided playoff game',
      120_000,
    );
    expect(before!.state).toBe('in-progress');
    await stopped(first.child, 'SIGKILL');

    // The event as the journal left it, rebuilt here at the instant of the kill (no time passes).
    const journal = new Journal(join(dataDir, 'journal.sqlite'));
    const lastAt = journal.lastAt();
    journal.close();
    const atKill = await startConsole({ dataDir, port: 0, noPage: true, source: manualSource(lastAt) });
    const killed = atKill.desks.get(SECTION)!.view('arbiter').playoff!;
    const killedBoards = atKill.hall.views().filter((b) => atKill.hall.roundOf(b.id)?.section === PLAYOFF);
    await atKill.stop();
    expect(decidedGames(killed)).toBeGreaterThanOrEqual(decidedGames(before));
    sameDecided(killed, before!);
    expect(killedBoards.length).toBeGreaterThan(0);

    // Restarted: the playoff goes on from the journal to its end, every game decided before the kill
    // unchanged (a game running at the kill kept its clock running through the downtime).
    const second = await serve(['--simulate-event']);
    expect(second.output()).toContain('(resumed: the event rebuilt from the journal)');
    const summary = await untilRead(
      () => get<{ finished: boolean }>(`${second.url}/api/event`),
      (s) => s.finished,
      'the event finished',
      180_000,
    );
    expect(summary).toEqual({ finished: true, sections: [{ id: SECTION, format: 'round-robin', rounds: 9, roundsPlayed: 9, finished: true }] });
    const final = (await playoffOf(second.url))!;
    const standings = await get<{ standings: { rank: number; id: number; name: string }[] }>(`${second.url}/api/standings?section=${SECTION}`);
    const prizes = await get<{ awards: { name: string; amount: number }[] }>(`${second.url}/api/prizes?section=${SECTION}`);
    await stopped(second.child, 'SIGTERM');
    expect(final.state).toBe('decided');
    sameDecided(final, killed);
    expect(final.games.every((g) => g.result !== null && g.hallBoard !== undefined)).toBe(true);
    expect(final.games.slice(0, 6).map((g) => g.timeControl)).toEqual(Array(6).fill('1500+5'));
    // The winner on top with the first prize; the four tied players take places 1-4.
    expect(standings.standings[0]).toMatchObject({ rank: 1, name: final.winner!.name });
    expect(
      standings.standings
        .slice(0, 4)
        .map((r) => r.id)
        .sort((a, b) => a - b),
    ).toEqual([2, 5, 7, 9]);
    expect(prizes.awards[0]).toMatchObject({ name: final.winner!.name, amount: 45_000 });
    // Across the kill, every playoff game was seated once, in one sitting after another, and recorded once.
    const after = new Journal(join(dataDir, 'journal.sqlite'));
    const entries = [...after.entries()];
    after.close();
    const seats = entries.flatMap((e) => (e.record.kind === 'seat' && e.record.round.section === PLAYOFF ? [e.record.round] : []));
    expect(seats.map((r) => r.round)).toEqual(seats.map((_, i) => i + 1));
    const seated = seats.flatMap((r) => r.boards.map((b) => b.playoffGame));
    expect(seated).toEqual(final.games.map((g) => g.id));
    const recorded = entries.flatMap((e) => (e.record.kind === 'tournament' && e.record.action.type === 'playoffResult' ? [e.record.action.game] : []));
    // (in the order the games ended: boards of one sitting end in any order)
    expect([...recorded].sort()).toEqual(final.games.map((g) => g.id).sort());
  }, 400_000);
});
