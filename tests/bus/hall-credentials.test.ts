// The roles through their own credentials, over TLS (docs/hall.md, "Credentials" and "TLS"): one
// nats-server with TLS (a certificate of the hall's own CA) and the authorization block of
// bus/permissions.ts; hall host h1 and console c1 sign in with nkey seeds (`--bus-nkey`), h2 and c2
// with a user and password in the URL; every role trusts the CA with `--bus-ca`. The event runs
// through them; with h1's credentials a client cannot write as h2 or as the desk, cannot take h2's
// commands nor answer anyone's it did not receive, and a host started as h2 on h1's seed is refused;
// a wrong password, an unknown seed and a missing CA each end the role at once with a clear error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationBlock, connectBus, encodeEntry, eventSubjects, inboxPrefix, type BusConnection, type BusUser } from '../../bus/index.ts';
import { arbiterCommand, HallProcesses, hostJournal } from '../support/hall-processes.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

const subjects = eventSubjects('cairns-cup-2019');

/** The hall's own CA and a server certificate for 127.0.0.1 signed by it. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=zeitnot hall CA');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'server.pem'), key: join(dir, 'server.key') };
}

/** A seed file as `zeitnot bus users` writes it; returns its public key. */
function seedFile(file: string): string {
  const kp = nkeys.createUser();
  writeFileSync(file, new TextDecoder().decode(kp.getSeed()) + '\n', { mode: 0o600 });
  return kp.getPublicKey();
}

describe('hall roles through their own credentials, over TLS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-credentials-'));
  const roles = new HallProcesses(dir);
  const clients: TestClient[] = [];
  const open: BusConnection[] = [];
  let server: NatsServer | undefined;
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await roles.stop();
    for (const b of open) await b.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the event through each role's own user; a host is held to its subjects; a wrong credential ends the role with a clear error", async () => {
    const tls = makeCertificates(dir);
    const seeds = { h1: join(dir, 'host-h1.nk'), c1: join(dir, 'console-c1.nk'), stranger: join(dir, 'stranger.nk') };
    const users: BusUser[] = [
      { role: { kind: 'host', id: 'h1' }, nkey: seedFile(seeds.h1) },
      { role: { kind: 'host', id: 'h2' }, user: 'host-h2', password: 'h2-secret' },
      { role: { kind: 'console', id: 'c1' }, nkey: seedFile(seeds.c1) },
      { role: { kind: 'console', id: 'c2' }, user: 'console-c2', password: 'c2-secret' },
    ];
    seedFile(seeds.stranger);
    server = await startNats({ tls: { certFile: tls.cert, keyFile: tls.key }, extra: authorizationBlock(subjects, users) });
    const at = `127.0.0.1:${server.port}`;
    const ca = ['--bus-ca', tls.ca];

    // (a) The event runs through them.
    const h1 = roles.host('h1', '1-3', `tls://${at}`, [...ca, '--bus-nkey', seeds.h1]);
    roles.host('h2', '4-5', `tls://host-h2:h2-secret@${at}`, ca);
    const c1 = await roles.console('c1', `tls://${at}`, [...ca, '--bus-nkey', seeds.c1, '--simulate-event']);
    await roles.waitBoards(
      c1.url,
      "both hosts' boards playing",
      (b) => b.length === 5 && b.every((x) => x.host?.reachable && x.status === 'running' && x.presses.white > 0),
      90_000,
    );
    const c2 = await roles.console('c2', `tls://console-c2:c2-secret@${at}`, ca);
    await roles.waitBoards(c2.url, 'c2 with every board', (b) => b.length === 5 && b.every((x) => x.host?.reachable), 90_000);
    const a2 = await helloClient(c2.url, { role: 'arbiter', token: c2.token, name: 'A2' });
    clients.push(a2);
    for (const board of ['1', '4']) {
      expect(await arbiterCommand(a2, `pause-${board}`, { type: 'pause', board, reason: 'credentials' })).toMatchObject({ type: 'ack' });
      expect(await arbiterCommand(a2, `resume-${board}`, { type: 'resume', board })).toMatchObject({ type: 'ack' });
    }
    expect(hostJournal(roles.journalOf('h2'), 'h2', '4').events).toContain('pause');

    // (b) With h1's credentials: its own subject only; no other host's, no desk, no opening.
    const asH1 = await connectBus({
      servers: [`tls://${at}`],
      nkeySeed: readFileSync(seeds.h1, 'utf8'),
      tls: { ca: readFileSync(tls.ca, 'utf8') },
      inboxPrefix: inboxPrefix({ kind: 'host', id: 'h1' }),
    });
    open.push(asH1);
    const entry = encodeEntry({ source: 'h2', sourceSeq: 1_000_000, wallMs: 0, record: { kind: 'note' } });
    for (const subject of [subjects.host('h2'), subjects.desk, subjects.opening]) {
      await expect(asH1.js.publish(subject, entry, { timeout: 5_000 }), subject).rejects.toThrow(/permission/i);
    }
    // ... cannot take h2's commands (the subscription is refused) ...
    const foreign = asH1.nc.subscribe(subjects.command('h2'));
    await expect(foreign.closed).resolves.toMatchObject({ message: expect.stringMatching(/permission/i) });
    // ... nor answer a request it did not receive (a reply subject is open to it only for its own).
    const errors: string[] = [];
    void (async () => {
      for await (const s of asH1.nc.status()) if (s.type === 'error') errors.push(String(s.error));
    })();
    asH1.nc.publish('_INBOX.not-yours.1', new TextEncoder().encode('{"ok":true}'));
    await until(
      () => errors.some((e) => /permission/i.test(e) && e.includes('_INBOX.not-yours.1')),
      'the permission error for a reply it was not asked for',
      30_000,
    );
    // Board 4's commands still reach h2 only.
    expect(await arbiterCommand(a2, 'pause-4-again', { type: 'pause', board: '4', reason: 'still h2' })).toMatchObject({ type: 'ack' });
    expect(await arbiterCommand(a2, 'resume-4-again', { type: 'resume', board: '4' })).toMatchObject({ type: 'ack' });

    // A host started under another id on h1's seed cannot read as that host: refused, non-zero, the reason said.
    const impostor = roles.host('h9', '5-5', `tls://${at}`, [...ca, '--bus-nkey', seeds.h1], join(dir, 'impostor'));
    expect(await impostor.exited).not.toBe(0);
    expect(impostor.out()).toMatch(
      /the bus refuses hall host h9 its own subjects \(Permissions Violation for Subscription to .*_INBOX_host-h9.*\): these credentials are another role's/,
    );

    // (c) A wrong credential ends the role at once with a clear error.
    const wrongPassword = roles.host('h2', '4-5', `tls://host-h2:wrong@${at}`, ca, join(dir, 'wrong-password'));
    expect(await wrongPassword.exited).toBe(1);
    expect(wrongPassword.out()).toMatch(
      /the NATS servers refused the credentials of zeitnot hall host h2 \(.*[Aa]uthorization.*\): check the user and password in --bus, or --bus-nkey/,
    );
    const stranger = roles.host('h3', '1-1', `tls://${at}`, [...ca, '--bus-nkey', seeds.stranger], join(dir, 'stranger'));
    expect(await stranger.exited).toBe(1);
    expect(stranger.out()).toMatch(/refused the credentials of zeitnot hall host h3/);
    const noCa = roles.host('h2', '4-5', `tls://host-h2:h2-secret@${at}`, [], join(dir, 'no-ca'));
    expect(await noCa.exited).toBe(1);
    expect(noCa.out()).toMatch(
      /zeitnot hall host h2 does not trust the NATS servers' TLS certificate \(.*certificate.*\): give the CA that signed it with --bus-ca/,
    );
    // None of them disturbed the hall.
    expect(h1.child.exitCode).toBeNull();
    await roles.waitBoards(c1.url, 'every board still heard', (b) => b.length === 5 && b.every((x) => x.host?.reachable), 30_000);
  }, 400_000);

  it("the guide's sample nats-users.conf is what bus/permissions.ts writes for its users", () => {
    const guide = readFileSync('docs/hall.md', 'utf8');
    const sample = /```text\n(authorization \{[\s\S]*?)```/.exec(guide)?.[1];
    expect(sample).toBe(
      authorizationBlock(eventSubjects('my-event'), [
        { role: { kind: 'console', id: 'c1' }, nkey: 'UCONSOLEC1PUBLICKEY' },
        { role: { kind: 'host', id: 'h2' }, user: 'host-h2', password: 'a long random password' },
      ]),
    );
  });
});
