#!/usr/bin/env node
// Runs the compiled command line in dist/ (built ahead of time by `npm ci`, `npm run build` and
// `npm pack`; see scripts/build.js): no TypeScript is compiled at start-up.
try {
  await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write('zeitnot: not built yet (no dist/cli/main.js): run `npm run build` in the package\n');
  process.exitCode = 1;
}
