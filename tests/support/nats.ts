// Real nats-server processes for the bus tests (Debian's package, installed by .ci/run): one server
// with JetStream, or a cluster of three on loopback ports, each with its own store in a temporary
// directory. Faults are real: `kill9()` (SIGKILL), `freeze()`/`thaw()` (SIGSTOP/SIGCONT), `restart()`
// on the same ports and store. Always `stop()` in afterEach/afterAll: it ends every process and removes
// the directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, isListening } from './ports.ts';

export { freePort };

export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find((p) => existsSync(p));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface NatsNode {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly monitorPort: number;
  readonly storeDir: string;
  readonly pid: number | undefined;
  running(): boolean;
  /** SIGKILL: the server dies at once, as when its machine loses power. */
  kill9(): Promise<void>;
  /** SIGSTOP / SIGCONT: frozen, its connections open and silent (a hung machine), then back. */
  freeze(): void;
  thaw(): void;
  /** Starts it again on the same ports and store. */
  restart(): Promise<void>;
  /** The monitoring endpoint's JSON (`/jsz`, `/varz`, ...). */
  monitor(path: string): Promise<unknown>;
  stop(): Promise<void>;
  log(): string;
}

export interface NatsTls {
  readonly certFile: string;
  readonly keyFile: string;
  /** Verify clients against this CA. */
  readonly caFile?: string;
}

export interface NatsOptions {
  /** Lines added to the configuration (an `authorization { ... }` block). */
  readonly extra?: string;
  readonly tls?: NatsTls;
}

interface NodePlan {
  readonly name: string;
  readonly port: number;
  readonly monitorPort: number;
  readonly routePort?: number;
  readonly routes?: readonly number[];
  readonly storeDir: string;
  readonly configFile: string;
}

function configText(plan: NodePlan, options: NatsOptions): string {
  const lines = [
    `server_name: ${plan.name}`,
    `listen: 127.0.0.1:${plan.port}`,
    `http: 127.0.0.1:${plan.monitorPort}`,
    // A hung server (SIGSTOP) is given up by its clients and routes within seconds, not minutes.
    'ping_interval: "1s"',
    'ping_max: 2',
    `jetstream { store_dir: ${JSON.stringify(plan.storeDir)}, max_memory_store: 64MB, max_file_store: 2GB }`,
  ];
  if (plan.routePort !== undefined) {
    const routes = (plan.routes ?? []).map((p) => `nats-route://127.0.0.1:${p}`);
    lines.push(`cluster { name: zeitnot-test, listen: 127.0.0.1:${plan.routePort}, routes: [${routes.join(', ')}] }`);
  }
  if (options.tls) {
    const t = options.tls;
    lines.push(
      `tls { cert_file: ${JSON.stringify(t.certFile)}, key_file: ${JSON.stringify(t.keyFile)}${t.caFile ? `, ca_file: ${JSON.stringify(t.caFile)}, verify: true` : ''} }`,
    );
  }
  if (options.extra) lines.push(options.extra);
  return lines.join('\n') + '\n';
}

function startNode(plan: NodePlan, options: NatsOptions, onExit: () => void): { child: ChildProcess; log: () => string } {
  if (!NATS_SERVER) throw new Error('nats-server is not installed (apt-get install nats-server)');
  writeFileSync(plan.configFile, configText(plan, options));
  const child = spawn(NATS_SERVER, ['-c', plan.configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (text.length > 200_000) text = text.slice(-100_000);
  });
  child.once('exit', onExit);
  return { child, log: () => text };
}

async function fetchJson(port: number, path: string): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return response.json();
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, log: () => string, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`nats-server exited while waiting for ${what}\n${log().slice(-3000)}`);
    try {
      if (await check()) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${log().slice(-3000)}`);
    await sleep(50);
  }
}

function makeNode(plan: NodePlan, options: NatsOptions): NatsNode {
  let current: { child: ChildProcess; log: () => string } | undefined;
  let exited = true;
  let logs = '';
  const launch = (): void => {
    exited = false;
    current = startNode(plan, options, () => {
      exited = true;
    });
  };
  const waitExit = async (): Promise<void> => {
    for (let i = 0; i < 400 && !exited; i++) await sleep(10);
  };
  launch();
  const node: NatsNode = {
    name: plan.name,
    port: plan.port,
    url: `nats://127.0.0.1:${plan.port}`,
    monitorPort: plan.monitorPort,
    storeDir: plan.storeDir,
    get pid() {
      return current?.child.pid;
    },
    running: () => !exited,
    async kill9() {
      if (exited) return;
      current?.child.kill('SIGKILL');
      await waitExit();
    },
    freeze() {
      current?.child.kill('SIGSTOP');
    },
    thaw() {
      current?.child.kill('SIGCONT');
    },
    async restart() {
      if (!exited) await node.stop();
      logs += current?.log() ?? '';
      launch();
      await waitFor(
        `${plan.name} to listen again`,
        async () => ((await fetchJson(plan.monitorPort, '/varz')) as { server_name?: string }).server_name === plan.name,
        20_000,
        node.log,
        node.running,
      );
    },
    monitor: (path) => fetchJson(plan.monitorPort, path),
    async stop() {
      if (exited) return;
      current?.child.kill('SIGCONT');
      current?.child.kill('SIGTERM');
      await waitExit();
      if (!exited) {
        current?.child.kill('SIGKILL');
        await waitExit();
      }
    },
    log: () => logs + (current?.log() ?? ''),
  };
  return node;
}

export interface NatsServer extends NatsNode {
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/** One `nats-server` with JetStream (the contract's `nats-server -js`). */
export async function startNats(options: NatsOptions = {}): Promise<NatsServer> {
  const dir = await mkdtemp(join(tmpdir(), 'zeitnot-nats-'));
  const plan: NodePlan = {
    name: 'solo',
    port: await freePort(),
    monitorPort: await freePort(),
    storeDir: join(dir, 'store'),
    configFile: join(dir, 'solo.conf'),
  };
  const node = makeNode(plan, options);
  try {
    await waitFor(
      'nats-server with JetStream',
      async () => ((await fetchJson(plan.monitorPort, '/healthz')) as { status?: string }).status === 'ok',
      20_000,
      node.log,
      node.running,
    );
  } catch (err) {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...node,
    get pid() {
      return node.pid;
    },
    async close() {
      await node.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface NatsCluster {
  readonly nodes: readonly NatsNode[];
  /** Every server's client URL, comma-separated as `--bus` takes them. */
  readonly urls: string;
  /** Waits until the cluster has a JetStream meta leader (and every running node knows it). */
  waitForLeader(timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** Three servers on loopback, routed to each other, JetStream clustered (streams can be R3). */
export async function startNatsCluster(options: NatsOptions = {}, size = 3): Promise<NatsCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'zeitnot-nats-cluster-'));
  const ports = await Promise.all(Array.from({ length: size }, async () => ({ client: await freePort(), monitor: await freePort(), route: await freePort() })));
  const nodes = ports.map((p, i) =>
    makeNode(
      {
        name: `n${i + 1}`,
        port: p.client,
        monitorPort: p.monitor,
        routePort: p.route,
        routes: ports.filter((_, j) => j !== i).map((q) => q.route),
        storeDir: join(dir, `n${i + 1}`),
        configFile: join(dir, `n${i + 1}.conf`),
      },
      options,
    ),
  );
  const log = () => nodes.map((n) => `--- ${n.name}\n${n.log().slice(-1500)}`).join('\n');
  const cluster: NatsCluster = {
    nodes,
    urls: nodes.map((n) => n.url).join(','),
    async waitForLeader(timeoutMs = 30_000) {
      let leader = '';
      await waitFor(
        'a JetStream meta leader',
        async () => {
          const running = nodes.filter((n) => n.running());
          const views = await Promise.all(
            running.map(async (n) => ((await n.monitor('/jsz')) as { meta_cluster?: { leader?: string } }).meta_cluster?.leader ?? ''),
          );
          leader = views[0] ?? '';
          return leader !== '' && views.every((v) => v === leader);
        },
        timeoutMs,
        log,
      );
      return leader;
    },
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.waitForLeader();
    // A meta leader needs no full mesh (two servers may agree through the third), but a client
    // learns the cluster's servers (connect_urls, which ensureEventStream counts for its replicas)
    // from the routes of the server it connects to: every server routed to every other first.
    const unrouted = async (): Promise<NatsNode[]> => {
      const routes = await Promise.all(nodes.map(async (n) => (await n.monitor('/routez')) as { routes?: { remote_id?: string }[] }));
      return nodes.filter((_, i) => new Set((routes[i]!.routes ?? []).map((route) => route.remote_id)).size < size - 1);
    };
    // nats-server 2.9 can drop a pair that both servers dialed at once as a "Duplicate Route" on both
    // sides and not dial it again (bus-faults once waited 30 s for a mesh that never formed); a server
    // started again dials its routes anew. One dialer per pair instead never formed the mesh at all.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await waitFor('every server routed to every other', async () => (await unrouted()).length === 0, 15_000, log);
        break;
      } catch (err) {
        const stuck = await unrouted().catch(() => []);
        if (attempt === 3 || stuck.length === 0) throw err;
        await stuck[0]!.restart();
        await cluster.waitForLeader();
      }
    }
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

export interface Link {
  /** Where a client connects instead of the server. */
  readonly url: string;
  /** SIGSTOP on the relay: every connection through it goes silent, as when a cable or a switch dies. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * A TCP relay (socat, in its own process group) between a client and one server: freezing it is a
 * network partition for that client alone: its connection stays open and nothing arrives either way.
 */
export async function startLink(targetPort: number): Promise<Link> {
  const port = await freePort();
  const child = spawn('socat', [`TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork`, `TCP:127.0.0.1:${targetPort}`], { stdio: 'ignore', detached: true });
  const group = child.pid!;
  await waitFor(
    'the socat relay',
    async () => isListening(port),
    10_000,
    () => '',
  );
  const signal = (sig: NodeJS.Signals): void => {
    try {
      process.kill(-group, sig);
    } catch {
      // already gone
    }
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async stop() {
      signal('SIGCONT');
      signal('SIGKILL');
      for (let i = 0; i < 100 && child.exitCode === null && child.signalCode === null; i++) await sleep(10);
    },
  };
}

/**
 * Resolves once `node` no longer holds a client connection named `name` (a client cut off is given up
 * after its missed pings): a request then reaches no subscriber of that client ("no responders").
 */
export async function untilClientGone(node: NatsNode, name: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${node.name} dropping the connection of '${name}'`,
    async () => !(((await node.monitor('/connz')) as { connections?: { name?: string }[] }).connections ?? []).some((c) => c.name === name),
    timeoutMs,
    node.log,
  );
}
