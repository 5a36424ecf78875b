// A console rebuilt from a snapshot on the bus plus the stream's tail equals one that read the whole
// stream, entry for entry (docs/hall.md, "Rebuild"). A real `nats-server -js`, a real hall host process
// (h1, its five boards played by virtual players), console c1 writing its snapshots every 40 entries;
// then consoles on empty data directories: c2 from c1's snapshot and the tail after it, c3 reading the
// whole stream; c4 and c5 find c1's snapshot of another version or standing at a message the stream
// does not have, leave it, and read the whole stream. And the readers' ordered consumers: a whole
// cluster restarted under a reader, and a reader started after it, read every entry once, in order,
// with no durable consumer on the servers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { connectBus, decodeEntries, ensureEventStream, eventSubjects, Outbox, SnapshotStore, startReader, type BusConnection } from '../../bus/internal.ts';
import { presetEvent } from '../../tournament/index.ts';
import { runZeitnot, type RoleProcess } from '../support/console-process.ts';
import { startNats, startNatsCluster, type NatsCluster, type NatsServer } from '../support/nats.ts';
import { until, untilRead } from '../support/wait.ts';
import { anyRecord, MemoryJournal } from './memory-journal.ts';

/** Each source's entries in its order, as the journal has them (sourceSeq, wall time, place, record). */
function bySource(run: RunningConsole): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of run.journal.entries()) {
    const list = out.get(e.source) ?? [];
    list.push(JSON.stringify([e.sourceSeq, e.wallMs, e.section ?? null, e.round ?? null, e.record]));
    out.set(e.source, list);
  }
  return out;
}

/**
 * What an arbiter sees of the boards and the desk: each board's view, the desk's record (pairings,
 * results). Without the board's host: whether a console hears it is presence, not the stream's.
 */
function projection(run: RunningConsole): unknown {
  const boards = run.hall.views().map(({ host: _, ...view }) => view);
  return { boards, desk: run.desk.record(), current: run.desk.currentRound };
}

describe('a console rebuilt from a snapshot and the tail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-rebuild-'));
  let server: NatsServer | undefined;
  let host: RoleProcess | undefined;
  const runs: RunningConsole[] = [];
  let bus: BusConnection | undefined;
  afterAll(async () => {
    await host?.stop();
    for (const r of runs) await r.stop();
    await bus?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const event = presetEvent('cairns-cup-2019');
  const consoleOn = async (
    id: string,
    options: { snapshotEveryEntries?: number; rebuildFromSnapshot?: boolean } = {},
    dataDir = join(dir, id),
  ): Promise<RunningConsole> => {
    const run = await startConsole({
      dataDir,
      port: 0,
      noPage: true,
      event,
      scale: 30,
      ...(id === 'c1' ? { firstRound: true, autoStart: true } : {}),
      bus: { bus: { servers: [server!.url] }, consoleId: id, snapshotEveryEntries: options.snapshotEveryEntries ?? 0, ...options },
    });
    runs.push(run);
    return run;
  };

  it('equals a full replay entry for entry; a snapshot of another version or another stream is left for the whole stream', async () => {
    server = await startNats();
    bus = await connectBus({ servers: [server.url], name: 'test' });
    const subjects = eventSubjects(event.id);
    const c1 = await consoleOn('c1', { snapshotEveryEntries: 40 });
    host = runZeitnot([
      'hall-host',
      '--bus',
      server.url,
      '--event',
      'cairns-cup-2019',
      '--boards',
      '1-5',
      '--host-id',
      'h1',
      '--simulate',
      'all',
      '--simulate-hardware',
      'none',
      '--data',
      join(dir, 'h1'),
    ]);
    const store = new SnapshotStore(bus, subjects);
    // A snapshot of c1 late enough to hold board snapshots (one every 16 entries of a board), then at least 30 entries after it in the stream: the tail.
    const manifest = (await untilRead(
      () => store.getManifest('c1'),
      (m) => m !== undefined && (m as { resumeAfter: number }).resumeAfter >= 150,
      "c1's snapshot after 150 stream messages",
      90_000,
      200,
    )) as { resumeAfter: number };
    await untilRead(
      () => bus!.jsm.streams.info(subjects.stream),
      (info) => info.state.last_seq >= manifest.resumeAfter + 30,
      'entries after the snapshot',
      60_000,
      200,
    );
    await host.stop();
    host = undefined;
    // Everything h1 published is in c1's journal, and c1 has written no snapshot since the tail began... or has: c2 takes the latest.
    const lastOfH1 = await bus.jsm.streams.getMessage(subjects.stream, { last_by_subj: subjects.host('h1') });
    // A message holds a run of h1's entries (the outbox batches them): its last is h1's last.
    const h1Last = (decodeEntries(lastOfH1!.data, anyRecord) as { ok: true; entries: readonly { sourceSeq: number }[] }).entries.at(-1)!.sourceSeq;
    await until(() => c1.journal.lastBySource().get('h1') === h1Last, "c1 has every entry of h1's", 30_000, 20);
    await until(() => c1.journal.lastOwn() === Number(c1.journal.note('bus.published') ?? 0), "c1's own entries in the stream", 30_000, 20);
    const lastSeq = (await bus.jsm.streams.info(subjects.stream)).state.last_seq;

    const c2 = await consoleOn('c2');
    expect(c2.onBus?.restored?.from).toBe('c1');
    expect(c2.onBus!.restored!.boards).toBeGreaterThan(0);
    expect(c2.onBus!.restored!.resumeAfter).toBeLessThan(lastSeq);
    expect(c2.journal.count()).toBeGreaterThan(c2.onBus!.restored!.rows);
    // The clock entries c1's board snapshots hold came as its archive (journal-archive.ts), not as rows.
    expect(c2.onBus!.restored!.archived).toBeGreaterThan(0);
    const c3 = await consoleOn('c3', { rebuildFromSnapshot: false });
    expect(c3.onBus?.restored).toBeUndefined();

    const full = bySource(c3);
    expect(full.get('h1')).toHaveLength(h1Last);
    expect(bySource(c2)).toEqual(full);
    expect(bySource(c1)).toEqual(full);
    expect(projection(c2)).toEqual(projection(c3));
    expect(projection(c2)).toEqual(projection(c1));

    // c1 writes no more (stopped); its snapshot is then made one of another version, then one standing at another message.
    await c1.stop();
    runs.splice(runs.indexOf(c1), 1);
    const written = (await store.getManifest('c1')) as { version: string; at: { subject: string; sha256: string } };
    await store.putManifest('c1', { ...written, version: '0|an earlier zeitnot' });
    const c4 = await consoleOn('c4');
    expect(c4.onBus?.restored).toBeUndefined();
    expect(bySource(c4)).toEqual(full);
    expect(projection(c4)).toEqual(projection(c3));
    await store.putManifest('c1', { ...written, at: { ...written.at, sha256: '0'.repeat(64) } });
    const c5 = await consoleOn('c5');
    expect(c5.onBus?.restored).toBeUndefined();
    expect(bySource(c5)).toEqual(full);
    // The snapshot as written is taken again.
    await store.putManifest('c1', written);
    const c6 = await consoleOn('c6');
    expect(c6.onBus?.restored?.from).toBe('c1');
    expect(bySource(c6)).toEqual(full);

    // c2's own snapshot names again the archive it was rebuilt with; c2 on a new machine takes it.
    expect(await c2.onBus!.writeSnapshot()).toBeDefined();
    await c2.stop();
    runs.splice(runs.indexOf(c2), 1);
    const again = await consoleOn('c2', {}, join(dir, 'c2-again'));
    expect(again.onBus?.restored?.from).toBe('c2');
    expect(again.onBus!.restored!.archived).toBeGreaterThanOrEqual(c2.onBus!.restored!.archived);
    expect(bySource(again)).toEqual(full);
    expect(projection(again)).toEqual(projection(c3));
  }, 240_000);
});

describe('ordered consumers across a whole cluster restart', () => {
  let cluster: NatsCluster | undefined;
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await cluster?.stop();
  });

  it('a reader going on and a reader started after it read every entry once, in order, with no durable consumer on the servers', async () => {
    cluster = await startNatsCluster();
    const subjects = eventSubjects('restart');
    const bus = await connectBus({ servers: cluster.urls.split(','), pingIntervalMs: 500 });
    cleanup.push(() => bus.close());
    expect((await ensureEventStream(bus, subjects)).config.num_replicas).toBe(3);
    const journal = new MemoryJournal('h1');
    const outbox = new Outbox(bus, subjects.host('h1'), journal, { ackTimeoutMs: 1_000 });
    cleanup.push(async () => outbox.stop());
    const seen: number[] = [];
    let resumeAfter = 0;
    const reader = await startReader(bus, subjects, {
      name: 'console-c1',
      ordered: true,
      after: 0,
      parse: anyRecord,
      onEntry: (e, place) => {
        seen.push(e.sourceSeq);
        resumeAfter = place.resumeAfter;
      },
    });
    cleanup.push(() => reader.stop());
    for (let i = 1; i <= 200; i++) journal.append({ press: i });
    outbox.notify();
    await until(() => seen.length === 200, 'the first 200', 30_000);
    const before = resumeAfter;
    // Every server down at once, then back on its store.
    await Promise.all(cluster.nodes.map((n) => n.kill9()));
    await Promise.all(cluster.nodes.map((n) => n.restart()));
    await cluster.waitForLeader(60_000);
    for (let i = 201; i <= 400; i++) journal.append({ press: i });
    outbox.notify();
    await until(() => seen.length === 400, 'the 200 after the restart, by the reader that went on', 90_000);
    expect(seen).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // A reader started now from where the first stood before the restart reads the rest, once.
    const later: number[] = [];
    const again = await startReader(bus, subjects, {
      name: 'console-c2',
      ordered: true,
      after: before,
      sources: new Map([['h1', 200]]),
      parse: anyRecord,
      onEntry: (e) => later.push(e.sourceSeq),
    });
    cleanup.push(() => again.stop());
    await again.caughtUp;
    expect(later).toEqual(Array.from({ length: 200 }, (_, i) => i + 201));
    const durable: string[] = [];
    for await (const c of bus.jsm.consumers.list(subjects.stream)) if (c.config.durable_name) durable.push(c.config.durable_name);
    expect(durable).toEqual([]);
  }, 240_000);
});
