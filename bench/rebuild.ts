// A console on the bus rebuilt on an empty data directory from the latest snapshot and the stream's
// tail (docs/hall.md, "Rebuild"), in process on one `nats-server -js`. Two journals of a 1,000-board
// event (bench/restart.ts's): early in a round and late in it (125 plies a board, some 250,000
// entries); console c1 joins the bus on each, writes its snapshot (timed), stops; then c2 starts on an
// empty data directory until it serves (timed: the snapshot read and taken, the tail, the hall built
// from the board snapshots). The difference between the two gives the cost per entry of the journal;
// the rebuild after round 9 of 9 (nine such rounds of entries) and at 50 hosts x 100 boards are
// projected from it, each printed next to its target. BENCH_REBUILD_BOARDS and BENCH_REBUILD_PLIES
// make it smaller.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Journal, startConsole } from '../arbiter-console/index.ts';
import { startNats, type NatsServer } from '../tests/support/nats.ts';
import { eventJournal } from './restart.ts';
import type { BenchRow } from './table.ts';

const BOARDS = Number(process.env.BENCH_REBUILD_BOARDS ?? 1000);
const LATE_PLIES = Number(process.env.BENCH_REBUILD_PLIES ?? 125);
const ROUNDS = 9;
const targetMs = 3000;

interface Measured {
  readonly entries: number;
  readonly writeMs: number;
  readonly rebuildMs: number;
  readonly restoredRows: number;
}

/** On a bus of its own (each journal is its own run of the event), c1 joins on `dataDir` and writes its snapshot; c2, on an empty directory, rebuilds from it. */
async function measure(dataDir: string): Promise<Measured> {
  const server = await startNats();
  try {
    return await measureOn(server, dataDir);
  } finally {
    await server.close();
  }
}

async function measureOn(server: NatsServer, dataDir: string): Promise<Measured> {
  const journal = new Journal(join(dataDir, 'journal.sqlite'));
  const event = journal.meta()!.event!;
  const entries = journal.count();
  journal.close();
  const bus = (consoleId: string) => ({ bus: { servers: [server.url] }, consoleId, snapshotEveryEntries: 0 });
  const c1 = await startConsole({ dataDir, port: 0, noPage: true, bus: bus('c1') });
  const writing = performance.now();
  const written = await c1.onBus!.writeSnapshot();
  const writeMs = performance.now() - writing;
  await c1.stop();
  if (!written) throw new Error('c1 wrote no snapshot');
  const empty = mkdtempSync(join(tmpdir(), 'zeitnot-bench-rebuild-'));
  try {
    const started = performance.now();
    const c2 = await startConsole({ dataDir: empty, port: 0, noPage: true, event, bus: bus('c2') });
    const rebuildMs = performance.now() - started;
    const restoredRows = c2.onBus?.restored?.rows ?? 0;
    await c2.stop();
    if (restoredRows === 0) throw new Error('c2 did not rebuild from the snapshot');
    return { entries, writeMs, rebuildMs, restoredRows };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const early = await eventJournal(2, BOARDS);
  const late = await eventJournal(LATE_PLIES, BOARDS);
  try {
    const a = await measure(early);
    const b = await measure(late);
    const load = loadavg()[0]!.toFixed(1);
    const perEntryMs = (b.rebuildMs - a.rebuildMs) / Math.max(1, b.restoredRows - a.restoredRows);
    // A round's entries: the late journal's beyond the early one's (the plies of every board).
    const round = b.entries - a.entries;
    const project = (boards: number): number => (a.rebuildMs * boards) / BOARDS + perEntryMs * ((round * boards) / BOARDS) * ROUNDS;
    const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    return [
      {
        part: 'hall-bus',
        measure: `rebuild from snapshot + tail, ${BOARDS} boards early in a round (${a.restoredRows} entries), start to serving`,
        value: `${s(a.rebuildMs)} (snapshot written in ${s(a.writeMs)}; load ${load})`,
      },
      {
        part: 'hall-bus',
        measure: `rebuild from snapshot + tail, ${BOARDS} boards late in a round (${b.restoredRows} entries), start to serving`,
        value: `${s(b.rebuildMs)} (snapshot written in ${s(b.writeMs)}; ${(perEntryMs * 1000).toFixed(1)} µs an entry; load ${load})`,
      },
      {
        part: 'hall-bus',
        measure: `rebuild at 1000 boards after round ${ROUNDS} of ${ROUNDS} (projected: ${ROUNDS} rounds of ${Math.round((round * 1000) / BOARDS)} entries)`,
        value: s(project(1000)),
        target: `<= ${s(targetMs)}`,
        ok: project(1000) <= targetMs,
      },
      {
        part: 'hall-bus',
        measure: `rebuild at 50 hosts x 100 boards after round ${ROUNDS} of ${ROUNDS} (projected)`,
        value: s(project(5000)),
      },
    ];
  } finally {
    rmSync(early, { recursive: true, force: true });
    rmSync(late, { recursive: true, force: true });
  }
}
