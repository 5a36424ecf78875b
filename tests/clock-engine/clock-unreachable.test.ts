// A device that keeps the time decides the flag. While the clock that keeps the time cannot be heard
// (`clockUnreachable`), no flag falls from the engine's arithmetic; its first reading after
// (`clockReading`) is taken at once, with the presses it counted meanwhile, worked out from its times
// (`pressesWhileUnreachable`) and folded as unseen presses, so the next period comes at the quota move;
// when no single count fits the times, the period counter is held until the arbiter sets the counters.
import { describe, expect, it } from 'vitest';
import {
  advanceTo,
  nextDeadline,
  pressesWhileUnreachable,
  remainingAt,
  type ClockEvent,
  type ClockReading,
  type EventActor,
  type GameState,
  type Side,
} from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig } from './helpers.ts';

const dgt: EventActor = { kind: 'device', deviceId: 'dgt:1' };
const opening = (): ClockEvent[] => [ev.arrive('white', 0), ev.arrive('black', 0), ev.start(1_000)];
const unreachable = (at: number): ClockEvent => ({ type: 'clockUnreachable', at, by: dgt, detail: 'unplugged' });
const reading = (at: number, r: ClockReading, toMove: Side, uncounted = false): ClockEvent => ({
  type: 'clockReading',
  reading: r,
  toMove,
  at,
  by: dgt,
  ...(uncounted ? { uncounted: true } : {}),
});
const unseen = (side: Side, at: number, r?: ClockReading): ClockEvent => ({ type: 'press', side, at, by: dgt, unseen: true, ...(r ? { reading: r } : {}) });
/** Presses alternating from White, one every `everyMs` from `from`, `n` of them starting at ply `ply0`. */
const presses = (ply0: number, n: number, from: number, everyMs: number): ClockEvent[] =>
  Array.from({ length: n }, (_, i) => ev.press((ply0 + i) % 2 === 0 ? 'white' : 'black', from + i * everyMs));
/** A DGT clock shows whole seconds. */
const shown = (state: GameState, at: number): ClockReading => {
  const r = remainingAt(state, at);
  return { white: Math.floor(r.white / 1000) * 1000, black: Math.floor(r.black / 1000) * 1000 };
};

describe('presses made while the clock was unreachable', () => {
  // 40 moves in 5 min, then 1 min more, 30 s a move from move 1 (the clock credits it before the move).
  const tc = '40/300+30:60+30';
  const device = gameConfig(tc, { timekeeper: 'device' });
  const truthConfig = gameConfig(tc);

  it('are counted from its reading across move 40: the next period comes at move 40 exactly', () => {
    // The real game: 80 plies, 5 s each. The board is unplugged after ply 70 and plugged in after ply 80.
    const real = [...opening(), ...presses(0, 80, 6_000, 5_000)];
    const at = 6_000 + 80 * 5_000 + 700;
    const truth = fold(truthConfig, real).state;
    expect(truth.period).toEqual({ white: 1, black: 1 });
    const seen = fold(device, [...opening(), ...presses(0, 70, 6_000, 5_000), unreachable(6_000 + 70 * 5_000)]).state;
    expect(seen.presses).toEqual({ white: 35, black: 35 });
    const clock = shown(truth, at);
    const counted = pressesWhileUnreachable(device, seen, clock, 'white', at);
    expect(counted).toEqual({ white: 5, black: 5 });
    const after = fold(
      device,
      [
        unseen('white', at),
        ...[1, 2, 3, 4, 5, 6, 7, 8].map((i) => unseen(i % 2 === 0 ? 'white' : 'black', at)),
        unseen('black', at, clock),
        reading(at, clock, 'white'),
      ],
      seen,
    ).state;
    expect(after.presses).toEqual({ white: 40, black: 40 });
    expect(after.period).toEqual({ white: 1, black: 1 });
    expect(after.remainingMs).toEqual(clock);
    expect(after.toMove).toBe('white');
    expect(after.clockUnreachable).toBeUndefined();
    // Unseen presses are not compared with the engine's split of the time (it could not see them).
    expect(after.alerts.filter((a) => a.code === 'clock-disagrees')).toEqual([]);
  });

  it('an odd count from the lever: Black to move before, White after', () => {
    const real = [...opening(), ...presses(0, 11, 6_000, 5_000)];
    const at = 6_000 + 11 * 5_000 + 300;
    const truth = fold(truthConfig, real).state;
    const seen = fold(device, [...opening(), ...presses(0, 4, 6_000, 5_000), unreachable(6_000 + 4 * 5_000)]).state;
    expect(pressesWhileUnreachable(device, seen, shown(truth, at), 'black', at)).toEqual({ white: 4, black: 3 });
  });

  it('cannot be counted without an increment: the period counter is held until the arbiter sets the counters', () => {
    const plain = gameConfig('40/300:60', { timekeeper: 'device' });
    const seen = fold(plain, [...opening(), ...presses(0, 70, 6_000, 3_000), unreachable(6_000 + 70 * 3_000)]).state;
    const at = 6_000 + 80 * 3_000;
    const truth = fold(gameConfig('40/300:60'), [...opening(), ...presses(0, 80, 6_000, 3_000)]).state;
    const clock = shown(truth, at);
    expect(pressesWhileUnreachable(plain, seen, clock, 'white', at)).toBeUndefined();
    const held = fold(plain, [reading(at, clock, 'white', true)], seen).state;
    expect(held.periodHeld).toEqual({ since: at, white: true, black: true });
    expect(held.alerts.at(-1)).toMatchObject({ code: 'presses-missed', at });
    expect(held.remainingMs).toEqual(clock);
    // White's 36th to 40th presses by the engine's count (really the 41st on): no period from a short counter.
    const on = fold(plain, presses(0, 10, at + 1_000, 3_000), held).state;
    expect(on.presses).toEqual({ white: 40, black: 40 });
    expect(on.period).toEqual({ white: 0, black: 0 });
    // The arbiter sets the counters from the scoresheets: the period follows them, no time added.
    const before = on.remainingMs;
    const set = fold(plain, [ev.setMoveCounter('presses', 'white', 45, at + 40_000), ev.setMoveCounter('presses', 'black', 45, at + 40_000)], on).state;
    expect(set.periodHeld).toBeUndefined();
    expect(set.period).toEqual({ white: 1, black: 1 });
    expect(set.remainingMs.black).toBe(before.black);
  });
});

describe('no flag from the engine while the clock that keeps the time is unreachable', () => {
  // The board: 40 s a side and 30 s a move, White low when the cable was pulled.
  const device = gameConfig('40+30', { timekeeper: 'device', category: 'blitz' });

  it("the engine's zero passes with no flag; the clock's reading after is taken at once", () => {
    const seen = fold(device, [...opening(), ev.press('white', 31_000), ev.press('black', 33_000), unreachable(34_000)]).state;
    expect(seen.clockUnreachable).toEqual({ since: 34_000 });
    expect(seen.alerts.at(-1)).toMatchObject({ code: 'clock-unreachable', at: 34_000 });
    expect(nextDeadline(device, seen)).toBeUndefined();
    // 83 s after the unplug the engine's guess for White is long past zero: still no flag.
    const later = advanceTo(device, seen, 34_000 + 83_000);
    expect(later.emitted).toEqual([]);
    expect(later.state.status).toBe('running');
    const heard = fold(device, [reading(117_000, { white: 59_000, black: 41_000 }, 'white')], later.state).state;
    expect(heard.clockUnreachable).toBeUndefined();
    expect(heard.remainingMs).toEqual({ white: 59_000, black: 41_000 });
    expect(remainingAt(heard, 118_000)).toEqual({ white: 58_000, black: 41_000 });
    expect(nextDeadline(device, heard)).toEqual({ at: 117_000 + 59_000 + 2_000, kind: 'flag', side: 'white' });
  });

  it("under the engine's own timekeeping the events change nothing", () => {
    const engine = gameConfig('40+30', { category: 'blitz' });
    const seen = fold(engine, [...opening(), unreachable(5_000)]).state;
    expect(seen.clockUnreachable).toBeUndefined();
    expect(nextDeadline(engine, seen)).toMatchObject({ kind: 'flag', side: 'white' });
  });
});
