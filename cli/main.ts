// The `zeitnot` command line: one module per command, loaded only when that command runs,
// so `zeitnot replay` never loads serial ports or SQLite.
import { UsageError, type Command } from './command.ts';

const commands: Record<string, () => Promise<{ command: Command }>> = {
  replay: () => import('./replay.ts'),
  serve: () => import('./serve.ts'),
  dgt: () => import('./dgt.ts'),
  devices: () => import('./devices.ts'),
  standings: () => import('./standings.ts'),
  pairings: () => import('./pairings.ts'),
  pair: () => import('./pair.ts'),
};

function usage(summaries: string[]): string {
  return ['usage: zeitnot <command> [options]', '', 'commands:', ...summaries, '', 'zeitnot <command> --help shows a command\'s options.'].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const loaded = await Promise.all(Object.values(commands).map((load) => load()));
    const summaries = loaded.map(({ command }) => `  ${command.name.padEnd(10)} ${command.summary}`);
    process.stdout.write(usage(summaries) + '\n');
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`zeitnot: unknown command '${name}'. Commands: ${Object.keys(commands).join(', ')}\n`);
    return 2;
  }
  const { command } = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help + '\n');
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`zeitnot ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
