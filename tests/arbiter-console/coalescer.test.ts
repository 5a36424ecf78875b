import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Coalescer, type Pending } from '../../arbiter-console/internal.ts';

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

const plain = { key: false, attention: false, attentionBoards: [], round: false };

describe('delta coalescing', () => {
  it('sends every change at once while under 10 in the last second; then merges into the next free slot', () => {
    const timers = manualTimers();
    const sent: { at: number; boards: string[] }[] = [];
    const c = new Coalescer(timers, (p: Pending) => sent.push({ at: timers.now(), boards: [...p.boards].sort() }));
    for (let i = 0; i < 10; i++) {
      timers.advanceTo(i * 10);
      c.mark([String(i)], plain);
    }
    expect(sent.map((s) => s.at)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    timers.advanceTo(95);
    c.mark(['a'], plain);
    timers.advanceTo(500);
    c.mark(['b', 'a'], plain);
    timers.advanceTo(999);
    expect(sent).toHaveLength(10);
    timers.advanceTo(1000);
    expect(sent[10]).toEqual({ at: 1000, boards: ['a', 'b'] });
    // The slot of the delta sent at 10 frees at 1010.
    timers.advanceTo(1005);
    c.mark(['c'], plain);
    timers.advanceTo(1010);
    expect(sent[11]).toEqual({ at: 1010, boards: ['c'] });
  });

  it('sends key events (flag, result, alert) at once, with whatever was pending, without using a slot', () => {
    const timers = manualTimers();
    const sent: { at: number; boards: string[]; attention: boolean }[] = [];
    const c = new Coalescer(timers, (p) => sent.push({ at: timers.now(), boards: [...p.boards].sort(), attention: p.attention }), 1, 1000);
    c.mark(['1'], plain);
    timers.advanceTo(10);
    c.mark(['2'], plain);
    timers.advanceTo(20);
    c.mark(['4'], { key: true, attention: true, attentionBoards: ['4'], round: false });
    expect(sent).toEqual([
      { at: 0, boards: ['1'], attention: false },
      { at: 20, boards: ['2', '4'], attention: true },
    ]);
    timers.advanceTo(999);
    c.mark(['5'], plain);
    timers.advanceTo(1000);
    expect(sent[2]).toEqual({ at: 1000, boards: ['5'], attention: false });
  });

  it('keeps what a busy receiver did not take, gathered with the next changes, and sends it all at once when told it is ready', () => {
    const timers = manualTimers();
    let busy = false;
    const offered: { at: number; boards: string[]; attention: boolean }[] = [];
    const sent: typeof offered = [];
    const c = new Coalescer(
      timers,
      (p) => {
        const delta = { at: timers.now(), boards: [...p.boards].sort(), attention: p.attention };
        offered.push(delta);
        if (busy) return 'busy';
        sent.push(delta);
        return true;
      },
      1,
      100,
    );
    c.mark(['1'], plain);
    busy = true;
    timers.advanceTo(100);
    c.mark(['2'], plain);
    timers.advanceTo(150);
    c.mark(['3'], { key: true, attention: true, attentionBoards: ['3'], round: false });
    timers.advanceTo(400);
    c.mark(['2', '4'], plain);
    expect(sent).toEqual([{ at: 0, boards: ['1'], attention: false }]);
    expect(offered.map((o) => o.boards)).toEqual([['1'], ['2'], ['2', '3'], ['2', '3', '4']]);
    busy = false;
    timers.advanceTo(420);
    c.ready();
    expect(sent[1]).toEqual({ at: 420, boards: ['2', '3', '4'], attention: true });
    c.ready(); // nothing waits: nothing sent
    timers.advanceTo(1_000);
    expect(sent).toHaveLength(2);
  });

  it('never sends more than 10 ordinary deltas in any second, sends at once when under the rate, loses no board', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.constantFrom('1', '2', '3', '4')), { minLength: 1, maxLength: 300 }), (steps) => {
        const timers = manualTimers();
        const sent: { at: number; boards: Set<string> }[] = [];
        const c = new Coalescer(timers, (p) => sent.push({ at: timers.now(), boards: new Set(p.boards) }));
        let t = 0;
        const marks: { at: number; board: string }[] = [];
        for (const [gap, board] of steps) {
          t += gap;
          timers.advanceTo(t);
          const recent = sent.filter((s) => s.at > t - 1000).length;
          const before = sent.length;
          c.mark([board], plain);
          if (recent < 10) expect(sent.length).toBe(before + 1);
          marks.push({ at: t, board });
        }
        timers.advanceTo(t + 1000);
        for (let i = 10; i < sent.length; i++) expect(sent[i]!.at - sent[i - 10]!.at).toBeGreaterThanOrEqual(1000);
        // Every mark goes out within a second, in a delta sent at or after it.
        for (const m of marks) expect(sent.some((s) => s.at >= m.at && s.at <= m.at + 1000 && s.boards.has(m.board))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
