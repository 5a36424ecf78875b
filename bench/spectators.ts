// Spectators by the thousand beside the team (issue 28, "the team always gets in"): 5,000 spectator
// sockets from many loopback addresses (127.2.P.1-50, 50 per reading process) fill the spectators'
// budget of a 1,000-board hall pressing 15 times a second, then 200 team clients log in at once (on
// the slots kept for the team) from their own addresses, each with a deputy's token of its own never
// used before (200 tokens to check, not one check shared). Every client opens as the page does: its
// hello asks for the first screen's boards (firstBoards) and it asks for the rest (`rest`) as soon as
// that snapshot is in (a page asks after painting it). Measured: each team login (hello sent -> welcome,
// the target: 200 clients made at once in one process wait for each other's sockets, which 200 tablets
// do not; socket opened -> welcome shown too), its first screen (hello sent -> the first-screen
// snapshot, the target; and from the socket opened) and its whole hall (socket opened -> the tournament
// view that follows the rest); press -> client for the team and
// for the spectators (the board's `asOf` against the wall clock every process reads, as
// hall-readers.ts), and the server's RSS per 1,000 spectators, read from /proc/PID/status by this
// process. The console runs in its own process (this file with --serve-spectators) and the clients in
// others (--read-spectators, 1,000 each); each is started by `sh -c 'ulimit -n <hard limit>; exec node
// ...'`, so its soft file-descriptor limit is the hard one. Every team client parses every message;
// one spectator in SAMPLE parses and measures, the others read and count bytes (parsing 5,000 streams
// would load the machine more than the console does). Until every client of a process has its whole
// hall its stream is only kept, and parsed then: parsing 200 snapshots of a 1,000-board hall while the
// others log in would hold up this process's own logins.
// BENCH_SPECTATORS, BENCH_TEAM, BENCH_BOARDS and BENCH_SECONDS make it smaller; BENCH_CPU_PROF=DIR
// writes each process's CPU profile there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { realClock, startConsole, type BoardView } from '../arbiter-console/index.ts';
import { hallEventForTest } from './arbiter-console.ts';
import { wallNow } from './hall-readers.ts';
import type { BenchRow } from './table.ts';
import { steadyPresses } from './steady-presses.ts';

const SPECTATORS = Number(process.env.BENCH_SPECTATORS ?? 5000);
const TEAM = Number(process.env.BENCH_TEAM ?? 200);
const BOARDS = Number(process.env.BENCH_BOARDS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PRESSES_PER_SECOND = 15;
const PER_PROCESS = 1000;
const ADDRESSES_PER_PROCESS = 50;
const SAMPLE = 10;
/**
 * The boards a client asks for first: more than the page asks at 1920x1080 (web/ctrl.ts's
 * firstScreenRows: 129), as the page asked before it sized its first screen to its window.
 */
const FIRST_SCREEN = 160;

type FromServer = { type: 'ready'; url: string; tokens: readonly string[]; wallAtZero: number; pid: number };
type Role = 'spectator' | 'arbiter';
type ToReader =
  | { type: 'open'; wsUrl: string; tokens: readonly string[]; wallAtZero: number; role: Role; addresses: readonly string[]; count: number; atOnce: number }
  | { type: 'start' }
  | { type: 'end' }
  | { type: 'stop' };
interface Report {
  readonly latencies: number[];
  /** From opening the socket to the welcome: a login as the arbiter waits for it. */
  readonly loginMs: number[];
  /** From the hello sent to the welcome: the console's part of a login. */
  readonly helloMs: number[];
  /** From opening the socket to the first screen's snapshot: what a page needs to draw its first rows. */
  readonly firstScreenMs: number[];
  /** From the hello sent to the first screen's snapshot: the console's part of it. */
  readonly helloFirstScreenMs: number[];
  /** From opening the socket to the tournament view that follows the rest (asked for at once): the whole hall. */
  readonly wholeHallMs: number[];
  readonly refused: number;
  readonly clients: number;
  readonly connected: number;
}
type FromReader = { type: 'ready' } | ({ type: 'opened' } & Report) | { type: 'started' } | ({ type: 'report' } & Report);

/** This file again as `mode`, its soft file-descriptor limit raised to the hard one, with an IPC channel. */
function child(mode: string): ChildProcess {
  // BENCH_CPU_PROF=DIR: each process's CPU profile (node --cpu-prof) goes to DIR when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const node = [process.execPath, ...profile, '--import', 'tsx', fileURLToPath(import.meta.url), mode].map((a) => `'${a}'`).join(' ');
  return spawn('sh', ['-c', `ulimit -n "$(ulimit -Hn)"; exec ${node}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

const nextMessage = <T>(c: ChildProcess): Promise<T> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a spectators bench process exited (${code})`));
    c.once('exit', onExit);
    c.once('message', (m) => {
      c.off('exit', onExit);
      resolve(m as T);
    });
  });

async function ask<T>(c: ChildProcess, m: ToReader): Promise<T> {
  const answer = nextMessage<T>(c);
  c.send(m);
  return answer;
}

async function serveSpectators(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-spectators-'));
  const source = realClock(0);
  const wallAtZero = wallNow() - source.now();
  // The spectators' budget is the bench's 5,000; the team's 200 slots are the default, on top of it.
  const run = await startConsole({
    dataDir,
    port: 0,
    noPage: true,
    source,
    event: hallEventForTest(BOARDS),
    firstRound: true,
    server: { limits: { maxConnections: SPECTATORS } },
  });
  const hall = run.hall;
  const chief = { id: 'chief', name: 'IA Chief', role: 'chief' } as const;
  const tokens: string[] = [];
  for (let i = 0; i < TEAM; i++) {
    const issued = await run.team.command({ type: 'issueCredential', name: `Deputy ${i + 1}`, role: 'deputy' }, chief);
    if (!issued.ok || issued.token === undefined) throw new Error(`deputy ${i + 1} not issued: ${issued.ok ? 'no token' : issued.reason}`);
    tokens.push(issued.token);
  }
  const stopPressing = steadyPresses(hall, BOARDS, PRESSES_PER_SECOND);
  process.on('message', () => {
    stopPressing();
    void run.stop().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  process.send!({ type: 'ready', url: run.url, tokens, wallAtZero, pid: process.pid } satisfies FromServer);
}

async function readSpectators(): Promise<void> {
  const clients: WebSocket[] = [];
  let measuring = false;
  let latencies: number[] = [];
  /** Each measuring client's stream until every client is logged in, read then. */
  const kept: (() => void)[] = [];
  let live = false;
  const loginMs: number[] = [];
  const helloMs: number[] = [];
  const firstScreenMs: number[] = [];
  const helloFirstScreenMs: number[] = [];
  const wholeHallMs: number[] = [];
  let refused = 0;
  /** Each client's first screen (its first-screen snapshot) and whole hall (the tournament view that follows the rest), once it has them. */
  const screens: Promise<void>[] = [];
  const openOne = (m: Extract<ToReader, { type: 'open' }>, i: number): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const ws = new WebSocket(m.wsUrl, { localAddress: m.addresses[i % m.addresses.length]! });
      const parses = m.role === 'arbiter' || i % SAMPLE === 0;
      const presses = new Map<string, number>();
      let firstScreen: () => void = () => {};
      let wholeHall: () => void = () => {};
      screens.push(new Promise<void>((r) => (firstScreen = r)), new Promise<void>((r) => (wholeHall = r)));
      const gaveUp = () => {
        firstScreen();
        wholeHall();
        resolve();
      };
      ws.on('error', () => {});
      ws.once('unexpected-response', () => {
        refused += 1;
        gaveUp();
      });
      // As the page does: a ping every 3 s (a silent spectator gives way to a newcomer when the spectators are full).
      const pings = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 3000);
      ws.once('close', () => {
        clearInterval(pings);
        gaveUp();
      });
      let helloAt = 0;
      let phase: 'welcome' | 'first screen' | 'rest' | 'live' = 'welcome';
      // As the page opens: its first screen's boards first (firstBoards), the rest when they are drawn.
      ws.once('open', () => {
        helloAt = performance.now();
        const hello = m.role === 'arbiter' ? { type: 'hello', role: 'arbiter', token: m.tokens[i % m.tokens.length] } : { type: 'hello', role: 'spectator' };
        ws.send(JSON.stringify({ ...hello, firstBoards: FIRST_SCREEN }));
      });
      ws.on('message', (data: Buffer) => {
        const now = wallNow();
        const head = data.subarray(0, 20).toString();
        if (phase === 'welcome' && head.startsWith('{"type":"welcome"')) {
          loginMs.push(performance.now() - started);
          helloMs.push(performance.now() - helloAt);
          clients.push(ws);
          phase = 'first screen';
          return resolve();
        }
        if (head.startsWith('{"type":"error"')) {
          refused += 1;
          return gaveUp();
        }
        if (phase === 'first screen' && head.startsWith('{"type":"snapshot"')) {
          firstScreenMs.push(performance.now() - started);
          helloFirstScreenMs.push(performance.now() - helloAt);
          phase = 'rest';
          firstScreen();
          // The page asks once it has drawn these; the bench draws nothing, so at once (as a background tab does).
          ws.send('{"type":"rest"}');
        } else if (phase === 'rest' && head.startsWith('{"type":"tournament"')) {
          wholeHallMs.push(performance.now() - started);
          phase = 'live';
          wholeHall();
        }
        if (!parses || (!head.startsWith('{"type":"delta"') && !head.startsWith('{"type":"snapshot"'))) return;
        const read = () => {
          const message = JSON.parse(String(data)) as { type: string; boards?: BoardView[] };
          for (const b of message.boards ?? []) {
            const count = b.presses.white + b.presses.black;
            if (measuring && message.type === 'delta' && count > (presses.get(b.id) ?? 0)) latencies.push(now - (m.wallAtZero + b.asOf));
            presses.set(b.id, count);
          }
        };
        if (live) read();
        else kept.push(read);
      });
    });
  const report = (): Report => ({
    latencies,
    loginMs,
    helloMs,
    firstScreenMs,
    helloFirstScreenMs,
    wholeHallMs,
    refused,
    clients: clients.length,
    connected: clients.filter((c) => c.readyState === WebSocket.OPEN).length,
  });
  process.on('message', (m: ToReader) => {
    switch (m.type) {
      case 'open':
        void (async () => {
          for (let i = 0; i < m.count; i += m.atOnce) await Promise.all(Array.from({ length: Math.min(m.atOnce, m.count - i) }, (_, k) => openOne(m, i + k)));
          // Every client's first screen and whole hall, or what came of them in a minute.
          await Promise.race([Promise.all(screens), new Promise((r) => setTimeout(r, 60_000))]);
          const logins = report();
          // What came meanwhile, then what comes while that is read, until nothing waits.
          while (kept.length > 0) {
            for (const read of kept.splice(0)) read();
            await new Promise((r) => setImmediate(r));
          }
          live = true;
          process.send!({ type: 'opened', ...logins } satisfies FromReader);
        })();
        return;
      case 'start':
        latencies = [];
        measuring = true;
        process.send!({ type: 'started' } satisfies FromReader);
        return;
      case 'end':
        measuring = false;
        process.send!({ type: 'report', ...report() } satisfies FromReader);
        return;
      case 'stop':
        for (const c of clients) c.terminate();
        process.exit(0);
    }
  });
  process.send!({ type: 'ready' } satisfies FromReader);
}

/** The server's resident memory now (MB), as the kernel counts it. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
/** The largest of sorted values (a spread of 100,000 latencies overflows the stack). */
const max = (sorted: readonly number[]): number => sorted.at(-1) ?? NaN;
const merge = (reports: readonly Report[], key: 'latencies' | 'firstScreenMs'): number[] => reports.flatMap((r) => r[key]).sort((a, b) => a - b);

export async function run(): Promise<BenchRow[]> {
  const server = child('--serve-spectators');
  const ready = await nextMessage<FromServer>(server);
  const wsUrl = `${ready.url.replace('http', 'ws')}/ws`;
  const readers: ChildProcess[] = [];
  const open = async (role: Role, count: number, addresses: string[], atOnce: number): Promise<ChildProcess & { opened: Report }> => {
    const reader = child('--read-spectators');
    readers.push(reader);
    await nextMessage(reader);
    const opened = await ask<Report>(reader, { type: 'open', wsUrl, tokens: ready.tokens, wallAtZero: ready.wallAtZero, role, addresses, count, atOnce });
    return Object.assign(reader, { opened });
  };
  await new Promise((r) => setTimeout(r, 2000)); // the first tournament build done
  const rssBefore = rssMb(ready.pid);
  const connectStart = performance.now();
  const processes = Math.ceil(SPECTATORS / PER_PROCESS);
  const spectators = await Promise.all(
    Array.from({ length: processes }, (_, p) =>
      open(
        'spectator',
        Math.min(PER_PROCESS, SPECTATORS - p * PER_PROCESS),
        Array.from({ length: ADDRESSES_PER_PROCESS }, (_, a) => `127.2.${p}.${a + 1}`),
        25,
      ),
    ),
  );
  const connectS = (performance.now() - connectStart) / 1000;
  await new Promise((r) => setTimeout(r, 15_000)); // snapshots and tournament views drained
  const rssSpectators = rssMb(ready.pid);
  const loadAtLogins = loadavg()[0]!.toFixed(1);
  const team = await open(
    'arbiter',
    TEAM,
    Array.from({ length: TEAM }, (_, a) => `127.3.${Math.floor(a / 250)}.${(a % 250) + 1}`),
    TEAM,
  );
  const all = [...spectators, team];
  await Promise.all(all.map((r) => ask(r, { type: 'start' })));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const reports = await Promise.all(all.map((r) => ask<Report>(r, { type: 'end' })));
  const teamReport = reports.at(-1)!;
  const spectatorReports = reports.slice(0, -1);
  await Promise.all(
    [...readers, server].map((c) => {
      const exited = new Promise((r) => c.once('exit', r));
      c.send({ type: 'stop' } satisfies ToReader);
      return exited;
    }),
  );

  const connected = spectatorReports.reduce((s, r) => s + r.connected, 0);
  const refused = spectators.reduce((s, r) => s + r.opened.refused, 0);
  const logins = team.opened.loginMs.toSorted((a, b) => a - b);
  const hellos = team.opened.helloMs.toSorted((a, b) => a - b);
  const firstScreens = team.opened.firstScreenMs.toSorted((a, b) => a - b);
  const helloFirstScreens = team.opened.helloFirstScreenMs.toSorted((a, b) => a - b);
  const wholeHalls = team.opened.wholeHallMs.toSorted((a, b) => a - b);
  const spectatorScreens = merge(
    spectators.map((r) => r.opened),
    'firstScreenMs',
  );
  const teamLatency = merge([teamReport], 'latencies');
  const spectatorLatency = merge(spectatorReports, 'latencies');
  const perThousand = ((rssSpectators - rssBefore) / connected) * 1000;
  const load = `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
  const part = `spectators (${SPECTATORS} from ${processes * ADDRESSES_PER_PROCESS} addresses + ${TEAM} team, ${BOARDS} boards, ${PRESSES_PER_SECOND} presses/s)`;
  const teamP99 = percentile(teamLatency, 99);
  const spectatorP99 = percentile(spectatorLatency, 99);
  return [
    {
      part,
      measure: `spectators connected (in ${connectS.toFixed(0)} s, 25 at a time per process; first screen p50 / max) / refused, still open after ${SECONDS} s`,
      value: `${connected} (${percentile(spectatorScreens, 50).toFixed(0)} / ${max(spectatorScreens).toFixed(0)} ms) / ${refused} (${load})`,
      target: `${SPECTATORS} / 0`,
      ok: connected === SPECTATORS && refused === 0,
    },
    {
      part,
      measure: `team logins (${TEAM} at once, each its own deputy's token not used before; load ${loadAtLogins}): hello sent -> welcome p50 / max (socket opened -> welcome), logged in`,
      value: `${percentile(hellos, 50).toFixed(0)} / ${max(hellos).toFixed(0)} ms (${percentile(logins, 50).toFixed(0)} / ${max(logins).toFixed(0)} ms), ${hellos.length} of ${TEAM}`,
      target: 'every one ≤ 1 s',
      ok: hellos.length === TEAM && max(hellos) <= 1000,
    },
    {
      part,
      measure: `team first screens (hello with firstBoards ${FIRST_SCREEN}): hello sent -> first-screen snapshot p50 / max (socket opened -> it); socket opened -> whole hall (rest asked at once, then the tournament view) p50 / max`,
      value: `${percentile(helloFirstScreens, 50).toFixed(0)} / ${max(helloFirstScreens).toFixed(0)} ms (${percentile(firstScreens, 50).toFixed(0)} / ${max(firstScreens).toFixed(0)} ms), ${helloFirstScreens.length} of ${TEAM}; ${percentile(wholeHalls, 50).toFixed(0)} / ${max(wholeHalls).toFixed(0)} ms, ${wholeHalls.length} of ${TEAM}`,
      target: 'first screen: every one ≤ 1 s',
      ok: helloFirstScreens.length === TEAM && max(helloFirstScreens) <= 1000,
    },
    {
      part,
      measure: 'team press->client p50 / p99',
      value: `${percentile(teamLatency, 50).toFixed(1)} / ${teamP99.toFixed(1)} ms (${teamLatency.length} deliveries)`,
      target: 'p99 ≤ 100 ms',
      ok: teamP99 <= 100,
    },
    {
      part,
      measure: `spectator press->client p50 / p99 / max (1 in ${SAMPLE} measured)`,
      value: `${percentile(spectatorLatency, 50).toFixed(0)} / ${spectatorP99.toFixed(0)} / ${max(spectatorLatency).toFixed(0)} ms (${spectatorLatency.length} deliveries)`,
      target: 'p99 ≤ 1 s',
      ok: spectatorP99 <= 1000,
    },
    {
      part,
      measure: 'server RSS per 1,000 spectators (/proc, before and 15 s after they connected)',
      value: `${perThousand.toFixed(0)} MB (${rssBefore.toFixed(0)} -> ${rssSpectators.toFixed(0)} MB)`,
      target: 'stated',
    },
  ];
}

if (process.argv.includes('--serve-spectators')) await serveSpectators();
if (process.argv.includes('--read-spectators')) await readSpectators();
