// A hall on the bus, measured from outside with real processes: one `nats-server -js`, H hall hosts
// (`zeitnot hall-host --simulate all`, virtual players journaling directly) and a console
// (`zeitnot serve --bus --simulate-event`), as the README runs them. Rows:
// - press to console: from the host journaling a clock event to the console having journaled and
//   applied its copy (the console's /health `bus.lagMs`; both on this machine's wall clock), as two
//   rows that leave nothing out: the round's start (every clock event journaled until every board's
//   clock is seen started: the arrivals and starts of all boards at once) and normal play after it;
// - CPU per entry in normal play, of a host, the console and nats-server, read from outside
//   (/proc/<pid>/stat, user + system) and divided by the entries each handled, next to main's;
// - backlog: one host cut off (SIGSTOP on a socat relay) for PARTITION_S, then the time until the
//   console has its every entry, and the rate, projected onto the issue's 5-minute, 100-board backlog;
// - rebuild: a second console on an empty data directory, from start to serving the whole stream.
// 4 hosts x 25 boards by default; the issue's 10 x 100 is ZEITNOT_BENCH_HOSTS=10
// ZEITNOT_BENCH_BOARDS=100 (ZEITNOT_BENCH_PARTITION_S the partition), on a 3-node cluster as the issue
// measured it with ZEITNOT_BENCH_SERVERS=3 (the stream R3; no partition then: a client learns the
// other servers from the one it reaches and goes round a cut relay).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { hallEvent } from '../scripts/hall-event.ts';
import { freePort, startNatsCluster, type NatsCluster } from '../tests/support/nats.ts';
import type { BenchRow } from './table.ts';

const HOSTS = Number(process.env.ZEITNOT_BENCH_HOSTS ?? 4);
const BOARDS = Number(process.env.ZEITNOT_BENCH_BOARDS ?? 25);
const PARTITION_S = Number(process.env.ZEITNOT_BENCH_PARTITION_S ?? 60);
const SERVERS = Number(process.env.ZEITNOT_BENCH_SERVERS ?? 1);
/** Press to console p99 in normal play: 100 ms for a small hall; the many-hosts issue asks 250 ms of 10 x 100 on this machine. */
const P99_TARGET_MS = HOSTS * BOARDS >= 1_000 ? 250 : 100;
const SCALE = 10;
const NORMAL_PLAY_S = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listening(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on ${port}`);
}

interface Proc {
  readonly child: ChildProcess;
  out(): string;
  stop(): Promise<void>;
}

function spawnProc(command: string, args: string[], options: { detached?: boolean } = {}): Proc {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(options.detached ? { detached: true } : {}) });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (text = (text + c.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    out: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.detached) process.kill(-child.pid!, 'SIGCONT');
        child.kill('SIGTERM');
      }
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A process's CPU time (user + system) so far, read from outside (/proc/<pid>/stat), in ms. */
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name (which may hold spaces): state is the first, utime the 12th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

function allCount(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM entries').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function countOf(file: string, source: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM entries WHERE source = ?').get(source) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** BENCH_CPU_PROF=DIR (as every bench takes it): the console and host h1 run under `node --cpu-prof` into DIR (written when they stop). */
const PROFILE = process.env.BENCH_CPU_PROF;
const zeitnot = (...args: string[]): Proc => spawnProc(process.execPath, ['bin/zeitnot.js', ...args]);
const profiled = (...args: string[]): Proc =>
  spawnProc(process.execPath, [...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : []), 'bin/zeitnot.js', ...args]);

async function consoleUrl(p: Proc, timeoutMs = 600_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = /arbiter page: (http:\/\/\S+?)\//.exec(p.out())?.[1];
    if (url) return url;
    if (p.child.exitCode !== null || Date.now() > deadline) throw new Error(`the console did not start:\n${p.out()}`);
    await sleep(50);
  }
}

/**
 * CPU time per entry in normal play measured with this bench on main before the outbox sent one message
 * at a time (commit 2260156), by hall size: what a process spends a second apart from its entries
 * weighs more on fewer entries, so only the same size compares. The targets are half of these. Load:
 * 4 x 25 at 17.8, 4 x 50 at 16.8 (this branch's bench running beside it), 4 x 100 at 27.6.
 */
const BEFORE_MS: Record<string, { readonly host: number; readonly console: number; readonly nats: number; readonly source?: string }> = {
  '4x25': { host: 6.98, console: 5.97, nats: 0.86 },
  '4x50': { host: 2.62, console: 1.01, nats: 0.39 },
  '4x100': { host: 1.86, console: 0.39, nats: 0.21 },
  // The issue's own measurement on three servers (hosts 2.3-2.9 ms, console 0.4-0.7, NATS 1.4-2 for the
  // three): the low ends, so the target is half the best it saw.
  '10x100x3': { host: 2.3, console: 0.4, nats: 1.4, source: "the issue's" },
};

function cpuRows(perEntry: { host: number; console: number; nats: number }, hostEntries: number, received: number, load: string): BenchRow[] {
  const before = BEFORE_MS[`${HOSTS}x${BOARDS}${SERVERS > 1 ? `x${SERVERS}` : ''}`];
  const row = (who: 'host' | 'console' | 'nats', what: string): BenchRow => ({
    part: 'bus',
    measure: `CPU per entry, ${what}, normal play (user + system from /proc; ${load}; ${before?.source ?? 'main'}: ${before ? `${before[who]} ms` : 'not measured at this size'})`,
    value: `${perEntry[who].toFixed(2)} ms`,
    ...(before ? { target: `<= ${(before[who] / 2).toFixed(2)} ms`, ok: perEntry[who] <= before[who] / 2 } : {}),
  });
  return [
    row('host', `hall host (${hostEntries} entries journaled and published by the hosts)`),
    row('console', `console (${received} entries received)`),
    row('nats', `nats-server${SERVERS > 1 ? `, the ${SERVERS} together` : ''} (per entry the console received)`),
  ];
}

/** How many messages the event's stream holds (`ZEITNOT_<event>`), from a server's monitoring endpoint. */
async function eventMessages(monitorPort: number): Promise<number> {
  type Jsz = { account_details?: { stream_detail?: { name: string; state: { messages: number } }[] }[] };
  const jsz = (await (await fetch(`http://127.0.0.1:${monitorPort}/jsz?streams=true`)).json()) as Jsz;
  const streams = (jsz.account_details ?? []).flatMap((a) => a.stream_detail ?? []);
  return streams.filter((st) => st.name.startsWith('ZEITNOT_')).reduce((n, st) => n + st.state.messages, 0);
}

/** One host cut off (SIGSTOP on its socat relay) for PARTITION_S, then back: how soon the console has its backlog. */
async function partition(relay: Proc, hostJournal: string, c1Journal: string, cut: string): Promise<BenchRow[]> {
  process.kill(-relay.child.pid!, 'SIGSTOP');
  const before = countOf(c1Journal, cut);
  await sleep(PARTITION_S * 1000);
  const journaled = countOf(hostJournal, cut);
  const thawed = Date.now();
  process.kill(-relay.child.pid!, 'SIGCONT');
  let caughtUpMs = NaN;
  for (let t = 0; t < 1200; t++) {
    if (countOf(c1Journal, cut) >= journaled) {
      caughtUpMs = Date.now() - thawed;
      break;
    }
    await sleep(50);
  }
  const backlog = journaled - before;
  const rate = backlog / (caughtUpMs / 1000);
  // The issue's case: 100 boards for 5 minutes of real time, at the rate measured per board here.
  const perBoardMinute = backlog / BOARDS / ((PARTITION_S * SCALE) / 60);
  const issueBacklog = Math.round(perBoardMinute * 100 * 5);
  const projectedS = issueBacklog / rate;

  return [
    {
      part: 'bus',
      measure: `backlog after a ${PARTITION_S} s partition of one host (${BOARDS} boards, ${(PARTITION_S * SCALE) / 60} min of play): ${backlog} entries, reconnect included`,
      value: Number.isNaN(caughtUpMs) ? 'not caught up in 60 s' : `${(caughtUpMs / 1000).toFixed(1)} s (${Math.round(rate)}/s)`,
    },
    {
      part: 'bus',
      measure: `that rate on a 5-minute backlog of 100 boards (${issueBacklog} entries, projected)`,
      value: Number.isNaN(projectedS) ? '-' : `${projectedS.toFixed(1)} s`,
      target: '<= 5 s',
      ok: projectedS <= 5,
    },
  ];
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-bus-'));
  const procs: Proc[] = [];
  let cluster: NatsCluster | undefined;
  try {
    const eventFile = join(dir, 'event.json');
    writeFileSync(eventFile, hallEvent(HOSTS * BOARDS, 'bench-hall'));
    let natsPort: number;
    let url: string;
    let natsPids: number[];
    let monitorPort: number;
    if (SERVERS > 1) {
      cluster = await startNatsCluster({}, SERVERS);
      natsPort = cluster.nodes[0]!.port;
      monitorPort = cluster.nodes[0]!.monitorPort;
      url = cluster.urls;
      natsPids = cluster.nodes.map((n) => n.pid!);
    } else {
      natsPort = await freePort();
      monitorPort = await freePort();
      const nats = spawnProc('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(natsPort), '-m', String(monitorPort), '-sd', join(dir, 'store')]);
      procs.push(nats);
      await listening(natsPort);
      url = `nats://127.0.0.1:${natsPort}`;
      natsPids = [nats.child.pid!];
    }
    const relayPort = await freePort();
    const relay = spawnProc('socat', [`TCP-LISTEN:${relayPort},bind=127.0.0.1,reuseaddr,fork`, `TCP:127.0.0.1:${natsPort}`], { detached: true });
    procs.push(relay);
    await listening(relayPort);
    const cut = `h${HOSTS}`;
    const hosts: Proc[] = [];
    for (let h = 1; h <= HOSTS; h++) {
      const boards = `${(h - 1) * BOARDS + 1}-${h * BOARDS}`;
      hosts.push(
        (h === 1 ? profiled : zeitnot)(
          'hall-host',
          '--bus',
          h === HOSTS ? `nats://127.0.0.1:${relayPort}` : url,
          '--event',
          eventFile,
          '--boards',
          boards,
          '--host-id',
          `h${h}`,
          '--simulate',
          'all',
          '--simulate-hardware',
          'none',
          '--data',
          join(dir, `h${h}`),
        ),
      );
    }
    procs.push(...hosts);
    const c1 = profiled(
      'serve',
      '--bus',
      url,
      '--event',
      eventFile,
      '--console-id',
      'c1',
      '--simulate-event',
      '--time-scale',
      String(SCALE),
      '--port',
      '0',
      '--data',
      join(dir, 'c1'),
    );
    procs.push(c1);
    const c1Url = await consoleUrl(c1);
    type Lag = { count: number; p50: number; p99: number; max: number };
    const health = async (query = ''): Promise<{ bus: { lagMs: Lag; hosts: { id: string; reachable: boolean; journaled: number }[] } }> =>
      (await fetch(`${c1Url}/health${query}`)).json() as never;
    const boardsStarted = async (): Promise<number> => {
      const { boards } = (await (await fetch(`${c1Url}/api/boards`)).json()) as { boards: { status: string }[] };
      return boards.filter((b) => b.status !== 'waiting').length;
    };
    // The round's start: every host heard and every board's clock started (its players' arrivals and
    // its start journaled by its host and read here). Its entries are a burst of their own: two
    // arrivals and a start per board, within a second or so.
    const startDeadline = Date.now() + 300_000;
    while ((await health()).bus.hosts.length < HOSTS || (await boardsStarted()) < HOSTS * BOARDS) {
      if (Date.now() > startDeadline) throw new Error(`the round did not start on every board:\n${c1.out()}`);
      await sleep(200);
    }
    const started = Date.now();
    const loadStart = loadavg()[0]!;
    // Normal play: every clock event the hosts journal from then on, for NORMAL_PLAY_S. Each process's
    // CPU time over it, per entry it handled: a host per entry it journaled, the console and the
    // server per host entry the console received (each went through both once).
    const c1Journal = join(dir, 'c1', 'journal.sqlite');
    const hostIds = hosts.map((_, i) => `h${i + 1}`);
    const cpuAt = () => ({
      hosts: hosts.map((p) => cpuMs(p.child.pid!)),
      console: cpuMs(c1.child.pid!),
      nats: natsPids.reduce((n, pid) => n + cpuMs(pid), 0),
      own: hostIds.map((id) => countOf(join(dir, id, 'journal.sqlite'), id)),
      received: allCount(c1Journal),
    });
    const cpuBefore = cpuAt();
    const messagesBefore = await eventMessages(monitorPort);
    await sleep(NORMAL_PLAY_S * 1000);
    const cpuAfter = cpuAt();
    const stored = (await eventMessages(monitorPort)) - messagesBefore;
    const hostEntries = cpuAfter.own.reduce((n, c, i) => n + c - cpuBefore.own[i]!, 0);
    const hostCpu = cpuAfter.hosts.reduce((n, c, i) => n + c - cpuBefore.hosts[i]!, 0);
    const received = cpuAfter.received - cpuBefore.received;
    const perEntry = {
      host: hostCpu / hostEntries,
      console: (cpuAfter.console - cpuBefore.console) / received,
      nats: (cpuAfter.nats - cpuBefore.nats) / received,
    };
    const roundStart = (await health(`?lagTo=${started}`)).bus.lagMs;
    const normal = (await health(`?lagFrom=${started}`)).bus.lagMs;
    const loadNormal = loadavg()[0]!;

    const partitionRows = SERVERS > 1 ? [] : await partition(relay, join(dir, cut, 'journal.sqlite'), c1Journal, cut);

    // A console on an empty data directory rebuilds the event from the stream.
    const messages = countOf(c1Journal, cut) + [...Array(HOSTS - 1).keys()].reduce((n, i) => n + countOf(c1Journal, `h${i + 1}`), 0);
    const rebuildStart = Date.now();
    const c2 = zeitnot('serve', '--bus', url, '--event', eventFile, '--console-id', 'c2', '--port', '0', '--data', join(dir, 'c2'));
    procs.push(c2);
    await consoleUrl(c2);
    const rebuildMs = Date.now() - rebuildStart;
    const load = `load ${loadNormal.toFixed(1)}`;
    return [
      {
        part: 'bus',
        measure: `press to console p50, normal play: ${HOSTS} hosts x ${BOARDS} boards into 1 console, time x${SCALE}, ${NORMAL_PLAY_S} s (${load})`,
        value: `${normal.p50} ms`,
      },
      {
        part: 'bus',
        measure: `press to console p99, same (${normal.count} clock events; max ${normal.max} ms)`,
        value: `${normal.p99} ms`,
        target: `<= ${P99_TARGET_MS} ms`,
        ok: normal.p99 <= P99_TARGET_MS,
      },
      ...cpuRows(perEntry, hostEntries, received, load),
      {
        part: 'bus',
        measure: `host entries per message the event's stream stored, normal play (${hostEntries} entries, ${stored} messages; the desk's and leases' among them)`,
        value: (hostEntries / stored).toFixed(2),
      },
      {
        part: 'bus',
        measure: `press to console p50 / p99, the round's start (${roundStart.count} arrivals and starts at once, load ${loadStart.toFixed(1)})`,
        value: `${roundStart.p50} / ${roundStart.p99} ms`,
      },
      ...partitionRows,
      {
        part: 'bus',
        measure: `console rebuild from the stream (${messages} host entries and the desk's), start to serving`,
        value: `${(rebuildMs / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
