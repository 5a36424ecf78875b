// A real pseudo-terminal pair made with socat, for the line and Firmata tests (written because
// tests/support/pty.ts did not exist yet when they were; same `openPtyPair()` shape).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PtyPair {
  /** The end the host (bridge) opens. */
  readonly hostPath: string;
  /** The end the virtual device opens. */
  readonly devicePath: string;
  close(): Promise<void>;
}

export async function openPtyPair(): Promise<PtyPair> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-pty-'));
  const hostPath = join(dir, 'host');
  const devicePath = join(dir, 'device');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${devicePath}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  socat.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => socat.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(existsSync(hostPath) && existsSync(devicePath))) {
    if (socat.exitCode !== null || Date.now() > deadline) {
      socat.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`socat did not create the pty pair: ${stderr || 'timeout'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    hostPath,
    devicePath,
    async close() {
      if (socat.exitCode === null) {
        socat.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
