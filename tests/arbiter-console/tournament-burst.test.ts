// The end of a round: results rebuild the tournament view (in a 2,000-player section, crosstable,
// tie-breaks and prizes take 200-900 ms) off the clocks' event loop. With a build held in progress
// (an injected builder that waits for the test), a press still reaches the clients; the pages get the
// result as a delta when the build is done. The real worker thread's messages are the desk's views.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyViewPatch,
  inlineBuilder,
  manualSource,
  startConsole,
  type BuilderSetup,
  type RunningConsole,
  type TournamentBuilder,
  type TournamentView,
  type ViewPatch,
} from '../../arbiter-console/internal.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';
import { helloClient, type Message } from '../support/ws-client.ts';

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The inline builder, with builds that wait for `release()` once `hold()` was called. */
function heldBuilder(): { make: (setup: BuilderSetup) => TournamentBuilder; hold(): void; release(): void; started: number; finished: number } {
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const held = {
    started: 0,
    finished: 0,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      open?.();
      gate = undefined;
    },
    make(setup: BuilderSetup): TournamentBuilder {
      const inner = inlineBuilder(setup);
      return {
        async build(request) {
          held.started += 1;
          await gate;
          const built = await inner.build(request);
          held.finished += 1;
          return built;
        },
        stop: () => inner.stop(),
      };
    },
  };
  return held;
}

async function start(options: Parameters<typeof startConsole>[0]['server'] = {}): Promise<RunningConsole> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-burst-'));
  dirs.push(dir);
  const event = smallRoundRobin();
  const source = manualSource(0);
  const c = await startConsole({
    dataDir: dir,
    port: 0,
    noPage: true,
    source,
    event,
    firstRound: true,
    lateStartMs: 10_000,
    server: { tournamentIntervalMs: 0, ...options },
  });
  c.hall.command({ type: 'arriveAll' }, 'IA');
  c.hall.command({ type: 'startAll' }, 'IA');
  source.advance(10_000); // the scheduled start: the clocks run
  return c;
}

/** The build of a change starts a turn of the event loop after it (broadcast.ts), never in the change's own turn. */
const aTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

const presses = (m: Message, board: string): number | undefined => {
  const b = (m.boards as { id: string; presses: { white: number; black: number } }[] | undefined)?.find((x) => x.id === board);
  return b && b.presses.white + b.presses.black;
};

describe('the end of a round', () => {
  it('delivers a press while a tournament build is in progress, and the result as a delta after it', async () => {
    const held = heldBuilder();
    run = await start({ tournamentBuilder: held.make });
    const hall = run.hall;
    const client = await helloClient(run.url, { role: 'spectator' });
    const first = await client.next((m) => m.type === 'tournament', 'the tournament view');
    held.hold();
    const startedBefore = held.started;
    const at = client.messages.length;
    expect(hall.command({ type: 'result', board: '1', result: '1-0', termination: 'resignation' }, 'IA')).toMatchObject({ ok: true });
    await aTurn();
    // The build began (the desk's parts were taken) and waits; the clocks go on.
    expect(held.started).toBe(startedBefore + 1);
    hall.record({
      kind: 'clock',
      board: '2',
      event: { type: 'press', side: hall.boards.get('2')!.state.toMove, at: hall.source.now(), by: { kind: 'device', deviceId: 'test' } },
    });
    const delta = await client.next((m) => m.type === 'delta' && presses(m, '2') === 1, 'the press on board 2', at);
    expect(held.finished).toBe(held.started - 1);
    expect(client.messages.slice(at).some((m) => m.type === 'tournamentDelta' || m.type === 'tournament')).toBe(false);
    expect(delta.boards).toEqual(expect.arrayContaining([expect.objectContaining({ id: '2' })]));
    held.release();
    const patch = await client.next((m) => m.type === 'tournamentDelta', 'the result in the tournament view', at);
    const after = applyViewPatch(first.view as TournamentView, patch.patch as ViewPatch);
    expect(after.rounds[0]!.games[0]).toMatchObject({ result: '1-0', source: 'clock' });
    expect(after).toEqual(JSON.parse(JSON.stringify(run.desk!.view('spectator'))));
  });

  it('coalesces the results that come during a build into one build after it, of the latest state', async () => {
    const held = heldBuilder();
    run = await start({ tournamentBuilder: held.make });
    const client = await helloClient(run.url, { role: 'spectator' });
    await client.next((m) => m.type === 'tournament', 'the tournament view');
    held.hold();
    const before = held.started;
    run.hall.command({ type: 'result', board: '1', result: '1-0', termination: 'resignation' }, 'IA');
    await aTurn();
    run.hall.command({ type: 'result', board: '2', result: '0-1', termination: 'resignation' }, 'IA');
    expect(held.started).toBe(before + 1);
    const at = client.messages.length;
    held.release();
    await client.next(
      (m) => m.type === 'tournamentDelta' && ((m.patch as unknown[]) ?? []).length > 0 && held.started === before + 2 && held.finished === held.started,
      'the second build',
      at,
    );
    await new Promise((r) => setTimeout(r, 50));
    const seen = client.messages.filter((m) => m.type === 'tournamentDelta');
    expect(seen.at(-1)!.version).toBe(run.hall.version);
  });

  it("the worker thread's messages are the desk's views: whole at hello, then patches", async () => {
    run = await start();
    const client = await helloClient(run.url, { role: 'spectator' });
    const first = await client.next((m) => m.type === 'tournament', 'the tournament view');
    expect(first.view).toEqual(JSON.parse(JSON.stringify(run.desk!.view('spectator'))));
    const at = client.messages.length;
    // A draw at move 1 is no agreement under the 30-move rule: a repetition the arbiter upholds.
    run.hall.command({ type: 'result', board: '1', result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' }, 'IA');
    const patch = await client.next((m) => m.type === 'tournamentDelta', 'the result', at);
    expect(patch.from).toBe(first.version);
    expect(applyViewPatch(first.view as TournamentView, patch.patch as ViewPatch)).toEqual(JSON.parse(JSON.stringify(run.desk!.view('spectator'))));
  });
});
