import type { Command } from './command.ts';

// Placeholder until the part behind this command lands; it says so instead of pretending.
export const command: Command = {
  name: 'standings',
  summary: '(not yet available)',
  help: 'zeitnot standings: not yet available in this build.',
  async run() {
    process.stderr.write('zeitnot standings: not yet available in this build\n');
    return 2;
  },
};
