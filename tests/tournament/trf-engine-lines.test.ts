// What the pairing engines read beyond the results (tournament/trf-engine-lines.ts): `trf check` reports at
// line:column what bbpPairings refuses (and `zeitnot pair` refuses it too), warns about what it reads
// otherwise than it looks meant, and a bye requested for the round to pair may be left out of the points, as
// bbpPairings reads it. With BBPPAIRINGS (or BBP) naming a bbpPairings built beside the project, each file's
// acceptance is compared with bbpPairings' own; the expected pairing below is bbpPairings v6.0.0's output.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrf } from '../../tournament/internal.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'zeitnot-trf-engine-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const zeitnot = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'zeitnot.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
const bbpPath = process.env['BBPPAIRINGS'] ?? process.env['BBP'];
const bbp = bbpPath && existsSync(bbpPath) ? bbpPath : undefined;

/** A 001 line: id, name, rating, points, then round slots from column 92 (TRF-16). */
const player = (id: number, name: string, rating: number, points: number, slots: string[]): string =>
  (
    `001 ${String(id).padStart(4)}      ${name.padEnd(33)} ${String(rating).padStart(4)}${' '.repeat(28)}${points.toFixed(1).padStart(4)} ${String(id).padStart(4)}` +
    slots.map((slot) => `  ${slot}`).join('')
  ).trimEnd();

/** Round 1 played; player 1 asks for a half-point bye in round 2, the round to pair. */
const base = (onePoints: number, extra: string[] = [], rounds = 3): string =>
  [
    '012 Requested byes',
    `XXR ${rounds}`,
    player(1, 'Player One', 2400, onePoints, ['   3 w 1', '0000 - H']),
    player(2, 'Player Two', 2300, 1, ['   4 b 1']),
    player(3, 'Player Three', 2200, 0, ['   1 b 0']),
    player(4, 'Player Four', 2100, 0, ['   2 w 0']),
    player(5, 'Player Five', 2000, 1, ['0000 - U']),
    ...extra,
    '',
  ].join('\n');

let count = 0;
const write = (text: string): string => {
  const path = join(work, `case-${++count}.trf`);
  writeFileSync(path, text);
  return path;
};

describe('a bye requested for the round to pair', () => {
  it.each([
    ['left out of the points (1.0)', 1],
    ['counted in the points (1.5)', 1.5],
  ])('%s: the file reads and pairs round 2 as bbpPairings does', (_what, points) => {
    const file = write(base(points));
    expect(zeitnot('trf', 'check', file).status).toBe(0);
    const paired = zeitnot('pair', '--dutch', file, '-p');
    expect(paired.stderr).toBe('');
    // Player 1 sits out on his bye; 5 had the pairing-allocated bye in round 1 and is paired now.
    expect(paired.stdout).toBe('2\n2 5\n3 4\n');
    if (bbp) expect(spawnSync(bbp, ['--dutch', file, '-p'], { encoding: 'utf8' }).stdout).toBe(paired.stdout);
  });

  it('points that match neither are still refused at line:column', () => {
    const reading = readTrf(base(2));
    expect(reading.problems.map((p) => [p.line, p.column, p.problem])).toEqual([[3, 81, 'player 1 (Player One) has 2 points but the results add up to 1.5']]);
  });
});

describe('trf check: what an engine refuses (exit 3, and zeitnot pair refuses it too)', () => {
  it.each([
    ['152 Q', "8:5: 152: the initial colour is W or B, not 'Q'"],
    ['260   1   3    1', '8:13: 260: a forbidden pair needs at least two pairing numbers, from column 13'],
    ['XXP 1 9', '8:7: XXP: player 9 has no 001 line'],
    ['250      1.0   1   2    1    9', '8:28: 250: player 9 has no 001 line'],
    ['240 H  x    2', "8:7: 240: round 'x' in columns 7-9 is not a number"],
  ])('%s', (line, expected) => {
    const file = write(base(1, [line]));
    const check = zeitnot('trf', 'check', file);
    expect(check.status).toBe(3);
    expect(check.stderr).toBe(`${file}:${expected}\n`);
    const paired = zeitnot('pair', '--dutch', file, '-p');
    expect(paired.status).toBe(3);
    expect(paired.stderr).toBe(`zeitnot pair: invalid input: TRF line ${expected}\n`);
    if (bbp) expect(spawnSync(bbp, ['--dutch', file, '-p']).status).not.toBe(0);
  });

  it('XXR below the rounds the file has entries for (the requested bye counts)', () => {
    const file = write(base(1, [], 1));
    const check = zeitnot('trf', 'check', file);
    expect(check.status).toBe(3);
    expect(check.stderr).toBe(`${file}:2:5: the tournament has 1 rounds (XXR), but the file has entries for 2\n`);
    if (bbp) expect(spawnSync(bbp, ['--dutch', file, '-p']).status).not.toBe(0);
  });
});

describe('trf check: what an engine reads otherwise than meant (warnings, exit 1; pairing goes on)', () => {
  it.each([
    ['240 H   2    9', '8:11: warning: 240: player 9 has no 001 line: the engines ignore it'],
    ['XXZ 9', '8:5: warning: XXZ: player 9 has no 001 line: the engines ignore it'],
    ['XXP 1', '8:5: warning: XXP: one pairing number forbids nothing (a pair needs two)'],
  ])('%s', (line, expected) => {
    const file = write(base(1, [line]));
    const check = zeitnot('trf', 'check', file);
    expect(check.stderr).toBe(`${file}:${expected}\n`);
    expect(check.stdout).toBe(`${file}: readable TRF, 5 players, 2 rounds of 3, with 1 warning\n`);
    expect(check.status).toBe(1);
    const paired = zeitnot('pair', '--dutch', file, '-p');
    expect(paired.status).toBe(0);
    if (bbp) expect(spawnSync(bbp, ['--dutch', file, '-p'], { encoding: 'utf8' }).stdout).toBe(paired.stdout);
  });
});
