// The end of a round at scale: the tournament messages are spaced by what they write to the sockets
// (broadcast.ts), so the results that come while a build's messages "pay" for their bytes go out
// together in the next build, as one patch of the latest state; and the next round's `why` names the
// first boards and counts the rest (all 1,000 named made 25–50 KB of every patch at 1,000 boards).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
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
import { loadEvent, presetJson, type ZeitnotEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand, type Message } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A 24-player Dutch Swiss: round 1 on 12 boards. */
function swissOf24(): ZeitnotEvent {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  const section = json.sections[0]!;
  section.format = { kind: 'swiss', system: 'dutch', rounds: 3 };
  section.players = Array.from({ length: 24 }, (_, i) => ({
    id: i + 1,
    name: `Player ${String(i + 1).padStart(2, '0')}`,
    federation: 'RSA',
    fideRating: 2600 - 10 * i,
  }));
  section.schedule = (section.schedule as unknown[]).slice(0, 3);
  section.playoff = { kind: 'none' };
  section.tiebreaks = ['BH-C1', 'SB', 'PS'];
  return loadEvent(json);
}

/** The inline builder, counting its builds. */
function countedBuilder(): { make: (setup: BuilderSetup) => TournamentBuilder; builds: number } {
  const counted = {
    builds: 0,
    make(setup: BuilderSetup): TournamentBuilder {
      const inner = inlineBuilder(setup);
      return {
        build(request) {
          counted.builds += 1;
          return inner.build(request);
        },
        stop: () => inner.stop(),
      };
    },
  };
  return counted;
}

async function start(server: Parameters<typeof startConsole>[0]['server']): Promise<RunningConsole> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-spacing-'));
  dirs.push(dir);
  const source = manualSource(0);
  const c = await startConsole({ dataDir: dir, port: 0, noPage: true, source, event: swissOf24(), firstRound: true, lateStartMs: 10_000, server });
  c.hall.command({ type: 'arriveAll' }, 'IA');
  c.hall.command({ type: 'startAll' }, 'IA');
  source.advance(10_000); // the scheduled start: the clocks run
  return c;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const current = (): unknown => JSON.parse(JSON.stringify(run!.desk!.view('spectator')));
const result = (board: string, r: '1-0' | '0-1') => run!.hall.command({ type: 'result', board, result: r, termination: 'resignation' }, 'IA');

describe('the tournament messages at the end of a round', () => {
  it('gathers the results that come while the last patch is paid for into one build and one patch of the latest state', async () => {
    const counted = countedBuilder();
    // 2,000 bytes a second: a patch of a few KB to one page holds the next build back for a second or more.
    run = await start({ tournamentIntervalMs: 0, tournamentBytesPerSecond: 2000, tournamentBuilder: counted.make });
    const client = await helloClient(run.url, { role: 'spectator' });
    const first = await client.next((m) => m.type === 'tournament', 'the tournament view');
    // Long after the view went out: the first result is built at once.
    await wait(4000);
    let at = client.messages.length;
    expect(result('1', '1-0')).toMatchObject({ ok: true });
    const one = await client.next((m) => m.type === 'tournamentDelta', 'the first result', at);
    expect(one.from).toBe(first.version);
    const afterOne = applyViewPatch(first.view as TournamentView, one.patch as ViewPatch);
    expect(afterOne).toEqual(current());
    // Its patch, to one page, spaces the next build by at least a fifth of a second.
    expect(JSON.stringify(one).length).toBeGreaterThan(400);
    const builds = counted.builds;
    at = client.messages.length;
    expect(result('2', '0-1')).toMatchObject({ ok: true });
    await wait(100);
    expect(result('3', '1-0')).toMatchObject({ ok: true });
    const two = await client.next((m) => m.type === 'tournamentDelta', 'the next results', at);
    // One build for both, after both: a patch from the first's version to the hall's latest.
    expect(counted.builds).toBe(builds + 1);
    expect(two.from).toBe(one.version);
    expect(two.version).toBe(run.hall.version);
    const afterTwo = applyViewPatch(afterOne, two.patch as ViewPatch);
    expect(afterTwo.rounds[0]!.games.slice(0, 3).map((g) => g.result)).toEqual(['1-0', '0-1', '1-0']);
    expect(afterTwo).toEqual(current());
    expect(client.messages.slice(at).filter((m: Message) => m.type === 'tournamentDelta' || m.type === 'tournament')).toEqual([two]);
  }, 20_000);

  it("holds a build asked for during the last one until that one's bytes are paid for", async () => {
    // The builder's answers wait for the test: a result can come while a build is under way.
    const starts: number[] = [];
    let release: (() => void) | undefined;
    const make = (setup: BuilderSetup): TournamentBuilder => {
      const inner = inlineBuilder(setup);
      return {
        async build(request) {
          starts.push(performance.now());
          const built = await inner.build(request);
          await new Promise<void>((resolve) => (release = resolve));
          return built;
        },
        stop: () => inner.stop(),
      };
    };
    // 200 ms between builds at least; 4,000 bytes a second: a patch of 2,000 bytes or more to one page
    // holds the next build back for half a second or more after it was sent.
    run = await start({ tournamentIntervalMs: 200, tournamentBytesPerSecond: 4000, tournamentBuilder: make });
    const client = await helloClient(run.url, { role: 'spectator' });
    await until(() => release !== undefined, 'the first build');
    release!();
    await client.next((m) => m.type === 'tournament', 'the tournament view');
    await wait(1500);
    release = undefined;
    let at = client.messages.length;
    expect(result('1', '1-0')).toMatchObject({ ok: true });
    await until(() => release !== undefined, "the first result's build");
    // While it is built: another result, whose build is due 200 ms after this one started.
    expect(result('2', '0-1')).toMatchObject({ ok: true });
    await wait(50);
    const one = release!;
    release = undefined;
    one();
    const patch = await client.next((m) => m.type === 'tournamentDelta', 'the first result', at);
    const sentAt = performance.now();
    const owed = (JSON.stringify(patch).length / 4000) * 1000;
    expect(owed).toBeGreaterThan(500);
    await until(() => release !== undefined, "the second result's build");
    expect(starts.at(-1)! - sentAt).toBeGreaterThanOrEqual(owed - 50);
    at = client.messages.length;
    release!();
    const two = await client.next((m) => m.type === 'tournamentDelta', 'the second result', at);
    expect(two.from).toBe(patch.version);
  }, 20_000);

  it("writes a build's messages a few ms a turn, the team's sessions first", async () => {
    // 0 ms a turn: one session a turn.
    run = await start({ tournamentIntervalMs: 0, tournamentMsPerTurn: 0 });
    const spectators = [];
    for (let i = 0; i < 3; i++) {
      spectators.push(await helloClient(run.url, { role: 'spectator' }));
      await spectators[i]!.next((m) => m.type === 'tournament', 'the tournament view');
    }
    const chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    await chief.next((m) => m.type === 'tournament', 'the tournament view');
    const clients = [chief, ...spectators];
    const at = clients.map((c) => c.messages.length);
    // Each tournament message handed to a socket: the turn it was handed out in, and to whom.
    const sends: { turn: number; port: number }[] = [];
    let turn = 0;
    let turnOpen = false;
    const send = WebSocket.prototype.send;
    vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      if (String(data).startsWith('{"type":"tournamentDelta"')) {
        if (!turnOpen) {
          turnOpen = true;
          turn += 1;
          setImmediate(() => (turnOpen = false));
        }
        // The server's socket: its remote port is the client's own.
        sends.push({ turn, port: (this as unknown as { _socket: Socket })._socket.remotePort! });
      }
      return (send as (...a: unknown[]) => void).call(this, data, ...rest);
    });
    expect(result('1', '1-0')).toMatchObject({ ok: true });
    const patches = await Promise.all(clients.map((c, i) => c.next((m) => m.type === 'tournamentDelta', 'the result', at[i])));
    expect(new Set(patches.map((p) => p.version)).size).toBe(1);
    // Four sockets, four turns; the arbiter's first though he said hello last.
    expect(sends.map((s) => s.turn)).toEqual([1, 2, 3, 4]);
    expect(sends[0]!.port).toBe((chief.ws as unknown as { _socket: Socket })._socket.localPort);
  });

  it('names the first ten boards still to confirm and counts the others, in the view and in the refusal to pair', async () => {
    run = await start({});
    const chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    const view = await chief.next((m) => m.type === 'tournament', 'the tournament view');
    const boards = Array.from({ length: 10 }, (_, i) => `board ${i + 1}`).join(', ');
    const missing = `round 1 needs confirmed results: ${boards} and 2 more`;
    expect((view.view as TournamentView).nextRound).toEqual({ round: 2, possible: false, why: missing });
    expect(await sendCommand(chief, { type: 'pairNextRound' })).toMatchObject({ type: 'refused', code: 'results-unconfirmed', reason: missing });
    // Every board's result from the clock: each is still to confirm.
    for (let board = 1; board <= 12; board++) expect(result(String(board), '1-0')).toMatchObject({ ok: true });
    const toConfirm = Array.from({ length: 10 }, (_, i) => `board ${i + 1} (clock result to confirm)`).join(', ');
    expect(await sendCommand(chief, { type: 'pairNextRound' })).toMatchObject({
      type: 'refused',
      code: 'results-unconfirmed',
      reason: `round 1 needs confirmed results: ${toConfirm} and 2 more`,
    });
  });
});
