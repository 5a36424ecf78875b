// The README as a user types it: its apt line installs every Debian package .ci/run installs (the
// tests need them all), and each one-shot `npx zeitnot` example of its Examples block runs as printed
// (through bin/zeitnot.js, what npx runs) and does what it says: a PGN audit audits every game.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');

describe("the README's commands", () => {
  it('apt-get installs every package .ci/run installs', () => {
    const ci = [...readFileSync('.ci/run', 'utf8').matchAll(/need\+=\(([\w-]+)\)/g)].map((m) => m[1]!);
    expect(ci).toContain('pgn-extract');
    const apt = /sudo apt-get install ([^#\n]+)/.exec(readme)![1]!.trim().split(/\s+/);
    expect(apt.sort()).toEqual([...ci].sort());
  });

  it('runs each example as printed', () => {
    const block = /Examples:\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    const examples = block.split('\n').filter((l) => l.startsWith('npx zeitnot '));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      const args = example.replace(/^npx zeitnot /, '').split(/\s+/);
      const run = spawnSync(process.execPath, ['bin/zeitnot.js', ...args], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status, `${example}\n${run.stderr}`).toBe(0);
      expect(run.stdout.length, example).toBeGreaterThan(0);
      if (args.includes('--pgn')) {
        const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { summary: boolean; games: number; audited: number; skipped: number };
        expect(summary, example).toMatchObject({ summary: true, skipped: 0 });
        expect(summary.audited, example).toBe(summary.games);
      }
    }
  }, 120_000);

  it('the Tata Steel audit finds what the README says it finds, and without --time-control skips what it says', () => {
    const example = /^npx zeitnot (replay --pgn \S*tata_steel_2017_masters\.pgn.*)$/m.exec(readme)![1]!.split(/\s+/);
    const [, off, round] = /finds\s+the\s+(\d+)\s+off\s+readings\s+of\s+game\s+(\d+\.\d+)/.exec(readme)!;
    const skipped = Number(/Without\s+`--time-control`\s+each\s+game\s+without\s+the\s+tag\s+is\s+skipped\s+\(`"skipped":(\d+)`\)/.exec(readme)![1]);
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['bin/zeitnot.js', ...args], { encoding: 'utf8', timeout: 60_000 })
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { summary?: boolean; round?: string; differences?: number; skipped?: number; gamesWithDifferences?: number });
    const audited = run(example);
    expect(audited.at(-1)).toMatchObject({ summary: true, differences: Number(off), gamesWithDifferences: 1, skipped: 0 });
    expect(audited.filter((l) => !l.summary && (l.differences ?? 0) > 0).map((l) => [l.round, l.differences])).toEqual([[round, Number(off)]]);
    const withoutControl = example.filter((a, i) => a !== '--time-control' && example[i - 1] !== '--time-control');
    expect(run(withoutControl).at(-1)).toMatchObject({ summary: true, audited: 0, skipped });
  }, 120_000);
});
