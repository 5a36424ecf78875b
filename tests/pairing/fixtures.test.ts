// bbpPairings-generated tournaments (see fixtures/README.md): the next round of each cut file must
// be bbpPairings' pairing (re-pairing whole tournaments: whole-tournaments.ts).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPairing, pairTrf, parseTrf } from '../../tournament/internal.ts';

const dir = join(import.meta.dirname, 'fixtures');
const files = readdirSync(dir).sort();
const normalise = (text: string): string => text.replace(/\r\n?/g, '\n').trim();

describe('next round (-p) equals bbpPairings', () => {
  const cases = files.filter((f) => f.endsWith('.expected')).map((f) => f.replace(/\.expected$/, ''));
  it('has the option and edge cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));
  for (const name of cases) {
    it(name, () => {
      const tournament = parseTrf(readFileSync(join(dir, `${name}.trf`), 'utf8'));
      expect(normalise(formatPairing(pairTrf(tournament)))).toBe(normalise(readFileSync(join(dir, `${name}.expected`), 'utf8')));
    });
  }
});

describe('player lines padded with blank round slots', () => {
  // bbpPairings gives these padded files the same pairing as the unpadded ones (checked with it):
  // a blank slot after the last round anyone has an entry for is no round at all, not an absence.
  for (const name of ['middle-round-112', 'requested-byes']) {
    it(name, () => {
      const padded = readFileSync(join(dir, `${name}.trf`), 'utf8').replace(/^(001.*)$/gm, `$1${' '.repeat(40)}`);
      expect(normalise(formatPairing(pairTrf(parseTrf(padded))))).toBe(normalise(readFileSync(join(dir, `${name}.expected`), 'utf8')));
    });
  }
});

// The whole generated tournaments (-c) are in whole-tournaments-1/2.test.ts: two files, so that
// vitest's two workers re-pair them side by side.
