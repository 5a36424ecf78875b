// `zeitnot import-trf`: the arbiter's TRF import into a section of a running console (a registration
// list before round 1, or rounds played elsewhere), through the console's POST /api/import-trf: the
// console checks the credential and the file, journals the import and goes on from it.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TrfImportPreview } from '../arbiter-console/index.ts';
import { decodeTrf, TrfError } from '../tournament/index.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot import-trf: import a TRF-16 file into a section of a running console.

usage: zeitnot import-trf --console URL [--section ID] [--preview] [--name NAME] FILE

A registration list (players, ratings, federations, titles, FIDE ids) before the section's first
round, and/or the rounds already played elsewhere (Swiss-Manager, another console's /api/trf): the
console then pairs the next round (Dutch engine for a Swiss, Berger table for a round robin).
Players are matched by FIDE id, else by name; a file that does not parse, a player the section does
not have, or a section with a round paired in the console already is refused and nothing changes.

  --console URL    the console (as zeitnot serve printed it, e.g. http://127.0.0.1:8080)
  --section ID     the section (default: the event's first)
  --preview        only show what the import would change
  --name NAME      who imports (the chief arbiter's token has no name of its own)
  --help           this text

The arbiter token (the chief's or a deputy's) is read from the ZEITNOT_TOKEN environment variable,
never from the command line (other users can read a process's arguments).

Exit codes: 0 imported (or previewed), 2 bad arguments, 3 unreadable file or refused import.`;

function describe(p: TrfImportPreview): string {
  const lines = [
    `section ${p.section}: ${p.players.inFile} players in the file, ${p.players.changed.length} with new registration data`,
    ...p.players.changed.map((c) => `  ${c.name}: ${c.changes.join(', ')}`),
    ...(p.players.notInFile.length > 0 ? [`  not in the file (unchanged): ${p.players.notInFile.join(', ')}`] : []),
    p.rounds > 0 ? `rounds 1-${p.rounds} played elsewhere: ${p.games} games, ${p.byes} byes` : 'no rounds played (a registration list)',
    `then: ${p.next}`,
    ...p.notImported.map((n) => `not imported: ${n}`),
    `file sha256 ${p.digest}`,
  ];
  return lines.join('\n');
}

export const command: Command = {
  name: 'import-trf',
  help,
  async run(args) {
    const { values, positionals } = parseOptions(
      args,
      { console: { type: 'string' }, section: { type: 'string' }, preview: { type: 'boolean' }, name: { type: 'string' } },
      { positionals: true },
    );
    if (!values.console) throw new UsageError('--console URL is needed (the console zeitnot serve runs)');
    if (positionals.length !== 1) throw new UsageError('give one TRF file');
    const file = positionals[0]!;
    const token = process.env.ZEITNOT_TOKEN;
    if (!token) throw new UsageError("set ZEITNOT_TOKEN to the arbiter token (the chief's or a deputy's)");
    let url: URL;
    try {
      url = new URL('/api/import-trf', values.console);
    } catch {
      throw new UsageError(`--console '${values.console}' is not a URL`);
    }
    let trf: string;
    try {
      trf = decodeTrf(readFileSync(file));
    } catch (error) {
      const why = error instanceof TrfError ? `${error.line}:${error.column}: ${error.problem}` : (error as Error).message;
      process.stderr.write(`zeitnot import-trf: ${file}:${why}\n`);
      return 3;
    }
    const body = {
      from: basename(file),
      trf,
      preview: values.preview ?? false,
      ...(values.section ? { section: values.section } : {}),
      ...(values.name ? { name: values.name } : {}),
    };
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    } catch (error) {
      process.stderr.write(`zeitnot import-trf: cannot reach ${url.origin}: ${(error as Error).message}\n`);
      return 3;
    }
    const reply = (await answer.json().catch(() => ({ error: `HTTP ${answer.status}` }))) as {
      error?: string;
      code?: string;
      imported?: boolean;
      by?: string;
      journalSeq?: number;
      preview?: TrfImportPreview;
    };
    if (!answer.ok || !reply.preview) {
      process.stderr.write(`zeitnot import-trf: refused (HTTP ${answer.status}): ${reply.error ?? 'no reason given'}${reply.code ? ` [${reply.code}]` : ''}\n`);
      return 3;
    }
    process.stdout.write(
      `${describe(reply.preview)}\n${reply.imported ? `imported by ${reply.by}, journal entry ${reply.journalSeq}` : 'preview only: nothing imported (run again without --preview)'}\n`,
    );
    return 0;
  },
};
