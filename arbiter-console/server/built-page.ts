// The page is bundled ahead of time into the package's dist/web (scripts/build.js, run by `npm ci`,
// `npm run build`, `npm pack` and the tests' global setup); the console only reads it, so it runs
// from a read-only install and never writes into the source tree.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the TypeScript sources (tests) and the compiled command line (dist/cli) both sit inside it. */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** Returns the directory holding index.html, app.js, style.css and favicon.svg. */
export function builtPage(): string {
  const page = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', 'web');
  if (!existsSync(join(page, 'index.html'))) throw new Error(`the page is not built (no ${join(page, 'index.html')}): run \`npm run build\``);
  return page;
}
