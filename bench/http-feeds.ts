// Broadcast relays polling the live PGN: 1,000 relays, each from its own loopback address (as relays on
// the internet are), ask for `/api/pgn` (every game of a 1,000-board hall) every 2 s, sending back the
// ETag they last got and `Accept-Encoding: gzip`, while the boards press 15 times a second. The console
// runs in a child process (this file with --serve-feeds) and reports its own CPU; the bytes out are the
// bodies the relays received (headers not counted). Ten team pages on the WebSocket (arbiters: the
// spectators' stream has a tick of its own, 250 ms), in a process of their own (hall-readers.ts),
// measure press -> screen meanwhile. BENCH_BOARDS, BENCH_RELAYS and
// BENCH_SECONDS make it smaller.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { realClock, startConsole } from '../arbiter-console/index.ts';
import { hallEventForTest } from './arbiter-console.ts';
import { HallReaders, wallNow } from './hall-readers.ts';
import type { BenchRow } from './table.ts';
import { steadyPresses } from './steady-presses.ts';

const BOARDS = Number(process.env.BENCH_BOARDS ?? 1000);
const RELAYS = Number(process.env.BENCH_RELAYS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const POLL_MS = 2000;
const PRESSES_PER_SECOND = 15;

const PAGES = 10;

type FromServer =
  { type: 'ready'; url: string; token: string; wallAtZero: number } | { type: 'usage'; cpuPct: number; renders: number; served: number; notModified: number };

async function serveFeeds(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-feeds-'));
  const source = realClock(0);
  const wallAtZero = wallNow() - source.now();
  const run = await startConsole({ dataDir, port: 0, noPage: true, source, event: hallEventForTest(BOARDS), firstRound: true });
  const hall = run.hall;
  const stopPressing = steadyPresses(hall, BOARDS, PRESSES_PER_SECOND);
  const health = async () => ((await (await fetch(`${run.url}/health`)).json()) as { http: { renders: number; served: number; notModified: number } }).http;
  let cpu = process.cpuUsage();
  let wall = performance.now();
  let before = await health();
  process.on('message', (m: { type: 'start' | 'stop' }) => {
    if (m.type === 'start') {
      void health().then((h) => {
        before = h;
        cpu = process.cpuUsage();
        wall = performance.now();
      });
      return;
    }
    const used = process.cpuUsage(cpu);
    const cpuPct = ((used.user + used.system) / 1000 / (performance.now() - wall)) * 100;
    stopPressing();
    void health().then(async (h) => {
      process.send!({
        type: 'usage',
        cpuPct,
        renders: h.renders - before.renders,
        served: h.served - before.served,
        notModified: h.notModified - before.notModified,
      } satisfies FromServer);
      await run.stop();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  process.send!({ type: 'ready', url: run.url, token: run.newToken!, wallAtZero } satisfies FromServer);
}

/** One relay: its own address and keep-alive connection, the ETag it last got. */
function relay(
  url: URL,
  index: number,
  until: number,
  tally: { bytes: number; ok: number; notModified: number; limited: number; errors: number },
): Promise<void> {
  const localAddress = `127.1.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let etag: string | undefined;
  const poll = (): Promise<void> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = { 'accept-encoding': 'gzip', ...(etag ? { 'if-none-match': etag } : {}) };
      const req = request({ host: url.hostname, port: url.port, path: '/api/pgn', headers, agent, localAddress }, (res) => {
        res.on('data', (c: Buffer) => (tally.bytes += c.length));
        res.on('end', () => {
          if (res.statusCode === 200) {
            tally.ok += 1;
            etag = res.headers.etag;
          } else if (res.statusCode === 304) tally.notModified += 1;
          else if (res.statusCode === 429) tally.limited += 1;
          resolve();
        });
      });
      req.on('error', () => {
        tally.errors += 1;
        resolve();
      });
      req.end();
    });
  return (async () => {
    // Spread over the first interval, as relays started at different times are.
    await new Promise((r) => setTimeout(r, (index / RELAYS) * POLL_MS));
    while (performance.now() < until) {
      const started = performance.now();
      await poll();
      await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (performance.now() - started))));
    }
    agent.destroy();
  })();
}

export async function run(): Promise<BenchRow[]> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve-feeds'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const nextMessage = () => new Promise<FromServer>((resolve) => child.once('message', (m) => resolve(m as FromServer)));
  const ready = await nextMessage();
  if (ready.type !== 'ready') throw new Error('the feeds bench server did not start');
  const url = new URL(ready.url);
  const pages = await HallReaders.start({
    wsUrl: `${ready.url.replace('http', 'ws')}/ws`,
    token: ready.token,
    wallAtZero: ready.wallAtZero,
    clients: PAGES,
    arbiters: PAGES,
    processes: 1,
  });
  await new Promise((r) => setTimeout(r, 2000)); // their snapshots and tournament views delivered
  const tally = { bytes: 0, ok: 0, notModified: 0, limited: 0, errors: 0 };
  child.send({ type: 'start' });
  await pages.startPhase();
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: RELAYS }, (_, i) => relay(url, i, until, tally)));
  const latencies = (await pages.endPhase([])).latencies;
  await pages.stop();
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))] ?? NaN;
  const p50 = latencies[Math.floor(0.5 * latencies.length)] ?? NaN;
  const usage = nextMessage();
  child.send({ type: 'stop' });
  const u = await usage;
  if (u.type !== 'usage') throw new Error('the feeds bench server sent no usage');
  const part = `http feeds (${RELAYS} relays / ${POLL_MS / 1000} s, ${BOARDS} boards, ${PRESSES_PER_SECOND} presses/s)`;
  return [
    { part, measure: 'console CPU', value: `${u.cpuPct.toFixed(0)} %`, target: '≤ 25 %', ok: u.cpuPct <= 25 },
    {
      part,
      measure: `press->screen p50 / p99 meanwhile (${PAGES} team pages on the WebSocket)`,
      value: `${p50.toFixed(1)} / ${p99.toFixed(1)} ms (${latencies.length} deliveries)`,
      target: 'p99 ≤ 100 ms',
      ok: p99 <= 100,
    },
    { part, measure: 'bytes out (bodies, gzip)', value: `${(tally.bytes / SECONDS / 1e6).toFixed(2)} MB/s` },
    {
      part,
      measure: 'answers: 200 / 304 / 429 / failed',
      value: `${tally.ok} / ${tally.notModified} / ${tally.limited} / ${tally.errors}`,
      target: 'no 429 or failure',
      ok: tally.limited === 0 && tally.errors === 0,
    },
    { part, measure: 'feeds rendered', value: `${u.renders} for ${u.served} answers (${(u.renders / SECONDS).toFixed(1)}/s)` },
  ];
}

if (process.argv.includes('--serve-feeds')) await serveFeeds();
