// The page is bundled ahead of time into the package's dist/web (scripts/build.js, run by `npm ci`,
// `npm run build`, `npm pack` and the tests' global setup); the console only reads it, so it runs
// from a read-only install and never writes into the source tree.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../start/index.ts';

export { packageRoot };

/** Returns the directory holding index.html, app.js, style.css and favicon.svg. */
export function builtPage(): string {
  const page = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', 'web');
  if (!existsSync(join(page, 'index.html'))) throw new Error(`the page is not built (no ${join(page, 'index.html')}): run \`npm run build\``);
  return page;
}
