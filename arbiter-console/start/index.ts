// Starting and stopping the console's roles: one teardown stack per start, and the failures a start
// reports in one line (docs/console.md#a-start-that-fails).
export { listenFailure, prepareDataDir, StartFailure, type StartFailureCode } from './start-failure.ts';
export { logLine } from './log-line.ts';
export { packageRoot } from './package-root.ts';
export { Teardown, type TeardownFailure } from './teardown.ts';
