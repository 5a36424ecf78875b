// `timekeeper: 'device'`: a physical clock (DGT or line clock in the mirror role) is the authority and
// the engine follows it. The engine still computes every press itself, so that it can say when the clock
// and it disagree; then it takes the clock's readings. Flags: the device's are accepted; the engine's own
// waits `deviceFlagGraceMs` past its zero for them (see flagGrace), then falls with an alert.
import { alert, deviceFlagGraceMs, deviceToleranceMs, display, name, setRemaining } from './clock-state.ts';
import { flagNeedsClaim } from './laws.ts';
import { flag } from './rulings.ts';
import type { ClockReading, EventActor, GameConfig, GameState, Side } from './types.ts';
import { otherSide } from './types.ts';

/** Whether a press's reading is taken over (else the reading is ignored, as it always was). */
export function followsReading(config: GameConfig, reading: ClockReading | undefined): boolean {
  return reading !== undefined && config.timekeeper === 'device';
}

const isTime = (ms: unknown): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;

/**
 * `engine` is the state right after `side`'s press by the engine's own arithmetic (credits and periods
 * included), as of `at`. The reading is the clock's displays at that instant: the presser's time for
 * his next move and the opponent's time as his move starts, the same quantities as the engine's
 * `remainingMs` after the press. Each side more than 1 s apart raises a `clock-disagrees` alert; then
 * both clocks take the reading and the opponent's move starts from it.
 */
export function followReading(engine: GameState, side: Side, reading: ClockReading, at: number): GameState {
  const raw = reading as unknown as Record<string, unknown> | null;
  if (typeof raw !== 'object' || raw === null || !isTime(raw['white']) || !isTime(raw['black'])) {
    // Bad input loses nothing: the press stands on the engine's arithmetic.
    return alert(engine, { code: 'ignored-event', side, at, message: `ignored the clock reading of ${name(side)}'s press: not two times in ms` });
  }
  const clock = { white: Math.round(reading.white), black: Math.round(reading.black) };
  let out = engine;
  for (const who of ['white', 'black'] as const) {
    const ours = engine.remainingMs[who];
    const apart = clock[who] - ours;
    if (Math.abs(apart) > deviceToleranceMs) {
      out = alert(out, {
        code: 'clock-disagrees',
        side: who,
        at,
        message: `${name(who)}: after ${name(side)}'s press the clock shows ${clock[who]} ms, the engine ${ours} ms (clock ${apart > 0 ? '+' : ''}${apart} ms); the engine follows the clock`,
      });
    }
  }
  const opponent = otherSide(side);
  return { ...out, remainingMs: clock, move: { startMs: clock[opponent], usedMs: 0, delayMs: out.move.delayMs } };
}

/**
 * L2009 A.4 d (claim-only flags) with the clock keeping the time: the opponent's claim (a player's or the
 * arbiter's `flag` event) is upheld when the clock's flag is down: reported by the clock, or the engine,
 * which follows the clock's readings, within the clock's tolerance of zero (a DGT clock shows whole
 * seconds and its messages lag up to a second behind the lever).
 */
function flagClaim(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  const atZero = s.flags[side] === undefined && s.status === 'running' && s.toMove === side && s.remainingMs[side] <= deviceToleranceMs;
  return flag(config, atZero ? setRemaining(s, side, 0) : s, side, at, false, true);
}

/**
 * A `flag` event under a device timekeeper, on a state brought up to `at`. The engine's own (actor
 * `system`, generated `deviceFlagGraceMs` after its zero) falls with an alert that the device stayed
 * silent; one reported by the device or the arbiter is accepted even while the engine still shows time
 * (with an alert when that is more than 1 s). A player's report is checked like any other.
 */
export function deviceFlag(config: GameConfig, s: GameState, side: Side, by: EventActor, at: number): GameState {
  if (flagNeedsClaim(config) && (by.kind === 'player' || by.kind === 'arbiter')) return flagClaim(config, s, side, at);
  if (s.flags[side] !== undefined || s.status === 'waiting') return flag(config, s, side, at);
  if (by.kind === 'system') {
    const due = s.status === 'running' && s.toMove === side && display(s.move, s.move.usedMs) === 0;
    if (!due) return flag(config, s, side, at);
    const zeroAt = at - (s.move.usedMs - s.move.startMs - s.move.delayMs);
    const silent = alert(s, {
      code: 'clock-disagrees',
      side,
      at,
      message: `${name(side)}'s time ran out on the engine at ${zeroAt} but the clock reported no flag within ${deviceFlagGraceMs} ms: the engine declares the flag (check the clock and its cable)`,
    });
    return flag(config, silent, side, at);
  }
  if (by.kind === 'player') return flag(config, s, side, at);
  const left = s.remainingMs[side];
  const warned =
    left > deviceToleranceMs
      ? alert(s, {
          code: 'clock-disagrees',
          side,
          at,
          message: `${name(side)}'s flag fell on the clock while the engine shows ${left} ms left; the engine follows the clock`,
        })
      : s;
  return flag(config, setRemaining(warned, side, 0), side, at, true);
}
