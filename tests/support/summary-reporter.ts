// Ends every run with one plain line, "N passed, N failed, N skipped", that tools outside vitest
// (CI among them) can read without knowing vitest's own format.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') count.passed++;
        else if (state === 'failed') count.failed++;
        else count.skipped++;
      }
      // A file that failed to load, or whose setup hook failed (its tests then count as skipped), has no
      // failed test to count, but it is a failure all the same.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed')) count.failed++;
    }
    process.stdout.write(`\n${slowest(testModules)}\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}

/** The files that held the run longest: where the suite's wall time goes (docs: README, Testing). */
function slowest(testModules: ReadonlyArray<TestModule>, shown = 12): string {
  const files = testModules
    .map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ''), seconds: m.diagnostic().duration / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, shown);
  return ['slowest files:', ...files.map((f) => `  ${f.seconds.toFixed(1).padStart(6)} s  ${f.file}`)].join('\n');
}
