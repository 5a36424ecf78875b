// Issue 24: one reading of a control's text everywhere, or a refusal naming the ambiguity: `@0` in PGN
// and FIDE notation alike, and `90+30` (a preset's 90 minutes, PGN's 90 seconds) on the command line and
// in a PGN TimeControl tag.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TimeControlError, parseTimeControl, presetAmbiguity, timeControlFromTag } from '../../clock-engine/internal.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
function zeitnot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/zeitnot.js', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('"@0": no reading in any notation', () => {
  it.each([
    ['300+2@0', 'pgn'],
    ['5+2s@0', 'fide'],
    ['90/40+30+30s@0', 'fide'],
  ] as const)('%s (%s) is refused at the 0: moves count from 1', (text, notation) => {
    expect(() => parseTimeControl(text, { notation })).toThrow(TimeControlError);
    try {
      parseTimeControl(text, { notation });
    } catch (e) {
      expect((e as TimeControlError).expected).toBe('a move number of at least 1');
      expect((e as TimeControlError).position).toBe(text.length - 1);
    }
  });
  it('"@1" reads as from move 1 in both', () => {
    expect(parseTimeControl('5+2s@1').periods[0]!.bonus).toEqual({ kind: 'increment', ms: 2000, fromMove: 1 });
    expect(parseTimeControl('300+2@1').periods[0]!.bonus).toEqual({ kind: 'increment', ms: 2000, fromMove: 1 });
  });
});

describe('"90+30": a preset\'s 90 minutes or PGN\'s 90 seconds, refused where no notation says which', () => {
  it('names both readings', () => {
    const refusal = presetAmbiguity('90+30');
    expect(refusal).toBeInstanceOf(TimeControlError);
    expect(refusal!.message).toMatch(/"90\+30" is the preset 5400\+30 .* and, in PGN notation, 1\.5\+30s/);
    expect(refusal!.message).toMatch(/write the control in a notation \(5400\+30 in PGN seconds, 90\+30s in FIDE\)/);
    expect(presetAmbiguity('5400+30')).toBeUndefined();
    expect(presetAmbiguity('armageddon')).toBeUndefined(); // a name that is no control
  });
  it('in a PGN TimeControl tag', () => {
    expect(() => timeControlFromTag('90+30')).toThrow(/one reading/);
    expect(timeControlFromTag('5400+30')).toEqual(parseTimeControl('5400+30'));
  });
  it('on the command line, unless --notation says which', async () => {
    const bare = await zeitnot(['replay', '--time-control', '90+30', '--think', '1000']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--time-control: bad time control "90\+30" .* one reading/);
    const seconds = await zeitnot(['replay', '--time-control', '90+30', '--notation', 'pgn', '--think', '1000']);
    expect(seconds.code).toBe(0);
    expect(JSON.parse(seconds.stdout.split('\n')[0]!)).toMatchObject({ remainingMs: 90_000 + 30_000 + 30_000 - 1000 });
    const minutes = await zeitnot(['replay', '--time-control', '5400+30', '--think', '1000']);
    expect(JSON.parse(minutes.stdout.split('\n')[0]!)).toMatchObject({ remainingMs: 5_400_000 + 60_000 - 1000 });
  }, 60_000);
  it('in an audited PGN: the game is skipped with the refusal, and the summary counts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-reading-'));
    const file = join(dir, 'tag.pgn');
    writeFileSync(file, '[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n[TimeControl "90+30"]\n\n1. e4 {[%clk 1:30:28]} e5 {[%clk 1:30:27]} *\n');
    const r = await zeitnot(['replay', '--pgn', file]);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ game: 1 });
    expect(String(lines[0]!['error'])).toMatch(/TimeControl tag: bad time control "90\+30" .* one reading/);
    expect(lines.at(-1)).toMatchObject({ summary: true, skipped: 1, audited: 0 });
  }, 60_000);
});
