// Arbiter console at the scale of a real open: 1,000 boards (a 2,000-player Swiss with its tournament
// pages) and 200 WebSocket clients, in normal play, in an end-of-round burst of results, and with 20
// clients that never read, and at the end of a round: every result in, the next round paired (in the
// pairing worker), published and started. The server runs in a child process (this file with --serve-hall) and makes
// the presses and results itself, as the boards would; the reading clients live in other child
// processes (hall-readers.ts, 25 each by default; every team client and one spectator in ten parse
// what they get, the others count its bytes) and measure press-to-client latency against the
// server's own event timestamps (`asOf`, the event's `at`), every process reading the same wall clock
// (performance.timeOrigin + performance.now()); the clients that never read stay in this one.
// BENCH_BOARDS, BENCH_CLIENTS, BENCH_CLIENT_PROCESSES and BENCH_SECONDS make it smaller; BENCH_PHASES
// (comma-separated: normal, burst, non-readers, round-end) runs only those; BENCH_CPU_PROF=<dir>
// writes the server's CPU profile there. CPU is printed per thread: the event loop's (what holds up
// presses), the pairing worker's (the thread busiest while the pairing step waits for it; it runs once
// at the end of a round) and the rest (the view worker, GC helpers, libuv), each share of the phase's
// wall time, and their sum against the issue's 25 %.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { HallReaders, SPECTATOR_SAMPLE, wallNow, type ReadersReport } from './hall-readers.ts';
import { gameConfig } from '../clock-engine/index.ts';
import {
  Journal,
  PlayingHall,
  ViewMaker,
  workerBuilder,
  manualSource,
  realClock,
  workerPairer,
  startConsole,
  type BuilderSetup,
  type TournamentBuilder,
  type JournalRecord,
  type Round,
  type RunningConsole,
} from '../arbiter-console/index.ts';
import { loadEvent, presetJson, type ZeitnotEvent } from '../tournament/index.ts';
import { seededRandom } from '../simulators/index.ts';
import type { BenchRow } from './table.ts';

const BOARDS = Number(process.env.BENCH_BOARDS ?? 1000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
/** Processes the reading clients are spread over. */
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? Math.max(1, Math.ceil(CLIENTS / 25)));
const ARBITERS = 10;
const NON_READERS = 20;
// 90 minutes for 40 moves is 135 s per move per player: a board presses every 67 s, 1,000 boards ~15 a second.
const PRESSES_PER_SECOND = Number(process.env.BENCH_PRESS_RATE ?? 15);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const BURST_RESULTS = 40;
// BENCH_TOURNAMENT_VIEWS=inline builds the tournament view on the event loop (as before the view worker), for comparison.
const INLINE_VIEWS = process.env.BENCH_TOURNAMENT_VIEWS === 'inline';

const PHASES = ['normal', 'burst', 'non-readers', 'round-end'] as const;
type Phase = (typeof PHASES)[number];
const RUN_PHASES: readonly Phase[] = process.env.BENCH_PHASES ? PHASES.filter((p) => process.env.BENCH_PHASES!.split(',').includes(p)) : PHASES;
/** The end of a round's steps, each from the call to its answer (the pairing's waits for the worker). */
const STEPS = ['confirm', 'pair', 'publish', 'start'] as const;
type Step = (typeof STEPS)[number];
/** A command's answer, as the hall and the desk give it. */
type Outcome = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly reason: string };
interface Usage {
  /** The whole process's CPU (every thread: the event loop, the pairing and view workers, GC, I/O). */
  readonly cpuPct: number;
  /** The event loop's thread alone. */
  readonly loopCpuPct: number;
  /** The pairing worker's thread (round-end: the thread busiest while the pairing step waited for it), over the phase. */
  readonly pairingCpuPct?: number;
  /** Every other thread: the view worker, GC helpers, libuv's pool. */
  readonly otherCpuPct: number;
  /** The other threads' CPU ms over the phase, the most first (the view worker and V8's helpers have no names to tell them by). */
  readonly otherThreadsMs: readonly number[];
  readonly rssStartMb: number;
  readonly rssMaxMb: number;
  readonly rssEndMb: number;
  readonly clients: number;
  readonly results: readonly { board: string; at: number }[];
  /** CPU ms the event loop spent per tournament build (the desk's parts, then the build or its hand-over): p50 and max. */
  readonly buildCpuP50Ms: number;
  readonly buildCpuMaxMs: number;
  readonly builds: number;
  /** How long the server's event loop was held up (perf_hooks' event-loop delay): p99 and max. */
  readonly loopDelayP99Ms: number;
  readonly loopDelayMaxMs: number;
  /** The end of a round: each step's time to its answer, and the refusal that stopped it if one did. */
  readonly steps?: Partial<Record<Step, number>>;
  /** The timer probe's longest gap, and the step it fell in (or after). */
  readonly longestBlock?: Block;
  /** The probe's gap with the most CPU time of the event loop's thread. */
  readonly longestCpuBlock?: Block;
  /** The probe's gaps with the most CPU of the event loop's thread after the pairing (publish, start and what follows), the most first. */
  readonly cpuBlocksAfterPair?: readonly Block[];
  readonly stepFailed?: string;
}
/** A gap between the timer probe's ticks: its wall time, the event loop thread's CPU time in it, and the step it fell in. */
interface Block {
  readonly ms: number;
  readonly cpuMs: number;
  readonly stage: string;
}
type FromServer = { type: 'ready'; url: string; token: string; wallAtZero: number; setupMs: number; viewKb: number } | ({ type: 'usage' } & Usage);
type ToServer = { type: 'phase'; phase: Phase; seconds: number } | { type: 'stop' };

function hallEvent(boards = BOARDS): ZeitnotEvent {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  const section = json.sections[0]!;
  section.format = { kind: 'swiss', system: 'dutch', rounds: 9 };
  section.players = Array.from({ length: 2 * boards }, (_, i) => ({
    id: i + 1,
    name: `Player ${String(i + 1).padStart(4, '0')}`,
    federation: 'RSA',
    fideRating: 2700 - Math.floor(i / 2),
  }));
  section.schedule = Array.from({ length: 9 }, (_, i) => `2026-07-${String(i + 1).padStart(2, '0')}T13:00:00+02:00`);
  section.playoff = { kind: 'none' };
  section.tiebreaks = ['BH-C1', 'BH', 'SB', 'PS'];
  return loadEvent(json);
}

/** Round 1 as the Dutch system pairs it (top half against bottom half, colours alternating), built directly. */
function hallRound(event: ZeitnotEvent, scheduledStart: number, boards = BOARDS): Round {
  const players = event.sections[0]!.players;
  return {
    event: event.name,
    site: 'loopback',
    round: 1,
    date: '2026.07.01',
    scheduledStart: new Date().toISOString(),
    game: gameConfig('40/5400+30:1800+30', { scheduledStart, defaultTimeMs: 30 * 60_000, lateArrival: 'arbiter-decides' }),
    boards: Array.from({ length: boards }, (_, i) => {
      const [top, bottom] = [players[i]!.name, players[i + boards]!.name];
      return { id: String(i + 1), white: i % 2 === 0 ? top : bottom, black: i % 2 === 0 ? bottom : top };
    }),
  };
}

/** Main-thread CPU of each tournament build (process CPU while the event loop is in it; the worker is idle then: one build at a time). */
let buildCpu: number[] = [];
const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** The console's builder, measured: inline (the view made on the event loop, as before the worker) or the worker's hand-over. */
function measuredBuilder(setup: BuilderSetup): TournamentBuilder {
  if (INLINE_VIEWS) {
    const maker = new ViewMaker(setup);
    return {
      build(request) {
        const from = process.cpuUsage();
        const built = maker.make(structuredClone(request));
        buildCpu.push(partsCpu + cpuMs(from));
        return Promise.resolve(built);
      },
      stop: () => Promise.resolve(),
    };
  }
  const worker = workerBuilder(setup);
  return {
    build(request) {
      const from = process.cpuUsage();
      const answer = worker.build(request);
      buildCpu.push(partsCpu + cpuMs(from));
      return answer;
    },
    stop: () => worker.stop(),
  };
}
let partsCpu = 0;

async function serveHall(): Promise<void> {
  const t0 = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-hall-'));
  const source = realClock(0);
  const wallAtZero = wallNow() - source.now();
  const event = hallEvent();
  // A console at a round's end has run for hours: its pairing worker is up (console.ts, PAIRER_WARM_UP_MS).
  const pairer = workerPairer();
  const run: RunningConsole = await startConsole({
    pairer,
    dataDir,
    port: 0,
    noPage: true,
    source,
    // Round 1 paired by the Dutch engine and published at start (the journal is new).
    event,
    firstRound: true,
    server: { limits: { maxConnectionsPerAddress: 1000 }, tournamentBuilder: measuredBuilder },
  });
  // The desk's parts are taken on the event loop right before each build: counted with it.
  const desk = run.desk!;
  const viewParts = desk.viewParts.bind(desk);
  desk.viewParts = () => {
    const from = process.cpuUsage();
    const parts = viewParts();
    partsCpu = cpuMs(from);
    return parts;
  };
  const hall = run.hall;
  hall.command({ type: 'arriveAll' }, 'bench');
  hall.command({ type: 'startAll' }, 'bench');
  const viewKb = JSON.stringify(run.desk!.view('arbiter')).length / 1024;
  const send = (m: FromServer) => process.send!(m);
  const random = seededRandom(2026).next;
  let nextBoard = 0;
  /** A press on the next running board (none between the end of a round and the next one's start). */
  const press = (): void => {
    let board: string | undefined;
    for (let tries = 0; tries < BOARDS && board === undefined; tries++) {
      const id = String(((nextBoard++ * 37) % BOARDS) + 1);
      if (hall.boards.get(id)?.state.status === 'running') board = id;
    }
    if (board === undefined) return;
    hall.record({
      kind: 'clock',
      board,
      event: { type: 'press', side: hall.boards.get(board)!.state.toMove, at: source.now(), by: { kind: 'device', deviceId: 'bench' } },
    });
  };
  process.on('message', (m: ToServer) => {
    if (m.type === 'stop') {
      void run.stop().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
      return;
    }
    const cpu = process.cpuUsage();
    const loopCpu = mainThreadCpuMs();
    const threadsAtStart = threadCpuMs();
    let threadsAtPair: { from: Map<number, number>; to: Map<number, number> } | undefined;
    const blocksAfterPair: Block[] = [];
    const wall = performance.now();
    const rssStart = process.memoryUsage.rss();
    let rssMax = rssStart;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage.rss())), 100);
    buildCpu = [];
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    // A timer probe beside it: the longest gap between its ticks, and the end-of-round step it fell in;
    // and the gap in which the event loop's own thread ran longest (its CPU time), which a loaded
    // machine does not stretch: a gap of seconds with little CPU in it is the machine, not the console.
    let stage = 'results';
    let lastTick = performance.now();
    let lastCpu = mainThreadCpuMs();
    let longest: Block = { ms: 0, cpuMs: 0, stage };
    let longestCpu: Block = { ms: 0, cpuMs: 0, stage };
    const probe = setInterval(() => {
      const now = performance.now();
      const cpuNow = mainThreadCpuMs();
      const gap: Block = { ms: now - lastTick - 5, cpuMs: cpuNow - lastCpu, stage };
      if (gap.ms > longest.ms) longest = gap;
      if (gap.cpuMs > longestCpu.cpuMs) longestCpu = gap;
      if (gap.cpuMs >= 20 && (stage === 'publish' || stage.startsWith('after publish') || stage === 'start' || stage === 'after start'))
        blocksAfterPair.push(gap);
      lastTick = now;
      lastCpu = cpuNow;
    }, 5);
    loopDelay.enable();
    const end = wall + m.seconds * 1000;
    const timers: NodeJS.Timeout[] = [];
    // Presses at random (Poisson, as players finish their moves), on an absolute schedule.
    for (let due = wall; ;) {
      due += (-Math.log(1 - random()) * 1000) / PRESSES_PER_SECOND;
      if (due >= end) break;
      timers.push(setTimeout(press, due - wall));
    }
    const results: { board: string; at: number }[] = [];
    if (m.phase === 'burst') {
      for (let i = 0; i < BURST_RESULTS; i++) {
        const board = String(((i * 53) % BOARDS) + 1);
        timers.push(
          setTimeout(
            () => {
              const at = source.now();
              const outcome = hall.command({ type: 'result', board, result: (['1-0', '0-1', '1/2-1/2'] as const)[i % 3]!, termination: 'normal' }, 'FA Bench');
              if (outcome.ok) results.push({ board, at });
            },
            random() * m.seconds * 1000,
          ),
        );
      }
    }
    const steps: Partial<Record<Step, number>> = {};
    let stepFailed: string | undefined;
    if (m.phase === 'round-end') {
      // Every game still on the clock gets its result over the first half, then the arbiter confirms
      // them, pairs the next round (the pairing worker), publishes it and starts its clocks.
      const open = [...hall.boards.keys()].filter((id) => hall.boards.get(id)!.state.status !== 'finished');
      const resultsFor = (m.seconds * 1000) / 2;
      open.forEach((board, i) =>
        timers.push(
          setTimeout(
            () => {
              const at = source.now();
              const outcome = hall.command({ type: 'result', board, result: i % 2 ? '0-1' : '1-0', termination: 'normal' }, 'FA Bench');
              if (outcome.ok) results.push({ board, at });
            },
            (i * resultsFor) / open.length,
          ),
        ),
      );
      const step = async (name: Step, run: () => Outcome | Promise<Outcome>): Promise<boolean> => {
        // Each step is an arbiter's command of its own, its own task of the event loop (a page's
        // message), not run on in the turn that answered the step before.
        await new Promise((resolve) => setImmediate(resolve));
        const t0 = performance.now();
        stage = name;
        const from = name === 'pair' ? threadCpuMs() : undefined;
        const outcome = await run();
        steps[name] = performance.now() - t0;
        if (from) threadsAtPair = { from, to: threadCpuMs() };
        stage = `after ${name}`;
        if (!outcome.ok) stepFailed = `${name}: ${outcome.code} (${outcome.reason})`;
        return outcome.ok;
      };
      const by = 'IA Bench';
      timers.push(
        setTimeout(
          () =>
            void (async () => {
              if (!(await step('confirm', () => desk.command({ type: 'confirmRound' }, by)))) return;
              if (!(await step('pair', () => desk.pairNextRound({ type: 'pairNextRound' }, by)))) return;
              if (!(await step('publish', () => desk.command({ type: 'publishRound' }, by)))) return;
              await step('start', () => hall.command({ type: 'startAll' }, by));
            })(),
          resultsFor + 500,
        ),
      );
    }
    setTimeout(
      () => {
        clearInterval(sampler);
        clearInterval(probe);
        loopDelay.disable();
        for (const t of timers) clearTimeout(t);
        const used = process.cpuUsage(cpu);
        const elapsed = performance.now() - wall;
        const loopMs = mainThreadCpuMs() - loopCpu;
        const pairingMs = threadsAtPair ? pairingWorkerMs(threadsAtStart, threadsAtPair, threadCpuMs()) : undefined;
        const allMs = (used.user + used.system) / 1000;
        const threadsAtEnd = threadCpuMs();
        const pairingTid = threadsAtPair ? pairingWorker(threadsAtPair) : undefined;
        const otherThreadsMs = [...threadsAtEnd]
          .filter(([tid]) => tid !== process.pid && tid !== pairingTid)
          .map(([tid, ms]) => ms - (threadsAtStart.get(tid) ?? 0))
          .filter((ms) => ms > 0)
          .sort((a, b) => b - a);
        send({
          type: 'usage',
          cpuPct: (allMs / elapsed) * 100,
          loopCpuPct: (loopMs / elapsed) * 100,
          ...(pairingMs !== undefined ? { pairingCpuPct: (pairingMs / elapsed) * 100 } : {}),
          otherCpuPct: (Math.max(0, allMs - loopMs - (pairingMs ?? 0)) / elapsed) * 100,
          otherThreadsMs,
          cpuBlocksAfterPair: [...blocksAfterPair].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 5),
          rssStartMb: rssStart / 2 ** 20,
          rssMaxMb: rssMax / 2 ** 20,
          rssEndMb: process.memoryUsage.rss() / 2 ** 20,
          clients: run.server.clientCount(),
          results,
          buildCpuP50Ms: percentile(
            [...buildCpu].sort((a, b) => a - b),
            50,
          ),
          buildCpuMaxMs: Math.max(0, ...buildCpu),
          builds: buildCpu.length,
          loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
          loopDelayMaxMs: loopDelay.max / 1e6,
          steps,
          longestBlock: longest,
          longestCpuBlock: longestCpu,
          ...(stepFailed !== undefined ? { stepFailed } : {}),
        });
      },
      m.seconds * 1000 + 500,
    );
  });
  const setupMs = performance.now() - t0;
  await pairer.prepare();
  send({ type: 'ready', url: run.url, token: run.newToken!, wallAtZero, setupMs, viewKb });
}

/**
 * CPU ms of this process's main thread (the event loop's), from /proc: its run time in ns
 * (`schedstat`), else its 10 ms ticks (`stat`); where there is no /proc, the whole process's (the
 * workers' too).
 */
function mainThreadCpuMs(): number {
  // Read again from the start of the file kept open: one system call a tick of the probe.
  if (schedFd !== null) {
    try {
      schedFd ??= openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
      return Number(statBuffer.toString('latin1', 0, readSync(schedFd, statBuffer, 0, statBuffer.length, 0)).split(' ')[0]) / 1e6;
    } catch {
      // No schedstat (a kernel without CONFIG_SCHEDSTATS): the ticks from now on.
      schedFd = null;
    }
  }
  try {
    statFd ??= openSync(`/proc/self/task/${process.pid}/stat`, 'r');
    const text = statBuffer.toString('latin1', 0, readSync(statFd, statBuffer, 0, statBuffer.length, 0));
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces, so count after it.
    const fields = text.split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
}
/** CPU ms of each of this process's threads, by thread id, from /proc (empty where there is none). */
function threadCpuMs(): Map<number, number> {
  const threads = new Map<number, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1').split(') ')[1]!.split(' ');
      threads.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
    }
  } catch {
    // no /proc: no thread apart
  }
  return threads;
}

/**
 * The pairing worker's CPU ms over the phase: it is the thread (other than the event loop's) that ran
 * most while the pairing step waited for its answer; a thread gone by the end counts as it was then.
 */
function pairingWorkerMs(
  atStart: Map<number, number>,
  pair: { from: Map<number, number>; to: Map<number, number> },
  atEnd: Map<number, number>,
): number | undefined {
  const worker = pairingWorker(pair);
  if (worker === undefined) return undefined;
  return (atEnd.get(worker) ?? pair.to.get(worker)!) - (atStart.get(worker) ?? 0);
}

/** The thread, other than the event loop's, that ran most while the pairing step waited for the worker. */
function pairingWorker(pair: { from: Map<number, number>; to: Map<number, number> }): number | undefined {
  let worker: number | undefined;
  let most = 0;
  for (const [tid, ms] of pair.to) {
    const during = ms - (pair.from.get(tid) ?? 0);
    if (tid !== process.pid && during > most) [worker, most] = [tid, during];
  }
  return worker;
}

/** Linux's USER_HZ, what /proc counts CPU time in. */
const CLOCK_TICKS = 100;
let statFd: number | undefined;
/** The main thread's schedstat, kept open; null where there is none. */
let schedFd: number | null | undefined;
const statBuffer = Buffer.alloc(1024);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface PhaseResult {
  readonly usage: Usage;
  readonly readers: ReadersReport;
  readonly bytesPerClientPerMinute: number;
}

async function measure(): Promise<{ ready: Extract<FromServer, { type: 'ready' }>; phases: Record<Phase, PhaseResult> }> {
  // BENCH_CPU_PROF=<dir>: the server's CPU profile (node --cpu-prof), written there when it stops.
  const profile = process.env.BENCH_CPU_PROF;
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve-hall'], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise<FromServer>((resolve) => child.once('message', (m) => resolve(m as FromServer)));
  const ready = (await next()) as Extract<FromServer, { type: 'ready' }>;
  const wsUrl = `${ready.url.replace('http', 'ws')}/ws`;
  const readers = await HallReaders.start({
    wsUrl,
    token: ready.token,
    wallAtZero: ready.wallAtZero,
    clients: CLIENTS,
    arbiters: ARBITERS,
    processes: CLIENT_PROCESSES,
  });
  await new Promise((r) => setTimeout(r, 3000)); // every snapshot and tournament view delivered
  const phases = {} as Record<Phase, PhaseResult>;
  let nonReaders: WebSocket[] = [];
  for (const phase of RUN_PHASES) {
    if (phase === 'non-readers') {
      nonReaders = await Promise.all(
        Array.from({ length: NON_READERS }, async () => {
          const ws = new WebSocket(wsUrl);
          ws.on('error', () => {});
          await new Promise((r) => ws.once('open', r));
          ws.send(JSON.stringify({ type: 'hello', role: 'spectator' }));
          ws.pause();
          return ws;
        }),
      );
    }
    // The non-readers ask for a fresh 1,000-board snapshot 20 times a second (their rate limit) and read nothing.
    const spam = setInterval(() => {
      for (const ws of nonReaders) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'resync' }));
    }, 50);
    const start = performance.now();
    await readers.startPhase();
    const usagePromise = next();
    child.send({ type: 'phase', phase, seconds: SECONDS } satisfies ToServer);
    const usage = (await usagePromise) as Extract<FromServer, { type: 'usage' }>;
    const report = await readers.endPhase(usage.results);
    clearInterval(spam);
    const minutes = (performance.now() - start) / 60_000;
    phases[phase] = { usage, readers: report, bytesPerClientPerMinute: report.bytes / report.clients / minutes };
  }
  child.send({ type: 'stop' } satisfies ToServer);
  await readers.stop();
  for (const ws of nonReaders) ws.terminate();
  await new Promise((r) => child.once('exit', r));
  return { ready, phases };
}

/**
 * A press's or a result's way to the team's screens (p99 <= 100 ms) and to the spectators' (p99 <= 1 s:
 * they follow a shared tick), each on its own row: the issue's targets are their own.
 */
const blockText = (b: Block | undefined): string => (b ? `${b.ms.toFixed(0)} ms (${b.stage}; ${b.cpuMs.toFixed(0)} ms CPU)` : '-');

function latencyRows(part: string, what: 'press' | 'result', phase: string, team: number[], spectators: number[]): BenchRow[] {
  return (
    [
      ['team', team, 100],
      ['spectator', spectators, 1000],
    ] as const
  ).map(([who, latencies, limit]) => {
    const p99 = percentile(latencies, 99);
    return {
      part,
      measure: `${what}->${who} client${who === 'spectator' ? ` (1 in ${SPECTATOR_SAMPLE} measured)` : ''} p50 / p99, ${phase}`,
      value: `${percentile(latencies, 50).toFixed(1)} / ${p99.toFixed(1)} ms (${latencies.length} deliveries)`,
      target: `p99 <= ${limit} ms`,
      ok: p99 <= limit,
    };
  });
}

const loadAverage = (): string =>
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** Restart after a crash: the time to rebuild a 700-board round of 80 moves a side from its journal. */
function rebuildRow(): BenchRow {
  const boards = 700;
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-rebuild-'));
  const file = join(dir, 'journal.sqlite');
  try {
    const round = hallRound(hallEvent(boards), 0, boards);
    const journal = new Journal(file);
    journal.setMeta({ epochWallMs: 0, scale: 1 });
    // The round seated as an event console seats a section's round: a `seat` record the hall replays.
    const records: JournalRecord[] = [{ kind: 'seat', at: 0, round }];
    for (const { id } of round.boards) {
      for (const side of ['white', 'black'] as const)
        records.push({ kind: 'clock', board: id, event: { type: 'arrive', side, at: 0, by: { kind: 'system' } } });
      records.push({ kind: 'clock', board: id, event: { type: 'start', at: 1, by: { kind: 'system' } } });
    }
    for (let move = 0; move < 160; move++) {
      for (let b = 1; b <= boards; b++) {
        records.push({
          kind: 'clock',
          board: String(b),
          event: { type: 'press', side: move % 2 ? 'black' : 'white', at: 2 + move * 20_000 + b, by: { kind: 'system' } },
        });
      }
    }
    journal.appendAll(records);
    journal.close();
    const start = performance.now();
    const reopened = new Journal(file);
    const hall = new PlayingHall(reopened, manualSource(reopened.lastAt()));
    const ms = performance.now() - start;
    const ok = hall.view('700')!.presses.black === 80;
    hall.stop();
    reopened.close();
    return {
      part: 'arbiter-console',
      measure: `rebuild after a crash: ${boards} boards, ${records.length} journal entries`,
      value: `${ms.toFixed(0)} ms`,
      target: '< 5 s, state correct',
      ok: ok && ms < 5000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const part = 'arbiter-console';
  const { ready, phases } = await measure();
  const rows: BenchRow[] = [
    {
      part,
      measure: `hall: ${BOARDS} boards (a ${2 * BOARDS}-player Swiss), ${CLIENTS} ws clients in ${CLIENT_PROCESSES} other processes; server start-up`,
      value: `${(ready.setupMs / 1000).toFixed(1)} s, tournament view ${ready.viewKb.toFixed(0)} KiB`,
    },
  ];
  const label = {
    normal: `normal play (${PRESSES_PER_SECOND} presses/s)`,
    burst: `end of round (${BURST_RESULTS} results in ${SECONDS} s + presses)`,
    'non-readers': `${NON_READERS} more clients that never read and ask for resyncs`,
    'round-end': `round over (every result in, confirmed, next round paired, published, started; ${SECONDS} s)`,
  } as const;
  const views = INLINE_VIEWS ? ' (tournament views inline)' : ' (tournament views in the worker)';
  for (const phase of RUN_PHASES) {
    const r = phases[phase];
    rows.push(...latencyRows(part, 'press', label[phase], r.readers.latencies, r.readers.spectatorLatencies));
    if (phase === 'round-end') {
      const s = r.usage.steps ?? {};
      rows.push(
        {
          part,
          // Wall time: a task's own CPU and the waits for a core that the bench's clients
          // share with the console; the target is on the CPU row below, what the code decides.
          measure: `longest event-loop block, wall (perf_hooks / timer probe, the step it fell in, the loop's CPU in it: the rest is waiting for a core), ${label[phase]}`,
          value: `${r.usage.loopDelayMaxMs.toFixed(0)} / ${blockText(r.usage.longestBlock)}`,
        },
        {
          part,
          measure: `no task blocks the loop over 50 ms: the most CPU the event loop's thread spent between two ticks of the probe (a loaded machine stretches the wall time, not this), ${label[phase]}`,
          value: blockText(r.usage.longestCpuBlock),
          target: '<= 50 ms',
          ok: (r.usage.longestCpuBlock?.cpuMs ?? Infinity) <= 50,
        },
        {
          part,
          measure: `the event loop's busiest probe gaps from the publish on (CPU ms, wall ms, step), ${label[phase]}`,
          value: (r.usage.cpuBlocksAfterPair ?? []).map((b) => `${b.cpuMs.toFixed(0)}/${b.ms.toFixed(0)} ${b.stage}`).join(', ') || 'none >= 20 ms CPU',
          target: '<= 50 ms CPU',
          ok: (r.usage.cpuBlocksAfterPair ?? []).every((b) => b.cpuMs <= 50),
        },
        {
          part,
          measure: `end of round: each step to its answer (confirm / pair (worker) / publish / start)`,
          value: `${STEPS.map((k) => (s[k] === undefined ? '-' : s[k].toFixed(0))).join(' / ')} ms${r.usage.stepFailed ? `; stopped at ${r.usage.stepFailed}` : ''}`,
          target: 'every step carried out',
          ok: r.usage.stepFailed === undefined && STEPS.every((k) => s[k] !== undefined),
        },
      );
    }
    if (phase === 'burst' || phase === 'round-end') {
      rows.push({
        part,
        measure: `event-loop CPU per tournament build p50 / max, ${label[phase]}${views}`,
        value: `${r.usage.buildCpuP50Ms.toFixed(1)} / ${r.usage.buildCpuMaxMs.toFixed(1)} ms (${r.usage.builds} builds)`,
        target: 'no press behind a rebuild',
      });
      rows.push(...latencyRows(part, 'result', label[phase], r.readers.resultLatencies, r.readers.spectatorResultLatencies));
    }
    const u = r.usage;
    rows.push(
      {
        part,
        measure: `server CPU, the event loop's thread (what holds up presses), ${label[phase]}`,
        value: `${u.loopCpuPct.toFixed(0)} % (${loadAverage()})`,
        target: '<= 25 %',
        ok: u.loopCpuPct <= 25,
      },
      {
        part,
        measure: `server CPU, every thread (the event loop${u.pairingCpuPct !== undefined ? ' + the pairing worker, once' : ''} + the others: view worker, GC, I/O), ${label[phase]}`,
        value: `${u.cpuPct.toFixed(0)} % = ${u.loopCpuPct.toFixed(0)}${u.pairingCpuPct !== undefined ? ` + ${u.pairingCpuPct.toFixed(0)}` : ''} + ${u.otherCpuPct.toFixed(0)} %`,
        target: '<= 25 %',
        ok: u.cpuPct <= 25,
      },
      {
        part,
        measure: `server CPU, the other threads one by one (ms over the phase: the view worker, V8's GC helpers, libuv), ${label[phase]}`,
        value: u.otherThreadsMs.length > 0 ? `${u.otherThreadsMs.map((ms) => ms.toFixed(0)).join(' / ')} ms` : '-',
      },
      {
        part,
        measure: `server event loop held up p99 / max, ${label[phase]}${views}`,
        value: `${r.usage.loopDelayP99Ms.toFixed(0)} / ${r.usage.loopDelayMaxMs.toFixed(0)} ms`,
      },
      { part, measure: `server RSS at start / max, ${label[phase]}`, value: `${r.usage.rssStartMb.toFixed(0)} / ${r.usage.rssMaxMb.toFixed(0)} MB` },
      { part, measure: `bytes per client per minute, ${label[phase]}`, value: `${(r.bytesPerClientPerMinute / 1024).toFixed(0)} KiB` },
    );
    if (phase !== 'normal') {
      rows.push({
        part,
        measure: `reading clients still connected after ${label[phase]} (as their ${CLIENT_PROCESSES} processes see them)`,
        value: `${r.readers.connected} of ${r.readers.clients}`,
        target: `${CLIENTS}`,
        ok: r.readers.connected === CLIENTS,
      });
    }
    if (phase === 'non-readers') {
      const growth = r.usage.rssMaxMb - r.usage.rssStartMb;
      rows.push(
        {
          part,
          measure: `server RSS growth with ${NON_READERS} clients that never read (${SECONDS} s)`,
          value: `${growth.toFixed(0)} MB`,
          target: '< 50 MB',
          ok: growth < 50,
        },
        {
          part,
          measure: 'connections left at the end (the non-readers cut off)',
          value: `${r.usage.clients}`,
          target: `${CLIENTS}`,
          ok: r.usage.clients === CLIENTS,
        },
      );
    }
  }
  rows.push(rebuildRow());
  return rows;
}

export { hallEvent as hallEventForTest, hallRound as hallRoundForTest };
if (process.argv.includes('--serve-hall')) await serveHall();
