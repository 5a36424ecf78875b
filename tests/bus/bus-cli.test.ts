// `zeitnot bus users` end to end: the nkeys and the authorization block it writes sign the roles in
// to a real nats-server, each limited to its subjects; a second run keeps the users it made. And a hall
// host given another event than the bus runs: it stops within seconds and says which.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectBus, ensureEventStream, eventSubjects, inboxPrefix } from '../../bus/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { startNats } from '../support/nats.ts';

const zeitnot = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('zeitnot bus users', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-bus-users-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one seed per role (owner-only) and a configuration that signs each in', async () => {
    const made = zeitnot('bus', 'users', '--event', 'cairns-cup-2019', '--host', 'h1', '--console', 'c1', '--out', dir);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toContain(`host h1: --bus-nkey ${join(dir, 'host-h1.nk')}`);
    expect(statSync(join(dir, 'host-h1.nk')).mode & 0o777).toBe(0o600);
    const conf = readFileSync(join(dir, 'nats-users.conf'), 'utf8');
    const again = zeitnot('bus', 'users', '--event', 'cairns-cup-2019', '--host', 'h1', '--console', 'c1', '--out', dir);
    expect(again.status).toBe(0);
    expect(readFileSync(join(dir, 'nats-users.conf'), 'utf8')).toBe(conf);

    const server = await startNats({ extra: conf });
    try {
      const subjects = eventSubjects('cairns-cup-2019');
      const console1 = await connectBus({
        servers: [server.url],
        nkeySeed: readFileSync(join(dir, 'console-c1.nk'), 'utf8'),
        inboxPrefix: inboxPrefix({ kind: 'console', id: 'c1' }),
      });
      await ensureEventStream(console1, subjects);
      const host = await connectBus({
        servers: [server.url],
        nkeySeed: readFileSync(join(dir, 'host-h1.nk'), 'utf8'),
        inboxPrefix: inboxPrefix({ kind: 'host', id: 'h1' }),
      });
      expect((await host.js.publish(subjects.host('h1'), new TextEncoder().encode('{}'))).seq).toBe(1);
      await expect(host.js.publish(subjects.desk, new TextEncoder().encode('{}'), { timeout: 1_000 })).rejects.toThrow(/permission/i);
      await host.close();
      await console1.close();
    } finally {
      await server.close();
    }
  });

  it('refuses ids that are no subject token and a missing console', () => {
    const bad = zeitnot('bus', 'users', '--event', 'cairns-cup-2019', '--host', 'a.b', '--console', 'c1', '--out', dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--host 'a.b': use 1 to 64 letters, digits, '-' or '_'");
    const noConsole = zeitnot('bus', 'users', '--event', 'cairns-cup-2019', '--host', 'h1', '--out', dir);
    expect(noConsole.status).toBe(2);
    expect(noConsole.stderr).toContain('give at least one --console ID');
  });
});

describe('a hall host on the bus of another event', () => {
  it('stops with status 1 and one line naming the event the bus runs, instead of waiting forever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-other-event-'));
    const server = await startNats();
    const bus = await connectBus({ servers: [server.url] });
    try {
      const running = eventSubjects(presetEvent('cairns-cup-2019').id);
      await ensureEventStream(bus, running, { replicas: 1 });
      const given = eventSubjects(presetEvent('sa-open-2009').id);
      // spawnSync's timeout ends a host that waits forever (status null), which fails the test.
      const host = zeitnot('hall-host', '--bus', server.url, '--event', 'sa-open-2009', '--host-id', 'h1', '--boards', '1-2', '--data', join(dir, 'h1'));
      expect(host.status, host.stdout + host.stderr).toBe(1);
      expect(host.stdout).toMatch(new RegExp(`waiting for the stream ${given.stream} on the bus`));
      expect(host.stderr.trim().split('\n')).toEqual([
        `zeitnot hall-host: the bus runs event '${running.event}', not '${given.event}': start this host with the console's event (--event FILE|PRESET)`,
      ]);
    } finally {
      await bus.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
