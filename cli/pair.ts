// `zeitnot pair --dutch FILE.trf -p [OUT]` / `-c`: the FIDE pairing engines' command line
// (JaVaFo, bbpPairings), so zeitnot can stand in where they are called.
import { readFileSync, writeFileSync } from 'node:fs';
// The engine's own index, not tournament/'s: the rest of tournament/ (zod, the clock engine) would
// add ~20 MB to the process at start.
import { checkTrf, decodeTrf, formatPairing, pairTrf, parseTrf, type RoundCheck } from '../tournament/dutch/index.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot pair --dutch FILE.trf -p [OUT]   pair the next round; write it to OUT (default: standard output)
zeitnot pair --dutch FILE.trf -c         re-pair every round of FILE and list the rounds paired differently

The FIDE Dutch system (C.04.3 as in force from 1 February 2026), with the pairings of bbpPairings v6.
FILE is a TRF-16 file with the JaVaFo/bbpPairings extensions: XXR (rounds; required for -p),
XXC white1/black1 (initial colour), XXP (forbidden pairs), XXZ (absent), XXA (acceleration), BB*/XXS
(scoring). An entry in the round about to be paired (0000 - H, F or Z) is a requested bye.

Output of -p: the number of pairs, then "white black" pairing numbers per line, "id 0" for the bye.

Options:
  --baku     Baku acceleration (also switched on by a 192 FIDE_DUTCH_BAKU line)
  --help     this text

Exit codes: 0 done, 1 no valid pairing, 3 invalid input (bad arguments, unreadable or invalid file).`;

const describe = (pairing: { boards: readonly { white: number; black: number }[]; bye: number | null }): string =>
  [...pairing.boards.map((b) => `${b.white}-${b.black}`), ...(pairing.bye === null ? [] : [`${pairing.bye}-bye`])].join(' ');

function report(checks: readonly RoundCheck[]): string {
  const lines: string[] = [];
  for (const check of checks) {
    if (check.same) continue;
    lines.push(`round ${check.round}: differs`);
    lines.push(`  file:    ${describe(check.expected)}`);
    lines.push(`  zeitnot: ${check.actual ? describe(check.actual) : '(no valid pairing)'}`);
  }
  const differing = checks.filter((c) => !c.same).length;
  lines.push(differing === 0 ? `${checks.length} rounds checked: no differences` : `${checks.length} rounds checked: ${differing} differ`);
  return lines.join('\n') + '\n';
}

export const command: Command = {
  name: 'pair',
  help,
  async run(args) {
    // Bad arguments exit 3, as JaVaFo's and bbpPairings' callers expect.
    const { values, positionals } = parseOptions(
      args,
      { dutch: { type: 'boolean' }, baku: { type: 'boolean' }, p: { type: 'boolean', short: 'p' }, c: { type: 'boolean', short: 'c' } },
      { positionals: true, exitCode: 3 },
    );
    const baku = values.baku ?? false;
    const mode = values.p ? (values.c ? null : 'pair') : values.c ? 'check' : null;
    const [file] = positionals;
    const out = mode === 'pair' ? positionals[1] : undefined;
    if (!values.dutch || mode === null || file === undefined || positionals.length > (mode === 'pair' ? 2 : 1)) {
      throw new UsageError('expected --dutch FILE.trf -p [OUT] or --dutch FILE.trf -c', 3);
    }
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      process.stderr.write(`zeitnot pair: cannot read ${file}: ${(error as Error).message}\n`);
      return 3;
    }
    try {
      const tournament = parseTrf(decodeTrf(bytes));
      if (mode === 'check') {
        process.stdout.write(report(checkTrf(tournament, { baku })));
        return 0;
      }
      const output = formatPairing(pairTrf(tournament, { baku }));
      if (out === undefined) process.stdout.write(output);
      else writeFileSync(out, output);
      return 0;
    } catch (error) {
      const err = error as Error;
      if (err.name === 'NoValidPairingError') {
        process.stderr.write(`zeitnot pair: no valid pairing: ${err.message}\n`);
        return 1;
      }
      if (err.name === 'TrfError' || err.name === 'PairingInputError') {
        process.stderr.write(`zeitnot pair: invalid input: ${err.message}\n`);
        return 3;
      }
      throw error;
    }
  },
};
