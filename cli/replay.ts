// `zeitnot replay`: replays a game through the clock engine and prints JSON lines (a contract other
// checks rely on; see docs/time-controls.md). Only argument handling and I/O live here.
import { readFile } from 'node:fs/promises';
import {
  TimeControlError,
  assertPlayable,
  auditPgnGame,
  parseTimeControl,
  presetAmbiguity,
  readPgnGames,
  replayConfig,
  replayThinkTimes,
  timeControlFromTag,
  timeControlPresets,
  type ParseOptions,
  type TimeControl,
} from '../clock-engine/index.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot replay: replay a game through the clock engine, one JSON object per line.

  zeitnot replay --time-control TC --think MS,MS,...   [--armageddon]
      Ply 1 is White's first move. Prints per ply
      {"ply":1,"side":"white","thinkMs":12000,"remainingMs":...,"whiteMs":...,"blackMs":...,"moveNumber":1}
      where remainingMs is the mover's clock right after the press as a DGT clock shows it (the time
      credited for his next move included). When a flag falls the last line is
      {"flag":"white","ply":N,"atMs":...} (atMs: the exact instant, ms after the start).

  zeitnot replay --pgn FILE [--time-control TC]
      Audits every game's clock record: thinking times from [%emt] where present, otherwise from
      consecutive [%clk] readings. Prints each ply whose [%clk] differs from the engine by more than
      the tolerance, one line per game, and a summary line. The control comes from each game's
      TimeControl tag unless --time-control is given; without --increment-credit the convention
      (before-move or after-press) that fits the record better is used and named in the game line.

options:
  --time-control TC      PGN "40/5400+30:1800+30", "W300-B240", US "40/90, SD/30;inc30", "G/45;d5",
                         FIDE "90/40+30+30s", or a preset name (${Object.keys(timeControlPresets)
                           .filter((name) => !presetAmbiguity(name))
                           .slice(0, 6)
                           .join(', ')}, ...);
                         a name that also reads as a control (90+30) is refused: write 5400+30 or 90+30s
  --think MS,MS,...      thinking time of each ply in integer milliseconds
  --armageddon           a draw counts as a win for Black; without --time-control the control is W300-B240
  --increment-credit M   before-move (default: credited when the move starts, as a DGT clock) or after-press
  --next-period M        quota-move (default: at the press completing the quota move) or first-flag
  --notation N           pgn, us or fide (default: recognised from the text)
  --tolerance MS         audit: largest difference that still matches (default 1000)
  --cumulative           audit: keep the engine's own clock instead of restarting each move from the
                         previous recorded reading
  --strict               audit: exit with status 1 when any difference is found
  --help                 this text`;

interface Args {
  timeControl?: string;
  think?: string;
  pgn?: string;
  armageddon: boolean;
  incrementCredit?: TimeControl['incrementCredit'];
  nextPeriod?: TimeControl['nextPeriod'];
  notation?: 'pgn' | 'us' | 'fide';
  toleranceMs?: number;
  cumulative: boolean;
  strict: boolean;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${value}')`);
  return value as T;
}

function argsOf(argv: string[]): Args {
  const { values } = parseOptions(argv, {
    'time-control': { type: 'string' },
    think: { type: 'string' },
    pgn: { type: 'string' },
    armageddon: { type: 'boolean' },
    'increment-credit': { type: 'string' },
    'next-period': { type: 'string' },
    notation: { type: 'string' },
    tolerance: { type: 'string' },
    cumulative: { type: 'boolean' },
    strict: { type: 'boolean' },
  });
  const tolerance = values.tolerance;
  if (tolerance !== undefined && !/^\d+$/.test(tolerance)) throw new UsageError(`--tolerance must be whole milliseconds (got '${tolerance}')`);
  return {
    ...(values['time-control'] !== undefined ? { timeControl: values['time-control'] } : {}),
    ...(values.think !== undefined ? { think: values.think } : {}),
    ...(values.pgn !== undefined ? { pgn: values.pgn } : {}),
    armageddon: values.armageddon ?? false,
    ...(values['increment-credit'] !== undefined
      ? { incrementCredit: oneOf('--increment-credit', values['increment-credit'], ['before-move', 'after-press'] as const) }
      : {}),
    ...(values['next-period'] !== undefined ? { nextPeriod: oneOf('--next-period', values['next-period'], ['quota-move', 'first-flag'] as const) } : {}),
    ...(values.notation !== undefined ? { notation: oneOf('--notation', values.notation, ['pgn', 'us', 'fide'] as const) } : {}),
    ...(tolerance !== undefined ? { toleranceMs: Number(tolerance) } : {}),
    cumulative: values.cumulative ?? false,
    strict: values.strict ?? false,
  };
}

function timeControlOf(text: string, args: Args): TimeControl {
  const options: ParseOptions = {
    ...(args.notation ? { notation: args.notation } : {}),
    ...(args.nextPeriod ? { nextPeriod: args.nextPeriod } : {}),
    ...(args.incrementCredit ? { incrementCredit: args.incrementCredit } : {}),
  };
  // A stated notation reads the text in it; otherwise a preset name, unless the text also reads as
  // another control ("90+30": the preset's 90 min, or 90 s in PGN seconds), which is refused.
  const preset = args.notation ? undefined : timeControlPresets[text];
  try {
    const ambiguity = args.notation ? undefined : presetAmbiguity(text);
    if (ambiguity) throw ambiguity;
    const tc = preset
      ? {
          ...preset.timeControl,
          nextPeriod: args.nextPeriod ?? preset.timeControl.nextPeriod,
          incrementCredit: args.incrementCredit ?? preset.timeControl.incrementCredit,
        }
      : parseTimeControl(text, options);
    // `?`, `-` and `*60` are valid notation but no clock runs them.
    assertPlayable(tc);
    return tc;
  } catch (e) {
    if (e instanceof TimeControlError) throw new UsageError(`--time-control: ${e.message}`);
    throw e;
  }
}

/** Thinking times, each and all together whole ms within 2^53 (the clock's instants are their sums). */
function parseThink(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  let total = 0;
  return parts.map((p, i) => {
    if (!/^\d+$/.test(p)) throw new UsageError(`--think item ${i + 1} ('${p}') is not a whole number of milliseconds`);
    const ms = Number(p);
    total += ms;
    if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(total)) throw new UsageError(`--think item ${i + 1} ('${p}') takes the game past 2^53 ms`);
    return ms;
  });
}

const line = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');

async function auditFile(args: Args, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(`zeitnot replay: cannot read ${file}: ${(e as Error).message}\n`);
    return 1;
  }
  const fixed = args.timeControl !== undefined ? timeControlOf(args.timeControl, args) : undefined;
  const games = readPgnGames(text);
  const totals = { games: games.length, audited: 0, plies: 0, checked: 0, differences: 0, gamesWithDifferences: 0, skipped: 0 };
  games.forEach((game, index) => {
    const who = { game: index + 1, white: game.tags['White'] ?? '?', black: game.tags['Black'] ?? '?', round: game.tags['Round'] ?? '?' };
    let tc = fixed;
    if (!tc) {
      const tag = game.tags['TimeControl'];
      try {
        if (tag === undefined) throw new Error('no TimeControl tag: give --time-control');
        tc = timeControlFromTag(tag, { incrementCredit: args.incrementCredit, nextPeriod: args.nextPeriod });
      } catch (e) {
        totals.skipped++;
        line({ ...who, error: e instanceof TimeControlError ? `TimeControl tag: ${e.message}: give --time-control` : (e as Error).message });
        return;
      }
    }
    const report = auditPgnGame(replayConfig(tc, args.armageddon), game, {
      ...(args.toleranceMs !== undefined ? { toleranceMs: args.toleranceMs } : {}),
      resync: args.cumulative ? 'on-difference' : 'each-ply',
      inferIncrementCredit: args.incrementCredit === undefined,
    });
    for (const d of report.differences) line({ game: index + 1, ...d });
    line({
      ...who,
      plies: report.plies,
      checked: report.checked,
      differences: report.differences.length,
      glitches: report.differences.filter((d) => d.glitch).length,
      incrementCredit: report.incrementCredit,
      periodPlies: report.periodPlies.map((p) => p.ply),
      ...(report.stoppedAtPly !== undefined ? { stoppedAtPly: report.stoppedAtPly } : {}),
    });
    totals.audited++;
    totals.plies += report.plies;
    totals.checked += report.checked;
    totals.differences += report.differences.length;
    if (report.differences.length > 0) totals.gamesWithDifferences++;
  });
  line({ summary: true, ...totals });
  return args.strict && totals.differences > 0 ? 1 : 0;
}

export const command: Command = {
  name: 'replay',
  help,
  run: replay,
};

async function replay(argv: string[]): Promise<number> {
  const args = argsOf(argv);
  if (args.pgn !== undefined) {
    if (args.think !== undefined) throw new UsageError('give either --think or --pgn, not both');
    return auditFile(args, args.pgn);
  }
  if (args.think === undefined) throw new UsageError('give --think MS,MS,... (with --time-control) or --pgn FILE');
  const tcText = args.timeControl ?? (args.armageddon ? 'armageddon' : undefined);
  if (tcText === undefined) throw new UsageError('--time-control is required with --think');
  const tc = timeControlOf(tcText, args);
  for (const l of replayThinkTimes(replayConfig(tc, args.armageddon), parseThink(args.think))) line(l);
  return 0;
}
