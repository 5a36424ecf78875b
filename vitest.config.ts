import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./tests/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three workers on two cores: the longest files mostly wait (simulated games in accelerated time,
    // nats-server faults, DGT boards over ptys: 0.2-0.4 of a core each, measured with /usr/bin/time), so
    // a third file runs in the time they leave; more would only queue Chromium and the pty tests for the
    // same two cores. vitest starts the longest files first (its cache of the last run's durations).
    maxWorkers: 3,
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
