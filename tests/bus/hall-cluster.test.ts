// The roles on a 3-node JetStream cluster (the event's stream R3), every role given all three servers
// (`--bus nats://a,nats://b,nats://c`): hall hosts h1 (boards 1-3) and h2 (boards 4-5), console c1 with
// --simulate-event and a second console c2, as processes. Mid-round the stream's leader is SIGKILLed;
// once it is back, the next leader is SIGSTOPped for a while and then let go. Nothing stops: both
// consoles keep reading both hosts' clock events, and arbiters' commands from both consoles are
// acknowledged throughout. Then a hall host that lost its journal is refused (the CLI exits non-zero,
// the stream untouched) and the host started on its own journal resumes. At the end each console has
// every host entry the host published exactly once, in the host's order, and so has the stream.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { connectBus, eventSubjects, type BusConnection } from '../../bus/index.ts';
import { arbiterCommand, HallProcesses, hostJournal, JOURNAL_POLL_MS, sourceSeqs, type BoardRow } from '../support/hall-processes.ts';
import { startNatsCluster, type NatsCluster, type NatsNode } from '../support/nats.ts';
import { until, untilRead } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';
import { storedEntries, storedOrder } from './stream-entries.ts';

const subjects = eventSubjects('cairns-cup-2019');
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** How far a host's outbox says the stream has its entries (its journal's note). */
function publishedOf(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare("SELECT value FROM meta WHERE key = 'note:bus.published'").get() as { value: string } | undefined)?.value ?? 0);
  } finally {
    db.close();
  }
}

describe('hall hosts and consoles on a 3-node JetStream cluster', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-cluster-'));
  const roles = new HallProcesses(dir);
  const clients: TestClient[] = [];
  let cluster: NatsCluster | undefined;
  let watcher: BusConnection | undefined;
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await roles.stop();
    await watcher?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one server SIGKILLed and another SIGSTOPped mid-round: nothing stops, nothing is lost; a host without its journal is refused', async () => {
    cluster = await startNatsCluster();
    const bus = cluster.urls;
    expect(bus.split(',')).toHaveLength(3);
    const h1 = roles.host('h1', '1-3', bus);
    let h2 = roles.host('h2', '4-5', bus);
    const c1 = await roles.console('c1', bus, ['--simulate-event']);
    await roles.waitBoards(c1.url, "both hosts' boards playing", (b) => b.length === 5 && b.every((x) => x.host?.reachable && x.status === 'running'), 90_000);
    const c2 = await roles.console('c2', bus);
    await roles.waitBoards(c2.url, 'c2 with every board', (b) => b.length === 5 && b.every((x) => x.host?.reachable), 90_000);

    watcher = await connectBus({ servers: bus.split(',') });
    const info = await watcher.jsm.streams.info(subjects.stream);
    expect(info.config.num_replicas).toBe(3);

    const a1 = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'A1' });
    const a2 = await helloClient(c2.url, { role: 'arbiter', token: c2.token, name: 'A2' });
    clients.push(a1, a2);
    const acknowledged: { host: string; board: string }[] = [];
    // A pause and a resume of a running board of `host`, from one console: both acknowledged.
    const pauseAndResume = async (client: TestClient, url: string, host: string, tag: string): Promise<void> => {
      const boards = await roles.waitBoards(
        url,
        `a running board of ${host} (${tag})`,
        (b) => b.some((x) => x.host?.id === host && x.host.reachable && x.status === 'running'),
        90_000,
      );
      const board = boards.find((x: BoardRow) => x.host?.id === host && x.status === 'running')!.id;
      const paused = await arbiterCommand(client, `${tag}-pause`, { type: 'pause', board, reason: tag });
      expect(paused, `${tag}: pause of board ${board}`).toMatchObject({ type: 'ack' });
      const resumed = await arbiterCommand(client, `${tag}-resume`, { type: 'resume', board });
      expect(resumed, `${tag}: resume of board ${board}`).toMatchObject({ type: 'ack' });
      acknowledged.push({ host, board }, { host, board });
    };
    const hostCount = (consoleId: string, host: string): number => (sourceSeqs(roles.journalOf(consoleId)).get(host) ?? []).length;
    // Both consoles read both hosts' new clock events: the hall goes on.
    const goesOn = async (what: string): Promise<void> => {
      const before = ['c1', 'c2'].flatMap((c) => ['h1', 'h2'].map((h) => ({ c, h, n: hostCount(c, h) })));
      await until(() => before.every(({ c, h, n }) => hostCount(c, h) >= n + 10), `both consoles reading both hosts ${what}`, 120_000, JOURNAL_POLL_MS).catch(
        (err: Error) => {
          throw new Error(`${err.message}: ${JSON.stringify(before)}\n${roles.outputs()}`);
        },
      );
    };
    await pauseAndResume(a1, c1.url, 'h1', 'before');

    // The stream's leader dies (kill -9) mid-round.
    const leaderNamed = async (): Promise<NatsNode> => {
      const name = (await watcher!.jsm.streams.info(subjects.stream)).cluster?.leader;
      const node = cluster!.nodes.find((n) => n.name === name);
      if (!node) throw new Error(`no stream leader (${name})`);
      return node;
    };
    const first = await leaderNamed();
    await first.kill9();
    await goesOn('with one server dead');
    await pauseAndResume(a1, c1.url, 'h2', 'one-dead-c1');
    await pauseAndResume(a2, c2.url, 'h1', 'one-dead-c2');

    // It comes back on its store; later the stream's new leader hangs (SIGSTOP) and is let go.
    await first.restart();
    await cluster.waitForLeader(90_000);
    await untilRead(
      async () => ((await watcher!.jsm.streams.info(subjects.stream)).cluster?.replicas ?? []).filter((r) => r.current).length === 2,
      (current) => current,
      'the restarted server current again',
      90_000,
      250,
    );
    const second = await leaderNamed();
    second.freeze();
    try {
      await goesOn('with one server hung');
      await pauseAndResume(a2, c2.url, 'h2', 'one-hung-c2');
      await pauseAndResume(a1, c1.url, 'h1', 'one-hung-c1');
    } finally {
      second.thaw();
    }
    await goesOn('with the hung server back');

    // A host that lost its journal (an empty data directory, the same --host-id) is refused, and the
    // stream keeps what it had; started on its own journal, it resumes where it stood.
    await h2.stop();
    const h2File = roles.journalOf('h2');
    const h2Published = publishedOf(h2File);
    // Each host's entries as the stream holds them, message by message (a message may hold several).
    const onStream = async (): Promise<Record<string, number[]>> => {
      const stored = await storedEntries(watcher!, subjects.stream);
      return { h1: storedOrder(stored, 'h1'), h2: storedOrder(stored, 'h2') };
    };
    const streamBefore = await onStream();
    // (An entry stored as the host stopped may not have had its acknowledgement: it is not republished twice.)
    const h2OnStream = streamBefore.h2!.length;
    expect(h2OnStream).toBeGreaterThanOrEqual(h2Published);
    const lost = roles.host('h2', '4-5', bus, [], join(dir, 'h2-new-machine'));
    const code = await lost.exited;
    expect(code).not.toBe(0);
    expect(lost.out()).toMatch(
      new RegExp(`the stream has ${h2OnStream} entries of hall host h2 and \\S+ only 0: start h2 on its own data directory, or give this host a new --host-id`),
    );
    expect((await onStream()).h2).toEqual(range(h2OnStream));
    const h2Last = hostJournal(h2File, 'h2').last;
    h2 = roles.host('h2', '4-5', bus);
    await until(() => hostJournal(h2File, 'h2').last > h2Last + 5, 'h2 journaling again on its journal', 90_000, JOURNAL_POLL_MS);
    await roles.waitBoards(c2.url, "h2's boards back", (b) => b.filter((x) => x.host?.id === 'h2').every((x) => x.host?.reachable), 60_000);
    await goesOn('after h2 resumed');

    // Every entry exactly once, in host order: in the stream and in each console's journal.
    await Promise.all([h1.stop(), h2.stop()]);
    const hosts = [
      ['h1', roles.journalOf('h1')],
      ['h2', h2File],
    ] as const;
    const stream = await onStream();
    for (const [h, file] of hosts) {
      // Stored once each: the stream holds the host's entries 1..n, n between what the host had
      // acknowledged and what it had journaled when it stopped.
      const published = stream[h]!.length;
      expect(stream[h]).toEqual(range(published));
      expect(published).toBeGreaterThan(30);
      expect(published).toBeGreaterThanOrEqual(publishedOf(file));
      expect(published).toBeLessThanOrEqual(hostJournal(file, h).last);
      for (const c of ['c1', 'c2']) {
        await until(() => hostCount(c, h) >= published, `${c} has all of ${h}`, 60_000, JOURNAL_POLL_MS);
        expect(sourceSeqs(roles.journalOf(c)).get(h)!.slice(0, published), `${c}: ${h} in order`).toEqual(range(published));
        const seqs = sourceSeqs(roles.journalOf(c)).get(h)!;
        expect(new Set(seqs).size, `${c}: ${h} once each`).toBe(seqs.length);
      }
    }
    // Every acknowledged command is in its host's journal and in both consoles', as often.
    for (const { host, board } of acknowledged) {
      const file = host === 'h1' ? roles.journalOf('h1') : h2File;
      const count = (f: string): number => hostJournal(f, host, board).events.filter((t) => t === 'pause' || t === 'resume').length;
      expect(count(file)).toBeGreaterThanOrEqual(acknowledged.filter((a) => a.host === host && a.board === board).length);
      expect(count(roles.journalOf('c1'))).toBe(count(file));
      expect(count(roles.journalOf('c2'))).toBe(count(file));
    }
  }, 600_000);
});
