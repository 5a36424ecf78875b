// Credentials on the bus, against a real nats-server configured by authorizationBlock(): each host
// and console with its own user, limited to its subjects (a host cannot write as another host or as
// the console, nor read another host's commands, another role's replies or other hosts' entries, nor
// make, delete or purge the stream); an nkey user; a wrong password; TLS with the hall's own CA.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationBlock,
  connectBus,
  consumerName,
  ensureEventStream,
  ensureLeaseBucket,
  eventSubjects,
  handoverConsumerName,
  inboxPrefix,
  readKey,
  writeKey,
  Outbox,
  startReader,
  type BusConnection,
  type BusUser,
} from '../../bus/index.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { anyRecord, MemoryJournal } from './memory-journal.ts';

const subjects = eventSubjects('secure');

describe('bus credentials', () => {
  const seed = nkeys.createUser();
  const users: BusUser[] = [
    { role: { kind: 'console', id: 'c1' }, user: 'console-c1', password: 'c1-secret' },
    { role: { kind: 'host', id: 'h1' }, user: 'host-h1', password: 'h1-secret' },
    { role: { kind: 'host', id: 'h2' }, user: 'host-h2', password: 'h2-secret' },
    { role: { kind: 'host', id: 'h3' }, nkey: seed.getPublicKey() },
  ];
  let server: NatsServer;
  const open: BusConnection[] = [];
  /** Signs in as `host-h1`, `console-c1`...: that role's user, with that role's inbox prefix. */
  const as = async (user: string, pass: string): Promise<BusConnection> => {
    const [kind, id] = user.split('-') as ['host' | 'console', string];
    const bus = await connectBus({ servers: [server.url], user, pass, inboxPrefix: inboxPrefix({ kind, id }) });
    open.push(bus);
    return bus;
  };

  beforeAll(async () => {
    server = await startNats({ extra: authorizationBlock(subjects, users) });
  });
  afterAll(async () => {
    for (const b of open) await b.close();
    await server?.close();
  });

  it('a host may not make the stream; the console may', async () => {
    const h1 = await as('host-h1', 'h1-secret');
    await expect(ensureEventStream(h1, subjects)).rejects.toThrow(/permission|authoriz/i);
    const c1 = await as('console-c1', 'c1-secret');
    expect((await ensureEventStream(c1, subjects)).config.name).toBe(subjects.stream);
  });

  it("a host writes its own subject, reads the console's, and nothing else", async () => {
    const c1 = await as('console-c1', 'c1-secret');
    await ensureEventStream(c1, subjects);
    await c1.js.publish(subjects.desk, new TextEncoder().encode(JSON.stringify({ source: 'c1', sourceSeq: 1, wallMs: 0, record: { kind: 'seat' } })));
    const h1 = await as('host-h1', 'h1-secret');
    const journal = new MemoryJournal('h1');
    journal.append({ press: 1 });
    const outbox = new Outbox(h1, subjects.host('h1'), journal, { ownStream: subjects.stream });
    outbox.notify();
    await outbox.whenPublished(1);
    outbox.stop();
    const read: string[] = [];
    const reader = await startReader(h1, subjects, {
      name: consumerName({ kind: 'host', id: 'h1' }),
      filter: subjects.forHosts,
      after: 0,
      parse: anyRecord,
      onEntry: (e, place) => read.push(`${place.subject} ${e.source}`),
    });
    await reader.caughtUp;
    await reader.stop();
    expect(read).toEqual([`${subjects.desk} c1`]);
    // Writing as another host or as the console, or reading with another role's consumer: refused.
    await expect(h1.js.publish(subjects.host('h2'), new TextEncoder().encode('{}'), { timeout: 1_000 })).rejects.toThrow(/permission/i);
    await expect(h1.js.publish(subjects.desk, new TextEncoder().encode('{}'), { timeout: 1_000 })).rejects.toThrow(/permission/i);
    await expect(startReader(h1, subjects, { name: 'console-c1', after: 0, parse: anyRecord, onEntry: () => {} })).rejects.toThrow(/permission|timeout/i);
    const foreign = h1.nc.subscribe(subjects.command('h2'));
    await expect(foreign.closed).resolves.toBeInstanceOf(Error);
    expect((await c1.jsm.streams.info(subjects.stream)).state.messages).toBe(2);
  });

  it("no role reads another's replies or the entries of other hosts, and none deletes or purges the stream", async () => {
    const c1 = await as('console-c1', 'c1-secret');
    await ensureEventStream(c1, subjects);
    const h1 = await as('host-h1', 'h1-secret');
    // Its own inbox only: every other role's replies (the old shared `_INBOX.>` among them) are refused.
    for (const inbox of ['_INBOX.>', `${inboxPrefix({ kind: 'console', id: 'c1' })}.>`, `${inboxPrefix({ kind: 'host', id: 'h2' })}.>`]) {
      const sub = h1.nc.subscribe(inbox);
      await expect(sub.closed, inbox).resolves.toMatchObject({ message: expect.stringMatching(/permission/i) });
    }
    // A consumer of its own name but of the whole journal, of another host's entries or of everything
    // under the desk's subject's parent: refused; of what hosts read (the desk): made.
    const name = consumerName({ kind: 'host', id: 'h1' });
    await h1.jsm.consumers.delete(subjects.stream, name).catch(() => false); // the reader's of the test before
    for (const filter of [subjects.journal, subjects.host('h2'), `zeitnot.${subjects.event}.journal.*`]) {
      await expect(h1.jsm.consumers.add(subjects.stream, { durable_name: name, filter_subject: filter }), filter).rejects.toThrow(/permission/i);
    }
    expect((await h1.jsm.consumers.add(subjects.stream, { durable_name: name, filter_subject: subjects.forHosts })).config.filter_subject).toBe(
      subjects.forHosts,
    );
    await h1.jsm.consumers.delete(subjects.stream, name);
    for (const role of [h1, c1]) {
      await expect(role.jsm.streams.purge(subjects.stream)).rejects.toThrow(/permission/i);
      await expect(role.jsm.streams.delete(subjects.stream)).rejects.toThrow(/permission/i);
    }
    expect((await c1.jsm.streams.info(subjects.stream)).config.name).toBe(subjects.stream);
  });

  it("a host's lease operations are its boards' leases, its own renewal key and the handover consumer of a host's entries", async () => {
    const c1 = await as('console-c1', 'c1-secret');
    await ensureEventStream(c1, subjects);
    await expect(ensureLeaseBucket(await as('host-h1', 'h1-secret'), subjects, 1)).rejects.toThrow(/permission/i);
    await ensureLeaseBucket(c1, subjects, 1);
    const h1 = await as('host-h1', 'h1-secret');
    const claim = await writeKey(
      h1,
      subjects.lease('7'),
      { source: 'lease/7', sourceSeq: 1, wallMs: 0, record: { kind: 'lease', board: '7', host: 'h1', at: 0 } },
      0,
    );
    expect(claim).toMatchObject({ ok: true });
    // Create-only: a second create of the same board is told it is stale.
    expect(await writeKey(h1, subjects.lease('7'), {}, 0)).toMatchObject({ ok: false, stale: true });
    const renewed = await writeKey(h1, subjects.alive('h1'), { host: 'h1', expiresWallMs: 1 }, 0);
    expect(renewed).toMatchObject({ ok: true });
    expect((await readKey<{ host: string }>(h1, subjects.leaseBucket, subjects.alive('h1')))?.value.host).toBe('h1');
    // Another host's renewal key: refused to h1, written by the console (a takeover marks it).
    expect(await writeKey(h1, subjects.alive('h2'), { host: 'h2', expiresWallMs: 1 }, 0, 1_000)).toMatchObject({ ok: false, stale: false });
    expect(await writeKey(c1, subjects.alive('h2'), { host: 'h2', expiresWallMs: 0, handedTo: 'h9' }, 0)).toMatchObject({ ok: true });
    // The handover consumer: hosts' journal subjects as its filter, not the desk nor the whole journal (a
    // permission's `*` admits a filter's `>`, so `journal.host.>`, every host's entries, is admitted too).
    const name = handoverConsumerName({ kind: 'host', id: 'h1' });
    for (const filter of [subjects.journal, subjects.desk, `zeitnot.${subjects.event}.journal.*`]) {
      await expect(h1.jsm.consumers.add(subjects.stream, { durable_name: name, filter_subject: filter }), filter).rejects.toThrow(/permission/i);
    }
    expect((await h1.jsm.consumers.add(subjects.stream, { durable_name: name, filter_subject: subjects.host('h2') })).config.filter_subject).toBe(
      subjects.host('h2'),
    );
    await h1.jsm.consumers.delete(subjects.stream, name);
  });

  it('an nkey host signs in with its seed; a wrong password is refused', async () => {
    const h3 = await connectBus({
      servers: [server.url],
      nkeySeed: new TextDecoder().decode(seed.getSeed()),
      inboxPrefix: inboxPrefix({ kind: 'host', id: 'h3' }),
    });
    open.push(h3);
    const journal = new MemoryJournal('h3');
    journal.append({ press: 1 });
    const outbox = new Outbox(h3, subjects.host('h3'), journal);
    outbox.notify();
    await outbox.whenPublished(1);
    outbox.stop();
    await expect(connectBus({ servers: [server.url], user: 'host-h1', pass: 'wrong' })).rejects.toThrow(/authoriz/i);
  });
});

describe('bus over TLS', () => {
  let dir: string;
  let server: NatsServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-tls-'));
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=zeitnot hall CA');
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
    server = await startNats({ tls: { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key') } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects with the hall CA and publishes; without the CA the server is not trusted', async () => {
    const url = server.url.replace('nats://', 'tls://');
    const bus = await connectBus({ servers: [url], tls: { ca: readFileSync(join(dir, 'ca.pem'), 'utf8') } });
    const tlsSubjects = eventSubjects('tls');
    await ensureEventStream(bus, tlsSubjects);
    const ack = await bus.js.publish(tlsSubjects.desk, new TextEncoder().encode('{}'));
    expect(ack.seq).toBe(1);
    await bus.close();
    await expect(connectBus({ servers: [url], tls: {} })).rejects.toThrow(/certificate|self.signed|verify/i);
  });
});
