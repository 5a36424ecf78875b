// `zeitnot pair` as a FIDE pairing engine is called: a real process, real files, exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'zeitnot.js');
const cases = join(root, 'tests', 'fixtures', 'oracles', 'pairings', 'bbppairings_tests');
const fixtures = join(import.meta.dirname, 'fixtures');
const work = mkdtempSync(join(tmpdir(), 'zeitnot-pair-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function zeitnot(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, 'pair', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const normalise = (text: string): string => text.replace(/\r\n?/g, '\n').trim();

describe('zeitnot pair --dutch', () => {
  it('-p writes the next round to standard output in the engines format', () => {
    const run = zeitnot('--dutch', join(cases, 'dutch_2025_C9.input'), '-p');
    expect(run.code).toBe(0);
    expect(normalise(run.stdout)).toBe(normalise(readFileSync(join(cases, 'dutch_2025_C9.output.expected'), 'utf8')));
  });

  it('-p OUT writes the file', () => {
    const out = join(work, 'c5.out');
    const run = zeitnot('--dutch', join(cases, 'dutch_2025_C5.input'), '-p', out);
    expect(run.code).toBe(0);
    expect(normalise(readFileSync(out, 'utf8'))).toBe(normalise(readFileSync(join(cases, 'dutch_2025_C5.output.expected'), 'utf8')));
  });

  it('-c finds no difference in a tournament bbpPairings paired', () => {
    const run = zeitnot('--dutch', join(fixtures, 'generated-103.trf'), '-c');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/rounds checked: no differences/);
  });

  it('-c lists the round whose pairing was changed', () => {
    // Swap the colours of the first game of round 3 (both players' lines): a legal file, a different pairing.
    const lines = readFileSync(join(fixtures, 'generated-103.trf'), 'utf8').split(/\r\n?|\n/);
    const slot = (line: string): string => line.slice(111, 119);
    const first = lines.findIndex((l) => l.startsWith('001') && /^ *\d+ [wb] [10=]$/.test(slot(l)));
    const opponent = Number(slot(lines[first]!).slice(0, 4));
    const other = lines.findIndex((l) => l.startsWith('001') && Number(l.slice(4, 8)) === opponent);
    const flip = (line: string): string => line.slice(0, 116) + (line[116] === 'w' ? 'b' : 'w') + line.slice(117);
    lines[first] = flip(lines[first]!);
    lines[other] = flip(lines[other]!);
    const file = join(work, 'changed.trf');
    writeFileSync(file, lines.join('\n'));
    const run = zeitnot('--dutch', file, '-c');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/round 3: differs/);
    // Rounds before it are untouched (later ones may differ: the colour history changed).
    expect(run.stdout).not.toMatch(/round [12]: differs/);
  });

  it('exit 1 when no pairing satisfies the absolute criteria', () => {
    const file = join(work, 'stuck.trf');
    writeFileSync(
      file,
      [
        '012 Two players who have met',
        'XXR 2',
        'XXC white1',
        '001    1      One, Player                       2000                             1.0          2 w 1',
        '001    2      Two, Player                       1900                             0.0          1 b 0',
      ].join('\n') + '\n',
    );
    const run = zeitnot('--dutch', file, '-p');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no valid pairing/);
  });

  it('exit 3 for a missing file, a malformed file and bad arguments', () => {
    expect(zeitnot('--dutch', join(work, 'missing.trf'), '-p').code).toBe(3);
    const bad = join(work, 'bad.trf');
    writeFileSync(bad, '001    1      Bad, Points                       2000                             9.0          0000 - Z\nXXR 3\n');
    const run = zeitnot('--dutch', bad, '-p');
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/invalid input/);
    expect(zeitnot(join(cases, 'dutch_2025_C5.input'), '-p').code).toBe(3);
    expect(zeitnot('--dutch', join(cases, 'dutch_2025_C5.input')).code).toBe(3);
  });

  it('--help explains the options and exit codes', () => {
    const run = zeitnot('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--dutch FILE\.trf -p \[OUT\]/);
    expect(run.stdout).toMatch(/Exit codes: 0 done, 1 no valid pairing, 3 invalid input/);
  });
});
