// `npx zeitnot replay`: the JSON-lines contract, run as a real process.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function zeitnot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/zeitnot.js', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('zeitnot replay', () => {
  it('prints one object per ply from thinking times (Cairns Cup control, DGT display)', async () => {
    const r = await zeitnot(['replay', '--time-control', '40/5400+30:1800+30', '--think', '12000,5000,3000']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      { ply: 1, side: 'white', thinkMs: 12000, remainingMs: 5_448_000, whiteMs: 5_448_000, blackMs: 5_430_000, moveNumber: 1 },
      { ply: 2, side: 'black', thinkMs: 5000, remainingMs: 5_455_000, whiteMs: 5_448_000, blackMs: 5_455_000, moveNumber: 1 },
      { ply: 3, side: 'white', thinkMs: 3000, remainingMs: 5_475_000, whiteMs: 5_475_000, blackMs: 5_455_000, moveNumber: 2 },
    ]);
  }, 60_000);

  it('ends with the flag line at the exact instant (Armageddon, per-side control)', async () => {
    const r = await zeitnot(['replay', '--armageddon', '--time-control', 'W300-B240', '--think', '1000,2000,3000,250000']);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(4);
    expect(out[2]).toMatchObject({ ply: 3, remainingMs: 296_000 });
    expect(out[3]).toEqual({ flag: 'black', ply: 4, atMs: 1000 + 2000 + 3000 + 238_000 });
  }, 60_000);

  it('in first-flag mode a flag in the first period adds the next one to both clocks and play goes on', async () => {
    const r = await zeitnot(['replay', '--time-control', '40/600:300', '--next-period', 'first-flag', '--think', '100000,700000,1000']);
    expect(lines(r.stdout)).toEqual([
      { ply: 1, side: 'white', thinkMs: 100_000, remainingMs: 500_000, whiteMs: 500_000, blackMs: 600_000, moveNumber: 1 },
      { ply: 2, side: 'black', thinkMs: 700_000, remainingMs: 200_000, whiteMs: 800_000, blackMs: 200_000, moveNumber: 1 },
      { ply: 3, side: 'white', thinkMs: 1000, remainingMs: 799_000, whiteMs: 799_000, blackMs: 200_000, moveNumber: 2 },
    ]);
  }, 60_000);

  it('reads US and FIDE notations and preset names', async () => {
    const us = await zeitnot(['replay', '--time-control', 'G/45;d5', '--think', '3000,8000']);
    expect(lines(us.stdout).map((l) => l['remainingMs'])).toEqual([2_700_000, 2_697_000]);
    const preset = await zeitnot(['replay', '--time-control', 'armageddon', '--think', '1000']);
    expect(lines(preset.stdout)[0]).toMatchObject({ whiteMs: 299_000, blackMs: 240_000 });
  }, 60_000);

  it('rejects bad input with a clear message and status 2', async () => {
    const bad = await zeitnot(['replay', '--time-control', '40/x', '--think', '1000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad time control "40\/x" at position 4: expected seconds after the move quota/);
    const think = await zeitnot(['replay', '--time-control', '300', '--think', '1000,abc']);
    expect(think.code).toBe(2);
    expect(think.stderr).toMatch(/--think item 2 \('abc'\)/);
    expect(think.stdout).toBe('');
  }, 60_000);

  it('audits a PGN clock record and prints a summary line', async () => {
    const feria = await zeitnot(['replay', '--pgn', 'tests/fixtures/oracles/clocks/feria_de_las_flores_2025_round10_90+30.pgn']);
    expect(feria.code).toBe(0);
    const out = lines(feria.stdout);
    expect(out.at(-1)).toEqual({ summary: true, games: 1, audited: 1, plies: 75, checked: 75, differences: 0, gamesWithDifferences: 0, skipped: 0 });
    expect(out[0]).toMatchObject({ game: 1, differences: 0, incrementCredit: 'after-press' });

    const london = await zeitnot([
      'replay',
      '--pgn',
      'tests/fixtures/oracles/clocks/london_chess_classic_2016.pgn',
      '--time-control',
      '40/7200:3600+30',
      '--strict',
    ]);
    expect(london.code).toBe(1);
    const report = lines(london.stdout);
    const so = report.filter((l) => l['ply'] !== undefined && l['game'] === report.find((g) => g['round'] === '2.3' && g['plies'] !== undefined)!['game']);
    expect(so.map((l) => l['moveNumber'])).toEqual([39, 39]);
    expect(report.at(-1)).toMatchObject({ summary: true, games: 45, gamesWithDifferences: 2 });
  }, 60_000);

  it('has --help', async () => {
    const r = await zeitnot(['replay', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--think MS,MS/);
    expect(r.stdout).toMatch(/--pgn FILE/);
  }, 60_000);
});
