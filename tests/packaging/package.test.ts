// The package as a user gets it: `npm pack`, installed offline from the tarball into an empty
// directory exactly as the README says (every dependency bundled) and run with `npx zeitnot`; and that
// install made read-only and served by a normal user, so `serve` provably writes nothing where zeitnot
// is installed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'zeitnot-package-'));
const app = join(work, 'app');
let tarball = '';

beforeAll(() => {
  // `npm pack` runs the prepare script (the build) itself, as a publish would.
  const out = execFileSync('npm', ['pack', '--pack-destination', work, '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  // The README's words, with an empty npm cache of its own: every dependency comes from the tarball
  // (bundled), nothing from the network or this machine's cache. better-sqlite3 compiles from source,
  // as it does offline anywhere: here without the optimiser (CFLAGS and CXXFLAGS come after its
  // -O3 on node-gyp's command line), the same code built in 55 s of CPU instead of 91 (measured at
  // load 13-17), a twentieth of the whole suite's; what this file checks is that it builds and runs.
  const cache = join(work, 'empty-npm-cache');
  execFileSync('npm', ['install', '--offline', '--cache', cache, '--no-audit', '--no-fund', tarball], {
    cwd: app,
    stdio: 'ignore',
    env: { ...process.env, CFLAGS: '-O0', CXXFLAGS: '-O0' },
  });
}, 900_000);

afterAll(() => {
  for (const path of walk(work)) if (!path.isSymlink) chmodSync(path.path, 0o755);
  rmSync(work, { recursive: true, force: true });
});

function* walk(dir: string): Generator<{ path: string; isSymlink: boolean }> {
  yield { path: dir, isSymlink: false };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) yield { path, isSymlink: true };
    else if (entry.isDirectory()) yield* walk(path);
    else yield { path, isSymlink: false };
  }
}

describe('npm pack', () => {
  it('packs the compiled command line and page, not the TypeScript sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/bin/zeitnot.js');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing).toContain('package/dist/web/app.js');
    expect(listing).toContain('package/dist/web/index.html');
    expect(listing).toContain('package/dist/web/favicon.svg');
    expect(listing).toContain('package/LICENSE');
    expect(listing.filter((f) => f.endsWith('.ts') && !f.startsWith('package/node_modules/'))).toEqual([]);
    expect(listing.filter((f) => f.startsWith('package/tests/'))).toEqual([]);
    // Every dependency travels in the tarball; johnny-five's optional serialport 8 (never loaded: the
    // Firmata clock always hands johnny-five its IO) is overridden to the serialport zeitnot uses, so
    // no second native module is packed or compiled.
    expect(listing).toContain('package/node_modules/better-sqlite3/package.json');
    expect(listing).toContain('package/node_modules/johnny-five/package.json');
    expect(listing.filter((f) => f.includes('/@serialport/bindings/'))).toEqual([]);
    expect(listing.filter((f) => /node_modules\/[^/]+\/node_modules\/serialport\//.test(f))).toEqual([]);
  });

  it('installs offline from the tarball into an empty directory and runs with npx zeitnot', () => {
    const npx = (...args: string[]) => spawnSync('npx', ['--offline', '--no-install', 'zeitnot', ...args], { cwd: app, encoding: 'utf8' });
    const help = npx('--help');
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: zeitnot <command>/);
    const replay = npx('replay', '--time-control', '40/5400+30:1800+30', '--think', '12000');
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout.split('\n')[0]!)).toMatchObject({ ply: 1, remainingMs: 5_448_000 });
    const bad = npx('replay', '--time-control', '40/x', '--think', '1');
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

describe('serve from a read-only install, as a normal user', () => {
  const asRoot = process.getuid?.() === 0;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  // As root a read-only mode bit stops nothing, so the test drops to `nobody`; without setpriv it cannot.
  it.skipIf(asRoot && !setpriv)(
    'serves the demo round and its page from the offline install made read-only, run as nobody',
    async () => {
      // The install of the first test, every file of it (its bundled dependencies too) made read-only.
      const pkg = join(app, 'node_modules', 'zeitnot');
      for (const { path, isSymlink } of walk(app)) if (!isSymlink) chmodSync(path, statSync(path).isDirectory() ? 0o555 : 0o444);
      chmodSync(work, 0o755);
      const temp = join(work, 'tmp');
      mkdirSync(temp, { mode: 0o777 });
      chmodSync(temp, 0o777);
      const command = [process.execPath, join(pkg, 'bin', 'zeitnot.js'), 'serve', '--demo', '--port', '0', '--simulate', '1'];
      const [file, ...args] = asRoot ? [setpriv!, '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--', ...command] : command;
      const child = spawn(file!, args, { cwd: pkg, env: { ...process.env, TMPDIR: temp, HOME: temp }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no URL in time: ${out}${err}`)), 60_000);
          child.stdout.on('data', () => {
            const match = /spectators:\s+(http:\/\/\S+)\/spectator/.exec(out);
            if (!match) return;
            clearTimeout(timer);
            resolve(match[1]!);
          });
          child.on('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`serve exited ${code}: ${err}`));
          });
        });
        for (const path of ['/', '/app.js', '/style.css']) {
          const res = await fetch(url + path);
          expect(res.status, path).toBe(200);
          expect((await res.text()).length, path).toBeGreaterThan(100);
        }
        expect(out).toContain(join(temp, asRoot ? 'zeitnot-demo-nobody' : ''));
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      expect(err).toBe('');
      if (asRoot) expect(statSync(join(temp, 'zeitnot-demo-nobody', 'journal.sqlite')).uid).toBe(65534);
      expect(readdirSync(pkg).sort()).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'docs', 'node_modules', 'package.json']);
    },
    120_000,
  );
});
