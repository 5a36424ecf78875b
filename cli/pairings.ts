// `zeitnot pairings --round-robin N`: the FIDE Berger schedule for N players.
import { bergerSchedule } from '../tournament/index.ts';
import { failed, parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot pairings --round-robin N [--double] [--json]

Prints the FIDE Berger table (C.05 Annex 1) for N players, one round per line, boards in order,
White first ("1-10"). With an odd N the player paired with the phantom N+1 has a bye.

options:
  --round-robin N   number of players (2 or more)
  --double          double round robin: the second cycle with colours reversed, the last two
                    rounds of the first cycle swapped (FIDE recommendation)
  --json            [{"round":1,"games":[{"board":1,"white":1,"black":10},...],"bye":null}, ...]
  --help            this text`;

export const command: Command = {
  name: 'pairings',
  help,
  async run(args) {
    try {
      return await run(args);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return failed('pairings', error);
    }
  },
};

async function run(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { 'round-robin': { type: 'string' }, double: { type: 'boolean' }, json: { type: 'boolean' } });
  const text = values['round-robin'];
  if (text === undefined) throw new UsageError('usage: zeitnot pairings --round-robin N [--double] [--json]');
  const players = Number(text);
  if (!Number.isInteger(players) || players < 2 || players > 9999)
    throw new UsageError(`--round-robin needs a number of players from 2 to 9999, not '${text}'`);
  const schedule = bergerSchedule(players, { cycles: values.double ? 2 : 1 });
  if (values.json) {
    process.stdout.write(JSON.stringify(schedule) + '\n');
    return 0;
  }
  const lines = schedule.map((r) => {
    const games = r.games.map((g) => `${g.white}-${g.black}`).join('  ');
    return `Round ${String(r.round).padStart(2)}: ${games}${r.bye === null ? '' : `  (bye: ${r.bye})`}`;
  });
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
