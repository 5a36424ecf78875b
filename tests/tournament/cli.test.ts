import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const oracle = fileURLToPath(new URL('../fixtures/oracles/tiebreaks/fide_held_exercises/', import.meta.url));
const zeitnot = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

describe('zeitnot standings / pairings', () => {
  it('prints JSON standings with the tie-breaks in the order asked', () => {
    const run = zeitnot('standings', `${oracle}held_round_robin.trf`, '--tiebreaks', 'DE,SB,KS', '--json');
    expect(run.status).toBe(0);
    const rows = JSON.parse(run.stdout) as { rank: number; id: number; name: string; points: number; tiebreaks: Record<string, number> }[];
    expect(rows[0]).toEqual({ rank: 1, id: 1, name: 'Alyx', points: 3.5, tiebreaks: { DE: 1, SB: 9.25, KS: 2 } });
    expect(rows.map((r) => [r.id, r.rank])).toEqual([
      [1, 1],
      [2, 2],
      [3, 2],
      [6, 4],
      [5, 5],
      [4, 6],
    ]);
    expect(Object.keys(rows[0]!.tiebreaks)).toEqual(['DE', 'SB', 'KS']);
  }, 60_000);

  it('prints a table, takes tie-breaks from a preset, and names bad input', () => {
    const table = zeitnot('standings', `${oracle}held_swiss_5.trf`, '--preset', 'sa-open-2009:open');
    expect(table.status).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^Rk\s+No\s+Name\s+Pts\s+BH-M1\s+SB\s+TPR\s+PS$/);
    const bad = zeitnot('standings', `${oracle}held_swiss_5.trf`, '--tiebreaks', 'XX');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown tie-break 'XX'/);
    expect(zeitnot('standings', '--help').stdout).toMatch(/--tiebreaks LIST/);
  }, 60_000);

  it("defaults to the file's own tie-break tag and rejects a TRF whose points do not add up", () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-standings-'));
    try {
      const text = readFileSync(`${oracle}held_round_robin.trf`, 'utf8');
      writeFileSync(join(dir, 'tagged.trf'), text.replace('XXR 5\n', 'XXR 5\n212 SB,DE\n'));
      const run = zeitnot('standings', join(dir, 'tagged.trf'), '--json');
      expect(Object.keys(JSON.parse(run.stdout)[0].tiebreaks)).toEqual(['SB', 'DE']);
      writeFileSync(join(dir, 'bad.trf'), text.replace('2200 NOR           0 1990/01/01  3.5', '2200 NOR           0 1990/01/01  4.5'));
      const bad = zeitnot('standings', join(dir, 'bad.trf'));
      expect(bad.status).toBe(3);
      expect(bad.stderr).toMatch(/TRF line 5:81: player 1 \(Alyx\) has 4.5 points but the results add up to 3.5/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints the Berger schedule', () => {
    const run = zeitnot('pairings', '--round-robin', '10');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('Round  2: 10-6  7-5  8-4  9-3  1-2');
    const json = JSON.parse(zeitnot('pairings', '--round-robin', '9', '--json').stdout) as { bye: number }[];
    expect(json.map((r) => r.bye)).toEqual([1, 6, 2, 7, 3, 8, 4, 9, 5]);
    expect(zeitnot('pairings', '--round-robin', '1').status).toBe(2);
  }, 60_000);
});
