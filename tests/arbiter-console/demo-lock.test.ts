// A second `npm start` (zeitnot serve --demo) while the demo runs: refused in one line with a
// non-zero exit, the running demo's journal and token untouched. A lock left by a console that died
// (its pid gone) does not hold the next start. Real processes through the command line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'zeitnot-demo-lock-'));
const data = join(dir, 'data');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the demo on `data`; resolves once it printed its URLs. */
async function startDemo(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--demo', '--data', data, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const end = Date.now() + 45_000;
  while (!out.includes('spectators:') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  const url = /spectators:\s+(\S+)\/spectator/.exec(out)?.[1];
  expect(url, out).toBeDefined();
  return { child, url: url! };
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));
}

describe('a second npm start on a running demo', () => {
  it("is refused with one line and exit 1, the running demo's journal untouched; the lock leaves with the demo", async () => {
    const first = await startDemo();
    try {
      const token = readFileSync(join(data, 'arbiter-token.hash'));
      expect(readFileSync(join(data, 'console.pid'), 'utf8')).toBe(`${first.child.pid}\n`);
      const second = spawnSync(process.execPath, ['bin/zeitnot.js', 'serve', '--demo', '--data', data, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
      expect(second.status).toBe(1);
      expect(second.stderr).toBe(
        `zeitnot serve: the demo is already running: ${data} is in use by a running console (pid ${first.child.pid}); open the page it printed, or stop it first\n`,
      );
      expect(second.stdout).toBe('');
      expect(readFileSync(join(data, 'arbiter-token.hash'))).toEqual(token);
      expect(existsSync(join(data, 'journal.sqlite'))).toBe(true);
      const health = (await (await fetch(`${first.url}/health`)).json()) as { ok: boolean; journal: unknown };
      expect(health.ok).toBe(true);
    } finally {
      expect(await stop(first.child)).toBe(0);
    }
    expect(existsSync(join(data, 'console.pid'))).toBe(false);
  }, 90_000);

  it('takes over the lock of a console that died without removing it', async () => {
    const dead = spawnSync(process.execPath, ['-e', ''], { encoding: 'utf8' }).pid!;
    writeFileSync(join(data, 'console.pid'), `${dead}\n`);
    const demo = await startDemo();
    expect(readFileSync(join(data, 'console.pid'), 'utf8')).toBe(`${demo.child.pid}\n`);
    expect(await stop(demo.child)).toBe(0);
  }, 90_000);
});
