import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./tests/support/build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Pseudo-terminal, SQLite and Chromium tests hold real OS resources; two cores.
    maxWorkers: 2,
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});
