// Restart of a 1,000-board event console, measured from outside as an arbiter lives it: from the
// `zeitnot serve` process's spawn until it answers /health (the page's first snapshot comes with the
// same server). Four journals: early in round 1 (the clocks just started), late in it (some 250,000
// entries, every board 125 plies in), and both again with `--simulate 1000` (virtual players on
// simulated DGT boards that resume where the journal left their games). Each journal is first opened
// and crashed once (SIGKILL after /health) as a running console would have been, so the measured
// start finds what such a console leaves behind (its board snapshots, docs/console.md#restart).
// BENCH_RESTART_BOARDS and BENCH_RESTART_PLIES make it smaller.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Chess } from 'chess.js';
import { Journal, startConsole, type JournalRecord } from '../arbiter-console/index.ts';
import { hallEventForTest } from './arbiter-console.ts';
import { seededRandom } from '../simulators/index.ts';
import { freePort } from '../tests/support/ports.ts';
import type { BenchRow } from './table.ts';

const root = join(import.meta.dirname, '..');
const BOARDS = Number(process.env.BENCH_RESTART_BOARDS ?? 1000);
const LATE_PLIES = Number(process.env.BENCH_RESTART_PLIES ?? 125);
const targetMs = 2000;

/** A random legal game of `plies` plies (SAN and the FEN after each), the same for a seed. */
function randomLine(seed: string, plies: number): { san: string; fen: string }[] {
  const random = seededRandom(seed);
  for (;;) {
    const chess = new Chess();
    const line: { san: string; fen: string }[] = [];
    while (line.length < plies && !chess.isGameOver()) {
      const san = random.pick(chess.moves());
      chess.move(san);
      line.push({ san, fen: chess.fen() });
    }
    if (line.length === plies) return line;
  }
}

/**
 * A data directory whose console paired and published round 1 of a 2,000-player Swiss and started its
 * clocks, then `plies` plies on every board (a board move and its press, 20 s apart), as the journal of
 * a console that played them has them (bench/rebuild.ts builds on it too).
 */
export async function eventJournal(plies: number, boards = BOARDS): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-restart-'));
  const run = await startConsole({ dataDir, port: 0, noPage: true, event: hallEventForTest(boards), firstRound: true });
  run.hall.command({ type: 'arriveAll' }, 'bench');
  run.hall.command({ type: 'startAll' }, 'bench');
  const startAt = run.hall.startAt ?? 0;
  const section = run.hall.round.section!;
  await run.stop();
  const journal = new Journal(join(dataDir, 'journal.sqlite'));
  const lines = Array.from({ length: 8 }, (_, k) => randomLine(`restart-${k}`, plies));
  const records: JournalRecord[] = [];
  for (let ply = 0; ply < plies; ply++) {
    const side = ply % 2 === 0 ? 'white' : 'black';
    for (let b = 1; b <= boards; b++) {
      const at = startAt + (ply + 1) * 20_000 + b;
      const by = { kind: 'device', deviceId: `bench-${b}` } as const;
      const { san, fen } = lines[b % lines.length]![ply]!;
      records.push({ kind: 'clock', board: String(b), event: { type: 'boardMove', side, san, fen, at, by } });
      records.push({ kind: 'clock', board: String(b), event: { type: 'press', side, at, by } });
    }
  }
  for (let i = 0; i < records.length; i += 50_000) journal.appendAll(records.slice(i, i + 50_000), Date.now(), () => ({ section, round: 1 }));
  journal.close();
  return dataDir;
}

/** Spawns `zeitnot serve` on `dataDir`; resolves with the ms until /health answered, then kills it (SIGKILL: a crash). */
async function restartMs(dataDir: string, extra: readonly string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--data', dataDir, '--port', String(port), ...extra], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (;;) {
      if (gone) throw new Error(`zeitnot serve exited before answering /health: ${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (performance.now() - started > 180_000) throw new Error('no /health answer in 180 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The restart of a copy of `dataDir` (after one crashed start on it), `runs` times: the median and slowest. */
async function restartRow(measure: string, dataDir: string, extra: readonly string[], runs = 3): Promise<BenchRow> {
  const copy = mkdtempSync(join(tmpdir(), 'zeitnot-bench-restart-run-'));
  try {
    cpSync(dataDir, copy, { recursive: true });
    const first = await restartMs(copy, extra);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await restartMs(copy, extra));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    return {
      part: 'arbiter-console',
      measure: `restart: ${measure} (spawn to /health, whole process)`,
      value: `${median.toFixed(0)} ms median, ${times.at(-1)!.toFixed(0)} ms slowest of ${runs} (first start on the journal ${first.toFixed(0)} ms; load ${loadavg()[0]!.toFixed(1)})`,
      target: `<= ${targetMs} ms`,
      ok: times.at(-1)! <= targetMs,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), '--quiet'], { stdio: 'inherit' });
  const early = await eventJournal(2);
  const late = await eventJournal(LATE_PLIES);
  const entries = (dir: string): number => {
    const journal = new Journal(join(dir, 'journal.sqlite'));
    const n = journal.count();
    journal.close();
    return n;
  };
  try {
    const simulate = ['--simulate', String(BOARDS)];
    return [
      await restartRow(`${BOARDS} boards early in a round (${entries(early)} journal entries)`, early, []),
      await restartRow(`${BOARDS} boards late in a round (${entries(late)} journal entries)`, late, []),
      await restartRow(`${BOARDS} boards early in a round, --simulate ${BOARDS} (simulated DGT boards)`, early, simulate),
      await restartRow(`${BOARDS} boards late in a round, --simulate ${BOARDS} (simulated DGT boards)`, late, simulate),
      await restartRow(`${BOARDS} boards late in a round, --simulate ${BOARDS} --simulate-hardware none`, late, [...simulate, '--simulate-hardware', 'none']),
    ];
  } finally {
    rmSync(early, { recursive: true, force: true });
    rmSync(late, { recursive: true, force: true });
  }
}

if (process.argv.includes('--fixture')) {
  const plies = Number(process.argv[process.argv.indexOf('--fixture') + 1] ?? LATE_PLIES);
  process.stdout.write(`${await eventJournal(plies)}\n`);
}
