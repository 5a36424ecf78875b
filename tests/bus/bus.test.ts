// The bus layer against a real nats-server with JetStream: entries published in order with their
// message ids, stored once however often they are published, read back exactly once in order by a
// reader that resumes where its owner stands; requests and presence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  announce,
  answer,
  ask,
  connectBus,
  encodeEntry,
  ensureEventStream,
  eventSubjects,
  Outbox,
  parseBusUrl,
  PresenceWatch,
  startReader,
  type BusConnection,
  type BusEntry,
  type HostSeen,
} from '../../bus/index.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { anyRecord, MemoryJournal } from './memory-journal.ts';
import { storedEntries, storedOrder } from './stream-entries.ts';

describe('bus on one nats-server -js', () => {
  let server: NatsServer;
  let bus: BusConnection;

  beforeAll(async () => {
    server = await startNats();
    bus = await connectBus({ servers: [server.url], name: 'test' });
  });

  afterAll(async () => {
    await bus?.close();
    await server?.close();
  });

  it('reads the messages at hand as one batch (onBatch around them) and acknowledges it after: each entry once, in order', async () => {
    const subjects = eventSubjects('batched');
    await ensureEventStream(bus, subjects);
    const journal = new MemoryJournal('h1');
    for (let i = 1; i <= 1_200; i++) journal.append({ n: i });
    const outbox = new Outbox(bus, subjects.host('h1'), journal);
    outbox.notify();
    await outbox.whenPublished(1_200);
    const batches: number[] = [];
    const seen: number[] = [];
    let inBatch = false;
    const outside: number[] = [];
    const reader = await startReader(bus, subjects, {
      name: 'console-b',
      after: 0,
      parse: anyRecord,
      onBatch: (apply) => {
        const before = seen.length;
        inBatch = true;
        apply();
        inBatch = false;
        batches.push(seen.length - before);
      },
      onEntry: (e) => {
        if (!inBatch) outside.push(e.sourceSeq);
        seen.push(e.sourceSeq);
      },
    });
    await reader.caughtUp;
    expect(seen).toEqual(Array.from({ length: 1_200 }, (_, i) => i + 1));
    expect(outside).toEqual([]);
    // A pull brings up to 1,000 messages; a batch takes at most 500 of them.
    expect(batches.length).toBeLessThan(60);
    expect(Math.max(...batches)).toBeLessThanOrEqual(500);
    // Acknowledged: the consumer has nothing pending once the last batch is read.
    for (let i = 0; (await bus.jsm.consumers.info(subjects.stream, 'console-b')).num_ack_pending > 0; i++) {
      if (i > 200) throw new Error('the batches were not acknowledged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    journal.append({ n: 1_201 });
    outbox.notify();
    await until(() => seen.length === 1_201, 'the live entry');
    expect(outside).toEqual([]);
    await reader.stop();
    outbox.stop();
  });

  it('stores every entry once, in order, however often it is published; a reader gets each once', async () => {
    const subjects = eventSubjects('once-only');
    const info = await ensureEventStream(bus, subjects);
    expect(info.config.num_replicas).toBe(1);
    const journal = new MemoryJournal('h1');
    for (let i = 1; i <= 500; i++) journal.append({ n: i }, { section: 'A', round: 1 });
    const outbox = new Outbox(bus, subjects.host('h1'), journal);
    outbox.notify();
    await outbox.whenPublished(500);
    expect(outbox.state).toEqual({ journaled: 500, published: 500, backlog: 0 });
    // The journal forgot where publishing stood: all 500 go out again and JetStream drops them by id.
    journal.forgetPublished();
    const again = new Outbox(bus, subjects.host('h1'), journal);
    again.notify();
    await again.whenPublished(500);
    expect(storedOrder(await storedEntries(bus, subjects.stream), 'h1')).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));

    const seen: BusEntry[] = [];
    const resumeAfter = new Map<number, number>();
    const reader = await startReader(bus, subjects, {
      name: 'console-c1',
      after: 0,
      parse: anyRecord,
      onEntry: (e, place) => {
        seen.push(e);
        resumeAfter.set(e.sourceSeq, place.resumeAfter);
      },
    });
    await reader.caughtUp;
    expect(seen.map((e) => e.sourceSeq)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(seen[0]).toMatchObject({ source: 'h1', section: 'A', round: 1, record: { n: 1 } });
    await reader.stop();

    // A reader resumes after the position its journal has (with entry 450, within a message of many:
    // before that message); what comes later arrives live.
    const resumed: number[] = [];
    const later = await startReader(bus, subjects, {
      name: 'console-c1',
      after: resumeAfter.get(450)!,
      sources: new Map([['h1', 450]]),
      parse: anyRecord,
      onEntry: (e) => resumed.push(e.sourceSeq),
    });
    await later.caughtUp;
    journal.append({ n: 501 });
    again.notify();
    await until(() => resumed.length === 51, 'the live entry');
    expect(resumed).toEqual(Array.from({ length: 51 }, (_, i) => 451 + i));
    expect(later.position()).toBe((await bus.jsm.streams.info(subjects.stream)).state.last_seq);
    await later.stop();
    outbox.stop();
    again.stop();
  });

  it("a host's outbox that lost where publishing stood reads it from the stream: nothing stored twice, even in other messages", async () => {
    const subjects = eventSubjects('stream-end');
    await ensureEventStream(bus, subjects);
    const journal = new MemoryJournal('h1');
    for (let i = 1; i <= 300; i++) journal.append({ n: i });
    const first = new Outbox(bus, subjects.host('h1'), journal, { ownStream: subjects.stream });
    first.notify();
    await first.whenPublished(300);
    first.stop();
    // A restart whose journal's note is behind the stream (its last answer lost), with more entries
    // since: the message it would send (1 to 350) is not the one stored (1 to 300), so message ids
    // alone would store 1 to 300 again.
    journal.forgetPublished();
    for (let i = 301; i <= 350; i++) journal.append({ n: i });
    const restarted = new Outbox(bus, subjects.host('h1'), journal, { ownStream: subjects.stream });
    restarted.notify();
    await restarted.whenPublished(350);
    expect(storedOrder(await storedEntries(bus, subjects.stream), 'h1')).toEqual(Array.from({ length: 350 }, (_, i) => i + 1));
    // A message on its subject that the outbox did not send (its last one is not the one it names):
    // refused, the outbox reads where the stream stands and goes on after it.
    await bus.js.publish(subjects.host('h1'), encodeEntry({ source: 'h1', sourceSeq: 351, wallMs: 0, record: { n: 351 } }), { msgID: 'h1:351' });
    for (let i = 351; i <= 360; i++) journal.append({ n: i });
    restarted.notify();
    await restarted.whenPublished(360);
    expect(storedOrder(await storedEntries(bus, subjects.stream), 'h1')).toEqual(Array.from({ length: 360 }, (_, i) => i + 1));
    expect(restarted.state).toEqual({ journaled: 360, published: 360, backlog: 0 });
    restarted.stop();
  });

  it('hands on each source in its order once, however the stream holds it; resumes before what it held', async () => {
    const subjects = eventSubjects('out-of-order');
    await ensureEventStream(bus, subjects);
    // No message ids: the stream keeps a republished entry as it would after its duplicate window.
    const put = (source: string, sourceSeq: number) =>
      bus.js.publish(subjects.host(source), encodeEntry({ source, sourceSeq, wallMs: 0, record: { n: sourceSeq } }));
    for (const [source, n] of [
      ['h1', 1],
      ['h1', 3],
      ['h2', 1],
      ['h1', 2],
      ['h1', 3],
      ['h1', 1],
    ] as const)
      await put(source, n);
    const read = async (after: number, sources?: ReadonlyMap<string, number>): Promise<string[]> => {
      const got: string[] = [];
      const reader = await startReader(bus, subjects, {
        name: 'console-o',
        after,
        ...(sources ? { sources } : {}),
        parse: anyRecord,
        onEntry: (e, p) => got.push(`${e.source}:${e.sourceSeq}@${p.streamSeq}/${p.resumeAfter}`),
      });
      await reader.caughtUp;
      await until(() => reader.position() === 6, 'the whole stream');
      await reader.stop();
      return got;
    };
    // h1:3 (stream 2) waits for h1:2 (stream 4): until then a reader that dies resumes after stream 1.
    expect(await read(0)).toEqual(['h1:1@1/1', 'h2:1@3/1', 'h1:2@4/4', 'h1:3@2/4']);
    // The owner died having journaled h1:1 and h2:1 (resume after 1): it gets the rest, once.
    expect(
      await read(
        1,
        new Map([
          ['h1', 1],
          ['h2', 1],
        ]),
      ),
    ).toEqual(['h1:2@4/4', 'h1:3@2/4']);
  });

  it('a message that is not a journal entry is reported and skipped, never handed on', async () => {
    const subjects = eventSubjects('garbage');
    await ensureEventStream(bus, subjects);
    await bus.js.publish(subjects.host('h9'), new TextEncoder().encode('{"source":"h9"}'));
    await bus.js.publish(subjects.host('h9'), new TextEncoder().encode('not json'));
    const bad: string[] = [];
    const good: unknown[] = [];
    const reader = await startReader(bus, subjects, {
      name: 'console-g',
      after: 0,
      parse: anyRecord,
      onEntry: (e) => good.push(e),
      onBad: (seq, why) => bad.push(`${seq}: ${why}`),
    });
    await reader.caughtUp;
    await reader.stop();
    expect(good).toEqual([]);
    expect(bad).toEqual(['1: sourceSeq: Invalid input: expected number, received undefined', '2: not JSON']);
  });

  it('asks and answers; nobody there is an answer too', async () => {
    const subjects = eventSubjects('requests');
    const sub = answer(bus.nc, subjects.command('h1'), (body) => ({ echo: body }));
    expect(await ask(bus.nc, subjects.command('h1'), { type: 'pause', board: '3' }, 2_000)).toEqual({
      ok: true,
      value: { echo: { type: 'pause', board: '3' } },
    });
    const nobody = await ask(bus.nc, subjects.command('h2'), {}, 2_000);
    expect(nobody).toMatchObject({ ok: false, unreachable: true });
    sub.unsubscribe();
  });

  it('a host that goes quiet is unreachable, and reachable again when heard', async () => {
    const subjects = eventSubjects('presence');
    const changes: [string, boolean][] = [];
    const watch = new PresenceWatch(bus.nc, subjects.anyPresence, 1_000, (host: string, seen: HostSeen) => changes.push([host, seen.reachable]));
    let stop = announce(bus.nc, subjects.presence('h1'), () => ({ host: 'h1', boards: ['1', '2'], journaled: 3, published: 3, wallMs: Date.now() }), 100);
    await until(() => changes.length === 1, 'h1 heard');
    stop();
    await until(() => changes.length === 2, 'h1 quiet', 5_000);
    stop = announce(bus.nc, subjects.presence('h1'), () => ({ host: 'h1', boards: ['1', '2'], journaled: 4, published: 4, wallMs: Date.now() }), 100);
    await until(() => changes.length === 3, 'h1 back');
    stop();
    watch.stop();
    expect(changes).toEqual([
      ['h1', true],
      ['h1', false],
      ['h1', true],
    ]);
    expect(watch.hosts().get('h1')?.presence.boards).toEqual(['1', '2']);
  });
});

describe('--bus URLs', () => {
  it('reads servers, a user and a password, and tls://', () => {
    expect(parseBusUrl('nats://alice:s%40cret@10.0.0.5:4222,10.0.0.6')).toEqual({
      servers: ['nats://10.0.0.5:4222', 'nats://10.0.0.6:4222'],
      user: 'alice',
      pass: 's@cret',
    });
    expect(parseBusUrl('tls://bus.hall:4443')).toEqual({ servers: ['tls://bus.hall:4443'], tls: {} });
    expect(() => parseBusUrl('http://x')).toThrow(/nats:\/\/ or tls:\/\//);
    expect(() => parseBusUrl(' , ')).toThrow(/expected nats:\/\/HOST:PORT/);
  });

  it('refuses event and host ids that are no subject token', () => {
    expect(eventSubjects('Cairns Cup 2019').stream).toBe('ZEITNOT_Cairns_Cup_2019');
    expect(() => eventSubjects('x').host('a.b')).toThrow(/host id 'a.b'/);
  });
});
