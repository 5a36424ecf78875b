// The NATS configurations of the hall demo (docs/hall/nats-n1.conf .. n3.conf, `npm run hall-demo`):
// each one nats-server accepts as written, on loopback only, with ports of its own, and routes that
// join the three into one cluster. (A cluster from the guide's sample is started in hall-config.test.ts;
// these use fixed ports, so they are checked here without being started.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NATS_SERVER } from '../support/nats.ts';

const files = [1, 2, 3].map((n) => `docs/hall/nats-n${n}.conf`);
const read = (file: string) => {
  const text = readFileSync(file, 'utf8');
  const port = (key: string): number => Number(new RegExp(`^\\s*${key}:\\s*127\\.0\\.0\\.1:(\\d+)`, 'm').exec(text)?.[1]);
  return {
    text,
    name: /^server_name:\s*(\S+)/m.exec(text)?.[1],
    client: Number(/^listen:\s*127\.0\.0\.1:(\d+)/m.exec(text)?.[1]),
    http: port('http'),
    cluster: Number(/cluster \{[\s\S]*?listen:\s*127\.0\.0\.1:(\d+)/.exec(text)?.[1]),
    routes: [...text.matchAll(/nats-route:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])),
  };
};

describe("the hall demo's three NATS servers", () => {
  it('are valid configurations for nats-server, on loopback, one cluster of three with JetStream', () => {
    const servers = files.map(read);
    for (const file of files) {
      const checked = spawnSync(NATS_SERVER!, ['-t', '-c', file], { encoding: 'utf8' });
      expect(checked.status, checked.stderr).toBe(0);
      expect(checked.stderr).toContain(`configuration file ${file} is valid`);
    }
    for (const s of servers) {
      expect(s.text).toMatch(/jetstream \{/);
      expect(s.text).not.toMatch(/0\.0\.0\.0|store_dir/);
      expect(s.routes.sort()).toEqual(servers.map((x) => x.cluster).sort());
    }
    expect(new Set(servers.map((s) => s.name)).size).toBe(3);
    const ports = servers.flatMap((s) => [s.client, s.http, s.cluster]);
    expect(ports.every((p) => Number.isInteger(p) && p > 0)).toBe(true);
    expect(new Set(ports).size).toBe(9);
    // The demo connects every role to these three client ports.
    expect(readFileSync('scripts/hall-demo.ts', 'utf8')).toContain('client: 4221 + n');
    expect(servers.map((s) => s.client)).toEqual([4222, 4223, 4224]);
  });
});
