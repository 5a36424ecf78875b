// `zeitnot standings FILE.trf`: the standings of a TRF with FIDE C.07 tie-break columns.
import { readFile } from 'node:fs/promises';
import {
  decodeTrf,
  isTiebreakSpec,
  parseDeductions,
  parseTiebreak,
  parseTrf,
  presetEvent,
  presetNames,
  rankStandings,
  readDeductions,
  tiebreakContext,
  TrfError,
  type PresetName,
  type TrfTournament,
  type UnplayedRules,
} from '../tournament/index.ts';
import { failed, parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot standings FILE.trf [--tiebreaks DE,BPG,KS,SB,WON] [--json]

Prints the standings of a TRF-16 file: rank (shared when every tie-break is equal), starting rank,
name, points and one column per tie-break, in the order given.

options:
  --tiebreaks LIST   FIDE C.07 codes, comma-separated: DE BPG BWG KS SB WIN WON BH BH-C1 BH-M1 FB AOB
                     TPR ARO PTP APRO APPO PS REP STD TPN RTNG, with modifiers -C1 -C2 -M1 -M2 (also
                     BH/C1), KS-L-1, DE/P, PTP/U1000 (rating of the unrated), AOB/F.
                     Default: the file's TRF-2026 tag 212 or 202, else the --preset section's list,
                     else DE,SB,WIN for a round robin and BH-C1,BH,SB for a Swiss.
  --preset NAME[:SECTION]  take tie-breaks and rules from a built-in event
                     (${presetNames.join(', ')})
  --rules 2023|2026  unplayed-games rules of C.07 (default 2023, or the preset's)
  --round-robin | --swiss  how to treat forfeits (default: the system the file names in 192 or
                     092, else recognised from its shape)
  --deduct LIST      point deductions, pairing number=points, comma-separated (5=1,12=1): points off
                     the final score a regulation gave (TRF-16's points must equal the results, so the
                     file cannot carry them). Default: the file's "### zeitnot deductions" line, which
                     zeitnot's export writes; --deduct replaces it.
  --json             print [{"rank":1,"id":3,"name":"...","points":6.5,"tiebreaks":{"DE":1,...}}, ...]
  --help             this text

Exit codes: 0 done, 2 bad arguments, 3 unreadable or invalid file (the TRF line and column are named).`;

interface Args {
  file: string;
  tiebreaks?: string[];
  preset?: string;
  rules?: UnplayedRules;
  roundRobin?: boolean;
  deductions?: Map<number, number>;
  json: boolean;
}

function argsOf(argv: string[]): Args {
  const { values, positionals } = parseOptions(
    argv,
    {
      tiebreaks: { type: 'string' },
      preset: { type: 'string' },
      rules: { type: 'string' },
      'round-robin': { type: 'boolean' },
      swiss: { type: 'boolean' },
      json: { type: 'boolean' },
      deduct: { type: 'string' },
    },
    { positionals: true },
  );
  const [file, extra] = positionals;
  if (!file) throw new UsageError('usage: zeitnot standings FILE.trf [--tiebreaks LIST] [--json]');
  if (extra !== undefined) throw new UsageError(`one TRF file only ('${extra}' is extra)`);
  if (values['round-robin'] && values.swiss) throw new UsageError('give --round-robin or --swiss, not both');
  const out: Args = { file, json: values.json ?? false };
  if (values['round-robin'] || values.swiss) out.roundRobin = values['round-robin'] ?? false;
  if (values.tiebreaks !== undefined) {
    const list = values.tiebreaks
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const bad = list.filter((code) => !isTiebreakSpec(code));
    if (bad.length > 0) throw new UsageError(`unknown tie-break ${bad.map((b) => `'${b}'`).join(', ')} (zeitnot standings --help lists them)`);
    out.tiebreaks = list;
  }
  if (values.preset !== undefined) out.preset = values.preset;
  if (values.deduct !== undefined) {
    try {
      out.deductions = parseDeductions(values.deduct.split(',').map((s) => s.trim()));
    } catch (error) {
      throw new UsageError(`--deduct: ${(error as Error).message}`);
    }
  }
  if (values.rules !== undefined) {
    if (values.rules !== '2023' && values.rules !== '2026') throw new UsageError(`--rules is 2023 or 2026, not '${values.rules}'`);
    out.rules = values.rules;
  }
  return out;
}

/** Codes from TRF-2026 tags 212 (full standings) or 202 (tied players). */
function fileTiebreaks(trf: TrfTournament): string[] | undefined {
  for (const code of ['212', '202']) {
    const line = trf.otherLines.find((l) => l.code === code);
    if (!line) continue;
    const codes = line.text
      .slice(4)
      .split(/[\s,;]+/)
      .filter((c) => c !== '' && isTiebreakSpec(c));
    if (codes.length > 0) return codes;
  }
  return undefined;
}

function presetSection(spec: string) {
  const [name, sectionId] = spec.split(':');
  if (!presetNames.includes(name as PresetName)) throw new UsageError(`no preset '${name}' (presets: ${presetNames.join(', ')})`);
  const event = presetEvent(name as PresetName);
  const section = sectionId ? event.sections.find((s) => s.id === sectionId) : event.sections[0];
  if (!section) throw new UsageError(`preset '${name}' has no section '${sectionId}' (sections: ${event.sections.map((s) => s.id).join(', ')})`);
  return section;
}

const format = (value: number | null): string => (value === null ? '-' : Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100));

export const command: Command = {
  name: 'standings',
  help,
  async run(argv) {
    try {
      return await run(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return failed('standings', error);
    }
  },
};

async function run(argv: string[]): Promise<number> {
  const args = argsOf(argv);
  let trf: TrfTournament;
  try {
    trf = parseTrf(decodeTrf(await readFile(args.file)));
  } catch (error) {
    const message = error instanceof TrfError ? `${args.file}: ${error.message}` : `cannot read ${args.file}: ${(error as Error).message}`;
    process.stderr.write(`zeitnot standings: ${message}\n`);
    return 3;
  }
  const section = args.preset ? presetSection(args.preset) : undefined;
  const roundRobin = args.roundRobin ?? (section ? section.format.kind === 'round-robin' : undefined);
  const guessedRoundRobin = tiebreakContext(trf, { roundRobin }).roundRobin;
  const codes = args.tiebreaks ?? fileTiebreaks(trf) ?? section?.tiebreaks ?? (guessedRoundRobin ? ['DE', 'SB', 'WIN'] : ['BH-C1', 'BH', 'SB']);
  const deductions = args.deductions ?? readDeductions(trf) ?? new Map<number, number>();
  const unknown = [...deductions.keys()].filter((id) => !trf.players.some((p) => p.id === id));
  if (unknown.length > 0) throw new UsageError(`no player ${unknown.join(', ')} in ${args.file} to deduct points from`);
  // The points the results give (as rankStandings counts them), less what the regulation took off.
  const scored = tiebreakContext(trf, { roundRobin }).players;
  const points = new Map([...deductions].map(([id, off]) => [id, scored.get(id)!.points - off]));
  const rows = rankStandings(trf, codes, { roundRobin, unplayedRules: args.rules ?? section?.unplayedRules ?? '2023', sharedRanks: true, points });
  const names = new Map(trf.players.map((p) => [p.id, p.name]));
  const columns = codes.map((c) => parseTiebreak(c).code);
  if (args.json) {
    const json = rows.map((r) => ({ rank: r.rank, id: r.id, name: names.get(r.id) ?? '', points: r.points, tiebreaks: r.tiebreaks }));
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    return 0;
  }
  const table = [
    ['Rk', 'No', 'Name', 'Pts', ...columns],
    ...rows.map((r) => [String(r.rank), String(r.id), names.get(r.id) ?? '', format(r.points), ...columns.map((c) => format(r.tiebreaks[c] ?? null))]),
  ];
  const widths = table[0]!.map((_, k) => Math.max(...table.map((row) => (row[k] ?? '').length)));
  const lines = table.map((row) =>
    row
      .map((cell, k) => (k === 2 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!)))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
