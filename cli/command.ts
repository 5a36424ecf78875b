// What every command shares: its shape, usage errors, reading its options, running until stopped.
import { parseArgs, type ParseArgsConfig } from 'node:util';

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
 * A command that could not do its job, said on one line (a message of several lines, zod's for one,
 * joined); returns the exit code: a usage error's, else 1.
 */
export function failed(command: string, err: Error): number {
  process.stderr.write(`zeitnot ${command}: ${err.message.replace(/\s*\n\s*/g, ' ')}\n`);
  return err instanceof UsageError ? err.exitCode : 1;
}

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's options through util.parseArgs (strict), each complaint a one-line UsageError naming the
 * option: an unknown one, a value missing (or one starting with '-', as '--port --host' would take),
 * a value given to a switch, an argument where the command takes none.
 */
export function parseOptions<const O extends OptionSpecs, const P extends boolean = false>(
  args: string[],
  options: O,
  settings: { readonly positionals?: P; readonly exitCode?: number } = {},
) {
  const allowPositionals = (settings.positionals ?? false) as P;
  const exitCode = settings.exitCode ?? 2;
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind === 'positional' && !allowPositionals) throw new UsageError(`unexpected argument '${t.value}' (this command takes options only)`, exitCode);
    if (t.kind !== 'option') continue;
    const spec = options[t.name];
    if (!spec) throw new UsageError(`unknown option '${t.rawName}' (--help lists the options)`, exitCode);
    if (spec.type === 'boolean' && t.inlineValue) throw new UsageError(`${t.rawName} takes no value`, exitCode);
    if (spec.type === 'string' && (t.value === undefined || (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-')))) {
      throw new UsageError(
        t.value === undefined
          ? `${t.rawName} needs a value`
          : `${t.rawName} needs a value ('${t.value}' is an option; write ${t.rawName}=${t.value} for a value that starts with '-')`,
        exitCode,
      );
    }
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    // Whatever the checks above did not foresee, still as one line.
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(err.message.split('\n')[0]!, exitCode);
    throw err;
  }
}

/**
 * Runs a long-lived role (a console, a hall host) until SIGINT or SIGTERM, then stops it. A bug
 * anywhere is logged, not fatal: a host-driven clock stops when this process stops, and the journal
 * keeps what happened either way.
 */
export async function runUntilStopped(name: string, running: { stop(): Promise<void> }): Promise<number> {
  // The stack is kept whole: it is what a bug report needs.
  process.on('uncaughtException', (err) =>
    process.stderr.write(`${new Date().toISOString()} ${name}: unexpected error (still running): ${err.stack ?? String(err)}\n`),
  );
  const stopped = await new Promise<unknown>((resolveStop) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      running.stop().then(() => resolveStop(undefined), resolveStop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  // The stop undid every step it could (teardown.ts); the ones that failed are named in one line.
  if (stopped === undefined) return 0;
  process.stderr.write(`${name}: ${(stopped instanceof Error ? stopped.message : String(stopped)).replace(/\s*\n\s*/g, ' ')}\n`);
  return 1;
}
