// The sample cluster configuration of docs/hall.md works as written: each of three servers gets the
// guide's block with only its addresses, name and store changed (loopback ports instead of 10.0.0.11-13),
// and the users file `zeitnot bus users` writes; they form one JetStream cluster that keeps an R3 stream.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizationBlock, connectBus, ensureEventStream, eventSubjects, inboxPrefix } from '../../bus/index.ts';
import { freePort, NATS_SERVER } from '../support/nats.ts';
import { until } from '../support/wait.ts';

const guide = readFileSync('docs/hall.md', 'utf8');
const sample = /```conf\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';

describe("the hall guide's NATS cluster", () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-conf-'));
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const s of servers) s.kill('SIGTERM');
    await Promise.all(servers.map((s) => (s.exitCode !== null || s.signalCode !== null ? null : new Promise((resolve) => s.once('exit', resolve)))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('three servers from the sample form a cluster with a JetStream leader and keep an R3 stream', async () => {
    expect(sample).toContain('include ./nats-users.conf');
    const subjects = eventSubjects('hall-sample');
    writeFileSync(join(dir, 'nats-users.conf'), authorizationBlock(subjects, [{ role: { kind: 'console', id: 'c1' }, user: 'console-c1', password: 'pw' }]));
    const nodes = await Promise.all([1, 2, 3].map(async (i) => ({ i, client: await freePort(), route: await freePort(), monitor: await freePort() })));
    for (const n of nodes) {
      let text = sample
        .replace('server_name: hall-n1', `server_name: hall-n${n.i}`)
        .replace('0.0.0.0:4222', `127.0.0.1:${n.client}`)
        .replace('0.0.0.0:6222', `127.0.0.1:${n.route}`)
        .replace('127.0.0.1:8222', `127.0.0.1:${n.monitor}`)
        .replace('"/var/lib/nats/jetstream"', JSON.stringify(join(dir, `store-${n.i}`)));
      for (const m of nodes) text = text.replace(`10.0.0.1${m.i}:6222`, `127.0.0.1:${m.route}`);
      expect(text).not.toMatch(/10\.0\.0\.|0\.0\.0\.0|\/var\/lib/);
      const file = join(dir, `n${n.i}.conf`);
      writeFileSync(file, text);
      servers.push(spawn(NATS_SERVER!, ['-c', file], { stdio: 'ignore' }));
    }
    let leaders: string[] = [];
    const views = async (): Promise<void> => {
      leaders = await Promise.all(
        nodes.map(async (n) => {
          try {
            const jsz = (await (await fetch(`http://127.0.0.1:${n.monitor}/jsz`)).json()) as { meta_cluster?: { leader?: string; cluster_size?: number } };
            return jsz.meta_cluster?.cluster_size === 3 ? (jsz.meta_cluster.leader ?? '') : '';
          } catch {
            return '';
          }
        }),
      );
    };
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      await views();
      if (leaders[0] && leaders.every((l) => l === leaders[0])) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(leaders[0]).toMatch(/^hall-n[123]$/);
    expect(new Set(leaders).size).toBe(1);

    const bus = await connectBus({
      servers: nodes.map((n) => `nats://127.0.0.1:${n.client}`),
      user: 'console-c1',
      pass: 'pw',
      inboxPrefix: inboxPrefix({ kind: 'console', id: 'c1' }),
    });
    try {
      await until(() => (bus.nc.info?.connect_urls?.length ?? 0) >= 3, 'the cluster to tell the client of its servers', 30_000);
      const info = await ensureEventStream(bus, subjects);
      expect(info.config.num_replicas).toBe(3);
      let replicas = 0;
      for (let t = 0; t < 150 && replicas < 2; t++) {
        replicas = (await bus.jsm.streams.info(subjects.stream)).cluster?.replicas?.length ?? 0;
        if (replicas < 2) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(replicas).toBe(2);
    } finally {
      await bus.close();
    }
  }, 120_000);
});
