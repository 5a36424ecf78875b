// A start that cannot go on, through the real command line: `zeitnot serve` (and `zeitnot hall-host`)
// exits non-zero with one line on standard error, soon after saying it, with nothing left behind: no
// process of its group, its port free again. A device whose port is missing is its board's trouble,
// not the start's. The teardown stack itself: teardown.test.ts.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startConsole, StartFailure } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { freePort } from '../support/ports.ts';

/** How long a failed start may take to end once it has said why (the 2 s). */
const EXIT_AFTER_LINE_MS = 2_000;

interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From the first byte on standard error to the exit. */
  readonly lingeredMs: number;
  readonly pid: number;
}

/** Runs `zeitnot ARGS` in a process group of its own and waits for it to end (killed after `limitMs`). */
function zeitnot(args: readonly string[], limitMs = 60_000): Promise<Ended> {
  const child = spawn(process.execPath, ['bin/zeitnot.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  let saidAt: number | undefined;
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => {
    saidAt ??= Date.now();
    stderr += String(d);
  });
  const limit = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), limitMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr, lingeredMs: saidAt === undefined ? 0 : Date.now() - saidAt, pid: child.pid! });
    }),
  );
}

/** No process is left in the group the command ran in. */
function groupGone(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const listening = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const closed = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** The port can be listened on again: the command left nothing on it. */
async function portFree(port: number): Promise<boolean> {
  try {
    await closed(await listening(port));
    return true;
  } catch {
    return false;
  }
}

/** The failure as the operator sees it: non-zero, one line saying `message`, soon after, nothing left. */
function expectOneLineFailure(ended: Ended, code: number, message: RegExp): void {
  expect(ended.code, ended.stderr).toBe(code);
  const lines = ended.stderr.trimEnd().split('\n');
  expect(lines, ended.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(ended.stderr).not.toMatch(/\n\s+at /);
  expect(ended.lingeredMs, 'from the line on standard error to the exit').toBeLessThanOrEqual(EXIT_AFTER_LINE_MS);
  expect(groupGone(ended.pid), 'a process of its group is still there').toBe(true);
}

/** A directory this process cannot write in: a read-only one, or (as root, who writes anywhere) sysfs. */
function unwritableDirectory(base: string): string | undefined {
  const made = mkdtempSync(join(base, 'ro-'));
  chmodSync(made, 0o555);
  for (const candidate of [made, '/sys/kernel']) {
    try {
      writeFileSync(join(candidate, '.probe'), '');
      rmSync(join(candidate, '.probe'), { force: true });
    } catch {
      return candidate;
    }
  }
  return undefined;
}

const work = mkdtempSync(join(tmpdir(), 'zeitnot-start-failures-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('zeitnot serve: a start that fails says why in one line and leaves nothing behind', () => {
  it('the port is in use: by another program; and with virtual players, a simulated arbiter and the worker started first', async () => {
    const blocker = await listening(0);
    const port = (blocker.address() as { port: number }).port;
    try {
      const plain = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', join(work, 'port-a'), '--port', String(port)]);
      expectOneLineFailure(
        plain,
        1,
        new RegExp(`^zeitnot serve: port ${port} is in use \\(another console\\?\\): stop the program that holds it, or give another port \\(--port\\)$`),
      );
      // Virtual players on virtual DGT boards, their clocks started, the simulated arbiter: all stopped again.
      const busy = await zeitnot([
        'serve',
        '--event',
        'cairns-cup-2019',
        '--data',
        join(work, 'port-b'),
        '--port',
        String(port),
        '--simulate',
        'all',
        '--auto-publish',
        '--auto-start',
        '--time-scale',
        '20',
      ]);
      expectOneLineFailure(busy, 1, new RegExp(`^zeitnot serve: port ${port} is in use`));
      expect(busy.stdout).toBe('');
    } finally {
      await closed(blocker);
    }
  }, 120_000);

  it('the data directory is a file, or lies under a file', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a directory\n');
    const port = await freePort();
    const isFile = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', file, '--port', String(port)]);
    expectOneLineFailure(
      isFile,
      1,
      /^zeitnot serve: the data directory \S+a-file cannot be used \(it is a file, not a directory\): give a writable directory \(--data DIR\)$/,
    );
    const under = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', join(file, 'data'), '--port', String(port)]);
    expectOneLineFailure(under, 1, /^zeitnot serve: the data directory \S+a-file\/data cannot be used \(a part of its path is a file\)/);
    expect(await portFree(port)).toBe(true);
  }, 120_000);

  const unwritable = unwritableDirectory(work);
  it.skipIf(unwritable === undefined)(
    'the data directory cannot be written',
    async () => {
      const ended = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', unwritable!, '--port', '0']);
      expectOneLineFailure(
        ended,
        1,
        /^zeitnot serve: the data directory \S+ cannot be used \((permission denied|a read-only file system)\): give a writable directory \(--data DIR\)$/,
      );
    },
    60_000,
  );

  // A directory that cannot be made where mkdir says ENOENT though its parent exists (procfs, for root
  // as for anyone): one line, not "no such file" (and not Node 20's recursive mkdir, which never returns there).
  it.skipIf(!existsSync('/proc/self'))(
    'the data directory cannot be made: one line naming why, not ENOENT',
    async () => {
      const ended = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', '/proc/zeitnot-data', '--port', '0']);
      expectOneLineFailure(
        ended,
        1,
        /^zeitnot serve: the data directory \/proc\/zeitnot-data cannot be used \(the file system there takes no new files\): give a writable directory \(--data DIR\)$/,
      );
    },
    60_000,
  );

  it('a device on a board the hall does not have, and a device spec of no known form', async () => {
    const port = await freePort();
    const unknownBoard = await zeitnot([
      'serve',
      '--event',
      'cairns-cup-2019',
      '--data',
      join(work, 'board'),
      '--port',
      String(port),
      '--device',
      '9=dgt:/dev/null',
    ]);
    expectOneLineFailure(unknownBoard, 1, /^zeitnot serve: --device 9=\.\.\.: the hall has no board '9' \(boards: 1, 2, 3, 4, 5\)$/);
    const badSpec = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--data', join(work, 'spec'), '--port', String(port), '--device', '3=usb:/dev/x']);
    expectOneLineFailure(badSpec, 2, /^zeitnot serve: --device '3=usb:\/dev\/x': expected BOARD=dgt:PATH/);
    expect(await portFree(port)).toBe(true);
  }, 120_000);

  it('an unknown option: one line, status 2', async () => {
    const ended = await zeitnot(['serve', '--event', 'cairns-cup-2019', '--prot', '8080']);
    expectOneLineFailure(ended, 2, /^zeitnot serve: unknown option '--prot' \(--help lists the options\)$/);
  }, 60_000);

  it("a device whose port is missing is that board's trouble: the console comes up, says so, and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ['bin/zeitnot.js', 'serve', '--event', 'cairns-cup-2019', '--data', join(work, 'missing'), '--port', '0', '--device', '3=dgt:/dev/zeitnot-no-such-port'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const end = Date.now() + 60_000;
    while (!stdout.includes('spectators:') && child.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('spectators:');
    expect(stderr).toMatch(/^zeitnot serve: warning: board 3: .*zeitnot-no-such-port.*; it is tried again every few seconds$/m);
  }, 90_000);
});

describe('zeitnot hall-host: the same for a hall host', () => {
  it('the data directory is a file: one line, before the bus is asked', async () => {
    const file = join(work, 'host-file');
    writeFileSync(file, '');
    const ended = await zeitnot(['hall-host', '--bus', 'nats://127.0.0.1:1', '--event', 'cairns-cup-2019', '--boards', '1-2', '--data', file]);
    expectOneLineFailure(ended, 1, /^zeitnot hall-host: the data directory \S+host-file cannot be used \(it is a file, not a directory\)/);
  }, 60_000);
});

describe("startConsole: a failed start rejects with the failure's code", () => {
  it('the port in use: code port-in-use, and the token nobody was shown not kept (the next start prints one)', async () => {
    const blocker = await listening(0);
    const port = (blocker.address() as { port: number }).port;
    const dataDir = join(work, 'in-process');
    try {
      const failure: unknown = await startConsole({ dataDir, port, noPage: true, event: presetEvent('cairns-cup-2019') }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(StartFailure);
      expect((failure as StartFailure).code).toBe('port-in-use');
    } finally {
      await closed(blocker);
    }
    const next = await startConsole({ dataDir, port: 0, noPage: true });
    try {
      expect(next.newToken).toBeDefined();
    } finally {
      await next.stop();
    }
  }, 60_000);

  it('a data directory that is a file: code data-dir, before anything is opened', async () => {
    const file = join(work, 'in-process-file');
    writeFileSync(file, '');
    const failure: unknown = await startConsole({ dataDir: file, port: 0, noPage: true, event: presetEvent('cairns-cup-2019') }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StartFailure);
    expect((failure as StartFailure).code).toBe('data-dir');
  }, 60_000);
});
