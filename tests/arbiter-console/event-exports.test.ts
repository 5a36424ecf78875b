// The exports contract of a simulated event, through the real command line and HTTP: the SA Open 2009
// (both sections, 11 rounds) played by `zeitnot serve --simulate-event --time-scale 5000` in one
// process; then each section's /api/trf is what other programs check: every round the engine paired
// is the pairing `zeitnot pair --dutch -c` makes again from the file, bbpPairings reads the file and
// finds no difference, and `zeitnot standings` on the file ranks as /api/standings does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSummary } from '../../arbiter-console/internal.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'zeitnot-event-exports-'));
/** bbpPairings, where a developer built it beside the project (BBPPAIRINGS or BBP names it; never committed). */
const bbpPath = process.env['BBPPAIRINGS'] ?? process.env['BBP'];
const bbp = bbpPath && existsSync(bbpPath) ? bbpPath : undefined;
const run = (command: string, ...args: string[]) => spawnSync(command, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });

type Row = { rank: number; id: number; name: string; points: number; tiebreaks: Record<string, number | null> };
const exported = new Map<string, { trf: string; withTeams: string; standings: Row[] }>();
let summary: EventSummary | undefined;

beforeAll(async () => {
  const child = spawn(
    process.execPath,
    ['bin/zeitnot.js', 'serve', '--event', 'sa-open-2009', '--simulate-event', '--time-scale', '5000', '--port', '0', '--data', join(work, 'data')],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  try {
    // About a minute on an idle machine; several on a loaded one.
    const end = Date.now() + 420_000;
    while (!/event:\s+\S+\/api\/event/.test(out) && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /event:\s+(\S+)\/api\/event/.exec(out)?.[1];
    if (!url) throw new Error(`the console did not come up:\n${out}`);
    while (Date.now() < end) {
      summary = (await (await fetch(`${url}/api/event`)).json()) as EventSummary;
      if (summary.finished) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const id of ['open', 'b']) {
      const trf = await (await fetch(`${url}/api/trf?section=${id}`)).text();
      const withTeams = await (await fetch(`${url}/api/trf?section=${id}&teams=yes`)).text();
      const standings = ((await (await fetch(`${url}/api/standings?section=${id}`)).json()) as { standings: Row[] }).standings;
      exported.set(id, { trf, withTeams, standings });
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}, 480_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a simulated event exports what other programs check (SA Open 2009, both sections, 11 rounds)', () => {
  it('plays every round of both sections to the end: /api/event', () => {
    expect(summary).toEqual({
      finished: true,
      sections: [
        { id: 'open', format: 'swiss', rounds: 11, roundsPlayed: 11, finished: true },
        { id: 'b', format: 'swiss', rounds: 11, roundsPlayed: 11, finished: true },
      ],
    });
  });

  it.each(['open', 'b'])(
    '%s: /api/trf re-pairs every round as the engine paired it (zeitnot pair --dutch -c), and ranks as /api/standings (zeitnot standings)',
    (id) => {
      const { trf, standings } = exported.get(id)!;
      // Byes and absences as 0000, never '   0' (bbpPairings refuses it), opponents by pairing number.
      expect(trf).not.toMatch(/ {3}0 [-wb] /);
      expect(trf).toMatch(/^XXR 11$/m);
      const file = join(work, `${id}.trf`);
      writeFileSync(file, trf);
      const check = run(process.execPath, 'bin/zeitnot.js', 'pair', '--dutch', file, '-c');
      expect(check.stdout + check.stderr).toBe('11 rounds checked: no differences\n');
      expect(check.status).toBe(0);
      const ranked = run(process.execPath, 'bin/zeitnot.js', 'standings', file, '--preset', `sa-open-2009:${id}`, '--json');
      expect(ranked.status, ranked.stderr).toBe(0);
      // The file numbers players by pairing number, the console by event id: compared by name.
      const rows = (JSON.parse(ranked.stdout) as Row[]).map((r) => [r.rank, r.name, r.points, r.tiebreaks]);
      expect(rows).toEqual(standings.map((r) => [r.rank, r.name, r.points, r.tiebreaks]));
      // Real games were played: most results are rated ones (1, 0, =), not unplayed ones.
      const results = [...trf.matchAll(/^001 .*$/gm)].flatMap((m) => [...m[0].slice(91).matchAll(/ {2}[ 0-9]{4} [wb-] (\S)/g)].map((r) => r[1]));
      expect(results.filter((r) => r === '1' || r === '0' || r === '=').length).toBeGreaterThan(results.length / 2);
    },
  );

  it('the Open team prize lines (082, 013) only with teams=yes; the file is otherwise the same', () => {
    const { trf, withTeams } = exported.get('open')!;
    expect(trf).not.toMatch(/^(013|082) /m);
    const teamLines = withTeams.split('\n').filter((l) => /^(013|082) /.test(l));
    expect(teamLines.filter((l) => l.startsWith('013 ')).length).toBeGreaterThan(1);
    expect(teamLines.filter((l) => l.startsWith('082 '))).toHaveLength(1);
    expect(withTeams.split('\n').filter((l) => !/^(013|082) /.test(l))).toEqual(trf.split('\n'));
  });

  it.skipIf(!bbp).each(['open', 'b'])(
    '%s: bbpPairings -c reads /api/trf and reports no difference (skipped: set BBPPAIRINGS or BBP to a bbpPairings binary built beside the project)',
    (id) => {
      // The file as served: bbpPairings pairs individuals only and refuses team lines (013), so the
      // Open's team prize lines come only with teams=yes.
      const file = join(work, `${id}-individual.trf`);
      writeFileSync(file, exported.get(id)!.trf);
      const check = run(bbp!, '--dutch', file, '-c');
      expect(check.status, check.stderr).toBe(0);
      // One 'NAME: Round #N' line per round; a difference is listed under its round ('Checker pairings').
      const lines = check.stdout.split('\n').filter((l) => l.trim() !== '');
      expect(lines, check.stdout).toEqual(Array.from({ length: 11 }, (_, i) => `${id}-individual: Round #${i + 1}`));
      expect(readFileSync(file, 'utf8')).not.toMatch(/ {3}0 [-wb] /);
    },
  );
});
