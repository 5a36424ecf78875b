// `timekeeper: 'device'`: a physical clock (DGT or line clock in the mirror role) is the authority and
// the engine follows it. The engine still computes every press itself, so that it can say when the clock
// and it disagree; then it takes the clock's readings. Flags: the device's are accepted; the engine's own
// waits `deviceFlagGraceMs` past its zero for them (see flagGrace), then falls with an alert.
import {
  alert,
  bonusOf,
  deviceFlagGraceMs,
  deviceToleranceMs,
  display,
  incrementFor,
  name,
  quotaAtEndOf,
  set,
  setRemaining,
  type Mutable,
  type Pair,
} from './clock-state.ts';
import { flagNeedsClaim, quickplayIncrementMs } from './laws.ts';
import { flag } from './rulings.ts';
import type { ClockReading, EventActor, GameConfig, GameState, Side, TimeControl } from './types.ts';
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
export function followReading(engine: GameState, side: Side, reading: ClockReading, at: number, unseen = false): GameState {
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
    // Presses the clock counted while unreachable all come at its first reading after: the engine could
    // not split the time between them, so only the clock's sum means anything (pressesWhileUnreachable).
    if (Math.abs(apart) > deviceToleranceMs && !unseen) {
      out = alert(out, {
        code: 'clock-disagrees',
        side: who,
        at,
        message: `${name(who)}: after ${name(side)}'s press the clock shows ${clock[who]} ms, the engine ${ours} ms (clock ${apart > 0 ? '+' : ''}${apart} ms); the engine follows the clock`,
      });
    }
  }
  const opponent = otherSide(side);
  const followed: Mutable<GameState> = { ...out, remainingMs: clock, move: { startMs: clock[opponent], usedMs: 0, delayMs: out.move.delayMs } };
  // A reading is the clock heard.
  delete followed.clockUnreachable;
  return followed;
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

/** Whether the clock that keeps the time cannot be heard now: then no flag falls from the engine's guess. */
export function unheard(config: GameConfig, s: GameState): boolean {
  return config.timekeeper === 'device' && s.clockUnreachable !== undefined;
}

/**
 * The clock that keeps the time cannot be heard (its cable out, its board silent). Its time goes on at the
 * board, with presses and increments the engine cannot see: a flag from the engine's arithmetic now would
 * be a guess (a mirrored board unplugged for four plies with White at 40 s: the engine's White reached zero
 * while the clock showed 59 s). So none falls until the clock is heard again, and the arbiter is asked.
 */
export function clockUnreachable(config: GameConfig, s: GameState, at: number, detail: string | undefined): GameState {
  if (config.timekeeper !== 'device' || s.status === 'waiting' || s.status === 'finished' || s.clockUnreachable) return s;
  return alert(
    { ...s, clockUnreachable: { since: at } },
    {
      code: 'clock-unreachable',
      at,
      message: `clock unreachable${detail ? ` (${detail})` : ''}: its time goes on at the board but the console cannot see it, so no flag falls from the console's guess; look at the clock, and decide a flag by what it shows`,
    },
  );
}

/** The most presses looked for in one unreachable stretch (a ply a half second, and a bound). */
const maxUnseenPresses = (ms: number): number => Math.min(1_000, 2 + 2 * Math.ceil(Math.max(0, ms) / 1_000));
/** Two whole-second displays, each up to a second off, and a reading up to a second old. */
const readingSlackMs = 3 * deviceToleranceMs;

/**
 * What the clock credited for `n` more presses of `side` (increments and next periods, as `press` does),
 * or undefined when its bonus hides the time used on each move (a delay or Bronstein).
 */
function creditFor(tc: TimeControl, s: GameState, side: Side, n: number, held: boolean): number | undefined {
  let credited = 0;
  let period = s.period[side];
  for (let move = s.presses[side] + 1; move <= s.presses[side] + n; move++) {
    const kind = bonusOf(tc, period).kind;
    if (kind === 'delay' || kind === 'bronstein') return undefined;
    if (tc.incrementCredit === 'after-press') credited += incrementFor(tc, period, move);
    for (
      let quota = quotaAtEndOf(tc, period);
      !held && tc.nextPeriod === 'quota-move' && quota !== undefined && move >= quota;
      quota = quotaAtEndOf(tc, period)
    ) {
      period++;
      credited += tc.periods[period]?.baseMs[side] ?? 0;
    }
    if (tc.incrementCredit === 'before-move') credited += incrementFor(tc, period, move + 1);
    if (s.quickplay?.status === 'increment') credited += quickplayIncrementMs;
  }
  return credited;
}

/**
 * The presses the clock counted while it could not be heard, from its first reading after: the clock ran
 * on through the stretch, so both displays together fell by the time it took and rose by what it credited
 * for the presses (increments, the next period at the quota move). The lever's side gives the count's
 * parity (the side to move before and after), and the side to move before made the first. Undefined when
 * exactly one count does not explain the reading: no increment (any even number of presses reads alike),
 * a delay or Bronstein, or a clock set by hand meanwhile.
 */
export function pressesWhileUnreachable(
  config: Pick<GameConfig, 'timeControl'>,
  s: GameState,
  reading: ClockReading,
  toMove: Side,
  at: number,
): Pair<number> | undefined {
  if (s.status !== 'running' && s.status !== 'paused') return undefined;
  const tc = config.timeControl;
  const first = s.toMove;
  const second = otherSide(first);
  // The engine's displays at `at` had nobody pressed, the running one not stopped at zero.
  const ran = s.status === 'running' ? s.move.usedMs + Math.max(0, at - s.asOf) : s.move.usedMs;
  const running = s.status === 'running' ? s.move.startMs - Math.max(0, ran - s.move.delayMs) : s.remainingMs[first];
  const gained = reading.white + reading.black - running - s.remainingMs[second];
  const found: Pair<number>[] = [];
  for (let total = toMove === first ? 0 : 1; total <= maxUnseenPresses(at - s.asOf); total += 2) {
    const byFirst = Math.ceil(total / 2);
    const bySecond = total - byFirst;
    const a = creditFor(tc, s, first, byFirst, s.periodHeld?.[first] === true);
    const b = creditFor(tc, s, second, bySecond, s.periodHeld?.[second] === true);
    if (a === undefined || b === undefined) return undefined;
    if (Math.abs(gained - a - b) <= readingSlackMs) found.push(set(set({ white: 0, black: 0 }, first, byFirst), second, bySecond));
    if (found.length > 1) return undefined;
  }
  return found[0];
}

/** Whether a press counter short by presses nobody counted could bring a next period at the wrong move. */
function quotaAhead(config: GameConfig, s: GameState): boolean {
  const tc = config.timeControl;
  return tc.nextPeriod === 'quota-move' && (quotaAtEndOf(tc, s.period.white) !== undefined || quotaAtEndOf(tc, s.period.black) !== undefined);
}

/**
 * The clock heard again: the engine takes its reading at once, as the clock's own (a device timekeeper).
 * The presses it counted meanwhile came just before as `press` events (`unseen`); `uncounted` says
 * their number could not be worked out from its times (only the lever's press came): the press counter
 * may be short, so the period counter is held (no next period from it: the arbiter sets it,
 * `releasePeriod`) and the arbiter is asked.
 */
export function clockReading(config: GameConfig, s: GameState, reading: ClockReading, toMove: Side, at: number, uncounted: boolean): GameState {
  if (config.timekeeper !== 'device') return s;
  const base: Mutable<GameState> = { ...s };
  delete base.clockUnreachable;
  if (s.status === 'waiting' || s.status === 'finished') return base;
  const raw = reading as unknown as Record<string, unknown> | null;
  if (typeof raw !== 'object' || raw === null || !isTime(raw['white']) || !isTime(raw['black']) || (toMove !== 'white' && toMove !== 'black')) {
    return alert(base, { code: 'ignored-event', at, message: 'ignored the clock reading: not two times in ms and a side' });
  }
  let out: GameState = base;
  if (uncounted && quotaAhead(config, s)) {
    out = alert(
      { ...out, periodHeld: { since: s.periodHeld?.since ?? at, white: true, black: true } },
      {
        code: 'presses-missed',
        at,
        message:
          'presses were made while the clock was unreachable and its times cannot tell how many (no single count fits them): the press counter may be short, so the next period is held until the arbiter sets the press counters',
      },
    );
  }
  const clock = { white: Math.round(reading.white), black: Math.round(reading.black) };
  // The move in progress goes on from the reading (a delay it may still be in is the clock's affair now).
  return { ...out, toMove, asOf: Math.max(at, s.asOf), remainingMs: clock, move: { startMs: clock[toMove], usedMs: 0, delayMs: 0 } };
}

/** `presses` of `side` with no period held: the period they have reached. */
function periodAt(tc: TimeControl, presses: number): number {
  let period = 0;
  for (let quota = quotaAtEndOf(tc, 0); tc.nextPeriod === 'quota-move' && quota !== undefined && presses >= quota; quota = quotaAtEndOf(tc, period)) period++;
  return period;
}

/**
 * The arbiter sets `side`'s press counter while its period is held: released, its period follows the
 * counter (no time added: the clock that keeps the time credited it at the board).
 */
export function releasePeriod(config: GameConfig, s: GameState, side: Side): GameState {
  const out: Mutable<GameState> = { ...s, period: set(s.period, side, periodAt(config.timeControl, s.presses[side])) };
  const held = s.periodHeld;
  if (held && held[otherSide(side)]) out.periodHeld = { ...held, [side]: false };
  else delete out.periodHeld;
  return out;
}
