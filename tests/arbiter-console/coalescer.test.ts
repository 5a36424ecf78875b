import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Coalescer, type Pending } from '../../arbiter-console/index.ts';

/** Timers on a manual clock: exact, instant. */
function manualTimers() {
  let now = 0;
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  return {
    now: () => now,
    schedule(fn: () => void, ms: number) {
      const t = { at: now + ms, fn, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
    advanceTo(to: number) {
      for (;;) {
        const due = timers.filter((t) => !t.cancelled && t.at <= to).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        due.cancelled = true;
        now = due.at;
        due.fn();
      }
      now = to;
    },
  };
}

const plain = { key: false, attention: false, round: false };

describe('delta coalescing', () => {
  it('sends the first change at once, then at most one delta per interval with every board merged', () => {
    const timers = manualTimers();
    const sent: { at: number; boards: string[] }[] = [];
    const c = new Coalescer(100, timers, (p: Pending) => sent.push({ at: timers.now(), boards: [...p.boards].sort() }));
    c.mark(['1'], plain);
    timers.advanceTo(30);
    c.mark(['2'], plain);
    timers.advanceTo(60);
    c.mark(['3', '2'], plain);
    timers.advanceTo(99);
    expect(sent).toEqual([{ at: 0, boards: ['1'] }]);
    timers.advanceTo(100);
    expect(sent).toEqual([
      { at: 0, boards: ['1'] },
      { at: 100, boards: ['2', '3'] },
    ]);
  });

  it('sends key events (flag, result, alert) at once, with whatever was pending', () => {
    const timers = manualTimers();
    const sent: { at: number; boards: string[]; attention: boolean }[] = [];
    const c = new Coalescer(100, timers, (p) => sent.push({ at: timers.now(), boards: [...p.boards].sort(), attention: p.attention }));
    c.mark(['1'], plain);
    timers.advanceTo(10);
    c.mark(['2'], plain);
    timers.advanceTo(20);
    c.mark(['4'], { key: true, attention: true, round: false });
    expect(sent).toEqual([
      { at: 0, boards: ['1'], attention: false },
      { at: 20, boards: ['2', '4'], attention: true },
    ]);
    timers.advanceTo(500);
    expect(sent).toHaveLength(2);
  });

  it('never sends more than 10 ordinary deltas in any second, and loses no board', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom('1', '2', '3', '4')), { minLength: 1, maxLength: 300 }), (steps) => {
        const timers = manualTimers();
        const sent: { at: number; boards: Set<string> }[] = [];
        const c = new Coalescer(100, timers, (p) => sent.push({ at: timers.now(), boards: new Set(p.boards) }));
        let t = 0;
        const marked: { at: number; board: string }[] = [];
        for (const [gap, board] of steps) {
          t += gap;
          timers.advanceTo(t);
          c.mark([board], plain);
          marked.push({ at: t, board });
        }
        timers.advanceTo(t + 1000);
        for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(100);
        for (const m of marked) expect(sent.some((s) => s.at >= m.at && s.at <= m.at + 100 && s.boards.has(m.board))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
