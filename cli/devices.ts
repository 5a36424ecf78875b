import type { Command } from './command.ts';

// Placeholder until the part behind this command lands; it says so instead of pretending.
export const command: Command = {
  name: 'devices',
  summary: '(not yet available)',
  help: 'zeitnot devices: not yet available in this build.',
  async run() {
    process.stderr.write('zeitnot devices: not yet available in this build\n');
    return 2;
  },
};
