// `zeitnot` as a child process: `runZeitnot` starts any of its commands (the hall's roles in
// hall-processes.ts build on it), `ConsoleProcesses` runs `zeitnot serve` on one data directory for the
// crash tests: started on port 0, ready once it prints the spectator URL; every process started is
// SIGKILLed by `killAll` if a test left it running.
import { spawn, type ChildProcess } from 'node:child_process';

export interface RoleProcess {
  readonly child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  out(): string;
  /** Resolves with the exit code (null after a signal) once the process has ended. */
  readonly exited: Promise<number | null>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export function runZeitnot(args: readonly string[]): RoleProcess {
  const child = spawn(process.execPath, ['bin/zeitnot.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    out: () => text,
    exited,
    async kill9() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone()) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface ConsoleProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** The chief arbiter's token, printed on the first start only. */
  readonly token?: string;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
}

export class ConsoleProcesses {
  readonly #children: ChildProcess[] = [];

  constructor(readonly dataDir: string) {}

  async serve(args: readonly string[], startMs = 60_000): Promise<ConsoleProcess> {
    const { child, out } = runZeitnot(['serve', '--data', this.dataDir, '--port', '0', ...args]);
    this.#children.push(child);
    const ready = /spectators:\s+(\S+)\/spectator/;
    const end = Date.now() + startMs;
    while (!ready.test(out())) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`console did not start: ${out()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const token = /arbiter token[^:]*: (\S+)/.exec(out())?.[1];
    return { child, url: ready.exec(out())![1]!, ...(token ? { token } : {}), output: out };
  }

  killAll(): void {
    for (const c of this.#children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}
