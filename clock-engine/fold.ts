// The game clock as a pure fold: GameState = events.reduce(applyClockEvent, initialGameState(config)).
// Time is only ever computed from event timestamps (integer ms); nothing here reads a clock.
// Deadlines (flag fall, default time, scheduled start) that pass between two events are applied first,
// as engine-generated events stamped with the exact deadline instant, and returned in `emitted` so a
// journal can record them: replaying a journal with or without them gives the same state.
import {
  absentSides,
  advance,
  alert,
  bonusOf,
  clockEventTypes,
  delayOf,
  display,
  finish,
  flagGrace,
  incrementFor,
  name,
  quotaAtEndOf,
  resume,
  set,
  setRemaining,
  system,
  withArrival,
  type Mutable,
} from './clock-state.ts';
import {
  arrive,
  boardMove,
  boardPosition,
  checkMoveCounts,
  defaultTimeExpired,
  drawAccept,
  drawDecline,
  drawOffer,
  flag,
  penalty,
  quickplayClaim,
  quickplayDecision,
} from './rulings.ts';
import { clockReading, clockUnreachable, deviceFlag, followReading, followsReading, releasePeriod, unheard } from './timekeeper.ts';
import { assertPlayable } from './time-control-format.ts';
import { defaultTimeEnd, quickplayIncrementMs } from './laws.ts';
import type { ClockEvent, ClockReading, GameConfig, GameState, Side } from './types.ts';
import { otherSide } from './types.ts';

export { incrementFor, moveInProgress, deviceFlagGraceMs } from './clock-state.ts';
export { followsReading, pressesWhileUnreachable } from './timekeeper.ts';
export { clockEventTypes } from './clock-state.ts';

// States are never mutated, so every game can share its empty starting parts (a few hundred bytes
// per idle game in a hall of hundreds).
const zeros = Object.freeze({ white: 0, black: 0 });
const nobody = Object.freeze({ white: false, black: false });
const noOffences = Object.freeze({ illegalMoves: 0, falseClaims: 0 });
const noPenalties = Object.freeze({ white: noOffences, black: noOffences });
const noAlerts: readonly never[] = Object.freeze([]);
const noFlags = Object.freeze({});

export function initialGameState(config: GameConfig): GameState {
  const tc = config.timeControl;
  const first = tc.periods[0];
  assertPlayable(tc);
  if (!first) throw new Error('unreachable: a playable control has a period');
  const credit = tc.incrementCredit === 'before-move' ? incrementFor(tc, 0, 1) : 0;
  const remainingMs = { white: first.baseMs.white + credit, black: first.baseMs.black + credit };
  return {
    status: 'waiting',
    toMove: 'white',
    remainingMs,
    // Nothing runs yet: any event (even an early start by the arbiter) may come before the scheduled start.
    asOf: Math.min(0, config.scheduledStart),
    presses: zeros,
    moves: zeros,
    period: zeros,
    arrived: nobody,
    penalties: noPenalties,
    alerts: noAlerts,
    move: { startMs: remainingMs.white, usedMs: 0, delayMs: delayOf(tc, 0) },
    flags: noFlags,
    movesTracked: false,
  };
}

/** Remaining time of both sides at instant `now` (never below zero; frozen unless running). */
export function remainingAt(state: GameState, now: number): { white: number; black: number } {
  if (state.status !== 'running') return state.remainingMs;
  const used = state.move.usedMs + Math.max(0, now - state.asOf);
  return set(state.remainingMs, state.toMove, display(state.move, used));
}

export interface Deadline {
  readonly at: number;
  readonly kind: 'start' | 'flag' | 'defaultTime';
  readonly side?: Side;
}

/** The next instant at which the clock acts by itself, or undefined when nothing is pending. */
export function nextDeadline(config: GameConfig, state: GameState): Deadline | undefined {
  if (state.status === 'waiting') {
    return config.autoStart ? { at: config.scheduledStart, kind: 'start' } : undefined;
  }
  if (state.status !== 'running') return undefined;
  let best: Deadline | undefined;
  // The clock that keeps the time cannot be heard: its flag, not the engine's guess, decides (timekeeper.ts).
  if (state.flags[state.toMove] === undefined && !unheard(config, state)) {
    // Zero on the engine's display, plus the wait for the device's flag when a device keeps the time.
    const zeroAt = state.asOf + state.move.startMs + state.move.delayMs - state.move.usedMs;
    best = { at: Math.max(state.asOf, zeroAt + flagGrace(config)), kind: 'flag', side: state.toMove };
  }
  if (state.defaultTimeExpiredAt === undefined && absentSides(state).length > 0) {
    const at = defaultTimeEnd(config);
    if (!best || at <= best.at) best = { at, kind: 'defaultTime' };
  }
  return best;
}

/**
 * The earliest instant any deadline can fall if only presses follow: the running side's exact flag
 * instant, the waiting side's remaining time from `asOf` (its clock cannot start earlier), or the end of
 * the default time (`notBefore`: an instant known to have passed, e.g. the timer's last wake-up).
 * Presses only push deadlines later, so a timer aimed here never needs re-aiming on a
 * press (except one whose device reading is taken over: the actor re-aims after it); if it wakes
 * before a real deadline it is simply aimed again.
 */
export function earliestPossibleDeadline(config: GameConfig, state: GameState, notBefore = state.asOf): number | undefined {
  const next = nextDeadline(config, state);
  if (state.status !== 'running') return next?.at;
  const other = otherSide(state.toMove);
  // The waiting clock cannot start before `notBefore` (the present, as far as the caller knows it).
  const otherFlag =
    state.flags[other] === undefined && !unheard(config, state) ? Math.max(state.asOf, notBefore) + state.remainingMs[other] + flagGrace(config) : undefined;
  if (next === undefined) return otherFlag;
  return otherFlag === undefined ? next.at : Math.min(next.at, otherFlag);
}

function deadlineEvent(d: Deadline, state: GameState): ClockEvent {
  switch (d.kind) {
    case 'start':
      return { type: 'start', at: d.at, by: system };
    case 'flag':
      return { type: 'flag', side: d.side ?? state.toMove, at: d.at, by: system };
    case 'defaultTime':
      return { type: 'defaultTimeExpired', absent: absentSides(state), at: d.at, by: system };
  }
}

function isDeadlineEvent(d: Deadline, e: ClockEvent): boolean {
  if (e.at !== d.at) return false;
  if (d.kind === 'flag') return e.type === 'flag' && e.side === d.side;
  if (d.kind === 'start') return e.type === 'start';
  return e.type === 'defaultTimeExpired';
}

const noEvents: readonly ClockEvent[] = [];

export interface FoldStep {
  readonly state: GameState;
  /** Engine-generated events applied before `event` (deadlines that passed), in order. */
  readonly emitted: readonly ClockEvent[];
}

/** True when no deadline falls at or before `at` (no flag, no default time): the common case. */
export function noDeadlineBy(config: GameConfig, s: GameState, at: number): boolean {
  if (s.status !== 'running') return s.status !== 'waiting' || !config.autoStart || config.scheduledStart > at;
  if (s.flags[s.toMove] === undefined && !unheard(config, s) && s.asOf + s.move.startMs + s.move.delayMs - s.move.usedMs + flagGrace(config) <= at)
    return false;
  const everyoneHere = s.arrived.white && s.arrived.black;
  return everyoneHere || s.defaultTimeExpiredAt !== undefined || defaultTimeEnd(config) > at;
}

export function applyClockEvent(config: GameConfig, state: GameState, event: ClockEvent): FoldStep {
  if (
    event.type === 'press' &&
    state.status === 'running' &&
    event.side === state.toMove &&
    event.at >= state.asOf &&
    Number.isSafeInteger(event.at) &&
    noDeadlineBy(config, state, event.at)
  ) {
    return { state: press(config, state, event.side, event.at, event.reading, event.unseen === true), emitted: noEvents };
  }
  const bad = malformed(event);
  if (bad) {
    // Bad input loses nothing: the state stays as it was and the arbiter sees why the event was dropped.
    const at = Number.isSafeInteger(event.at) ? event.at : state.asOf;
    return { state: alert(state, { code: 'ignored-event', at, message: `ignored a malformed '${String(event.type)}' event: ${bad}` }), emitted: noEvents };
  }
  let s = state;
  let emitted: ClockEvent[] | undefined;
  for (let guard = 0; guard < 8; guard++) {
    const d = nextDeadline(config, s);
    if (!d || d.at > event.at || isDeadlineEvent(d, event)) break;
    const generated = deadlineEvent(d, s);
    s = step(config, s, generated);
    (emitted ??= []).push(generated);
  }
  return { state: step(config, s, event), emitted: emitted ?? noEvents };
}

/** Applies deadlines up to `now` with no outside event (what the actor's timer does). */
export function advanceTo(config: GameConfig, state: GameState, now: number): FoldStep {
  let s = state;
  const emitted: ClockEvent[] = [];
  for (let guard = 0; guard < 8; guard++) {
    const d = nextDeadline(config, s);
    if (!d || d.at > now) break;
    const generated = deadlineEvent(d, s);
    s = step(config, s, generated);
    emitted.push(generated);
  }
  return { state: s, emitted };
}

export function replayGame(config: GameConfig, events: readonly ClockEvent[]): GameState {
  let s = initialGameState(config);
  for (const e of events) s = applyClockEvent(config, s, e).state;
  return s;
}

function step(config: GameConfig, state: GameState, e: ClockEvent): GameState {
  // A finished game only takes corrections of the result and the move counts; anything else changes nothing.
  if (state.status === 'finished' && e.type !== 'result' && e.type !== 'boardMove' && e.type !== 'boardPosition' && e.type !== 'setMoveCounter') {
    return state;
  }
  const s = advance(state, e.at);
  const at = Math.max(e.at, state.asOf);
  switch (e.type) {
    case 'start':
      return start(config, s, at, e.side ?? 'white');
    case 'press':
      return press(config, s, e.side, at, e.reading, e.unseen === true);
    case 'pause':
      if (s.status !== 'running') return s;
      return { ...s, status: 'paused', paused: { by: e.by, reason: e.reason, at } };
    case 'resume':
      return resume(s);
    case 'setTime':
      return setRemaining(s, e.side, e.ms);
    case 'addTime':
      return setRemaining(s, e.side, s.remainingMs[e.side] + e.ms);
    case 'setMoveCounter': {
      const counts = e.counter === 'presses' ? 'presses' : 'moves';
      const next = { ...s, [counts]: set(s[counts], e.side, Math.max(0, e.moves)) };
      return checkMoveCounts(e.counter === 'presses' && s.periodHeld?.[e.side] ? releasePeriod(config, next, e.side) : next, e.side, at);
    }
    case 'penalty':
      return penalty(config, s, e.offender, e.offence, at);
    case 'arrive':
      return arrive(config, s, e.side, at);
    case 'boardMove':
      return boardMove(config, s, e.side, e.san, e.fen, at);
    case 'boardPosition':
      return boardPosition(config, s, e.fen, e.plies, at);
    case 'clockUnreachable':
      return clockUnreachable(config, s, at, e.detail);
    case 'clockReading':
      return clockReading(config, s, e.reading, e.toMove, at, e.uncounted === true);
    case 'drawOffer':
      return drawOffer(config, s, e.side, at);
    case 'drawAccept':
      return drawAccept(config, s, e.side, at);
    case 'drawDecline':
      return drawDecline(config, s, e.side, at);
    case 'quickplayClaim':
      return quickplayClaim(config, s, e.side, at, e.request);
    case 'quickplayDecision':
      return quickplayDecision(config, s, e.decision, at, e.extraTime);
    case 'flag':
      // A player's or the arbiter's flag is a claim (what counts where the arbiter does not call flags).
      return config.timekeeper === 'device'
        ? deviceFlag(config, s, e.side, e.by, at)
        : flag(config, s, e.side, at, false, e.by.kind === 'player' || e.by.kind === 'arbiter');
    case 'defaultTimeExpired':
      return defaultTimeExpired(config, s, at);
    case 'forfeit':
      return finish(config, s, e.side === 'white' ? '--+' : '+--', e.reason);
    case 'result':
      return finish(config, s, e.result, e.termination);
  }
}

const sides: readonly unknown[] = ['white', 'black'];
const eventTypes = new Set<unknown>(clockEventTypes);

/**
 * Why an event cannot be applied, for events that reach the fold without a schema check (e.g. from a
 * journal written by an older version); undefined when it is well-formed enough to apply.
 */
function malformed(e: ClockEvent): string | undefined {
  const event = e as unknown as Record<string, unknown>;
  if (!eventTypes.has(event['type'])) return 'unknown type';
  // Time is whole milliseconds: a fractional instant could aim a timer between two deadlines forever.
  if (typeof event['at'] !== 'number' || !Number.isSafeInteger(event['at'])) return '`at` is not a whole number of milliseconds';
  if ('side' in event && event['side'] !== undefined && !sides.includes(event['side'])) return '`side` is not white or black';
  if ('offender' in event && !sides.includes(event['offender'])) return '`offender` is not white or black';
  for (const key of ['ms', 'moves'] as const) {
    if (key in event && (typeof event[key] !== 'number' || !Number.isSafeInteger(event[key]))) return `\`${key}\` is not a whole number`;
  }
  const reading = event['reading'] as { white?: unknown; black?: unknown } | undefined;
  if (reading !== undefined && (!Number.isSafeInteger(reading?.white) || !Number.isSafeInteger(reading?.black))) return '`reading` is not whole milliseconds';
  return undefined;
}

function start(config: GameConfig, s: GameState, at: number, side: Side): GameState {
  if (s.status !== 'waiting') return s;
  const tc = config.timeControl;
  let next: GameState = {
    ...s,
    status: 'running',
    toMove: side,
    asOf: at,
    move: { startMs: s.remainingMs[side], usedMs: 0, delayMs: delayOf(tc, s.period[side]) },
  };
  for (const side of absentSides(next)) {
    const late = config.defaultTimeMs > 0 ? `; default time ends ${config.defaultTimeMs / 60_000} min after the scheduled start` : '';
    next = alert(next, { code: 'late-player', side, at, message: `${name(side)} is not at the board${late}` });
  }
  return next;
}

/**
 * A press by the side to move at instant `at` (>= asOf), from a state not yet advanced to `at`: the hot
 * path of every game, so it builds the next state in one step. A device that keeps the time then has
 * its `reading` taken over (timekeeper.ts).
 */
function press(config: GameConfig, s: GameState, side: Side, at: number, reading: ClockReading | undefined, unseen: boolean): GameState {
  if (s.status !== 'running' || side !== s.toMove) return s;
  const tc = config.timeControl;
  const move = s.presses[side] + 1;
  const used = s.move.usedMs + Math.max(0, at - s.asOf);
  const bonus = bonusOf(tc, s.period[side]);
  let after = display(s.move, used);
  if (bonus.kind === 'bronstein') after += Math.min(used, bonus.ms);
  if (tc.incrementCredit === 'after-press') after += incrementFor(tc, s.period[side], move);
  let periodIndex = s.period[side];
  // Presses nobody counted (timekeeper.ts): the counter may be short, and the arbiter sets it first.
  if (tc.nextPeriod === 'quota-move' && s.periodHeld?.[side] !== true) {
    for (let quota = quotaAtEndOf(tc, periodIndex); quota !== undefined && move >= quota; quota = quotaAtEndOf(tc, periodIndex)) {
      periodIndex++;
      after += tc.periods[periodIndex]?.baseMs[side] ?? 0;
    }
  }
  if (tc.incrementCredit === 'before-move') after += incrementFor(tc, periodIndex, move + 1);
  // Guidelines III.4: the five seconds both players get once the arbiter introduces them.
  if (s.quickplay?.status === 'increment') after += quickplayIncrementMs;
  const opponent: Side = side === 'white' ? 'black' : 'white';
  const white = side === 'white';
  // One object literal of a fixed shape (optional fields copied after): V8 builds it several times
  // faster than a spread or Object.assign of GameState's many shapes, and this is the hot path.
  const out: Mutable<GameState> = {
    status: s.status,
    toMove: opponent,
    remainingMs: white ? { white: after, black: s.remainingMs.black } : { white: s.remainingMs.white, black: after },
    asOf: Math.max(at, s.asOf),
    presses: white ? { white: move, black: s.presses.black } : { white: s.presses.white, black: move },
    moves: s.moves,
    period: periodIndex === s.period[side] ? s.period : set(s.period, side, periodIndex),
    arrived: s.arrived[side] ? s.arrived : withArrival(s.arrived, side),
    penalties: s.penalties,
    alerts: s.alerts,
    move: { startMs: s.remainingMs[opponent], usedMs: 0, delayMs: delayOf(tc, s.period[opponent]) },
    flags: s.flags,
    movesTracked: s.movesTracked,
  };
  copyOptional(s, out);
  // Making a move declines the opponent's draw offer; the offerer's own offer stands over his press.
  if (out.drawOffer && out.drawOffer.side !== side) delete out.drawOffer;
  const counted = s.movesTracked ? checkMoveCounts(out, opponent, out.asOf) : out;
  return reading !== undefined && followsReading(config, reading) ? followReading(counted, side, reading, out.asOf, unseen) : counted;
}

/** The optional fields of GameState that copyOptional copies (keep the two in step). */
type CopiedOptional =
  | 'paused'
  | 'result'
  | 'firstFlag'
  | 'drawOffer'
  | 'quickplay'
  | 'fen'
  | 'repeatablePositions'
  | 'clockUnreachable'
  | 'periodHeld'
  | 'moveCountMismatch'
  | 'defaultTimeExpiredAt'
  | 'matchWinner';

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
/** Compile-time check that this list knows every optional field of GameState; copyOptional copies each. */
const everyOptionalKeyListed: [Exclude<OptionalKeys<GameState>, CopiedOptional>] extends [never] ? true : never = true;
void everyOptionalKeyListed;

/** Named checks rather than a loop over `optionalKeys`: keyed access made this a hot spot of every press. */
function copyOptional(from: GameState, to: Mutable<GameState>): void {
  if (from.paused !== undefined) to.paused = from.paused;
  if (from.result !== undefined) to.result = from.result;
  if (from.firstFlag !== undefined) to.firstFlag = from.firstFlag;
  if (from.drawOffer !== undefined) to.drawOffer = from.drawOffer;
  if (from.quickplay !== undefined) to.quickplay = from.quickplay;
  if (from.fen !== undefined) to.fen = from.fen;
  if (from.repeatablePositions !== undefined) to.repeatablePositions = from.repeatablePositions;
  if (from.clockUnreachable !== undefined) to.clockUnreachable = from.clockUnreachable;
  if (from.periodHeld !== undefined) to.periodHeld = from.periodHeld;
  if (from.moveCountMismatch !== undefined) to.moveCountMismatch = from.moveCountMismatch;
  if (from.defaultTimeExpiredAt !== undefined) to.defaultTimeExpiredAt = from.defaultTimeExpiredAt;
  if (from.matchWinner !== undefined) to.matchWinner = from.matchWinner;
}
