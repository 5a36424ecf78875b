// What an arbiter is told of a command sent to a hall host is what became of it (docs/hall.md, "What a
// command's answer means"), on a 3-node JetStream cluster with hall hosts h1 (boards 1-3) and h2
// (boards 4-5) and console c1 (--simulate-event) as processes; h2 is frozen (SIGSTOP) and let go
// (SIGCONT) as a hung machine would be:
// - pauseAll with h2 frozen: carried out on h1, unknown on h2 (the queue shows it), then, h2 let go
//   after the deadline, "not carried out" on h2 (`deadline-passed`): h2's clocks were never paused;
// - +120 s for a board of h2 frozen across the deadline: "unknown", a retry refused while it is
//   unknown, then "not carried out"; h2 never journals it;
// - +120 s for a board of h2 frozen and let go before the deadline: carried out;
// - one command id sent to h2 twice, and again after h2 is restarted on its journal: the first
//   outcome each time, one +120,000 ms entry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ask, connectBus, eventSubjects, type BusConnection } from '../../bus/index.ts';
import type { RoleProcess } from '../support/console-process.ts';
import { arbiterCommand, HallProcesses, type BoardRow } from '../support/hall-processes.ts';
import { startNatsCluster, type NatsCluster } from '../support/nats.ts';
import { until, untilRead } from '../support/wait.ts';
import { helloClient, type Message, type TestClient } from '../support/ws-client.ts';

const subjects = eventSubjects('cairns-cup-2019');
const H1 = ['1', '2', '3'];
const H2 = ['4', '5'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Attention = { id: string; board: string; code: string; message: string };

/** A host journal's clock events of `type` on `board` (its own entries). */
function clockEvents(file: string, host: string, board: string, type: string): { ms?: number; reason?: string }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT body FROM entries WHERE source = ? AND board = ? AND kind = 'clock' ORDER BY seq").all(host, board) as { body: string }[])
      .map((r) => (JSON.parse(r.body) as { event: { type: string; ms?: number; reason?: string } }).event)
      .filter((e) => e.type === type);
  } finally {
    db.close();
  }
}

/** The answers to command `id` so far (an `outcome-unknown` one is followed by a second). */
const answersTo = (client: TestClient, id: string): Message[] => client.messages.filter((m) => (m.type === 'ack' || m.type === 'refused') && m.id === id);

describe('command outcomes across a frozen hall host', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-command-outcomes-'));
  const roles = new HallProcesses(dir);
  const clients: TestClient[] = [];
  let cluster: NatsCluster | undefined;
  let watcher: BusConnection | undefined;
  let frozen: RoleProcess | undefined;
  afterAll(async () => {
    frozen?.child.kill('SIGCONT');
    for (const c of clients) c.ws.close();
    await roles.stop();
    await watcher?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says carried out, not carried out or unknown, and unknown turns into what the host did', async () => {
    cluster = await startNatsCluster();
    const bus = cluster.urls;
    roles.host('h1', '1-3', bus);
    let h2 = roles.host('h2', '4-5', bus);
    const c1 = await roles.console('c1', bus, ['--simulate-event']);
    const playing = (b: BoardRow[]) => b.length === 5 && b.every((x) => x.host?.reachable && x.status === 'running');
    await roles.waitBoards(c1.url, "both hosts' boards playing", playing, 120_000);
    const arbiter = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'IA Chief' });
    clients.push(arbiter);
    const h2File = roles.journalOf('h2');
    const freeze = (p: RoleProcess): void => {
      frozen = p;
      p.child.kill('SIGSTOP');
    };
    const thaw = (p: RoleProcess): void => {
      p.child.kill('SIGCONT');
      frozen = undefined;
    };
    const queue = async (): Promise<Attention[]> => ((await (await fetch(`${c1.url}/api/boards`)).json()) as { attention: Attention[] }).attention;
    const pendingInQueue = async (what: string, present: boolean): Promise<Attention[]> =>
      untilRead(
        queue,
        (q) => q.some((a) => a.code === 'command-pending') === present,
        `${what}: the queue ${present ? 'showing' : 'without'} a pending command`,
        60_000,
        100,
      );
    const secondAnswer = async (id: string): Promise<Message> => {
      await until(() => answersTo(arbiter, id).length >= 2, `the second answer to ${id}`, 90_000, 50).catch((err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(answersTo(arbiter, id))}\n${roles.outputs()}`);
      });
      return answersTo(arbiter, id)[1]!;
    };

    // pauseAll with h2 frozen past the deadline: per host, h1 carried out, h2 unknown, then not carried out.
    const h2PausesBefore = H2.map((b) => clockEvents(h2File, 'h2', b, 'pause').length);
    freeze(h2);
    const paused = await arbiterCommand(arbiter, 'all-1', { type: 'pauseAll', reason: 'fire alarm' }, 60_000);
    expect(paused).toMatchObject({
      type: 'refused',
      code: 'outcome-unknown',
      hosts: [
        { host: 'h1', outcome: 'carried-out' },
        { host: 'h2', outcome: 'unknown', code: 'outcome-unknown' },
      ],
    });
    expect((await pendingInQueue('pauseAll', true)).find((a) => a.code === 'command-pending')).toMatchObject({ board: '4' });
    await roles.waitBoards(c1.url, "h1's boards paused", (b) => b.filter((x) => H1.includes(x.id)).every((x) => x.status === 'paused'));
    thaw(h2);
    expect(await secondAnswer('all-1')).toMatchObject({
      type: 'refused',
      code: 'partly-carried-out',
      hosts: [
        { host: 'h1', outcome: 'carried-out' },
        { host: 'h2', outcome: 'not-carried-out', code: 'deadline-passed' },
      ],
    });
    await pendingInQueue('pauseAll answered', false);
    await roles.waitBoards(c1.url, "h2's boards heard again", (b) => b.filter((x) => H2.includes(x.id)).every((x) => x.host?.reachable));
    await sleep(1_000);
    expect(H2.map((b) => clockEvents(h2File, 'h2', b, 'pause').length)).toEqual(h2PausesBefore);
    expect((await roles.boards(c1.url)).filter((x) => H2.includes(x.id)).map((x) => x.status)).toEqual(['running', 'running']);

    // +120 s on board 4 with h2 frozen across the deadline: unknown, a retry refused meanwhile, then not carried out.
    const addTime = { type: 'addTime', board: '4', side: 'white', ms: 120_000, reason: 'disturbed by a phone' };
    freeze(h2);
    expect(await arbiterCommand(arbiter, 'add-1', addTime, 60_000)).toMatchObject({ type: 'refused', code: 'outcome-unknown' });
    await pendingInQueue('the +120 s', true);
    expect(await arbiterCommand(arbiter, 'add-1-retry', addTime, 60_000)).toMatchObject({ type: 'refused', code: 'outcome-pending' });
    await sleep(2_000);
    thaw(h2);
    expect(await secondAnswer('add-1')).toMatchObject({ type: 'refused', code: 'deadline-passed' });
    await pendingInQueue('the +120 s answered', false);
    await sleep(1_000);
    expect(clockEvents(h2File, 'h2', '4', 'addTime')).toEqual([]);

    // +120 s on board 5 with h2 frozen and let go before the deadline (5 s): carried out.
    await roles.waitBoards(c1.url, "h2's boards heard again", (b) => b.filter((x) => H2.includes(x.id)).every((x) => x.host?.reachable));
    freeze(h2);
    const sent = arbiterCommand(arbiter, 'add-2', { ...addTime, board: '5' }, 60_000);
    await sleep(1_000);
    thaw(h2);
    expect(await sent).toMatchObject({ type: 'ack' });
    expect(answersTo(arbiter, 'add-2')).toHaveLength(1);
    expect(clockEvents(h2File, 'h2', '5', 'addTime').map((e) => e.ms)).toEqual([120_000]);

    // One id twice, and once more after h2 restarts on its journal: the first outcome, one entry.
    watcher = await connectBus({ servers: bus.split(',') });
    const request = {
      id: 'retried-1',
      deadline: Date.now() + 5_000,
      command: { ...addTime, board: '4', reason: 'retried' },
      arbiter: 'IA Chief',
    };
    const first = await ask(watcher.nc, subjects.command('h2'), request, 5_000);
    expect(first).toMatchObject({ ok: true, value: { ok: true } });
    expect(await ask(watcher.nc, subjects.command('h2'), request, 5_000)).toEqual(first);
    await h2.stop();
    h2 = roles.host('h2', '4-5', bus);
    await roles.waitBoards(c1.url, 'h2 back after its restart', (b) => b.filter((x) => H2.includes(x.id)).every((x) => x.host?.reachable), 90_000);
    const again = await untilRead(
      () => ask(watcher!.nc, subjects.command('h2'), request, 2_000),
      (r) => r.ok,
      'h2 answering after its restart',
      60_000,
      250,
    );
    expect(again).toEqual(first);
    expect(clockEvents(h2File, 'h2', '4', 'addTime').map((e) => [e.ms, e.reason])).toEqual([[120_000, 'retried']]);
    // Its outcome asked for, as a console does: the same.
    expect(await ask(watcher.nc, subjects.command('h2'), { outcomeOf: 'retried-1', deadline: request.deadline }, 5_000)).toEqual(first);
  }, 600_000);
});
