// Who keeps each board's time: boards with a mirrored clock run `timekeeper: 'device'`, fixed in the
// journal's seated round so a restart replays the same config; and every deadline the engine acts on is
// journaled, whichever path the event that passed it took.
import { afterEach, describe, expect, it } from 'vitest';
import { parseTimeControl } from '../../clock-engine/index.ts';
import { parseDeviceSpec, withDeviceTimekeepers, type Round } from '../../arbiter-console/internal.ts';
import { cairnsRound, startAll, testHall, type TestHall } from './fixtures.ts';

let t: TestHall;
afterEach(() => t?.cleanup());

const specs = [parseDeviceSpec('1=dgt:/dev/ttyACM0'), parseDeviceSpec('2=line:/dev/ttyACM1'), parseDeviceSpec('3=firmata:/dev/ttyACM2')];
const device = { kind: 'device', deviceId: 'dgt:1' } as const;

describe('timekeeper per board', () => {
  it('mirrored (DGT) boards follow the clock: readings taken over, more than 1 s apart is an alert; replay is identical', () => {
    const round = withDeviceTimekeepers(cairnsRound(3), specs);
    expect(round.boards.map((b) => b.timekeeper)).toEqual(['device', undefined, undefined]);
    t = testHall(round);
    const seated = [...t.journal.entries()].flatMap((e) => (e.record.kind === 'seat' ? [e.record.round] : []));
    expect(seated[0]!.boards[0]!.timekeeper).toBe('device');
    expect(t.hall.boards.get('1')!.config.timekeeper).toBe('device');
    expect(t.hall.boards.get('2')!.config.timekeeper).toBeUndefined();
    startAll(t, 10_000);
    t.source.set(20_000);
    // The engine makes White's time 5 450 000 ms (5 430 000 − 10 s + 30 s); the clock shows one second more.
    t.hall.record({
      kind: 'clock',
      board: '1',
      event: { type: 'press', side: 'white', at: 20_000, by: device, reading: { white: 5_451_000, black: 5_430_000 } },
    });
    expect(t.hall.view('1')!.remainingMs).toEqual({ white: 5_451_000, black: 5_430_000 });
    expect(t.hall.attention()).toEqual([]);
    t.source.set(35_000);
    // Engine: Black 5 445 000; the clock 2.5 s more.
    t.hall.record({
      kind: 'clock',
      board: '1',
      event: { type: 'press', side: 'black', at: 35_000, by: device, reading: { white: 5_451_000, black: 5_447_500 } },
    });
    expect(t.hall.view('1')!.remainingMs).toEqual({ white: 5_451_000, black: 5_447_500 });
    expect(t.hall.attention()).toMatchObject([{ board: '1', code: 'clock-disagrees', side: 'black', at: 35_000 }]);
    expect(t.hall.attention()[0]!.message).toContain('clock +2500 ms');
    // The same reading on an engine-kept board is ignored (and within the console's 2 s check).
    t.hall.record({
      kind: 'clock',
      board: '2',
      event: { type: 'press', side: 'white', at: 35_000, by: device, reading: { white: 5_436_000, black: 5_430_000 } },
    });
    expect(t.hall.view('2')!.remainingMs.white).toBe(5_435_000);
    expect(t.hall.attention().filter((a) => a.board === '2')).toEqual([]);
    const before = t.hall.boards.get('1')!.state;
    const restarted = t.reopen(35_000);
    expect(restarted.boards.get('1')!.config.timekeeper).toBe('device');
    expect(restarted.boards.get('1')!.state).toEqual(before);
  });
});

describe('deadlines are journaled', () => {
  it("a flag is journaled at its instant by the board's actor as time passes, before any later command", () => {
    const base = cairnsRound(1, 0);
    const round: Round = { ...base, game: { ...base.game, timeControl: parseTimeControl('60'), category: 'blitz' } };
    t = testHall(round);
    startAll(t, 0);
    expect(t.hall.view('1')!.remainingMs.white).toBe(60_000);
    const seen = t.journal.count();
    t.source.set(70_000);
    expect([...t.journal.entries(seen)].map((e) => e.record)).toMatchObject([
      { kind: 'clock', board: '1', event: { type: 'flag', side: 'white', at: 60_000, by: { kind: 'system' } } },
    ]);
    expect(t.hall.command({ type: 'pauseAll', reason: 'fire alarm' }, 'IA Smith')).toEqual({ ok: false, code: 'nothing-to-do', reason: 'no clock is running' });
    expect(t.hall.view('1')!.result).toMatchObject({ result: '0-1' });
    const before = t.hall.boards.get('1')!.state;
    expect(t.reopen(70_000).boards.get('1')!.state).toEqual(before);
  });
});
