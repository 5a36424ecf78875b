// The two clock roles on decoded clock messages: what a mirror makes of lever, start/stop and flags,
// when it says the engine disagrees, and what a host sends and accepts.
import { describe, expect, it } from 'vitest';
import {
  ClockStatus,
  DgtDecoder,
  HostClock,
  MirrorClock,
  SideMap,
  clockTimesMessage,
  type ClockTimesMessage,
  type WhiteSide,
} from '../../device-bridge/internal.ts';
import { gameConfig, replayGame, type ClockEvent, type GameState, type TimeControl } from '../../clock-engine/internal.ts';

const S = ClockStatus;
function clock(leftMs: number, rightMs: number, status: number, flags: { left?: boolean; right?: boolean } = {}): ClockTimesMessage {
  const [m] = new DgtDecoder().push(
    clockTimesMessage({ ms: rightMs, finalFlag: flags.right ?? false }, { ms: leftMs, finalFlag: flags.left ?? false }, status),
  );
  if (m?.type !== 'clock') throw new Error('not a clock message');
  return m;
}
const leftRuns = S.running | S.d3;
const rightRuns = S.running | S.leverRightHigh | S.d4;

function mirror(whiteSide: WhiteSide = 'auto') {
  const events: ClockEvent[] = [];
  const calls: string[] = [];
  const pressed: string[] = [];
  const m = new MirrorClock(
    new SideMap(whiteSide),
    { kind: 'device', deviceId: 'dgt:1' },
    { event: (e) => events.push(e), arbiterCall: (at, detail) => calls.push(`${at} ${detail}`) },
    (side) => pressed.push(side),
  );
  return { m, events, calls, pressed };
}

const summary = (events: ClockEvent[]) =>
  events.map((e) =>
    e.type === 'press' ? `${e.at} press ${e.side} ${e.reading?.white}/${e.reading?.black}` : `${e.at} ${e.type}${'side' in e ? ` ${e.side}` : ''}`,
  );

const state = (over: Partial<GameState>): GameState =>
  ({
    status: 'running',
    toMove: 'white',
    remainingMs: { white: 180_000, black: 180_000 },
    asOf: 0,
    presses: { white: 0, black: 0 },
    moves: { white: 0, black: 0 },
    period: { white: 0, black: 0 },
    arrived: { white: true, black: true },
    penalties: { white: { illegalMoves: 0, falseClaims: 0 }, black: { illegalMoves: 0, falseClaims: 0 } },
    alerts: [],
    ...over,
  }) as GameState;

describe('mirror role: sanity checks before a reading is followed', () => {
  it('does not follow all six time bytes zero with a lever change (no press, no 0:00:00), and says so once', () => {
    const { m, events, calls } = mirror('left');
    m.clock(clock(182_000, 182_000, leftRuns), 1_000);
    m.clock(clock(170_000, 182_000, leftRuns), 13_000);
    m.clock(clock(0, 0, rightRuns), 14_000);
    m.clock(clock(0, 0, rightRuns), 15_000);
    expect(summary(events)).toEqual(['1000 start']);
    expect(calls).toEqual(['14000 DGT clock reading not followed: both times 0:00:00 without a flag']);
    // The next good reading carries the lever: the press is reported with real times.
    m.clock(clock(168_000, 181_000, rightRuns), 16_000);
    expect(summary(events)).toEqual(['1000 start', '16000 press white 168000/181000']);
  });

  it('does not follow a flag on a side whose time could not have run out, nor a jump a second cannot make', () => {
    const { m, events, calls } = mirror('left');
    m.clock(clock(182_000, 182_000, leftRuns), 1_000);
    m.clock(clock(181_000, 182_000, leftRuns, { left: true }), 2_000);
    m.clock(clock(12_000, 182_000, leftRuns), 3_000);
    expect(summary(events)).toEqual(['1000 start']);
    expect(calls).toEqual(['2000 DGT clock reading not followed: a flag on the left side showing 0:03:01']);
    // A reading that fits again is followed; the episode was one alert.
    m.clock(clock(180_000, 182_000, leftRuns), 4_000);
    expect(calls).toHaveLength(1);
  });

  it('follows a jump the next reading confirms (the arbiter set the clock by hand), after one alert', () => {
    const { m, events, calls } = mirror('left');
    m.clock(clock(182_000, 182_000, leftRuns), 1_000);
    m.clock(clock(60_000, 182_000, leftRuns), 2_000);
    m.clock(clock(59_000, 182_000, leftRuns), 3_000);
    m.clock(clock(58_000, 182_000, rightRuns), 4_000);
    expect(calls).toEqual(['2000 DGT clock reading not followed: the left side jumped from 0:03:02 to 0:01:00 in 1000 ms']);
    expect(summary(events)).toEqual(['1000 start', '4000 press white 58000/182000']);
  });
});

describe('mirror role', () => {
  it('turns start, lever changes, stop/start and a final flag into events with the clock readings', () => {
    const { m, events, pressed } = mirror();
    m.clock(clock(182_000, 182_000, S.d3), 1_000); // stopped at the start: nothing yet
    m.clock(clock(182_000, 182_000, leftRuns), 2_000);
    m.clock(clock(179_000, 182_000, leftRuns), 5_000);
    m.clock(clock(181_000, 182_000, rightRuns), 5_400); // White pressed: +2 s on White's display
    m.clock(clock(181_000, 170_000, S.leverRightHigh | S.d4), 17_000); // stopped with start/stop
    m.clock(clock(181_000, 170_000, rightRuns), 20_000);
    m.clock(clock(181_000, 0, S.leverRightHigh | S.d4, { right: true }), 190_000); // Black's flag falls
    expect(summary(events)).toEqual(['2000 start', '5400 press white 181000/182000', '17000 pause', '20000 resume', '190000 flag black']);
    expect(pressed).toEqual(['white']);
    expect(m.lastReading).toEqual({ reading: { white: 181_000, black: 0 }, at: 190_000, running: 'none' });
  });

  it('White is the side whose clock starts (auto), so a rotated set-up maps right to White', () => {
    const { m, events } = mirror();
    m.clock(clock(300_000, 300_000, rightRuns), 0);
    m.clock(clock(300_000, 290_000, leftRuns), 10_000);
    expect(summary(events)).toEqual(['0 start', '10000 press white 290000/300000']);
  });

  it('a lever pressed while the clock is stopped is an arbiter call; the press counts when the clock resumes on the other side', () => {
    const { m, events, calls } = mirror('left');
    m.clock(clock(300_000, 300_000, leftRuns), 0);
    m.clock(clock(290_000, 300_000, S.d3), 10_000); // stopped
    m.clock(clock(290_000, 300_000, S.leverRightHigh | S.d4), 12_000); // lever pressed during the pause
    m.clock(clock(290_000, 300_000, rightRuns), 15_000); // resumed: Black's clock runs now
    expect(summary(events)).toEqual(['0 start', '10000 pause', '15000 resume', '15000 press white 290000/300000']);
    expect(calls).toEqual(['12000 lever pressed on the left side while the clock was stopped']);
  });

  it('a press missed while the link was down is seen in the next reading (lever and running side changed)', () => {
    const { m, events } = mirror('left');
    m.clock(clock(300_000, 300_000, leftRuns), 0);
    m.clock(clock(295_000, 299_000, leftRuns), 9_000); // first reading after a reconnect: still White
    m.clock(clock(295_000, 297_000, rightRuns), 11_000);
    expect(summary(events)).toEqual(['0 start', '11000 press white 295000/297000']);
  });

  it('after a new game is set up, the next clock start is a start again', () => {
    const { m, events } = mirror('left');
    m.clock(clock(60_000, 60_000, leftRuns), 0);
    m.clock(clock(0, 60_000, S.d3, { left: true }), 60_000);
    m.newGame();
    m.clock(clock(300_000, 300_000, S.d3), 70_000);
    m.clock(clock(300_000, 300_000, leftRuns), 80_000);
    expect(summary(events)).toEqual(['0 start', '60000 flag white', '80000 start']);
  });

  it('a host restarted mid-game: follow(state) before the first reading turns a changed running side into the missed press', () => {
    const missed = mirror('left');
    missed.m.follow(state({ toMove: 'white' }));
    missed.m.clock(clock(170_000, 175_000, rightRuns), 5_000);
    expect(summary(missed.events)).toEqual(['5000 press white 170000/175000']);
    // The same side still running: no start, no press; once the clock has spoken, follow is ignored.
    const same = mirror('left');
    same.m.follow(state({ toMove: 'black' }));
    same.m.clock(clock(170_000, 175_000, rightRuns), 5_000);
    same.m.follow(state({ toMove: 'white' }));
    same.m.clock(clock(170_000, 174_000, rightRuns), 6_000);
    expect(same.events).toEqual([]);
    // A game not started yet: the clock's start is still a start.
    const fresh = mirror('left');
    fresh.m.follow(state({ status: 'waiting' }));
    fresh.m.clock(clock(180_000, 180_000, leftRuns), 1_000);
    expect(summary(fresh.events)).toEqual(['1000 start']);
  });

  it('a host restarted mid-game with auto sides learns White’s side again from how near the first reading is', () => {
    // White sits on the right (rotated board); the engine: White 100 s, Black 160 s, White to move since 0.
    const r = mirror('auto');
    r.m.follow(state({ toMove: 'white', remainingMs: { white: 100_000, black: 160_000 }, asOf: 0 }));
    r.m.clock(clock(160_000, 96_000, rightRuns), 4_000);
    expect(r.events).toEqual([]);
    r.m.clock(clock(160_000, 120_000, leftRuns), 5_000);
    expect(summary(r.events)).toEqual(['5000 press white 120000/160000']);
  });

  it('raises clock-disagrees only when the engine is more than 1 s from the clock', () => {
    const { m } = mirror('left');
    m.clock(clock(180_000, 180_000, leftRuns), 0);
    m.clock(clock(170_000, 180_000, leftRuns), 10_000);
    expect(m.compare(state({ remainingMs: { white: 180_000, black: 180_000 }, asOf: 0 }))).toBeUndefined();
    expect(m.compare(state({ remainingMs: { white: 171_000, black: 180_000 }, asOf: 10_000 }))).toBeUndefined();
    expect(m.compare(state({ remainingMs: { white: 171_001, black: 180_000 }, asOf: 10_000 }))).toEqual({
      code: 'clock-disagrees',
      side: 'white',
      at: 10_000,
      message: 'white: DGT clock shows 0:02:50, engine has 0:02:51 (1001 ms apart)',
    });
    expect(m.compare(state({ status: 'paused', remainingMs: { white: 170_000, black: 178_500 }, asOf: 10_000 }))).toMatchObject({ side: 'black' });
  });
});

describe('host role', () => {
  it("sends the engine's times for the clock's sides, running side or pause", () => {
    const out = { event: () => {}, arbiterCall: () => {} };
    const host = new HostClock(new SideMap('right'), { kind: 'system' }, out);
    const running = state({ toMove: 'black', remainingMs: { white: 60_000, black: 50_000 }, asOf: 1_000 });
    expect(host.display(running, 3_500)).toEqual({ leftMs: 47_500, rightMs: 60_000, run: 'left' });
    expect(host.display(state({ status: 'paused' }), 99_000)).toEqual({ leftMs: 180_000, rightMs: 180_000, run: 'pause' });
  });

  it('accepts a lever press from the side to move only, once; other lever changes are arbiter calls', () => {
    const events: ClockEvent[] = [];
    const calls: string[] = [];
    const host = new HostClock(new SideMap('left'), { kind: 'system' }, { event: (e) => events.push(e), arbiterCall: (_, d) => calls.push(d) });
    host.follow(state({ toMove: 'white' }));
    host.clock(clock(100_000, 100_000, leftRuns), 0);
    host.clock(clock(99_000, 100_000, rightRuns), 1_000); // White pressed
    host.clock(clock(99_000, 100_000, leftRuns), 1_100); // Black answers before the engine's next state arrives
    host.follow(state({ status: 'paused', toMove: 'white' }));
    host.clock(clock(99_000, 100_000, rightRuns), 2_000);
    expect(summary(events)).toEqual(['1000 press white undefined/undefined', '1100 press black undefined/undefined']);
    expect(calls).toEqual(["lever pressed on the left side while the game's clock is not running"]);
  });
});

describe('mirror role: the clock unreachable, and heard again', () => {
  // 3 min + 30 s a move, credited before the move as a DGT clock does: both start at 3:30.
  const config = gameConfig('180+30', { timekeeper: 'device', category: 'blitz' });
  const dgt = { kind: 'device', deviceId: 'dgt:1' } as const;
  const unplugged = (timeControl: () => TimeControl | undefined) => {
    const events: ClockEvent[] = [];
    const pressed: string[] = [];
    const m = new MirrorClock(
      new SideMap('left'),
      dgt,
      { event: (e) => events.push(e), arbiterCall: () => {} },
      (side) => pressed.push(side),
      undefined,
      timeControl,
    );
    m.clock(clock(210_000, 210_000, leftRuns), 0);
    m.follow(replayGame(config, events));
    m.lost(5_000, 'unplugged');
    return { m, events, pressed };
  };

  it('tells the engine at once, then turns the presses the times show into presses before taking the reading', () => {
    const { m, events, pressed } = unplugged(() => config.timeControl);
    expect(events.at(-1)).toEqual({ type: 'clockUnreachable', at: 5_000, by: dgt, detail: 'unplugged' });
    // At the board: White pressed at 8 s (3:52 after his 30 s), Black at 12 s (3:56); White runs at 15 s.
    m.clock(clock(229_000, 236_000, leftRuns), 15_000);
    expect(events.slice(2)).toEqual([
      { type: 'press', side: 'white', at: 15_000, by: dgt, unseen: true },
      { type: 'press', side: 'black', at: 15_000, by: dgt, unseen: true, reading: { white: 229_000, black: 236_000 } },
      { type: 'clockReading', reading: { white: 229_000, black: 236_000 }, toMove: 'white', at: 15_000, by: dgt },
    ]);
    expect(pressed).toEqual(['white', 'black']);
    // Heard again: the next reading is an ordinary one.
    m.clock(clock(228_000, 236_000, leftRuns), 16_000);
    expect(events).toHaveLength(5);
  });

  it('without the time control only the lever speaks, and the reading says the presses were not counted', () => {
    const { m, events, pressed } = unplugged(() => undefined);
    m.clock(clock(229_000, 236_000, leftRuns), 15_000);
    expect(events.slice(2)).toEqual([
      { type: 'clockReading', reading: { white: 229_000, black: 236_000 }, toMove: 'white', at: 15_000, by: dgt, uncounted: true },
    ]);
    expect(pressed).toEqual([]);
  });
});
