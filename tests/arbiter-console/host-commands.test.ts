// A hall host's handler of its command subject (on-bus/host-commands.ts) on a hall of three boards,
// its wall clock injected: a command is carried out at most once per id (across a restart on the same
// journal too) and never after its deadline; an outcome query answers the kept outcome, "pending"
// before the deadline, and after it "not carried out", which the command then keeps if it arrives late.
import { afterEach, describe, expect, it } from 'vitest';
import { hostCommands } from '../../arbiter-console/internal.ts';
import { startAll, testHall, type TestHall } from './fixtures.ts';

const addTime = { type: 'addTime', board: '2', side: 'white', ms: 120_000, reason: 'disturbed' } as const;
const DEADLINE = 1_000_000;

let t: TestHall | undefined;
afterEach(() => t?.cleanup());

function addTimes(hall: TestHall): number {
  return [...hall.journal.entries(0, 'clock')].filter((e) => e.record.kind === 'clock' && e.record.event.type === 'addTime').length;
}

function handler(hall: TestHall, wall: { now: number }) {
  return hostCommands({ hostId: 'h1', hall: hall.hall, journal: hall.journal, boards: new Set(['1', '2', '3']), now: () => wall.now });
}

describe('a hall host carries out a command once, never after its deadline', () => {
  it('one id carried out once, the first outcome answered again, also after a restart', () => {
    t = testHall();
    startAll(t, 10_000);
    const wall = { now: DEADLINE - 4_000 };
    const request = { id: 'c1-a', deadline: DEADLINE, command: addTime, arbiter: 'IA Chief' };
    const first = handler(t, wall)(request);
    expect(first).toEqual({ ok: true, sourceSeq: t.journal.lastOwn() });
    expect(handler(t, wall)(request)).toEqual(first);
    t.reopen();
    // After the deadline too: the kept outcome comes first.
    wall.now = DEADLINE + 60_000;
    expect(handler(t, wall)(request)).toEqual(first);
    expect(handler(t, wall)({ outcomeOf: 'c1-a', deadline: DEADLINE })).toEqual(first);
    expect(addTimes(t)).toBe(1);
  });

  it('a refusal is the id’s outcome too', () => {
    t = testHall();
    startAll(t, 10_000);
    const wall = { now: DEADLINE - 4_000 };
    const pause = (id: string) => ({ id, deadline: DEADLINE, command: { type: 'pause', board: '1', reason: 'noise' }, arbiter: 'IA Chief' });
    const resume = { id: 'c1-r', deadline: DEADLINE, command: { type: 'resume', board: '1' }, arbiter: 'IA Chief' };
    const refused = handler(t, wall)(resume);
    expect(refused).toMatchObject({ ok: false, code: 'not-paused' });
    expect(handler(t, wall)(pause('c1-p'))).toMatchObject({ ok: true });
    // The board is paused now, but the id was refused: it stays refused.
    expect(handler(t, wall)(resume)).toEqual(refused);
    expect(handler(t, wall)({ ...resume, command: { type: 'pause', board: '9', reason: 'x' }, id: 'c1-x' })).toMatchObject({ code: 'not-on-host' });
  });

  it('after its deadline a command is not carried out, and an outcome asked for after the deadline settles it', () => {
    t = testHall();
    startAll(t, 10_000);
    const wall = { now: DEADLINE + 1 };
    expect(handler(t, wall)({ id: 'c1-late', deadline: DEADLINE, command: addTime, arbiter: 'IA Chief' })).toMatchObject({
      ok: false,
      code: 'deadline-passed',
    });
    // Asked before its deadline, a command not yet had is pending; after it, not carried out for good,
    // even if the command comes later while this host's clock reads earlier.
    wall.now = DEADLINE - 2_000;
    const query = { outcomeOf: 'c1-lost', deadline: DEADLINE };
    expect(handler(t, wall)(query)).toEqual({ pending: true });
    wall.now = DEADLINE + 500;
    expect(handler(t, wall)(query)).toMatchObject({ ok: false, code: 'deadline-passed' });
    wall.now = DEADLINE - 1_000;
    expect(handler(t, wall)({ id: 'c1-lost', deadline: DEADLINE, command: addTime, arbiter: 'IA Chief' })).toMatchObject({
      ok: false,
      code: 'deadline-passed',
    });
    expect(addTimes(t)).toBe(0);
    expect(handler(t, wall)({ id: 'c1-bad' })).toMatchObject({ ok: false, code: 'malformed' });
  });
});
