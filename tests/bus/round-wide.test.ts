// A round-wide command on the bus goes to every hall host that runs a board of the round, and the
// console decides its outcome on the hosts' refusal codes (bus-console.ts), never on their words:
// hall hosts h1 (boards 1-3) and h2 (boards 4-5, through a socat relay that can cut it off) and a
// console c1 as processes on one nats-server. So:
// - every host carries it out: acknowledged;
// - every host has nothing to do (`nothing-to-do`): refused with that code;
// - one host has nothing to do, the other carries it out: acknowledged;
// - one host carries it out, the other is cut off (the server has dropped its connection, so the request
//   reaches no one): `partly-carried-out`, each host's outcome given (h2's `host-unreachable`).
//   (A host frozen while the request reaches it, an unknown outcome: command-outcomes.test.ts.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { arbiterCommand as command, HallProcesses, type BoardRow } from '../support/hall-processes.ts';
import { startLink, startNats, untilClientGone, type Link, type NatsServer } from '../support/nats.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

const statusOf = (boards: readonly BoardRow[], ids: readonly string[]): string[] => ids.map((id) => boards.find((b) => b.id === id)?.status ?? 'missing');
const H1 = ['1', '2', '3'];
const H2 = ['4', '5'];

describe('round-wide commands across hall hosts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-round-wide-'));
  const roles = new HallProcesses(dir);
  const clients: TestClient[] = [];
  let server: NatsServer | undefined;
  let link: Link | undefined;
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await roles.stop();
    await link?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are acknowledged or refused on the hosts' refusal codes", async () => {
    server = await startNats();
    link = await startLink(server.port);
    roles.host('h1', '1-3', server.url);
    roles.host('h2', '4-5', link.url);
    const c1 = await roles.console('c1', server.url, ['--simulate-event']);
    const every = [...H1, ...H2];
    await roles.waitBoards(c1.url, "both hosts' boards playing", (b) => b.length === 5 && b.every((x) => x.host?.reachable && x.status === 'running'));
    const arbiter = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'IA Chief' });
    clients.push(arbiter);

    expect(await command(arbiter, 'all1', { type: 'pauseAll', reason: 'fire alarm' })).toMatchObject({ type: 'ack' });
    await roles.waitBoards(c1.url, 'every board paused', (b) => statusOf(b, every).every((s) => s === 'paused'));

    // Both hosts: "no clock is running".
    expect(await command(arbiter, 'all2', { type: 'pauseAll', reason: 'again' })).toMatchObject({ type: 'refused', code: 'nothing-to-do' });

    // h1 has nothing to pause, h2 has: carried out.
    for (const board of H2) expect(await command(arbiter, `r${board}`, { type: 'resume', board })).toMatchObject({ type: 'ack' });
    await roles.waitBoards(c1.url, "h2's boards running", (b) => statusOf(b, H2).every((s) => s === 'running'));
    expect(await command(arbiter, 'all3', { type: 'pauseAll', reason: 'noise in the hall' })).toMatchObject({ type: 'ack' });
    await roles.waitBoards(c1.url, "h2's boards paused again", (b) => statusOf(b, H2).every((s) => s === 'paused'));

    // h2 cut off: h1 resumes its boards, h2 cannot be asked: refused as unreachable.
    link.freeze();
    await roles.waitBoards(c1.url, "h2's boards unreachable", (b) => b.filter((x) => x.host?.id === 'h2').every((x) => x.host?.reachable === false), 30_000);
    await untilClientGone(server, 'zeitnot hall host h2');
    const resumed = await command(arbiter, 'all4', { type: 'resumeAll' }, 60_000);
    expect(resumed).toMatchObject({
      type: 'refused',
      code: 'partly-carried-out',
      hosts: [
        { host: 'h1', outcome: 'carried-out' },
        { host: 'h2', outcome: 'not-carried-out', code: 'host-unreachable', reason: expect.stringContaining('hall host h2 is unreachable') },
      ],
    });
    await roles.waitBoards(c1.url, "h1's boards running", (b) => statusOf(b, H1).every((s) => s === 'running'));
    link.thaw();
  }, 300_000);
});
