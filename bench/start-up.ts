// Command start-up (issue 12): whole `zeitnot` processes, as a user or a script runs them, from spawn
// to exit. The compiled command line (dist/, built first) against the same sources run through tsx,
// which is how every command started before the ahead-of-time build.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { BenchRow } from './table.ts';

const root = join(import.meta.dirname, '..');
const runs = 15;
const targetMs = 150;

function wallMs(args: readonly string[]): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  }
  return times.sort((a, b) => a - b);
}

function row(measure: string, args: readonly string[], withTarget: boolean): BenchRow {
  const times = wallMs(args);
  const median = times[Math.floor(times.length / 2)]!;
  const slowest = times[times.length - 1]!;
  return {
    part: 'command line',
    measure,
    value: `${median.toFixed(0)} ms median, ${slowest.toFixed(0)} ms slowest of ${runs}`,
    ...(withTarget ? { target: `< ${targetMs} ms median`, ok: median < targetMs } : {}),
  };
}

export async function run(): Promise<BenchRow[]> {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), '--quiet'], { stdio: 'inherit' });
  const help = ['--help'];
  const onePly = ['replay', '--time-control', '40/5400+30:1800+30', '--think', '12000'];
  return [
    row('start-up: zeitnot --help (whole process)', ['bin/zeitnot.js', ...help], true),
    row('start-up: zeitnot replay, one ply (whole process)', ['bin/zeitnot.js', ...onePly], true),
    row('  the same replay through tsx (no build, as before)', ['--import', 'tsx', 'cli/main.ts', ...onePly], false),
  ];
}
