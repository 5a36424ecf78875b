// A console on the bus rebuilt on an empty data directory from the latest snapshot and the stream's
// tail (docs/hall.md, "Rebuild"), in process on one `nats-server -js`. Three journals of a 1,000-board
// event (bench/restart.ts's): early in round 1 and late in it (125 plies a board, some 250,000
// entries), and after round 9 of 9 (rounds 2 to 9 played as round 1 was, over two million entries);
// console c1 joins the bus on each, writes its snapshot (timed), stops; then c2 starts on an empty data
// directory until it serves (timed: the snapshot read and taken, the tail, the hall built from the
// board snapshots). The rebuild after round 9 of 9 is measured, printed next to its target; at 50 hosts
// x 100 boards it is projected from it (in proportion to the boards). BENCH_REBUILD_BOARDS and
// BENCH_REBUILD_PLIES make it smaller (the 1,000-board row is then projected in proportion too).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Journal, startConsole } from '../arbiter-console/index.ts';
import { startNats, type NatsServer } from '../tests/support/nats.ts';
import { shifted } from '../tests/support/shifted-record.ts';
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
  readonly archived: number;
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
    const restored = c2.onBus?.restored;
    const count = c2.journal.count();
    await c2.stop();
    if (!restored || restored.rows === 0) throw new Error('c2 did not rebuild from the snapshot');
    if (count !== entries) throw new Error(`c2 has ${count} entries, c1 had ${entries}`);
    return { entries, writeMs, rebuildMs, restoredRows: restored.rows, archived: restored.archived };
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * The late journal played on for `rounds` rounds: each later round paired, published, seated and
 * started as round 1 was (its records again, for that round) and its plies, after the previous ones.
 */
function playRounds(dataDir: string, rounds: number): void {
  const journal = new Journal(join(dataDir, 'journal.sqlite'));
  const round1 = [...journal.entries()];
  const span = journal.lastAt() + 60_000;
  for (let k = 2; k <= rounds; k++) {
    const records = round1.map((e) => ({ record: shifted(e.record, (k - 1) * span, k), section: e.section, inRound: e.round !== undefined }));
    for (let i = 0; i < records.length; i += 50_000) {
      const batch = records.slice(i, i + 50_000);
      journal.transaction(() => {
        for (const r of batch)
          journal.append(r.record, Date.now(), { ...(r.section !== undefined ? { section: r.section } : {}), ...(r.inRound ? { round: k } : {}) });
      });
    }
  }
  journal.close();
}

export async function run(): Promise<BenchRow[]> {
  const early = await eventJournal(2, BOARDS);
  const late = await eventJournal(LATE_PLIES, BOARDS);
  const last = await eventJournal(LATE_PLIES, BOARDS);
  try {
    const a = await measure(early);
    const b = await measure(late);
    playRounds(last, ROUNDS);
    const c = await measure(last);
    const load = loadavg()[0]!.toFixed(1);
    const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    const taken = (m: Measured): string => `${m.entries} entries, ${m.archived} of them kept archived`;
    const at1000 = (c.rebuildMs * 1000) / BOARDS;
    return [
      {
        part: 'hall-bus',
        measure: `rebuild from snapshot + tail, ${BOARDS} boards early in round 1 (${taken(a)}), start to serving`,
        value: `${s(a.rebuildMs)} (snapshot written in ${s(a.writeMs)}; load ${load})`,
      },
      {
        part: 'hall-bus',
        measure: `rebuild from snapshot + tail, ${BOARDS} boards late in round 1 (${taken(b)}), start to serving`,
        value: `${s(b.rebuildMs)} (snapshot written in ${s(b.writeMs)}; load ${load})`,
      },
      {
        part: 'hall-bus',
        measure: `rebuild at ${BOARDS} boards late in round ${ROUNDS} of ${ROUNDS} (${taken(c)}), start to serving`,
        value: `${s(c.rebuildMs)} (snapshot written in ${s(c.writeMs)}; load ${load})`,
        ...(BOARDS === 1000 ? { target: `<= ${s(targetMs)}`, ok: c.rebuildMs <= targetMs } : {}),
      },
      ...(BOARDS === 1000
        ? []
        : [
            {
              part: 'hall-bus',
              measure: `rebuild at 1000 boards after round ${ROUNDS} of ${ROUNDS} (projected from ${BOARDS} boards)`,
              value: s(at1000),
              target: `<= ${s(targetMs)}`,
              ok: at1000 <= targetMs,
            },
          ]),
      {
        part: 'hall-bus',
        measure: `rebuild at 50 hosts x 100 boards after round ${ROUNDS} of ${ROUNDS} (projected from ${BOARDS} boards)`,
        value: s((c.rebuildMs * 5000) / BOARDS),
      },
    ];
  } finally {
    for (const dir of [early, late, last]) rmSync(dir, { recursive: true, force: true });
  }
}
