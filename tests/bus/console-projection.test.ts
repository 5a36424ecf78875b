// A console on the bus keeps no board's time: it runs no game-clock actor for the boards its hall host
// owns, sets no timer for them, and journals nothing of its own about them. Each board is the fold of
// its host's journaled clock events. Here the host (`zeitnot hall-host`, a real process on a real
// `nats-server -js`) is frozen (SIGSTOP) before a flag falls on one of its boards: while it is frozen
// the console shows the board as the host last reported it (running, no flag), with no timer set and
// no entry journaled of its own; once the host is thawed its flag entry comes and the console shows it,
// at the host's instant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gameSystemId, realClock, startConsole, type HallClock, type RunningConsole } from '../../arbiter-console/internal.ts';
import { presetEvent } from '../../tournament/index.ts';
import { arbiterCommand } from '../support/hall-processes.ts';
import { runZeitnot, type RoleProcess } from '../support/console-process.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

/** The console's clock, counting the timers its actor system sets. */
function countingClock(): HallClock & { timers: number } {
  const inner = realClock(0, 1);
  const clock = {
    timers: 0,
    scale: inner.scale,
    now: () => inner.now(),
    setTimeout(callback: () => void, ms: number): unknown {
      clock.timers += 1;
      return inner.setTimeout(callback, ms);
    },
    clearTimeout: (id: unknown) => inner.clearTimeout(id),
  };
  return clock;
}

describe("a console on the bus projects its hosts' boards", () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-projection-'));
  let server: NatsServer | undefined;
  let host: RoleProcess | undefined;
  let run: RunningConsole | undefined;
  let client: TestClient | undefined;
  afterAll(async () => {
    client?.ws.close();
    if (host?.child.pid !== undefined && host.child.exitCode === null) process.kill(host.child.pid, 'SIGCONT');
    await host?.stop();
    await run?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs no clock of its own while the host is frozen past a flag, and shows the flag when the host journals it', async () => {
    server = await startNats();
    const event = presetEvent('cairns-cup-2019');
    const section = event.sections[0]!.id;
    const clock = countingClock();
    run = await startConsole({
      dataDir: join(dir, 'c1'),
      port: 0,
      noPage: true,
      event,
      firstRound: true,
      source: clock,
      bus: { bus: { servers: [server.url] }, consoleId: 'c1' },
    });
    host = runZeitnot(['hall-host', '--bus', server.url, '--event', 'cairns-cup-2019', '--boards', '1-5', '--host-id', 'h1', '--data', join(dir, 'h1')]);
    const hall = run.hall;
    const boards = ['1', '2', '3', '4', '5'];
    await until(() => boards.every((b) => hall.hostOf?.(b)?.reachable === true), 'h1 heard with its five boards', 60_000);
    // No game-clock actor on the console, for any board of the round.
    for (const b of boards) expect(hall.system.get(gameSystemId(section, 1, b)), b).toBeUndefined();

    client = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    expect(await arbiterCommand(client, 'arrive', { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await arbiterCommand(client, 'start', { type: 'startAll' })).toMatchObject({ type: 'ack' });
    await until(() => boards.every((b) => hall.view(b)!.status === 'running'), 'every clock started by h1', 30_000);
    expect(await arbiterCommand(client, 'set', { type: 'setTime', board: '1', side: 'white', ms: 3_000, reason: 'test' })).toMatchObject({ type: 'ack' });
    const set = hall.view('1')!;
    expect(set).toMatchObject({ status: 'running', toMove: 'white', remainingMs: { white: 3_000 } });
    const flagAt = set.asOf + 3_000;
    const own = run.journal.lastOwn();

    // Frozen before its flag falls: nothing about board 1 reaches the console.
    process.kill(host.child.pid!, 'SIGSTOP');
    const timersBefore = clock.timers;
    await until(() => clock.now() >= flagAt + 2_000, 'two seconds past the flag', 30_000);
    expect(clock.timers - timersBefore).toBe(0);
    expect(run.journal.lastOwn()).toBe(own);
    // The board as the host last journaled it: no flag, its running clock read from its last event.
    expect(hall.view('1')).toMatchObject({ status: 'running', toMove: 'white', remainingMs: { white: 3_000 }, asOf: set.asOf, version: set.version });
    expect(hall.view('1')!.flag).toBeUndefined();
    const board = hall.boards.get('1')!;
    expect(board.remainingAt(flagAt - 1_000).white).toBe(1_000);
    expect(board.remainingAt(clock.now()).white).toBe(0);
    await until(() => hall.hostOf?.('1')?.reachable === false, 'h1 unreachable', 10_000);
    expect(hall.attention().filter((a) => a.board === '1')).toEqual([]);

    // Thawed: the host's timer journals the flag at its instant, and the console shows it from that entry.
    process.kill(host.child.pid!, 'SIGCONT');
    await until(() => hall.view('1')!.flag !== undefined, "h1's flag on the console", 30_000);
    expect(hall.view('1')!.flag).toEqual({ side: 'white', at: flagAt });
    const flags = [...run.journal.entriesOf('1')].filter((e) => e.record.kind === 'clock' && e.record.event.type === 'flag');
    expect(flags.map((e) => [e.source, e.record.kind === 'clock' ? e.record.event.at : undefined])).toEqual([['h1', flagAt]]);
    // Every clock event and note on the console is its host's.
    const mine = [...run.journal.entries()].filter((e) => (e.record.kind === 'clock' || e.record.kind === 'note') && e.source !== 'h1');
    expect(mine).toEqual([]);
    expect(run.journal.lastOwn()).toBe(own);
  });
});
