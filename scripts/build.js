#!/usr/bin/env node
// Compiles zeitnot ahead of time into dist/: the command line (dist/cli: one ES module per command,
// loaded only when that command runs) and the arbiter page (dist/web). `npm ci` runs it (the prepare script), so does `npm pack`, and the test suite's global
// setup, so a test never runs a stale build. Only changed files are rewritten, each whole and renamed
// into place, so a zeitnot process already running never loads half a file.
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

function* filesUnder(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Makes `dir` hold exactly `outputs` ({path, contents}), touching only what differs. */
function syncInto(dir, outputs) {
  const wanted = new Set();
  for (const { path, contents } of outputs) {
    wanted.add(path);
    if (existsSync(path) && Buffer.compare(readFileSync(path), Buffer.from(contents)) === 0) continue;
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, contents);
    renameSync(temporary, path);
  }
  for (const path of filesUnder(dir)) if (!wanted.has(path)) rmSync(path, { force: true });
}

const bundledPackages = new Set(['xstate', 'chess.js', 'zod']);

function external() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(manifest.dependencies).filter((name) => !bundledPackages.has(name));
}

async function buildCommandLine() {
  const outdir = join(dist, 'cli');
  const result = await build({
    absWorkingDir: root,
    // The tournament view worker and the pairing worker are files of their own (tournament-builder.ts
    // and swiss-pairer.ts start them by path).
    entryPoints: ['cli/main.ts', 'arbiter-console/server/tournament-worker.ts', 'arbiter-console/desk/pairing-worker.ts'],
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    // Pure-JS packages are bundled in (ESM; loading them as CommonJS from node_modules costs most of
    // a command's start-up); native and device packages, and those that load optional add-ons, stay
    // in node_modules.
    external: external(),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Whitespace and syntax minified, names kept: a start compiles 40 % less JavaScript (about 0.1 s of
    // CPU of a console's start, docs/console.md#restart) and a stack trace still names its functions;
    // the linked source maps give the lines (node --enable-source-maps).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
  });
  syncInto(outdir, result.outputFiles);
}

async function buildPage() {
  const outdir = join(dist, 'web');
  const web = join(root, 'arbiter-console', 'web');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(web, 'main.ts')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const copied = ['index.html', 'style.css', 'favicon.svg'].map((name) => ({ path: join(outdir, name), contents: readFileSync(join(web, name)) }));
  syncInto(outdir, [...result.outputFiles, ...copied]);
}

export async function buildAll() {
  const started = performance.now();
  await Promise.all([buildCommandLine(), buildPage()]);
  return { dist: relative(process.cwd(), dist) || '.', ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { dist: where, ms } = await buildAll();
    if (!process.argv.includes('--quiet')) process.stderr.write(`zeitnot: built ${where} in ${ms} ms\n`);
  } catch (error) {
    // esbuild's errors name file:line:column; print them, not a stack.
    for (const e of error.errors ?? []) process.stderr.write(`${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}\n`);
    if (!error.errors) process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
