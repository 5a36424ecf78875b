// The hall's roles as child processes, the way the README runs them: `zeitnot hall-host` and
// `zeitnot serve --bus`, each on its own data directory under one temporary directory, and what the
// bus tests read back from them (`/api/boards`, an arbiter's command, the journals' SQLite files).
// `stop()` ends every process started (SIGTERM, then SIGKILL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll } from 'vitest';
import { runZeitnot, type RoleProcess } from './console-process.ts';
import { startNats, startNatsCluster, type NatsCluster, type NatsServer } from './nats.ts';
import type { TestClient } from './ws-client.ts';
import { until } from './wait.ts';

export type BoardRow = { id: string; presses: { white: number; black: number }; status: string; host?: { id: string; reachable: boolean } };

export interface RunningConsole {
  readonly proc: RoleProcess;
  readonly url: string;
  /** The chief arbiter's token, printed on the first start only. */
  readonly token: string | undefined;
}

export class HallProcesses {
  readonly procs: RoleProcess[] = [];

  constructor(
    readonly dir: string,
    readonly event = 'cairns-cup-2019',
  ) {}

  journalOf(id: string): string {
    return join(this.dir, id, 'journal.sqlite');
  }

  /** A hall host whose boards are all simulated (virtual players journaling directly). */
  host(id: string, boards: string, bus: string, extra: readonly string[] = [], dataDir = join(this.dir, id)): RoleProcess {
    const p = runZeitnot([
      'hall-host',
      '--bus',
      bus,
      '--event',
      this.event,
      '--boards',
      boards,
      '--host-id',
      id,
      '--simulate',
      'all',
      '--simulate-hardware',
      'none',
      '--data',
      dataDir,
      ...extra,
    ]);
    this.procs.push(p);
    return p;
  }

  /** A console on the bus at time x30, ready once it prints its arbiter page. */
  async console(id: string, bus: string, extra: readonly string[] = []): Promise<RunningConsole> {
    const p = runZeitnot([
      'serve',
      '--bus',
      bus,
      '--event',
      this.event,
      '--console-id',
      id,
      '--time-scale',
      '30',
      '--port',
      '0',
      '--data',
      join(this.dir, id),
      ...extra,
    ]);
    this.procs.push(p);
    await until(() => /arbiter page: (http:\/\/\S+?)\//.test(p.out()) || p.child.exitCode !== null, `console ${id}`, 90_000);
    const url = /arbiter page: (http:\/\/\S+?)\//.exec(p.out())?.[1];
    if (!url) throw new Error(`console ${id} did not start:\n${p.out()}`);
    return { proc: p, url, token: /arbiter token \(shown once[^)]*\): (\S+)/.exec(p.out())?.[1] };
  }

  async boards(url: string): Promise<BoardRow[]> {
    return ((await (await fetch(`${url}/api/boards`)).json()) as { boards: BoardRow[] }).boards;
  }

  /** Polls `/api/boards` until `check` holds; a timeout shows the boards and every process's output. */
  async waitBoards(url: string, what: string, check: (boards: BoardRow[]) => boolean, timeoutMs = 60_000): Promise<BoardRow[]> {
    let last: BoardRow[] = [];
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        last = await this.boards(url);
        if (check(last)) return last;
      } catch {
        // restarting
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(
      `timed out waiting for ${what}: ${JSON.stringify(last.map((b) => [b.id, b.status, b.presses, b.host, (b as { paused?: unknown }).paused]))}\n${this.outputs()}`,
    );
  }

  outputs(): string {
    return this.procs.map((p) => p.out().slice(-1500)).join('\n---\n');
  }

  async stop(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.stop()));
  }
}

export const pressesOf = (boards: readonly BoardRow[], ids: readonly string[]): number =>
  boards.filter((b) => ids.includes(b.id)).reduce((n, b) => n + b.presses.white + b.presses.black, 0);

/** Sends an arbiter command over the page's WebSocket and waits for its ack or refusal. */
export async function arbiterCommand(
  client: TestClient,
  id: string,
  body: object,
  timeoutMs = 30_000,
): Promise<{ type: string; code?: unknown; reason?: unknown }> {
  const before = client.messages.length;
  client.send({ type: 'command', id, command: body });
  let answer: { type: string; code?: unknown; reason?: unknown } | undefined;
  await until(
    () => (answer = client.messages.slice(before).find((m) => (m.type === 'ack' || m.type === 'refused') && m.id === id)) !== undefined,
    `the answer to ${id}`,
    timeoutMs,
  );
  return answer!;
}

/** Each host source's sourceSeqs in a journal, in the journal's order. */
export function sourceSeqs(file: string): Map<string, number[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT source, source_seq AS n FROM entries WHERE source LIKE 'h%' ORDER BY seq").all() as { source: string; n: number }[];
    const out = new Map<string, number[]>();
    for (const r of rows) {
      const seqs = out.get(r.source);
      if (seqs) seqs.push(r.n);
      else out.set(r.source, [r.n]);
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * How often a wait reads a journal's SQLite file again (sourceSeqs, hostJournal): each read opens the
 * file and reads every host entry, so at `until`'s 2 ms the waiting test took the CPU from the processes
 * it waited for.
 */
export const JOURNAL_POLL_MS = 100;

/** A host journal's own entries (1..n) and its clock events' types of one board. */
export function hostJournal(file: string, source: string, board?: string): { last: number; events: string[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const last = (db.prepare('SELECT MAX(source_seq) AS n FROM entries WHERE source = ?').get(source) as { n: number | null }).n ?? 0;
    const events =
      board === undefined
        ? []
        : (db.prepare("SELECT body FROM entries WHERE source = ? AND board = ? AND kind = 'clock' ORDER BY seq").all(source, board) as { body: string }[]).map(
            (r) => (JSON.parse(r.body) as { event: { type: string } }).event.type,
          );
    return { last, events };
  } finally {
    db.close();
  }
}

/**
 * A describe's hall on one nats-server: its roles as processes in a temporary directory and the test's
 * WebSocket clients, all ended after the describe; `nats()` starts the server.
 */
export function hallOnOneServer(prefix: string, event?: string): { roles: HallProcesses; clients: TestClient[]; nats(): Promise<NatsServer> } {
  const { roles, clients, start } = hallOn(prefix, event, startNats, (server) => server.close());
  return { roles, clients, nats: start };
}

/** The same on a 3-node JetStream cluster (the event's stream and the lease bucket R3): `cluster()` starts it and gives the roles' `--bus`. */
export function hallOnCluster(prefix: string): { roles: HallProcesses; clients: TestClient[]; cluster(): Promise<string> } {
  const { roles, clients, start } = hallOn(
    prefix,
    undefined,
    () => startNatsCluster(),
    (cluster: NatsCluster) => cluster.stop(),
  );
  return { roles, clients, cluster: async () => (await start()).urls };
}

/** The roles, their clients and the bus `start` makes, all torn down after the describe. */
function hallOn<B>(prefix: string, event: string | undefined, start: () => Promise<B>, stop: (bus: B) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const roles = new HallProcesses(dir, event);
  const clients: TestClient[] = [];
  let bus: B | undefined;
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await roles.stop();
    if (bus !== undefined) await stop(bus);
    rmSync(dir, { recursive: true, force: true });
  });
  return { roles, clients, start: async () => (bus = await start()) };
}
