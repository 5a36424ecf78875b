// The hall bench's reading clients, spread over child processes (this file with --read-hall) so that
// no process reads more than its share of the end-of-round burst: a process that falls behind
// parsing would look to the server like tablets that do not read. Each process opens its clients,
// measures press -> client and result -> client against the server's own event timestamps (the
// board's `asOf`, the result's `at`, on the wall clock every process reads: performance.timeOrigin +
// performance.now()), and reports its numbers to the parent at the end of each phase. Every team client
// parses what it gets; one spectator in SPECTATOR_SAMPLE does (the others read and count bytes, as
// bench/spectators.ts's): 190 spectators each parsing a 1,000-board delta four times a second took the
// better part of a core from the two the console runs on, which 190 phones in a hall do not.
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { BoardView } from '../arbiter-console/index.ts';

export const wallNow = (): number => performance.timeOrigin + performance.now();

export interface ReadersSetup {
  readonly wsUrl: string;
  /** The chief arbiter's token, for the arbiters among the clients. */
  readonly token: string;
  /** The wall time of the server's monotonic 0. */
  readonly wallAtZero: number;
  readonly clients: number;
  /** Clients 0 .. arbiters-1 say hello as arbiters, the others as spectators. */
  readonly arbiters: number;
  readonly processes: number;
}

/** What the clients measured in one phase (one process's, or every process's merged). */
export interface ReadersReport {
  /** The team's (the arbiters among the clients): press -> client, result -> client. */
  readonly latencies: number[];
  readonly resultLatencies: number[];
  /** The spectators' (one shared stream, a tick at most every 250 ms): their targets are their own. */
  readonly spectatorLatencies: number[];
  readonly spectatorResultLatencies: number[];
  readonly bytes: number;
  readonly clients: number;
  /** Clients whose connection is still open at the end of the phase. */
  readonly connected: number;
}

type Result = { readonly board: string; readonly at: number };
type ToReader =
  | { type: 'open'; wsUrl: string; token: string; wallAtZero: number; first: number; count: number; arbiters: number }
  | { type: 'start' }
  | { type: 'end'; results: readonly Result[] }
  | { type: 'stop' };
type FromReader = { type: 'ready' } | { type: 'opened' } | { type: 'started' } | ({ type: 'report' } & ReadersReport);

/** The reading clients' processes, driven phase by phase from the bench. */
export class HallReaders {
  private constructor(readonly processes: readonly ChildProcess[]) {}

  static async start(setup: ReadersSetup): Promise<HallReaders> {
    const per = Math.ceil(setup.clients / setup.processes);
    const children = Array.from({ length: setup.processes }, () =>
      fork(fileURLToPath(import.meta.url), ['--read-hall'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    const readers = new HallReaders(children);
    await Promise.all(
      children.map(async (child, i) => {
        // A message sent before the child listens would be lost: it says when it does.
        await answer(child, 'start');
        const first = i * per;
        const count = Math.max(0, Math.min(per, setup.clients - first));
        await ask(child, { type: 'open', wsUrl: setup.wsUrl, token: setup.token, wallAtZero: setup.wallAtZero, first, count, arbiters: setup.arbiters });
      }),
    );
    return readers;
  }

  /** Every process measures from now on. */
  async startPhase(): Promise<void> {
    await Promise.all(this.processes.map((child) => ask(child, { type: 'start' })));
  }

  /** Every process stops measuring and reports; `results` are the server's results of the phase. */
  async endPhase(results: readonly Result[]): Promise<ReadersReport> {
    const reports = (await Promise.all(this.processes.map((child) => ask(child, { type: 'end', results })))) as Extract<FromReader, { type: 'report' }>[];
    return {
      latencies: reports.flatMap((r) => r.latencies).sort((a, b) => a - b),
      resultLatencies: reports.flatMap((r) => r.resultLatencies).sort((a, b) => a - b),
      spectatorLatencies: reports.flatMap((r) => r.spectatorLatencies).sort((a, b) => a - b),
      spectatorResultLatencies: reports.flatMap((r) => r.spectatorResultLatencies).sort((a, b) => a - b),
      bytes: reports.reduce((s, r) => s + r.bytes, 0),
      clients: reports.reduce((s, r) => s + r.clients, 0),
      connected: reports.reduce((s, r) => s + r.connected, 0),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map((child) => {
        const exited = new Promise((r) => child.once('exit', r));
        child.send({ type: 'stop' } satisfies ToReader);
        return exited;
      }),
    );
  }
}

function ask(child: ChildProcess, message: ToReader): Promise<FromReader> {
  const answered = answer(child, message.type);
  child.send(message);
  return answered;
}

function answer(child: ChildProcess, to: string): Promise<FromReader> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a reading-clients process exited (${code}) before it answered ${to}`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as FromReader);
    });
  });
}

/** One spectator in this many parses its stream and is measured. */
export const SPECTATOR_SAMPLE = 10;

interface Client {
  readonly ws: WebSocket;
  readonly team: boolean;
  /** Parses its stream (every team client, one spectator in SPECTATOR_SAMPLE). */
  readonly parses: boolean;
  bytes: number;
  readonly presses: Map<string, number>;
  /** When each board's result first reached this client (wall ms). */
  readonly results: Map<string, number>;
}

/**
 * Says hello and waits for the welcome. The console checks one token per address at a time (every
 * process here is 127.0.0.1): an arbiter answered `busy` says hello again a moment later.
 */
async function login(ws: WebSocket, hello: Record<string, unknown>): Promise<void> {
  for (;;) {
    const answer = new Promise<{ type: string; code?: string; reason?: string }>((resolve) => {
      const onMessage = (data: Buffer) => {
        const m = JSON.parse(String(data)) as { type: string; code?: string };
        if (m.type !== 'welcome' && m.type !== 'error') return;
        ws.off('message', onMessage);
        resolve(m);
      };
      ws.on('message', onMessage);
    });
    ws.send(JSON.stringify(hello));
    const m = await answer;
    if (m.type === 'welcome') return;
    if (m.code !== 'busy') throw new Error(`the console refused a bench client: ${m.reason ?? m.code}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One process's clients: a page's part of the stream (snapshots and deltas) is parsed, the rest counted. */
async function readHall(): Promise<void> {
  const clients: Client[] = [];
  let wallAtZero = 0;
  let measuring = false;
  let latencies: number[] = [];
  let spectatorLatencies: number[] = [];
  const reply = (m: FromReader) => process.send!(m);
  const open = async (m: Extract<ToReader, { type: 'open' }>): Promise<void> => {
    wallAtZero = m.wallAtZero;
    for (let i = m.first; i < m.first + m.count; i++) {
      const ws = new WebSocket(m.wsUrl);
      const team = i < m.arbiters;
      const client: Client = { ws, team, parses: team || (i - m.arbiters) % SPECTATOR_SAMPLE === 0, bytes: 0, presses: new Map(), results: new Map() };
      ws.on('error', () => {});
      ws.on('message', (data: Buffer) => {
        const now = wallNow();
        client.bytes += data.length;
        if (!client.parses) return;
        const head = data.subarray(0, 20).toString();
        if (!head.startsWith('{"type":"delta"') && !head.startsWith('{"type":"snapshot"')) return;
        const message = JSON.parse(String(data)) as { type: string; boards?: BoardView[] };
        for (const b of message.boards ?? []) {
          const presses = b.presses.white + b.presses.black;
          if (measuring && message.type === 'delta' && presses > (client.presses.get(b.id) ?? 0))
            (client.team ? latencies : spectatorLatencies).push(now - (wallAtZero + b.asOf));
          client.presses.set(b.id, presses);
          if (b.result && !client.results.has(b.id)) client.results.set(b.id, now);
        }
      });
      await new Promise((r) => ws.once('open', r));
      await login(ws, client.team ? { type: 'hello', role: 'arbiter', token: m.token, name: `Arbiter ${i}` } : { type: 'hello', role: 'spectator' });
      clients.push(client);
    }
    reply({ type: 'opened' });
  };
  process.on('message', (m: ToReader) => {
    switch (m.type) {
      case 'open':
        void open(m);
        return;
      case 'start':
        latencies = [];
        spectatorLatencies = [];
        for (const c of clients) c.bytes = 0;
        measuring = true;
        reply({ type: 'started' });
        return;
      case 'end': {
        measuring = false;
        const resultsAt = (team: boolean): number[] =>
          m.results.flatMap((r) =>
            clients.flatMap((c) => {
              const t = c.team === team ? c.results.get(r.board) : undefined;
              return t === undefined ? [] : [t - (wallAtZero + r.at)];
            }),
          );
        reply({
          type: 'report',
          latencies,
          resultLatencies: resultsAt(true),
          spectatorLatencies,
          spectatorResultLatencies: resultsAt(false),
          bytes: clients.reduce((s, c) => s + c.bytes, 0),
          clients: clients.length,
          connected: clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length,
        });
        return;
      }
      case 'stop':
        for (const c of clients) c.ws.terminate();
        process.exit(0);
    }
  });
  reply({ type: 'ready' });
}

if (process.argv.includes('--read-hall')) await readHall();
