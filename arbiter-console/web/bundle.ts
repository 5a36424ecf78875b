// Bundles the page with esbuild into web/dist (gitignored) when the server starts: no build step to
// forget, no fetch from the internet at run time.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Returns the directory holding index.html, app.js and style.css. */
export async function bundlePage(outDir = join(here, 'dist')): Promise<string> {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(here, 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: join(outDir, 'app.js'),
    minify: true,
    sourcemap: false,
    logLevel: 'silent',
  });
  await copyFile(join(here, 'index.html'), join(outDir, 'index.html'));
  await copyFile(join(here, 'style.css'), join(outDir, 'style.css'));
  return outDir;
}
