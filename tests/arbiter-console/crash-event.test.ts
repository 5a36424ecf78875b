// SIGKILL in each state of a round (drafted, published, playing, results to confirm), restart on the
// same data directory: the same event. The console runs as `zeitnot serve --event cairns-cup-2019`,
// the arbiter drives it over the WebSocket; after each kill the restarted console (no --event: the
// journal has it) shows the same tournament view, the same boards and the same /api/event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConsoleProcesses } from '../support/console-process.ts';
import { helloClient, type Message, type TestClient } from '../support/ws-client.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-crash-event-'));
const consoles = new ConsoleProcesses(dataDir);
afterAll(() => {
  consoles.killAll();
  rmSync(dataDir, { recursive: true, force: true });
});
const serve = (args: string[]) => consoles.serve(args);

type Board = {
  id: string;
  status: string;
  white: string;
  black: string;
  result?: unknown;
  presses: unknown;
  moves: unknown;
  arrived: unknown;
  version: number;
};

/** What must be identical after a restart: the arbiter's tournament view, the boards (without their running times), the event. */
async function eventNow(url: string, token: string): Promise<unknown> {
  // A fresh arbiter's whole view (a connected page gets patches after the first).
  const fresh = await helloClient(url, { role: 'arbiter', token });
  const last = (await fresh.next((m) => m.type === 'tournament', 'the tournament view')) as Message & { view: unknown };
  fresh.ws.terminate();
  const boards = ((await (await fetch(`${url}/api/boards`)).json()) as { boards: Board[] }).boards.map((b) => ({
    id: b.id,
    status: b.status,
    white: b.white,
    black: b.black,
    result: b.result,
    presses: b.presses,
    moves: b.moves,
    arrived: b.arrived,
  }));
  const summary = await (await fetch(`${url}/api/event`)).json();
  return { view: last?.view, boards, summary };
}

let sent = 0;
async function command(c: TestClient, command: object): Promise<void> {
  const id = `c${++sent}`;
  const after = c.messages.length;
  c.send({ type: 'command', id, command });
  const answer = await c.next((m) => (m.type === 'ack' || m.type === 'refused') && m['id'] === id, `the answer to ${JSON.stringify(command)}`, after);
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'ack' });
}

describe('SIGKILL in each state of a round', () => {
  it('restarts into the same event: drafted, published, playing, results to confirm', async () => {
    let run = await serve(['--event', 'cairns-cup-2019']);
    const token = run.token!;
    expect(token).toBeDefined();
    let arbiter = await helloClient(run.url, { role: 'arbiter', token });
    const settle = async () => {
      // The pages' state is sent coalesced after each change (one build per 500 ms, made in the view
      // worker): read it until it stands still for longer than that.
      let last = await eventNow(run.url, token);
      for (let i = 0; i < 40; i++) {
        await new Promise((r) => setTimeout(r, 1_500));
        const now = await eventNow(run.url, token);
        if (JSON.stringify(now) === JSON.stringify(last)) return now;
        last = now;
      }
      throw new Error('the event never stood still');
    };
    const killAndRestart = async (state: string) => {
      const before = await settle();
      run.child.kill('SIGKILL');
      await new Promise((r) => run.child.once('exit', r));
      arbiter.ws.terminate();
      run = await serve([]);
      expect(run.token, 'a restart prints no new token').toBeUndefined();
      arbiter = await helloClient(run.url, { role: 'arbiter', token });
      await arbiter.next((m) => m.type === 'tournament', 'the tournament view');
      expect(await settle(), `after SIGKILL (${state})`).toEqual(before);
      return before as { view: { draft?: unknown; rounds: { round: number; games: { source: string | null }[] }[] }; boards: Board[] };
    };

    await command(arbiter, { type: 'pairNextRound', section: 'main' });
    const drafted = await killAndRestart('drafted');
    expect(drafted.view.draft).toBeDefined();
    expect(drafted.boards).toEqual([]);

    await command(arbiter, { type: 'publishRound', section: 'main' });
    const published = await killAndRestart('published');
    expect(published.boards.map((b) => b.status)).toEqual(['waiting', 'waiting', 'waiting', 'waiting', 'waiting']);

    await command(arbiter, { type: 'arriveAll' });
    await command(arbiter, { type: 'startAll' });
    const playing = await killAndRestart('playing');
    expect(playing.boards.map((b) => b.status)).toEqual(['running', 'running', 'running', 'running', 'running']);

    // Board 3 drawn at move 1: no agreement under the 30-move rule, a draw the arbiter rules.
    for (const board of ['1', '2', '3', '4', '5'])
      await command(
        arbiter,
        board === '3'
          ? { type: 'result', board, result: '1/2-1/2', termination: 'stalemate', drawBy: 'ruling' }
          : { type: 'result', board, result: '1-0', termination: 'resignation' },
      );
    const confirming = await killAndRestart('results to confirm');
    expect(confirming.boards.map((b) => b.status)).toEqual(['finished', 'finished', 'finished', 'finished', 'finished']);
    expect(confirming.view.rounds.find((r) => r.round === 1)!.games.map((g) => g.source)).toEqual(['clock', 'clock', 'clock', 'clock', 'clock']);

    await command(arbiter, { type: 'confirmRound', section: 'main' });
    const closed = (await killAndRestart('closed')) as unknown as { summary: { sections: { roundsPlayed: number }[] } };
    expect(closed.summary.sections[0]!.roundsPlayed).toBe(1);
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
    arbiter.ws.terminate();
  }, 300_000);
});
