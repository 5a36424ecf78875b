// vitest's order of test files, the longest first: a file started last holds the run for its whole
// length while the other workers have nothing left. vitest's own order (BaseSequencer) runs every file
// of one project before any of the next ('isolated' before 'shared-modules'), the longest first only
// after a run on the same machine has left its durations in node_modules/.vite; on a fresh clone (CI)
// it goes by file size, so the 80-90 s simulated Cairns Cup, a shared file, started only once every
// isolated file had. The files below start first whatever their project, in this order; every other
// file keeps vitest's order after them (the shared ones last, one after another in the same workers).
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took longest in a whole `npm test` with four workers (seconds each, vitest's own
 * per-file times on this 2-core machine, 5 Dec 2026, load 2-15). A file missing here only starts
 * later; a file listed but gone is skipped.
 */
export const longestFiles: readonly (readonly [file: string, seconds: number])[] = [
  ['tests/packaging/package.test.ts', 210],
  ['tests/bus/rebuild-snapshot.test.ts', 118],
  ['tests/arbiter-console/simulated-results.test.ts', 91],
  ['tests/bus/bus-faults.test.ts', 84],
  ['tests/bus/hall-cluster.test.ts', 66],
  ['tests/arbiter-console/board-end-dgt.test.ts', 59],
  ['tests/arbiter-console/hall-page.test.ts', 54],
  ['tests/arbiter-console/crash-event.test.ts', 48],
  ['tests/bus/board-leases.test.ts', 41],
  ['tests/arbiter-console/crash-dgt.test.ts', 40],
  ['tests/arbiter-console/server-limits.test.ts', 39],
  ['tests/pairing/fast-paths.test.ts', 38],
  ['tests/arbiter-console/event-exports.test.ts', 38],
  ['tests/bus/command-outcomes.test.ts', 32],
  ['tests/bus/hall-roles.test.ts', 31],
  ['tests/arbiter-console/journal-fault.test.ts', 31],
  ['tests/device-bridge/dgt-cli.test.ts', 30],
  ['tests/arbiter-console/trf-import.test.ts', 27],
  ['tests/arbiter-console/prizes-console.test.ts', 27],
  ['tests/arbiter-console/first-screen.test.ts', 27],
  ['tests/arbiter-console/tournament-page.test.ts', 25],
  ['tests/arbiter-console/pgn-folder.test.ts', 23],
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const vitestOrder = await super.sort(files);
    const seconds = new Map(longestFiles);
    const secondsOf = (spec: TestSpecification) => seconds.get(relative(this.ctx.config.root, spec.moduleId));
    const longest = vitestOrder.filter((spec) => secondsOf(spec) !== undefined).sort((a, b) => secondsOf(b)! - secondsOf(a)!);
    return [...longest, ...vitestOrder.filter((spec) => secondsOf(spec) === undefined)];
  }
}
