// A kind of the queue dismissed at once on a console on the bus (bus-console.ts carries dismissKind to
// every hall host, as the round-wide commands): two hall hosts (`zeitnot hall-host`, real processes on
// a real `nats-server -js`), h1 with boards 1-3 and h2 with 4-5, start a round no player has come to;
// the console's queue holds both players of every board as late. Dismissed over the WebSocket: each
// host journals one dismissal an item of its own boards, the console's queue has no late player left,
// and asked again both hosts have nothing to do: refused with that code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { presetEvent } from '../../tournament/index.ts';
import { arbiterCommand } from '../support/hall-processes.ts';
import { runZeitnot, type RoleProcess } from '../support/console-process.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

describe('dismissKind on a console on the bus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-dismiss-kind-bus-'));
  let server: NatsServer | undefined;
  const hosts: RoleProcess[] = [];
  let run: RunningConsole | undefined;
  let client: TestClient | undefined;
  afterAll(async () => {
    client?.ws.close();
    for (const h of hosts) await h.stop();
    await run?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is carried to every hall host, each dismissing its own boards' items", async () => {
    server = await startNats();
    run = await startConsole({
      dataDir: join(dir, 'c1'),
      port: 0,
      noPage: true,
      event: presetEvent('cairns-cup-2019'),
      firstRound: true,
      bus: { bus: { servers: [server.url] }, consoleId: 'c1' },
    });
    for (const [id, boards] of [
      ['h1', '1-3'],
      ['h2', '4-5'],
    ] as const)
      hosts.push(runZeitnot(['hall-host', '--bus', server.url, '--event', 'cairns-cup-2019', '--boards', boards, '--host-id', id, '--data', join(dir, id)]));
    const hall = run.hall;
    const boards = ['1', '2', '3', '4', '5'];
    await until(() => boards.every((b) => hall.hostOf?.(b)?.reachable === true), 'both hosts heard with their boards', 60_000);
    client = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    expect(await arbiterCommand(client, 'start', { type: 'startAll' })).toMatchObject({ type: 'ack' });
    const late = () => hall.attention().filter((a) => a.code === 'late-player');
    await until(() => late().length === 10, 'both players of every board late', 30_000);

    expect(await arbiterCommand(client, 'late', { type: 'dismissKind', kind: 'late' })).toMatchObject({ type: 'ack' });
    await until(() => late().length === 0, 'no late player left in the queue', 30_000);
    const dismissals = [...run.journal.entries()].flatMap((e) =>
      e.record.kind === 'note' && e.record.note.type === 'dismiss' ? [[e.source, e.record.board]] : [],
    );
    expect(dismissals.sort()).toEqual([
      ['h1', '1'],
      ['h1', '1'],
      ['h1', '2'],
      ['h1', '2'],
      ['h1', '3'],
      ['h1', '3'],
      ['h2', '4'],
      ['h2', '4'],
      ['h2', '5'],
      ['h2', '5'],
    ]);
    expect(await arbiterCommand(client, 'again', { type: 'dismissKind', kind: 'late' })).toMatchObject({ type: 'refused', code: 'nothing-to-do' });
  }, 180_000);
});
