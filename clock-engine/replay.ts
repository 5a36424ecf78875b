// Replaying recorded games through the fold: from per-ply thinking times (the `zeitnot replay` contract)
// and from PGN clock comments (auditing a broadcast's clock record). Pure; the CLI only does I/O.
import { applyClockEvent, initialGameState, nextDeadline } from './fold.ts';
import { gameConfig } from './game-config.ts';
import { presetAmbiguity } from './presets.ts';
import type { PgnGame } from './pgn-clock.ts';
import { parseTimeControl, type ParseOptions } from './time-control-parse.ts';
import { assertPlayable } from './time-control-format.ts';
import type { ClockEvent, GameConfig, GameState, Side, TimeControl } from './types.ts';

/**
 * The control named by a PGN TimeControl tag: any notation parseTimeControl reads, or the free text
 * broadcasts write ("15 min/game + 10 sec/move", "90 min + 30 sec / move"). Throws TimeControlError
 * (the parser's, naming the position) when the tag is neither, or names a control no clock can run
 * (`?`, `-`, `*60`, `5400+30:1800+30`).
 */
export function timeControlFromTag(tag: string, options: Omit<ParseOptions, 'notation'> = {}): TimeControl {
  // A tag such as "90+30" reads as 90 s in PGN notation though a broadcaster may mean the preset's 90 min.
  const ambiguity = presetAmbiguity(tag);
  if (ambiguity) throw ambiguity;
  const clean = {
    ...(options.incrementCredit ? { incrementCredit: options.incrementCredit } : {}),
    ...(options.nextPeriod ? { nextPeriod: options.nextPeriod } : {}),
  };
  const m = /^\s*(\d+)\s*min(?:utes?)?(?:\s*\/\s*game)?\s*(?:\+\s*(\d+)\s*s(?:ec(?:onds?)?)?\s*(?:\/\s*move)?)?\s*$/i.exec(tag);
  const tc = m ? parseTimeControl(`${Number(m[1]) * 60}${m[2] ? `+${m[2]}` : ''}`, { ...clean, notation: 'pgn' }) : parseTimeControl(tag, clean);
  assertPlayable(tc);
  return tc;
}

const player = (side: Side) => ({ kind: 'player', side }) as const;
const auditor = { kind: 'arbiter', name: 'audit' } as const;

/** A game config for replays: both players present at the start, which is at instant 0. */
export function replayConfig(timeControl: TimeControl, armageddon = false): GameConfig {
  return gameConfig(timeControl, { category: 'standard', armageddon });
}

function started(config: GameConfig, first: Side = 'white'): GameState {
  const events: ClockEvent[] = [
    { type: 'arrive', side: 'white', at: 0, by: player('white') },
    { type: 'arrive', side: 'black', at: 0, by: player('black') },
    { type: 'start', at: 0, by: { kind: 'system' }, ...(first === 'black' ? { side: first } : {}) },
  ];
  return events.reduce((s, e) => applyClockEvent(config, s, e).state, initialGameState(config));
}

export type ThinkReplayLine =
  | {
      readonly ply: number;
      readonly side: Side;
      readonly thinkMs: number;
      /** The mover's clock right after the press, as a DGT clock shows it (next move's credit included). */
      readonly remainingMs: number;
      readonly whiteMs: number;
      readonly blackMs: number;
      readonly moveNumber: number;
    }
  | { readonly flag: Side; readonly ply: number; readonly atMs: number };

/** Replays per-ply thinking times (ply 1 = White's first move); stops at the first flag. */
export function replayThinkTimes(config: GameConfig, thinkMs: readonly number[]): ThinkReplayLine[] {
  let state = started(config);
  let at = 0;
  const lines: ThinkReplayLine[] = [];
  for (let i = 0; i < thinkMs.length; i++) {
    const side = state.toMove;
    const think = thinkMs[i]!;
    at += think;
    const step = applyClockEvent(config, state, { type: 'press', side, at, by: player(side) });
    // A flag that ends the game ends the replay ('first-flag' mode adds the next period instead).
    const flag = step.emitted.find((e) => e.type === 'flag');
    if (flag && flag.type === 'flag' && step.state.status === 'finished') {
      lines.push({ flag: flag.side, ply: i + 1, atMs: flag.at });
      break;
    }
    state = step.state;
    lines.push({
      ply: i + 1,
      side,
      thinkMs: think,
      remainingMs: state.remainingMs[side],
      whiteMs: state.remainingMs.white,
      blackMs: state.remainingMs.black,
      moveNumber: state.presses[side],
    });
  }
  return lines;
}

export interface AuditDifference {
  readonly ply: number;
  readonly side: Side;
  readonly moveNumber: number;
  readonly san: string;
  /** The engine's reading after the press; for a flag, 0. */
  readonly engineMs: number;
  readonly recordedMs: number;
  readonly diffMs: number;
  readonly thinkMs: number;
  readonly thinkFrom: 'emt' | 'clk';
  /** The recorded thinking time would have made this flag fall before the press. */
  readonly flag?: boolean;
  /**
   * A glitch reading (a `0:00:00` between normal ones): the player's next reading is higher than this
   * one by more than one move can add, so this one cannot be his clock. Reported once and not adopted:
   * the audit goes on from the readings around it.
   */
  readonly glitch?: boolean;
}

export interface AuditReport {
  readonly plies: number;
  /** Plies that had a `%clk` to compare with. */
  readonly checked: number;
  readonly differences: readonly AuditDifference[];
  /** Plies at which the engine credited the next period (e.g. the press of move 40). */
  readonly periodPlies: readonly { readonly ply: number; readonly side: Side; readonly period: number }[];
  /** The increment-credit convention the game was replayed with (inferred when asked to). */
  readonly incrementCredit: TimeControl['incrementCredit'];
  /** The ply at which the engine's game ended (a flag the record confirms) while the record goes on. */
  readonly stoppedAtPly?: number;
}

export interface AuditOptions {
  /** Largest difference that still counts as a match (readings are whole seconds): default 1000 ms. */
  readonly toleranceMs?: number;
  /**
   * 'each-ply' (default): before each move the mover's clock is set to his previous recorded reading, so
   * each reading is checked against the one before it, the control and the move's time.
   * 'on-difference': the engine keeps its own clock and adopts the record only after a reported difference.
   */
  readonly resync?: 'each-ply' | 'on-difference';
  /**
   * Replay with both increment conventions and keep the one the record fits better (ties: the control's
   * own). DGT clocks credit before the move (first reading base + 2 inc - think); idChess, chess.com and
   * some broadcasts after the press (base + inc - think). Off by default.
   */
  readonly inferIncrementCredit?: boolean;
}

/** Thinking time that turns `zeroMs` (the reading after an instant press) into `recordedMs`. */
function thinkFromReadings(config: GameConfig, state: GameState, side: Side, zeroMs: number, recordedMs: number): number {
  const used = zeroMs - recordedMs;
  if (used <= 0) return 0;
  const bonus = config.timeControl.periods[state.period[side]]?.bonus;
  // Under a delay the first `delay` ms of a move cost nothing, so a drop of `used` took used + delay.
  return bonus && (bonus.kind === 'delay' || bonus.kind === 'bronstein') ? used + bonus.ms : used;
}

/**
 * Replays one PGN game through the engine: the thinking time of each ply comes from `%emt` where present,
 * otherwise from the `%clk` readings; reports each ply whose `%clk` differs from the engine by more than
 * the tolerance. After a difference the engine adopts the recorded reading (an arbiter `setTime`), so one
 * glitch is reported once rather than for the rest of the game.
 */
export function auditPgnGame(config: GameConfig, game: PgnGame, options: AuditOptions = {}): AuditReport {
  const own = auditWith(config, game, options);
  if (!options.inferIncrementCredit || own.differences.length === 0) return own;
  const tc = config.timeControl;
  const flipped = tc.incrementCredit === 'before-move' ? 'after-press' : 'before-move';
  const other = auditWith({ ...config, timeControl: { ...tc, incrementCredit: flipped } }, game, options);
  return other.differences.length < own.differences.length ? other : own;
}

/**
 * A reading short of the next one's bound by a minute or less is not taken for a glitch: that is time the
 * control given does not know (an increment it lacks, as +30 s from move 41 under 40/7200:3600), and is
 * reported at the reading that shows it. A broadcast glitch (`0:00:00`, a frozen or shifted reading) is
 * off by far more.
 */
const GLITCH_MIN_MS = 60_000;

/** How many moves either side of its quota move a record may show a period (a clock's counter off by one or two). */
const PERIOD_SLACK_MOVES = 2;

const largestBonusMs = (tc: TimeControl): number => Math.max(0, ...tc.periods.map((p) => (p.bonus.kind === 'none' ? 0 : p.bonus.ms)));

/** The later periods (after the first) in order, each with the move after which it comes (undefined: any time). */
function laterPeriods(tc: TimeControl): { readonly ms: number; readonly afterMove: number | undefined }[] {
  const out: { ms: number; afterMove: number | undefined }[] = [];
  let quota: number | undefined = 0;
  tc.periods.forEach((p, i) => {
    if (i > 0) out.push({ ms: Math.max(p.baseMs.white, p.baseMs.black), afterMove: tc.nextPeriod === 'first-flag' ? undefined : quota });
    quota = quota === undefined || p.moves === undefined ? undefined : quota + p.moves;
  });
  return out;
}

/**
 * The most a player's clock can gain from the reading after his move `from` to the one after his move
 * `to` under `tc`, the first `added` later periods being on his clock already: the largest bonus for each
 * move, and each other later period once, where it can come (at its quota move give or take
 * PERIOD_SLACK_MOVES; under the first-flag rule any time). A period is added once, so readings further
 * apart are not allowed it twice, and not at all once the record has shown it.
 */
function largestGainMs(tc: TimeControl, from: number, to: number, added: number): number {
  const periods = laterPeriods(tc)
    .slice(added)
    .filter((p) => p.afterMove === undefined || (p.afterMove > from - PERIOD_SLACK_MOVES && p.afterMove <= to + PERIOD_SLACK_MOVES));
  return largestBonusMs(tc) * Math.max(0, to - from) + periods.reduce((sum, p) => sum + p.ms, 0);
}

/**
 * For each ply, whether its reading is a glitch (a `0:00:00` between normal readings): the same player's
 * next different reading is higher than this one by more than the moves in between can add (tolerance
 * included) and by more than GLITCH_MIN_MS, yet follows from the reading before this one (or the clock's
 * start), and this reading is mostly error: what it is short of the next one's bound is at least half the
 * time it says the move took (a `0:00:00` says the whole clock went on one move). Only then is this one the
 * reading that cannot be his clock. A step the control cannot explain (readings that jump up and stay up,
 * as +30 min at move 40 under a control without it, or a period's increment arriving with it at the same
 * press under a control without the increment) is no glitch: the readings before it follow from one
 * another, or the move before it took a normal time, so none of them is labelled, and the jump itself is
 * reported where it is. A rise by half a period or more is that period, on the clock from then on.
 */
function glitchReadings(config: GameConfig, game: PgnGame, tolerance: number): boolean[] {
  const tc = config.timeControl;
  const later = laterPeriods(tc);
  const bonus = largestBonusMs(tc);
  const glitches = new Array<boolean>(game.plies.length).fill(false);
  const start = initialGameState(config).remainingMs;
  type Reading = { readonly index: number; readonly move: number; readonly clockMs: number };
  for (const side of ['white', 'black'] as const) {
    const readings: Reading[] = [];
    game.plies.forEach((p, index) => {
      if (p.side === side && p.clockMs !== undefined) readings.push({ index, move: Math.ceil(p.ply / 2), clockMs: p.clockMs });
    });
    const first = readings[0];
    if (!first) continue;
    let before: Reading = { index: -1, move: first.move - 1, clockMs: start[side] };
    let added = 0;
    const reach = (from: Reading, to: Reading) => from.clockMs + largestGainMs(tc, from.move, to.move, added) + tolerance;
    readings.forEach((reading, k) => {
      // The next reading that is not this one again (a run of the same glitch is judged by what ends it).
      const next = readings.slice(k + 1).find((l) => Math.abs(l.clockMs - reading.clockMs) > tolerance);
      const short = next ? next.clockMs - reach(reading, next) : 0;
      // The time this reading says the move took (its bonus given back).
      const used = before.clockMs + bonus * (reading.move - before.move) - reading.clockMs;
      if (next && short > GLITCH_MIN_MS && 2 * short >= used && next.clockMs <= reach(before, next)) {
        glitches[reading.index] = true;
        return;
      }
      const period = later[added];
      if (period && -used > tolerance + period.ms / 2) added++;
      before = reading;
    });
  }
  return glitches;
}

function auditWith(config: GameConfig, game: PgnGame, options: AuditOptions): AuditReport {
  const tolerance = options.toleranceMs ?? 1000;
  const glitches = glitchReadings(config, game, tolerance);
  const resyncEachPly = (options.resync ?? 'each-ply') === 'each-ply';
  let state = started(config, game.plies[0]?.side);
  let at = 0;
  const lastReading: { white?: number; black?: number } = {};
  const differences: AuditDifference[] = [];
  const periodPlies: { ply: number; side: Side; period: number }[] = [];
  let checked = 0;
  let stoppedAtPly: number | undefined;
  const setTime = (s: GameState, side: Side, ms: number): GameState =>
    applyClockEvent(config, s, { type: 'setTime', side, ms, at, by: auditor, reason: 'audit: adopt the recorded reading' }).state;

  for (const [index, ply] of game.plies.entries()) {
    const side = state.toMove;
    const recorded = lastReading[side];
    if (resyncEachPly && recorded !== undefined && state.remainingMs[side] !== recorded) state = setTime(state, side, recorded);
    const periodBefore = state.period[side];
    const press = (think: number) => applyClockEvent(config, state, { type: 'press', side, at: at + think, by: player(side) });
    const zero = press(0).state.remainingMs[side];
    // Readings and %emt are truncated to whole seconds: a time that overshoots the flag by less than the
    // tolerance is taken to have been just inside it.
    const deadline = nextDeadline(config, state);
    const available = deadline?.kind === 'flag' ? deadline.at - at : Number.POSITIVE_INFINITY;
    let fitted = false;
    const fit = (t: number) => {
      if (t < available || t - available > tolerance) return t;
      fitted = true;
      return Math.max(0, available - 1);
    };
    const glitch = glitches[index]!;
    // A glitch says nothing about the move's time: take %emt, or none (the next reading then covers both moves).
    const derived = fit(ply.clockMs !== undefined && !glitch ? thinkFromReadings(config, state, side, zero, ply.clockMs) : 0);
    const thinkFrom = ply.emtMs !== undefined ? 'emt' : 'clk';
    const think = ply.emtMs !== undefined ? fit(ply.emtMs) : derived;
    let step = press(think);
    const flagged = step.emitted.some((e) => e.type === 'flag');
    const engineMs = flagged ? 0 : step.state.remainingMs[side];
    let differs = false;
    if (ply.clockMs !== undefined) {
      checked++;
      const diff = engineMs - ply.clockMs;
      // A fitted time stops 1 ms short of the flag, so its reading may be 1 ms past the tolerance.
      if (flagged || Math.abs(diff) - (fitted ? 1 : 0) > tolerance) {
        differs = true;
        differences.push({
          ply: ply.ply,
          side,
          moveNumber: ply.moveNumber,
          san: ply.san,
          engineMs,
          recordedMs: ply.clockMs,
          diffMs: diff,
          thinkMs: think,
          thinkFrom,
          ...(flagged ? { flag: true } : {}),
          ...(glitch ? { glitch: true } : {}),
        });
      }
    } else if (flagged) {
      differences.push({
        ply: ply.ply,
        side,
        moveNumber: ply.moveNumber,
        san: ply.san,
        engineMs: 0,
        recordedMs: NaN,
        diffMs: NaN,
        thinkMs: think,
        thinkFrom,
        flag: true,
      });
      differs = true;
    }
    if (glitch) {
      // Not adopted: the engine keeps its own clock and the next reading is checked from the last good one.
      const used = flagged ? Math.max(0, available - 1) : think;
      if (flagged) step = press(used);
      at += used;
      state = step.state;
    } else if (differs) {
      // Carry on from the record: the clock-derived time (never a flag), then the recorded reading.
      const safe = Math.min(derived, Math.max(0, available - 1));
      step = press(safe);
      at += safe;
      state = ply.clockMs !== undefined ? setTime(step.state, side, ply.clockMs) : step.state;
    } else {
      at += think;
      state = step.state;
    }
    if (state.period[side] > periodBefore) periodPlies.push({ ply: ply.ply, side, period: state.period[side] });
    // A ply without a reading (or with a glitch) leaves the engine's own value as the best knowledge of that clock.
    if (ply.clockMs !== undefined && !glitch) lastReading[side] = ply.clockMs;
    else delete lastReading[side];
    if (state.status === 'finished') {
      if (index < game.plies.length - 1) stoppedAtPly = ply.ply;
      break;
    }
  }
  return {
    plies: game.plies.length,
    checked,
    differences,
    periodPlies,
    incrementCredit: config.timeControl.incrementCredit,
    ...(stoppedAtPly !== undefined ? { stoppedAtPly } : {}),
  };
}
