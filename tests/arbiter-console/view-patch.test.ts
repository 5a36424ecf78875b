// Tournament deltas: any JSON view patched with diffView(before, after) becomes `after`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyViewPatch, diffView } from '../../arbiter-console/index.ts';

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 5 }),
})).object;

describe('view patches', () => {
  it('turn any view into any other', () => {
    fc.assert(
      fc.property(json, json, (before, after) => {
        const patched = applyViewPatch(structuredClone(before), diffView(before, after));
        expect(patched).toEqual(after);
      }),
      { numRuns: 500 },
    );
  });

  it('are small for a small change: one changed row is one operation, an unchanged view none', () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, name: `Player ${i + 1}`, points: 2, rounds: [{ round: 1, result: '1' }] }));
    const before = { crosstable: { rows }, fines: { entries: [] } };
    const after = structuredClone(before);
    after.crosstable.rows[41]!.points = 3;
    expect(diffView(before, structuredClone(before))).toEqual([]);
    expect(diffView(before, after)).toEqual([{ p: ['crosstable', 'rows', 41, 'points'], v: 3 }]);
  });
});
