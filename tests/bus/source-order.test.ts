// Each source's entries exactly once and in its own order, whatever order and however often the stream
// holds them (SourceOrder, the reader's bookkeeping), and where a reader may resume meanwhile.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SourceOrder, type BusEntry } from '../../bus/internal.ts';

const entry = (source: string, sourceSeq: number): BusEntry => ({ source, sourceSeq, wallMs: 0, record: null });
const seqs = (released: { entry: BusEntry }[]): string[] => released.map((h) => `${h.entry.source}:${h.entry.sourceSeq}`);

describe('SourceOrder', () => {
  it('drops what the owner has and what came before; holds an entry until its predecessor arrives', () => {
    const gaps: string[] = [];
    const order = new SourceOrder(new Map([['h1', 2]]), (source, expected, got) => gaps.push(`${source} wants ${expected}, got ${got}`));
    expect(seqs(order.take(entry('h1', 2), 10, 's'))).toEqual([]);
    expect(seqs(order.take(entry('h1', 4), 11, 's'))).toEqual([]);
    expect(order.earliestHeld()).toBe(11);
    expect(seqs(order.take(entry('h2', 1), 12, 's'))).toEqual(['h2:1']);
    expect(seqs(order.take(entry('h1', 4), 13, 's'))).toEqual([]);
    expect(seqs(order.take(entry('h1', 3), 14, 's'))).toEqual(['h1:3', 'h1:4']);
    expect(order.earliestHeld()).toBe(Infinity);
    expect(seqs(order.take(entry('h1', 3), 15, 's'))).toEqual([]);
    expect(gaps).toEqual(['h1 wants 3, got 4']);
    expect(order.stats()).toEqual({ delivered: 3, duplicates: 3, held: 0 });
    expect([...order.last()]).toEqual([
      ['h1', 4],
      ['h2', 1],
    ]);
  });

  it('any interleaving, with repeats, of several sources comes out once each, in each source order', () => {
    const stream = fc
      .array(fc.tuple(fc.constantFrom('h1', 'h2', 'h3'), fc.integer({ min: 1, max: 30 })), { maxLength: 200 })
      .map((xs) => xs.map(([s, n]) => entry(s, n)));
    fc.assert(
      fc.property(stream, (messages) => {
        const order = new SourceOrder(undefined);
        const out: BusEntry[] = [];
        messages.forEach((m, i) => out.push(...order.take(m, i + 1, 's').map((h) => h.entry)));
        for (const source of ['h1', 'h2', 'h3']) {
          const got = out.filter((e) => e.source === source).map((e) => e.sourceSeq);
          // What comes out is 1..n with no gap, no repeat, where n is the longest run 1..n in the input.
          const had = new Set(messages.filter((e) => e.source === source).map((e) => e.sourceSeq));
          let n = 0;
          while (had.has(n + 1)) n += 1;
          expect(got).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        }
      }),
    );
  });
});
