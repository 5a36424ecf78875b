// `zeitnot trf check FILE` and `zeitnot trf format FILE`: for arbiters who exchange TRF files with
// other programs (docs/tournament-rules.md, "TRF").
import { readFileSync, writeFileSync } from 'node:fs';
import { decodeTrf, exportTrf, readTrf, TrfError, type TrfReading } from '../tournament/index.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot trf check FILE      validate a TRF file: every problem as FILE:LINE:COLUMN: message
zeitnot trf format FILE [-o OUT]   write it back in zeitnot's TRF-16 (with the XXR/XXC, XXS and BB*
                            lines JaVaFo and bbpPairings read), to OUT or standard output

FILE is TRF-16 (FIDE C.04 Annex 2) with the JaVaFo/bbpPairings extensions and the TRF-2026 tags
zeitnot reads (142 rounds, 152 initial colour, 162 scoring, 192 pairing system). It must be text:
UTF-8 or Latin-1; an empty file, UTF-16 and binary data are refused.

Besides the file's own rules, check reports what a pairing engine (bbpPairings, zeitnot pair) would
refuse: a 152 that is not W or B, a 260 with one player, a forbidden pair or acceleration naming a player
without a 001 line, fewer rounds (XXR) than the file has paired; and, as warnings, what the engines read
otherwise than it looks meant: a 240 bye or an XXZ absence for a player the file lacks, an XXP of one.

Exit codes: 0 valid (check) or written (format), 1 valid with warnings (check), 2 bad arguments,
3 unreadable or invalid file.`;

/** The file's reading, or the one problem that stopped it (not text, unreadable). */
function read(file: string): TrfReading | TrfError {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, 3);
  }
  try {
    return readTrf(decodeTrf(bytes));
  } catch (error) {
    if (error instanceof TrfError) return error;
    throw error;
  }
}

function report(file: string, problems: readonly TrfError[], label = ''): boolean {
  for (const p of problems) process.stderr.write(`${file}:${p.line}:${p.column}: ${label}${p.problem}\n`);
  return problems.length === 0;
}

export const command: Command = {
  name: 'trf',
  help,
  async run(args) {
    const [action, ...rest] = args;
    if (action !== 'check' && action !== 'format') throw new UsageError('expected `trf check FILE` or `trf format FILE [-o OUT]`');
    const { values, positionals } = parseOptions(rest, { output: { type: 'string', short: 'o' } }, { positionals: true });
    const [file, ...extra] = positionals;
    if (file === undefined) throw new UsageError(`trf ${action}: give a TRF file`);
    if (extra.length > 0) throw new UsageError(`trf ${action}: one TRF file only ('${extra[0]}' is extra)`);
    if (action === 'check' && values.output !== undefined) throw new UsageError('trf check writes nothing: -o OUT is for trf format');
    const out = values.output;
    const reading = read(file);
    if (!report(file, reading instanceof TrfError ? [reading] : reading.problems) || reading instanceof TrfError) return 3;
    const t = reading.tournament;
    if (action === 'check') {
      const rounds = Math.max(0, ...t.players.map((p) => p.rounds.length));
      const clean = report(file, reading.warnings, 'warning: ');
      const size = `${t.players.length} players, ${rounds} rounds${t.totalRounds ? ` of ${t.totalRounds}` : ''}`;
      const warned = reading.warnings.length;
      process.stdout.write(clean ? `${file}: valid TRF, ${size}\n` : `${file}: readable TRF, ${size}, with ${warned} warning${warned === 1 ? '' : 's'}\n`);
      return clean ? 0 : 1;
    }
    const text = exportTrf(t);
    if (out === undefined) process.stdout.write(text);
    else writeFileSync(out, text);
    return 0;
  },
};
