// The `zeitnot` command line: one module per command, loaded only when that command runs, so
// `zeitnot replay` never loads serial ports or SQLite and `zeitnot --help` loads none of them.
import { failed, UsageError, type Command } from './command.ts';

interface Entry {
  /** One line for `zeitnot --help`. */
  readonly summary: string;
  readonly load: () => Promise<{ command: Command }>;
}

const commands: Record<string, Entry> = {
  replay: { summary: 'replay a game from thinking times or audit a PGN clock record (JSON lines)', load: () => import('./replay.ts') },
  serve: { summary: 'run the arbiter console for a whole event, every section and round (web page, devices, journal)', load: () => import('./serve.ts') },
  dgt: { summary: 'DGT tools: decode raw board bytes (dgt decode), or read the game they show (dgt moves)', load: () => import('./dgt.ts') },
  devices: { summary: 'list serial ports and what answers on them (DGT boards, line clocks, Firmata)', load: () => import('./devices.ts') },
  standings: { summary: 'standings of a TRF file with FIDE tie-break columns', load: () => import('./standings.ts') },
  pairings: { summary: 'print the Berger round-robin schedule', load: () => import('./pairings.ts') },
  pair: { summary: 'pair the next Swiss round of a TRF (FIDE Dutch), or check a finished one', load: () => import('./pair.ts') },
  'hall-host': { summary: 'run the boards of one machine of a hall on the bus (devices, clocks, its own journal)', load: () => import('./hall-host.ts') },
  bus: { summary: 'NATS credentials for the hall hosts and consoles of an event on the bus (bus users)', load: () => import('./bus.ts') },
  trf: { summary: 'check a TRF file (every problem at line:column) or write it back as TRF-16', load: () => import('./trf.ts') },
  'import-trf': {
    summary: "import a TRF into a running console's section (registration list, rounds played elsewhere)",
    load: () => import('./import-trf.ts'),
  },
};

function usage(summaries: string[]): string {
  return ['usage: zeitnot <command> [options]', '', 'commands:', ...summaries, '', "zeitnot <command> --help shows a command's options."].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const summaries = Object.entries(commands).map(([command, { summary }]) => `  ${command.padEnd(10)} ${summary}`);
    process.stdout.write(usage(summaries) + '\n');
    return name ? 0 : 2;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`zeitnot: unknown command '${name}'. Commands: ${Object.keys(commands).join(', ')}\n`);
    return 2;
  }
  const { command } = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) return failed(name, error);
    throw error;
  }
}

// A reader that stops early (`zeitnot replay --pgn games.pgn | head`) closes the pipe: the rest of the
// output is not wanted, so the command ends quietly instead of dying on the write with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
