// `zeitnot serve` as a child process on one data directory, for the crash tests: started on port 0,
// ready once it prints the spectator URL; every process started is SIGKILLed by `killAll` if a test
// left it running.
import { spawn, type ChildProcess } from 'node:child_process';

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
    const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--data', this.dataDir, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    const ready = /spectators:\s+(\S+)\/spectator/;
    const end = Date.now() + startMs;
    while (!ready.test(out)) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`console did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const token = /arbiter token[^:]*: (\S+)/.exec(out)?.[1];
    return { child, url: ready.exec(out)![1]!, ...(token ? { token } : {}), output: () => out };
  }

  killAll(): void {
    for (const c of this.#children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}
