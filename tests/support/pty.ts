// A real pseudo-terminal pair made by socat, so serial code runs through the native serialport binding.
// `a` and `b` are symlinks to the two ends; bytes written to one arrive at the other. `unplug` ends socat
// (both ends see the device vanish, as when a USB cable is pulled); `replug` makes a new pair at the same
// paths. Always `close()` in afterEach/afterAll: it kills socat and removes the directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PtyPair {
  readonly a: string;
  readonly b: string;
  /** Ends socat: both ends disappear. */
  unplug(): Promise<void>;
  /** A fresh pair at the same two paths. */
  replug(): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startSocat(a: string, b: string, timeoutMs: number): Promise<ChildProcess> {
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // socat logs "starting data transfer loop" once both ptys exist and their links are made.
    if (existsSync(a) && existsSync(b) && stderr.includes('starting data transfer loop')) return child;
    if (child.exitCode !== null) throw new Error(`socat exited (${child.exitCode}): ${stderr}`);
    const failed = await Promise.race([spawnError, sleep(10).then(() => undefined)]);
    if (failed) throw new Error(`cannot start socat (is it installed?): ${failed.message}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`socat did not create ${a} and ${b} within ${timeoutMs} ms: ${stderr}`);
    }
  }
}

async function stopSocat(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(2000).then(() => child.kill('SIGKILL'))]);
  await exited;
}

export async function openPtyPair(options: { timeoutMs?: number } = {}): Promise<PtyPair> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const dir = await mkdtemp(join(tmpdir(), 'zeitnot-pty-'));
  const a = join(dir, 'ttyA');
  const b = join(dir, 'ttyB');
  let socat: ChildProcess | undefined = await startSocat(a, b, timeoutMs);
  return {
    a,
    b,
    async unplug() {
      await stopSocat(socat);
      socat = undefined;
    },
    async replug() {
      await stopSocat(socat);
      socat = await startSocat(a, b, timeoutMs);
    },
    async close() {
      await stopSocat(socat);
      socat = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
