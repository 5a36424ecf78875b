// Bundles the page with esbuild into web/dist (gitignored) when the server starts: no build step to
// forget, no fetch from the internet at run time. Files are written whole and renamed into place, so
// two consoles starting at once never serve each other's half-written bundle.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function writeWhole(file: string, contents: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/** Returns the directory holding index.html, app.js and style.css. */
export async function bundlePage(outDir = join(here, 'dist')): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(here, 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: join(outDir, 'app.js'),
    minify: true,
    sourcemap: false,
    write: false,
    logLevel: 'silent',
  });
  for (const file of result.outputFiles) await writeWhole(file.path, file.contents);
  await writeWhole(join(outDir, 'index.html'), await readFile(join(here, 'index.html')));
  await writeWhole(join(outDir, 'style.css'), await readFile(join(here, 'style.css')));
  return outDir;
}
