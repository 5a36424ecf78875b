// vitest global setup: the same ahead-of-time build as `npm ci` (scripts/build.js), before any test
// runs, so a test that spawns bin/zeitnot.js or serves the page never runs a stale dist/ after an
// edit (`npx vitest run one.test.ts` included). esbuild makes it a fraction of a second.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function buildOnce(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'build.js'), '--quiet'], { stdio: 'inherit' });
}
