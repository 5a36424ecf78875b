// Tournament deltas: any JSON view patched with diffView(before, after) becomes `after`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyViewPatch, diffView } from '../../arbiter-console/internal.ts';

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    // A view travels as JSON, which has no -0 (JSON.stringify(-0) is "0").
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
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

  it('never change the view they patch, and share every part they do not touch (a page compares rows by identity)', () => {
    fc.assert(
      fc.property(json, json, (before, after) => {
        const kept = structuredClone(before);
        applyViewPatch(before, diffView(before, after));
        expect(before).toEqual(kept);
      }),
      { numRuns: 300 },
    );
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, points: 2, rounds: [{ round: 1, result: '1' }] }));
    const before = { crosstable: { rows, columns: ['BH'] }, fines: { entries: [] } };
    const after = structuredClone(before);
    after.crosstable.rows[41]!.points = 3;
    const patched = applyViewPatch(before, diffView(before, after));
    expect(patched).toEqual(after);
    expect(patched.crosstable.rows[41]).not.toBe(rows[41]);
    expect(patched.crosstable.rows.filter((r, i) => r === rows[i])).toHaveLength(299);
    expect(patched.crosstable.columns).toBe(before.crosstable.columns);
    expect(patched.fines).toBe(before.fines);
  });

  it('match rows by id: reordered, added, removed and changed rows of a standings table', () => {
    const row = fc.record({
      rank: fc.integer({ min: 1, max: 40 }),
      points: fc.integer({ min: 0, max: 9 }),
      name: fc.constantFrom('a', 'b'),
      rounds: fc.array(fc.integer(), { maxLength: 3 }),
    });
    const table = fc
      .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 0, maxLength: 40 })
      .chain((ids) => fc.tuple(...ids.map((id) => row.map((r) => ({ id, ...r })))));
    fc.assert(
      fc.property(table, table, (before, after) => {
        const patched = applyViewPatch(structuredClone({ rows: before }), diffView({ rows: before }, { rows: after }));
        expect(patched).toEqual({ rows: after });
      }),
      { numRuns: 300 },
    );
  });

  it('send a player who moves up as an order and a shifted rank as one column, not every row', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, rank: 1, points: 0, tiebreaks: { BH: 0 } }));
    const after = [{ ...rows[1500]!, points: 1 }, ...rows.filter((_, i) => i !== 1500).map((r) => ({ ...r, rank: 2 }))];
    const patch = diffView({ rows }, { rows: after });
    expect(patch.map((op) => Object.keys(op).sort().join(','))).toEqual(['order,p', 'col,p,v', 'p,v']);
    expect(JSON.stringify(patch).length).toBeLessThan(20_000);
    expect(applyViewPatch(structuredClone({ rows }), patch)).toEqual({ rows: after });
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
