// The repository stands on its own: a clone from a public host has nothing beside it, so no source,
// test, bench, doc or example may read the developers' material outside the project (the developers' shared folder beside the checkout).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const skipped = new Set(['node_modules', '.git', 'dist', 'data', 'fixtures']);
const outside = new RegExp(['\\.\\./', 'shared\\b'].join(''));

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.(ts|js|json|md|sh)$/.test(entry.name) || entry.name === 'run') yield path;
  }
}

describe('the repository stands on its own', () => {
  it('no file reads or points at the shared folder beside the checkout', () => {
    const offenders: string[] = [];
    for (const path of files(root)) {
      const text = readFileSync(path, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (outside.test(line)) offenders.push(`${relative(root, path)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('scans the files where such a path would be (a check that finds nothing to read proves nothing)', () => {
    const scanned = [...files(root)].map((p) => relative(root, p));
    expect(scanned).toContain('README.md');
    expect(scanned).toContain('tests/clock-engine/oracles.test.ts');
    expect(scanned).toContain('bench/device-bridge.ts');
  });
});
