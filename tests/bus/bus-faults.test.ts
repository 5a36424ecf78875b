// The bus layer's faults with real processes: a host's link frozen (SIGSTOP on its relay) while it
// journals, then thawed: the backlog arrives exactly once, in order. One server of a three-node cluster
// killed (SIGKILL) or frozen (SIGSTOP) while entries flow: the R3 stream loses nothing and the reader
// goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { connectBus, ensureEventStream, eventSubjects, Outbox, startReader, type BusConnection } from '../../bus/index.ts';
import { startLink, startNats, startNatsCluster, type Link, type NatsCluster, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { anyRecord, MemoryJournal } from './memory-journal.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
});

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('bus faults', () => {
  it('a host whose link is frozen keeps journaling; its backlog arrives exactly once when the link is back', async () => {
    const server: NatsServer = await startNats();
    cleanup.push(() => server.close());
    const link: Link = await startLink(server.port);
    cleanup.push(() => link.stop());
    const subjects = eventSubjects('partition');
    const consoleBus = await connectBus({ servers: [server.url] });
    cleanup.push(() => consoleBus.close());
    await ensureEventStream(consoleBus, subjects);
    const hostBus: BusConnection = await connectBus({ servers: [link.url], pingIntervalMs: 500 });
    cleanup.push(() => hostBus.close());
    const journal = new MemoryJournal('h1');
    const outbox = new Outbox(hostBus, subjects.host('h1'), journal, { ackTimeoutMs: 500 });
    cleanup.push(async () => outbox.stop());
    const seen: number[] = [];
    const reader = await startReader(consoleBus, subjects, { name: 'console-c1', after: 0, parse: anyRecord, onEntry: (e) => seen.push(e.sourceSeq) });
    cleanup.push(() => reader.stop());

    for (let i = 1; i <= 50; i++) journal.append({ press: i });
    outbox.notify();
    await until(() => seen.length === 50, 'the first 50 entries');
    link.freeze();
    // Journaled while the link is silent: some attempts hang and time out, none is lost.
    for (let i = 51; i <= 1050; i++) {
      journal.append({ press: i });
      if (i % 100 === 0) {
        outbox.notify();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await until(() => !hostBus.connected(), 'the host to see its link is gone', 10_000);
    expect(outbox.state.backlog).toBeGreaterThanOrEqual(1000);
    expect(seen.length).toBe(50);
    link.thaw();
    await until(() => seen.length >= 1050, 'the backlog', 20_000);
    await outbox.whenPublished(1050);
    // A little longer: a late duplicate would show here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual(range(1, 1050));
  }, 60_000);

  it('one server of three dies (SIGKILL) or hangs (SIGSTOP) mid-flow: nothing stops, nothing is lost', async () => {
    const cluster: NatsCluster = await startNatsCluster();
    cleanup.push(() => cluster.stop());
    const subjects = eventSubjects('r3');
    const bus = await connectBus({ servers: cluster.urls.split(','), pingIntervalMs: 500 });
    cleanup.push(() => bus.close());
    const info = await ensureEventStream(bus, subjects);
    expect(info.config.num_replicas).toBe(3);
    const journal = new MemoryJournal('h1');
    const outbox = new Outbox(bus, subjects.host('h1'), journal, { ackTimeoutMs: 1_000 });
    cleanup.push(async () => outbox.stop());
    const seen: number[] = [];
    const reader = await startReader(bus, subjects, { name: 'console-c1', after: 0, parse: anyRecord, onEntry: (e) => seen.push(e.sourceSeq) });
    cleanup.push(() => reader.stop());
    const explain = (e: Error): never => {
      throw new Error(`${e.message}: ${seen.length} read, outbox ${JSON.stringify(outbox.state)}, on ${bus.nc.getServer()}`);
    };
    const write = async (from: number, to: number): Promise<void> => {
      for (let i = from; i <= to; i++) {
        journal.append({ press: i });
        if (i % 50 === 0) {
          outbox.notify();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      outbox.notify();
    };
    await write(1, 300);
    // The stream's leader is the worst one to lose.
    const leaderName = (await bus.jsm.streams.info(subjects.stream)).cluster?.leader;
    const leader = cluster.nodes.find((n) => n.name === leaderName) ?? cluster.nodes[0]!;
    await Promise.all([write(301, 900), leader.kill9()]);
    await until(() => seen.length >= 900, 'every entry after the kill', 30_000).catch(explain);
    // The dead server comes back and catches up from the others; then the new leader hangs.
    await leader.restart();
    await cluster.waitForLeader();
    const nowLeader = (await bus.jsm.streams.info(subjects.stream)).cluster?.leader;
    const frozen = cluster.nodes.find((n) => n.name === nowLeader) ?? cluster.nodes[1]!;
    frozen.freeze();
    await write(901, 1200);
    await until(() => seen.length >= 1200, 'every entry with the leader frozen', 30_000).catch(explain);
    await outbox.whenPublished(1200);
    frozen.thaw();
    expect(seen).toEqual(range(1, 1200));
    await cluster.waitForLeader();
    expect((await bus.jsm.streams.info(subjects.stream)).state.messages).toBe(1200);
  }, 120_000);
});
