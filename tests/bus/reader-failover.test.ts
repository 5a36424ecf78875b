// An ordered reader (a console's) on a 3-node cluster whose server dies with the reader's consumer on
// it: the client reconnects to another server and asks the servers about the lost consumer until they
// answer, which they never do (it died with its server), with no heartbeat and no word. The reader
// must notice the silence and read on through a new consumer from where it stood: every entry once,
// in order. (Seen in hall-cluster: a console that read nothing for minutes after the stream's leader
// was killed.)
import { afterAll, describe, expect, it } from 'vitest';
import { connectBus, ensureEventStream, eventSubjects, Outbox, startReader, type BusConnection, type StreamReader } from '../../bus/internal.ts';
import { startNatsCluster, type NatsCluster, type NatsNode } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { anyRecord, MemoryJournal } from './memory-journal.ts';

describe('an ordered reader whose server dies with its consumer', () => {
  let cluster: NatsCluster | undefined;
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await cluster?.stop();
  });

  it('reads on through a new consumer from another server: every entry once, in order', async () => {
    cluster = await startNatsCluster();
    const subjects = eventSubjects('failover');
    const admin = await connectBus({ servers: cluster.urls.split(','), pingIntervalMs: 500 });
    cleanup.push(() => admin.close());
    await ensureEventStream(admin, subjects);
    const journal = new MemoryJournal('h1');
    const outbox = new Outbox(admin, subjects.host('h1'), journal, { ownStream: subjects.stream, ackTimeoutMs: 1_000 });
    cleanup.push(async () => outbox.stop());

    const seen: number[] = [];
    const told: string[] = [];
    // A reader connected to one server (the client learns the others from it) whose consumer is on
    // that same server: where the servers put an R1 consumer is theirs to choose, so ask until so.
    let serverName = (await admin.jsm.streams.info(subjects.stream)).cluster?.leader;
    let found: { bus: BusConnection; reader: StreamReader; node: NatsNode } | undefined;
    for (let attempt = 0; attempt < 30 && !found; attempt++) {
      const node = cluster.nodes.find((n) => n.name === serverName) ?? cluster.nodes[attempt % cluster.nodes.length]!;
      const bus = await connectBus({ servers: [node.url], pingIntervalMs: 500 });
      const reader = await startReader(bus, subjects, {
        name: 'console-c1',
        ordered: true,
        after: 0,
        parse: anyRecord,
        onEntry: (e) => seen.push(e.sourceSeq),
        onRetry: (m) => told.push(m),
      });
      const consumers: string[] = [];
      for await (const c of admin.jsm.consumers.list(subjects.stream)) if (c.name.startsWith('console-c1-')) consumers.push(c.cluster?.leader ?? '');
      if (consumers.length === 1 && consumers[0] === node.name && bus.nc.info?.server_name === node.name) found = { bus, reader, node };
      else {
        serverName = consumers[0];
        await reader.stop();
        await bus.close();
        for await (const c of admin.jsm.consumers.list(subjects.stream)) await admin.jsm.consumers.delete(subjects.stream, c.name).catch(() => {});
      }
    }
    expect(found, 'a reader whose connection and consumer are on one server').toBeDefined();
    const { bus, reader, node } = found!;
    cleanup.push(() => bus.close());
    cleanup.push(() => reader.stop());

    for (let i = 1; i <= 100; i++) journal.append({ press: i });
    outbox.notify();
    await until(() => seen.length === 100, 'the first 100', 30_000);

    await node.kill9();
    for (let i = 101; i <= 200; i++) journal.append({ press: i });
    outbox.notify();
    await until(() => seen.length >= 200, `the 100 after its server died (read ${seen.length}; told: ${told.join(' | ')})`, 90_000);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(bus.nc.info?.server_name).not.toBe(node.name);
    expect(told.some((m) => /console-c1: its consumer is (silent|lost)/.test(m))).toBe(true);
  }, 240_000);
});
