// bbpPairings-generated whole tournaments (see fixtures/README.md), re-paired round by round
// (-c): every round must be reproduced. Split in two halves, one test file each, so that the
// two vitest workers share the work; together they hold every tournament.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTrf, parseTrf } from '../../tournament/internal.ts';

const dir = join(import.meta.dirname, 'fixtures');
const generated = readdirSync(dir)
  .filter((f) => f.endsWith('.trf') && (f.startsWith('generated-') || f.startsWith('withdrawals-')))
  .sort();

/** Registers the tests of half `half` (0 or 1) of the tournaments: alternate files, so both halves mix sizes. */
export function wholeTournaments(half: 0 | 1): void {
  describe(`whole generated tournaments (-c), half ${half + 1} of 2: every round reproduced`, () => {
    it('has the generated tournaments', () => expect(generated.length).toBeGreaterThanOrEqual(80));
    for (const name of generated.filter((_, i) => i % 2 === half)) {
      // Up to 400 players and 11 rounds: well within the default when the cores are free, not when shared.
      it(name, { timeout: 300_000 }, () => {
        const checks = checkTrf(parseTrf(readFileSync(join(dir, name), 'utf8')));
        expect(checks.length).toBeGreaterThan(2);
        expect(checks.filter((c) => !c.same).map((c) => c.round)).toEqual([]);
      });
    }
  });
}
