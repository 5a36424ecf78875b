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
