// Arbiter console: press-to-client latency with 200 boards and 200 WebSocket clients on loopback,
// and the server's CPU and memory meanwhile. The server runs in a child process (this file with
// --serve-bench) so its CPU is its own; the parent makes the presses (over IPC) and holds the clients.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { gameConfig } from '../clock-engine/index.ts';
import { Journal, PlayingHall, manualSource, startConsole, type BoardView, type Durability, type JournalRecord, type Round } from '../arbiter-console/index.ts';
import type { BenchRow } from './table.ts';
import { seededRandom } from '../simulators/index.ts';

const BOARDS = 200;
const CLIENTS = 200;
// 90 minutes for 40 moves is 135 s per move per player: a board presses every 67 s, 200 boards ~3 times
// a second. (BENCH_PRESS_RATE overrides; above ~5/s a burst of 11 in a second has to wait for a slot.)
const PRESSES_PER_SECOND = Number(process.env.BENCH_PRESS_RATE ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

type FromServer =
  | { type: 'ready'; url: string }
  | { type: 'usage'; cpuMs: number; wallMs: number; rssMb: number; heapMb: number; handleP50: number; handleP99: number };
type ToServer = { type: 'press'; board: string; side: 'white' | 'black' } | { type: 'measure' } | { type: 'stop' };

function benchRound(boards = BOARDS): Round {
  return {
    event: 'Bench Open',
    site: 'loopback',
    round: 1,
    date: '2026.01.01',
    scheduledStart: new Date().toISOString(),
    game: gameConfig('40/5400+30:1800+30', { defaultTimeMs: 30 * 60_000, lateArrival: 'arbiter-decides' }),
    boards: Array.from({ length: boards }, (_, i) => ({ id: String(i + 1), white: `W${i + 1}`, black: `B${i + 1}` })),
  };
}

async function serveBench(deltasPerSecond: number, durability: Durability): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-'));
  const run = await startConsole({ dataDir, durability, port: 0, noPage: true, round: () => benchRound(), server: { deltasPerSecond } });
  for (const id of run.hall.boards.keys()) {
    for (const side of ['white', 'black'] as const) run.hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: run.hall.source.now(), by: { kind: 'player', side } } });
  }
  run.hall.command({ type: 'startAll' }, 'bench');
  let cpu = process.cpuUsage();
  let wall = performance.now();
  const send = (m: FromServer) => process.send!(m);
  const handled: number[] = [];
  process.on('message', (m: ToServer) => {
    if (m.type === 'press') {
      const t0 = performance.now();
      run.hall.record({ kind: 'clock', board: m.board, event: { type: 'press', side: m.side, at: run.hall.source.now(), by: { kind: 'device', deviceId: 'bench' } } });
      handled.push(performance.now() - t0);
    } else if (m.type === 'measure') {
      cpu = process.cpuUsage();
      wall = performance.now();
    } else {
      const used = process.cpuUsage(cpu);
      const mem = process.memoryUsage();
      handled.sort((a, b) => a - b);
      send({
        type: 'usage',
        cpuMs: (used.user + used.system) / 1000,
        wallMs: performance.now() - wall,
        rssMb: mem.rss / 2 ** 20,
        heapMb: mem.heapUsed / 2 ** 20,
        handleP50: percentile(handled, 50),
        handleP99: percentile(handled, 99),
      });
      void run.stop().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  send({ type: 'ready', url: run.url });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Measured {
  p50: number;
  p99: number;
  samples: number;
  expected: number;
  cpuPct: number;
  rssMb: number;
  heapMb: number;
  handleP50: number;
  handleP99: number;
}

const seeded = (seed: number): (() => number) => seededRandom(seed).next;

async function measure(deltasPerSecond: number, durability: Durability): Promise<Measured> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve-bench', String(deltasPerSecond), durability], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise<FromServer>((resolve) => child.once('message', (m) => resolve(m as FromServer)));
  const ready = (await next()) as { type: 'ready'; url: string };
  const pending = new Map<string, { presses: number; sentAt: number }>();
  const latencies: number[] = [];
  const clients: WebSocket[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const ws = new WebSocket(`${ready.url.replace('http', 'ws')}/ws`);
      ws.on('message', (data) => {
        const now = performance.now();
        const m = JSON.parse(String(data)) as { type: string; boards?: BoardView[] };
        if (m.type !== 'delta') return;
        for (const b of m.boards ?? []) {
          const p = pending.get(b.id);
          if (p && b.presses.white + b.presses.black === p.presses) latencies.push(now - p.sentAt);
        }
      });
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'hello', role: 'spectator' }));
      clients.push(ws);
    }),
  );
  await new Promise((r) => setTimeout(r, 500));
  child.send({ type: 'measure' } satisfies ToServer);
  const presses = new Map<string, number>();
  const total = PRESSES_PER_SECOND * SECONDS;
  const start = performance.now();
  const random = seeded(2019);
  let due = start;
  for (let i = 0; i < total; i++) {
    // Presses arrive at random (Poisson, as players finish their moves), on an absolute schedule.
    due += (-Math.log(1 - random()) * 1000) / PRESSES_PER_SECOND;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const board = String(((i * 37) % BOARDS) + 1);
    const done = presses.get(board) ?? 0;
    presses.set(board, done + 1);
    pending.set(board, { presses: done + 1, sentAt: performance.now() });
    child.send({ type: 'press', board, side: done % 2 === 0 ? 'white' : 'black' } satisfies ToServer);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const usagePromise = next();
  child.send({ type: 'stop' } satisfies ToServer);
  const usage = (await usagePromise) as Extract<FromServer, { type: 'usage' }>;
  for (const ws of clients) ws.terminate();
  await new Promise((r) => child.once('exit', r));
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples: latencies.length,
    expected: total * CLIENTS,
    cpuPct: (usage.cpuMs / usage.wallMs) * 100,
    rssMb: usage.rssMb,
    heapMb: usage.heapMb,
    handleP50: usage.handleP50,
    handleP99: usage.handleP99,
  };
}

/** Restart after a crash: the time to rebuild a 700-board round of 80 moves a side from its journal. */
function rebuildRow(): BenchRow {
  const boards = 700;
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-rebuild-'));
  const file = join(dir, 'journal.sqlite');
  try {
    const round = benchRound(boards);
    const journal = new Journal(file);
    journal.setMeta({ round, epochWallMs: 0, scale: 1 });
    const records: JournalRecord[] = [];
    for (const { id } of round.boards) {
      for (const side of ['white', 'black'] as const) records.push({ kind: 'clock', board: id, event: { type: 'arrive', side, at: 0, by: { kind: 'system' } } });
      records.push({ kind: 'clock', board: id, event: { type: 'start', at: 1, by: { kind: 'system' } } });
    }
    for (let move = 0; move < 160; move++) {
      for (let b = 1; b <= boards; b++) {
        records.push({ kind: 'clock', board: String(b), event: { type: 'press', side: move % 2 ? 'black' : 'white', at: 2 + move * 20_000 + b, by: { kind: 'system' } } });
      }
    }
    journal.appendAll(records);
    journal.close();
    const start = performance.now();
    const reopened = new Journal(file);
    const hall = new PlayingHall(reopened.meta()!.round, reopened, manualSource(reopened.lastAt()));
    const ms = performance.now() - start;
    const ok = hall.view('700')!.presses.black === 80;
    hall.stop();
    reopened.close();
    return { part: 'arbiter-console', measure: `rebuild after a crash: ${boards} boards, ${records.length} journal entries`, value: `${ms.toFixed(0)} ms`, target: '< 5 s, state correct', ok: ok && ms < 5000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const part = 'arbiter-console';
  const rows: BenchRow[] = [];
  const load = `${BOARDS} boards, ${CLIENTS} ws clients, ${PRESSES_PER_SECOND} presses/s at random`;
  const variants: [number, Durability, string][] = [
    [10, 'process', 'journal fsync-free (default)'],
    [10, 'power', 'journal fsync per event (--durability power)'],
  ];
  for (const [deltasPerSecond, durability, label] of variants) {
    const r = await measure(deltasPerSecond, durability);
    rows.push(
      { part, measure: `press->client p50, ${label}, deltas <=${deltasPerSecond}/s (${load})`, value: `${r.p50.toFixed(1)} ms` },
      { part, measure: `press->client p99, ${label}`, value: `${r.p99.toFixed(1)} ms`, target: '< 50 ms', ok: r.p99 < 50 },
      { part, measure: `deliveries received, ${label}`, value: `${r.samples} / ${r.expected}`, target: 'all', ok: r.samples === r.expected },
      { part, measure: `server CPU / RSS / heap during it, ${label}`, value: `${r.cpuPct.toFixed(0)} % / ${r.rssMb.toFixed(0)} MB / ${r.heapMb.toFixed(0)} MB` },
      { part, measure: `server: one press journaled + applied + queued to ${CLIENTS} clients, p50 / p99, ${label}`, value: `${r.handleP50.toFixed(1)} / ${r.handleP99.toFixed(1)} ms` },
    );
  }
  rows.push(rebuildRow());
  return rows;
}

if (process.argv.includes('--serve-bench')) {
  const at = process.argv.indexOf('--serve-bench');
  await serveBench(Number(process.argv[at + 1] ?? 10), (process.argv[at + 2] ?? 'process') as Durability);
}
