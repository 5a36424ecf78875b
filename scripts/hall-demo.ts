// `npm run hall-demo`: the hall of docs/hall.md on one machine, a simulated round of 1,000 boards: three
// NATS servers in a cluster (docs/hall/nats-n1.conf .. n3.conf, on loopback), 10 hall hosts of 100
// boards each with virtual players, and two consoles (c1 the simulated arbiter, c2 following the
// stream), each process with its log in the demo's directory. Every 10 s a line says what each console
// shows. Ctrl-C stops everything: the consoles, the hosts, then the servers.
//
//   npm run hall-demo -- [--hosts 10] [--boards 100] [--time-scale 10] [--dir hall-demo] [--rounds N]
//
// --boards is per host; --rounds N stops by itself after N rounds are over on both consoles. The
// directory must not exist yet (remove it to start again).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { hallEvent } from './hall-event.ts';

const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '10' },
    boards: { type: 'string', default: '100' },
    'time-scale': { type: 'string', default: '10' },
    dir: { type: 'string', default: 'hall-demo' },
    rounds: { type: 'string' },
    port: { type: 'string', default: '8080' },
  },
});
const HOSTS = Number(args.hosts);
const BOARDS = Number(args.boards);
const SCALE = Number(args['time-scale']);
const ROUNDS = args.rounds === undefined ? Infinity : Number(args.rounds);
const PORT = Number(args.port);
const DIR = resolve(args.dir);
const ROOT = resolve(import.meta.dirname, '..');
const NATS = [1, 2, 3].map((n) => ({
  name: `n${n}`,
  conf: join(ROOT, 'docs', 'hall', `nats-n${n}.conf`),
  client: 4221 + n,
  cluster: 6221 + n,
  http: 8221 + n,
}));
const BUS = NATS.map((n) => `nats://127.0.0.1:${n.client}`).join(',');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string): void => void process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function fail(message: string): never {
  process.stderr.write(`hall-demo: ${message}\n`);
  process.exit(2);
}

const portFree = (port: number): Promise<boolean> =>
  new Promise((ok) => {
    const s = createServer();
    s.once('error', () => ok(false));
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)));
  });

interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly exited: Promise<void>;
}
const children: Child[] = [];

/** A process of the demo, in its own process group (Ctrl-C reaches the demo only, which stops them in order), its output in DIR/logs/NAME.log. */
function start(name: string, command: string, argv: string[]): Child {
  const log = createWriteStream(join(DIR, 'logs', `${name}.log`));
  const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const c = { name, process: child, exited };
  children.push(c);
  void exited.then(() => {
    if (!stopping) say(`${name} exited (${child.exitCode ?? child.signalCode}): see ${join(DIR, 'logs', `${name}.log`)}`);
  });
  return c;
}

const zeitnot = (name: string, ...argv: string[]): Child => start(name, process.execPath, [join(ROOT, 'bin', 'zeitnot.js'), ...argv]);

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('stopping: consoles, hosts, then the NATS servers');
    // Consoles and hosts first (each journals its last entries), the servers last.
    for (const group of [
      children.filter((c) => c.name.startsWith('console')),
      children.filter((c) => c.name.startsWith('host')),
      children.filter((c) => c.name.startsWith('nats')),
    ]) {
      for (const c of group) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGTERM');
      await Promise.race([Promise.all(group.map((c) => c.exited)), sleep(15_000)]);
      for (const c of group) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await Promise.all(group.map((c) => c.exited));
    }
    say(`stopped; journals and logs stay in ${DIR}`);
  }
  process.exit(code);
}

async function json<T>(url: string): Promise<T | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return res.ok ? ((await res.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

interface Boards {
  readonly round: { readonly round?: number };
  readonly boards: readonly { readonly status: string }[];
}
type Lag = { count: number; p50: number; p99: number; max: number };
interface Health {
  readonly bus?: { readonly hosts: readonly { reachable: boolean }[]; readonly lagMs: Lag };
}

async function consoleUrl(c: Child, timeoutMs = 600_000): Promise<string> {
  const log = join(DIR, 'logs', `${c.name}.log`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = /arbiter page: (http:\/\/\S+?)\//.exec(existsSync(log) ? readFileSync(log, 'utf8') : '')?.[1];
    if (url) return url;
    if (c.process.exitCode !== null || Date.now() > deadline) return fail(`${c.name} did not start: see ${log}`);
    await sleep(200);
  }
}

async function main(): Promise<void> {
  if (!(HOSTS >= 1 && BOARDS >= 1 && SCALE > 0)) fail('--hosts, --boards and --time-scale take positive numbers');
  if (existsSync(DIR)) fail(`${DIR} exists: remove it to start a new demo, or give --dir`);
  for (const port of [...NATS.flatMap((n) => [n.client, n.cluster, n.http]), PORT, PORT + 1])
    if (!(await portFree(port))) fail(`port ${port} is taken on 127.0.0.1 (another demo or NATS server?)`);
  mkdirSync(join(DIR, 'logs'), { recursive: true });
  const eventFile = join(DIR, 'event.json');
  writeFileSync(eventFile, hallEvent(HOSTS * BOARDS));
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  say(`${HOSTS} hosts x ${BOARDS} boards (${HOSTS * BOARDS * 2} players in ${eventFile}), time x${SCALE}, in ${DIR}`);
  const servers = NATS.map((n) => start(`nats-${n.name}`, 'nats-server', ['-c', n.conf, '-sd', join(DIR, `nats-${n.name}`)]));
  // JetStream is ready when the three agree on a meta leader.
  for (let t = 0; ; t++) {
    const leaders = await Promise.all(
      NATS.map(async (n) => (await json<{ meta_cluster?: { leader?: string } }>(`http://127.0.0.1:${n.http}/jsz`))?.meta_cluster?.leader),
    );
    if (leaders[0] && leaders.every((l) => l === leaders[0])) {
      say(`NATS cluster up: ${BUS} (JetStream meta leader ${leaders[0]})`);
      break;
    }
    if (t > 600 || servers.some((c) => c.process.exitCode !== null)) return stopAll(1);
    await sleep(200);
  }
  const c1 = zeitnot(
    'console-c1',
    'serve',
    '--bus',
    BUS,
    '--event',
    eventFile,
    '--console-id',
    'c1',
    '--simulate-event',
    '--time-scale',
    String(SCALE),
    '--port',
    String(PORT),
    '--data',
    join(DIR, 'c1'),
  );
  for (let h = 1; h <= HOSTS; h++) {
    zeitnot(
      `host-h${h}`,
      'hall-host',
      '--bus',
      BUS,
      '--event',
      eventFile,
      '--boards',
      `${(h - 1) * BOARDS + 1}-${h * BOARDS}`,
      '--host-id',
      `h${h}`,
      '--simulate',
      'all',
      '--simulate-hardware',
      'none',
      '--data',
      join(DIR, `h${h}`),
    );
  }
  const c1Url = await consoleUrl(c1);
  const c2 = zeitnot('console-c2', 'serve', '--bus', BUS, '--event', eventFile, '--console-id', 'c2', '--port', String(PORT + 1), '--data', join(DIR, 'c2'));
  const c2Url = await consoleUrl(c2);
  say(`console c1 (the simulated arbiter): ${c1Url}/  console c2: ${c2Url}/  (tokens in logs/console-c*.log)`);
  await watch([c1Url, c2Url]);
  await stopAll(0);
}

/** A line every 10 s per console; each round's start and end; stops after --rounds rounds. */
async function watch(urls: readonly string[]): Promise<void> {
  let round = 0;
  let startedAt: number | undefined;
  let reported = false;
  let roundsDone = 0;
  /** Wall ms from which the clock events are this round's (the end of the last one). */
  let roundFrom = 0;
  for (;;) {
    await sleep(10_000);
    if (stopping) return;
    const seen = await Promise.all(
      urls.map(async (u) => ({
        boards: await json<Boards>(`${u}/api/boards`),
        health: await json<Health>(`${u}/health${startedAt ? `?lagFrom=${startedAt}` : ''}`),
      })),
    );
    const lines = seen.map(({ boards, health }, i) => {
      if (!boards) return `c${i + 1}: no answer`;
      const by = new Map<string, number>();
      for (const b of boards.boards) by.set(b.status, (by.get(b.status) ?? 0) + 1);
      const hosts = health?.bus?.hosts ?? [];
      const lag = health?.bus?.lagMs;
      return `c${i + 1}: round ${boards.round.round ?? '-'}, ${boards.boards.length} boards (${[...by].map(([s, n]) => `${n} ${s}`).join(', ')}), hosts ${hosts.filter((h) => h.reachable).length}/${hosts.length} heard, press to console p50/p99 ${lag?.p50 ?? '-'}/${lag?.p99 ?? '-'} ms${startedAt ? ' since all started' : ''}`;
    });
    say(`${lines.join(' | ')} (load ${loadavg()[0]!.toFixed(1)})`);
    const main = seen[0]!.boards;
    if (!main) continue;
    const r = main.round.round ?? 0;
    const total = HOSTS * BOARDS;
    const over = (b: Boards | undefined): boolean =>
      !!b && b.round.round === round && b.boards.length === total && b.boards.every((x) => x.status === 'finished');
    // A round is over when both consoles show every board finished, or (seen late) when c1 has seated the next.
    if (startedAt !== undefined && !reported && (seen.every((x) => over(x.boards)) || r > round)) {
      roundFrom = await report(urls, round, roundFrom, startedAt);
      reported = true;
      roundsDone += 1;
      if (roundsDone >= ROUNDS) return;
    }
    if (r !== round) {
      round = r;
      startedAt = undefined;
      reported = false;
    }
    if (startedAt === undefined && main.boards.length === total && main.boards.every((b) => b.status !== 'waiting')) {
      startedAt = Date.now();
      say(`round ${round}: every board's clock started on c1`);
    }
  }
}

/** Press to console on each console, the round's start (until every clock was seen started) and the play after it. */
async function report(urls: readonly string[], round: number, from: number, startedAt: number): Promise<number> {
  const now = Date.now();
  const show = (l: Lag | undefined): string => (l ? `p50 ${l.p50} / p99 ${l.p99} / max ${l.max} ms over ${l.count} clock events` : '-');
  for (const [i, u] of urls.entries()) {
    const start = (await json<Health>(`${u}/health?lagFrom=${from}&lagTo=${startedAt}`))?.bus?.lagMs;
    const play = (await json<Health>(`${u}/health?lagFrom=${startedAt}&lagTo=${now}`))?.bus?.lagMs;
    say(`round ${round} over; c${i + 1} press to console: the round's start ${show(start)}; play ${show(play)}`);
  }
  return now;
}

await main();
