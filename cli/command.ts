export interface Command {
  readonly name: string;
  /** The full text for `zeitnot <command> --help`. */
  readonly help: string;
  /** Returns the process exit code. */
  run(args: string[]): Promise<number>;
}

/** Thrown for bad command-line input; main prints the message and exits with `exitCode`. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Runs a long-lived role (a console, a hall host) until SIGINT or SIGTERM, then stops it. A bug
 * anywhere is logged, not fatal: a host-driven clock stops when this process stops, and the journal
 * keeps what happened either way.
 */
export async function runUntilStopped(name: string, running: { stop(): Promise<void> }): Promise<number> {
  process.on('uncaughtException', (err) => process.stderr.write(`${name}: unexpected error (still running): ${err.stack ?? String(err)}\n`));
  await new Promise<void>((resolveStop) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void running.stop().then(resolveStop, resolveStop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
