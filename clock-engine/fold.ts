// The game clock as a pure fold: GameState = events.reduce(applyClockEvent, initialGameState(config)).
// Time is only ever computed from event timestamps (integer ms); nothing here reads a clock.
// Deadlines (flag fall, default time, scheduled start) that pass between two events are applied first,
// as engine-generated events stamped with the exact deadline instant, and returned in `emitted` so a
// journal can record them: replaying a journal with or without them gives the same state.
import { Chess } from 'chess.js';
import { drawAgreementArticle, flagResult, lossResult, penaltyOutcome } from './laws.ts';
import type { ClockAlert, ClockEvent, GameConfig, GameResult, GameState, MoveBonus, Side, TimeControl } from './types.ts';
import { otherSide } from './types.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Pair<T> = { readonly white: T; readonly black: T };

const system = { kind: 'system' } as const;
const twoMinutes = 120_000;

function bonusOf(tc: TimeControl, periodIndex: number): MoveBonus {
  return tc.periods[periodIndex]?.bonus ?? { kind: 'none' };
}

/** The increment credited for move `move` in period `periodIndex` (0 when none or not yet from that move). */
export function incrementFor(tc: TimeControl, periodIndex: number, move: number): number {
  const b = bonusOf(tc, periodIndex);
  return b.kind === 'increment' && move >= b.fromMove ? b.ms : 0;
}

function delayOf(tc: TimeControl, periodIndex: number): number {
  const b = bonusOf(tc, periodIndex);
  return b.kind === 'delay' ? b.ms : 0;
}

/** Moves that must be completed by the end of period `index` (cumulative), or undefined for the final one. */
function quotaAtEndOf(tc: TimeControl, index: number): number | undefined {
  let total = 0;
  for (let i = 0; i <= index; i++) {
    const moves = tc.periods[i]?.moves;
    if (moves === undefined) return undefined;
    total += moves;
  }
  return index < tc.periods.length - 1 ? total : undefined;
}

const set = <T>(pair: Pair<T>, side: Side, value: T): Pair<T> =>
  side === 'white' ? { white: value, black: pair.black } : { white: pair.white, black: value };

function winnerOf(result: GameResult, armageddon: boolean): Side | undefined {
  if (result === '1-0' || result === '+--') return 'white';
  if (result === '0-1' || result === '--+') return 'black';
  return result === '1/2-1/2' && armageddon ? 'black' : undefined;
}

export function initialGameState(config: GameConfig): GameState {
  const tc = config.timeControl;
  const first = tc.periods[0];
  if (tc.special || !first) {
    throw new Error(`a game clock cannot run the time control '${tc.special ?? 'without periods'}'`);
  }
  const credit = tc.incrementCredit === 'before-move' ? incrementFor(tc, 0, 1) : 0;
  const remainingMs = { white: first.baseMs.white + credit, black: first.baseMs.black + credit };
  return {
    status: 'waiting',
    toMove: 'white',
    remainingMs,
    asOf: config.scheduledStart,
    presses: { white: 0, black: 0 },
    moves: { white: 0, black: 0 },
    period: { white: 0, black: 0 },
    arrived: { white: false, black: false },
    penalties: { white: { illegalMoves: 0, falseClaims: 0 }, black: { illegalMoves: 0, falseClaims: 0 } },
    alerts: [],
    move: { startMs: remainingMs.white, usedMs: 0, delayMs: delayOf(tc, 0) },
    flags: {},
    movesTracked: false,
  };
}

/** What the running side's display shows after `usedMs` of a move (delay: the main time waits). */
function display(move: GameState['move'], usedMs: number): number {
  return Math.max(0, move.startMs - Math.max(0, usedMs - move.delayMs));
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

function absentSides(state: GameState): Side[] {
  return (['white', 'black'] as const).filter((s) => !state.arrived[s]);
}

/** The next instant at which the clock acts by itself, or undefined when nothing is pending. */
export function nextDeadline(config: GameConfig, state: GameState): Deadline | undefined {
  if (state.status === 'waiting') {
    return config.autoStart ? { at: config.scheduledStart, kind: 'start' } : undefined;
  }
  if (state.status !== 'running') return undefined;
  let best: Deadline | undefined;
  if (state.flags[state.toMove] === undefined) {
    const left = state.move.startMs + state.move.delayMs - state.move.usedMs;
    best = { at: state.asOf + Math.max(0, left), kind: 'flag', side: state.toMove };
  }
  if (state.defaultTimeExpiredAt === undefined && absentSides(state).length > 0) {
    const at = config.scheduledStart + config.defaultTimeMs;
    if (!best || at <= best.at) best = { at, kind: 'defaultTime' };
  }
  return best;
}

/**
 * The earliest instant any deadline can fall if only presses follow: the running side's exact flag
 * instant, the waiting side's remaining time from `asOf` (its clock cannot start earlier), or the end of
 * the default time (`notBefore`: an instant known to have passed, e.g. the timer's last wake-up).
 * Presses only push deadlines later, so a timer aimed here never needs re-aiming on a
 * press; if it wakes before a real deadline it is simply aimed again.
 */
export function earliestPossibleDeadline(config: GameConfig, state: GameState, notBefore = state.asOf): number | undefined {
  const next = nextDeadline(config, state);
  if (state.status !== 'running') return next?.at;
  const other = otherSide(state.toMove);
  // The waiting clock cannot start before `notBefore` (the present, as far as the caller knows it).
  const otherFlag = state.flags[other] === undefined ? Math.max(state.asOf, notBefore) + state.remainingMs[other] : undefined;
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
  if (s.flags[s.toMove] === undefined && s.asOf + s.move.startMs + s.move.delayMs - s.move.usedMs <= at) return false;
  const everyoneHere = s.arrived.white && s.arrived.black;
  return everyoneHere || s.defaultTimeExpiredAt !== undefined || config.scheduledStart + config.defaultTimeMs > at;
}

export function applyClockEvent(config: GameConfig, state: GameState, event: ClockEvent): FoldStep {
  if (event.type === 'press' && event.at >= state.asOf && noDeadlineBy(config, state, event.at)) {
    return { state: press(config, state, event.side, event.at), emitted: noEvents };
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

/** Brings the running clock up to instant `at` (time never runs backwards: an older stamp adds nothing). */
function advance(s: GameState, at: number): GameState {
  if (at <= s.asOf) return s;
  if (s.status !== 'running') return { ...s, asOf: at };
  const usedMs = s.move.usedMs + (at - s.asOf);
  const move = { startMs: s.move.startMs, usedMs, delayMs: s.move.delayMs };
  return { ...s, asOf: at, move, remainingMs: set(s.remainingMs, s.toMove, display(move, usedMs)) };
}

function alert(s: GameState, a: ClockAlert): GameState {
  return { ...s, alerts: [...s.alerts, a] };
}

function finish(config: GameConfig, s: GameState, result: GameResult, termination: string): GameState {
  const out: Mutable<GameState> = { ...s, status: 'finished', result: { result, termination } };
  delete out.paused;
  delete out.drawOffer;
  delete out.quickplay;
  const winner = winnerOf(result, config.armageddon);
  if (winner) out.matchWinner = winner;
  else delete out.matchWinner;
  return out;
}

/** Sets one side's display; for the side to move, its move's start is shifted so the move goes on. */
function setRemaining(s: GameState, side: Side, ms: number): GameState {
  const value = Math.max(0, Math.round(ms));
  if (side !== s.toMove || s.status === 'finished') return { ...s, remainingMs: set(s.remainingMs, side, value) };
  const shift = value - s.remainingMs[side];
  const move = { ...s.move, startMs: s.move.startMs + shift };
  return { ...s, move, remainingMs: set(s.remainingMs, side, value) };
}

/** Fullmove number of the move in progress (White's 30th move and Black's reply are both "move 30"). */
export function moveInProgress(s: GameState): number {
  return s.presses.white + (s.toMove === 'white' ? 1 : 0);
}

const name = (side: Side) => (side === 'white' ? 'White' : 'Black');

function step(config: GameConfig, state: GameState, e: ClockEvent): GameState {
  const s = advance(state, e.at);
  const at = Math.max(e.at, state.asOf);
  if (s.status === 'finished' && e.type !== 'result' && e.type !== 'boardMove' && e.type !== 'setMoveCounter') {
    return s;
  }
  switch (e.type) {
    case 'start':
      return start(config, s, at);
    case 'press':
      return press(config, s, e.side, at);
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
      return checkMoveCounts(next, e.side, at);
    }
    case 'penalty':
      return penalty(config, s, e.offender, e.offence, at);
    case 'arrive':
      return arrive(config, s, e.side, at);
    case 'boardMove':
      return boardMove(s, e.side, e.san, e.fen, at);
    case 'drawOffer':
      return drawOffer(config, s, e.side, at);
    case 'drawAccept':
      if (!s.drawOffer || s.drawOffer.side === e.side) {
        return alert(s, { code: 'ignored-event', side: e.side, at, message: `${name(e.side)} accepted a draw that was not offered` });
      }
      return finish(config, s, '1/2-1/2', 'agreement');
    case 'quickplayClaim':
      return quickplayClaim(config, s, e.side, at);
    case 'quickplayDecision':
      return quickplayDecision(config, s, e.decision, at);
    case 'flag':
      return flag(config, s, e.side, at, e.by.kind === 'system');
    case 'defaultTimeExpired':
      return defaultTimeExpired(config, s, at);
    case 'forfeit':
      return finish(config, s, e.side === 'white' ? '--+' : '+--', e.reason);
    case 'result':
      return finish(config, s, e.result, e.termination);
  }
}

function start(config: GameConfig, s: GameState, at: number): GameState {
  if (s.status !== 'waiting') return s;
  const tc = config.timeControl;
  let next: GameState = {
    ...s,
    status: 'running',
    toMove: 'white',
    asOf: at,
    move: { startMs: s.remainingMs.white, usedMs: 0, delayMs: delayOf(tc, s.period.white) },
  };
  for (const side of absentSides(next)) {
    const late = config.defaultTimeMs > 0 ? `; default time ends ${config.defaultTimeMs / 60_000} min after the scheduled start` : '';
    next = alert(next, { code: 'late-player', side, at, message: `${name(side)} is not at the board${late}` });
  }
  return next;
}

function resume(s: GameState): GameState {
  if (s.status !== 'paused') return s;
  const out: Mutable<GameState> = { ...s, status: 'running' };
  delete out.paused;
  return out;
}

/**
 * A press by the side to move at instant `at` (>= asOf), from a state not yet advanced to `at`: the hot
 * path of every game, so it builds the next state in one step.
 */
function press(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  if (s.status !== 'running' || side !== s.toMove) return s;
  const tc = config.timeControl;
  const move = s.presses[side] + 1;
  const used = s.move.usedMs + Math.max(0, at - s.asOf);
  const bonus = bonusOf(tc, s.period[side]);
  let after = display(s.move, used);
  if (bonus.kind === 'bronstein') after += Math.min(used, bonus.ms);
  if (tc.incrementCredit === 'after-press') after += incrementFor(tc, s.period[side], move);
  let periodIndex = s.period[side];
  if (tc.nextPeriod === 'quota-move') {
    for (let quota = quotaAtEndOf(tc, periodIndex); quota !== undefined && move >= quota; quota = quotaAtEndOf(tc, periodIndex)) {
      periodIndex++;
      after += tc.periods[periodIndex]?.baseMs[side] ?? 0;
    }
  }
  if (tc.incrementCredit === 'before-move') after += incrementFor(tc, periodIndex, move + 1);
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
    arrived: s.arrived[side] ? s.arrived : set(s.arrived, side, true),
    penalties: s.penalties,
    alerts: s.alerts,
    move: { startMs: s.remainingMs[opponent], usedMs: 0, delayMs: delayOf(tc, s.period[opponent]) },
    flags: s.flags,
    movesTracked: s.movesTracked,
  };
  copyOptional(s, out);
  // Making a move declines the opponent's draw offer; the offerer's own offer stands over his press.
  if (out.drawOffer && out.drawOffer.side !== side) delete out.drawOffer;
  return s.movesTracked ? checkMoveCounts(out, opponent, out.asOf) : out;
}

const optionalKeys = [
  'paused',
  'result',
  'firstFlag',
  'drawOffer',
  'quickplay',
  'fen',
  'moveCountMismatch',
  'defaultTimeExpiredAt',
  'matchWinner',
] as const satisfies readonly (keyof GameState)[];

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
/** Compile-time check that copyOptional knows every optional field of GameState. */
const everyOptionalKeyListed: [Exclude<OptionalKeys<GameState>, (typeof optionalKeys)[number]>] extends [never] ? true : never = true;
void everyOptionalKeyListed;

function copyOptional(from: GameState, to: Mutable<GameState>): void {
  for (const key of optionalKeys) {
    if (from[key] !== undefined) (to as Record<string, unknown>)[key] = from[key];
  }
}

/**
 * Compares the press counter with the authoritative move count for `side` (Laws 6.10.2, 7.1). Checked for
 * the side whose move is settled: the opponent of the player who just pressed, or after a correction.
 */
function checkMoveCounts(s: GameState, side: Side, at: number): GameState {
  const presses = s.presses[side];
  const moves = s.moves[side];
  const previous = s.moveCountMismatch;
  if (!s.movesTracked || presses === moves) {
    if (previous?.side !== side) return s;
    const out: Mutable<GameState> = { ...s };
    delete out.moveCountMismatch;
    return out;
  }
  if (previous && previous.side === side && previous.presses === presses && previous.moves === moves) return s;
  return alert(
    { ...s, moveCountMismatch: { side, presses, moves } },
    {
      code: 'move-count-mismatch',
      side,
      at,
      message: `${name(side)}: the clock counts ${presses} presses but the board shows ${moves} moves (Art. 6.10.2, 7.1: arbiter corrects)`,
    },
  );
}

function penalty(config: GameConfig, s: GameState, offender: Side, offence: 'illegal-move' | 'false-claim', at: number): GameState {
  const before = s.penalties[offender];
  const counts =
    offence === 'illegal-move'
      ? { illegalMoves: before.illegalMoves + 1, falseClaims: before.falseClaims }
      : { illegalMoves: before.illegalMoves, falseClaims: before.falseClaims + 1 };
  const next: GameState = { ...s, penalties: set(s.penalties, offender, counts) };
  const count = offence === 'illegal-move' ? counts.illegalMoves : counts.falseClaims;
  const outcome = penaltyOutcome(config, offence, count);
  if (outcome.kind === 'loss') {
    const { result, termination } = lossResult(s.fen, offender, outcome.article);
    const ended = alert(next, { code: 'penalty-limit', side: offender, at, message: `${name(offender)}: ${outcome.article}` });
    return finish(config, ended, result, termination);
  }
  const opponent = otherSide(offender);
  return setRemaining(next, opponent, next.remainingMs[opponent] + outcome.ms);
}

function arrive(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  if (s.arrived[side]) return s;
  const next = { ...s, arrived: set(s.arrived, side, true) };
  if (s.defaultTimeExpiredAt === undefined) return next;
  return alert(next, {
    code: 'late-player',
    side,
    at,
    message: `${name(side)} arrived ${Math.round((at - config.scheduledStart) / 1000)} s after the scheduled start, after the default time: arbiter decides`,
  });
}

function boardMove(s: GameState, side: Side, san: string, fen: string | undefined, at: number): GameState {
  const out: Mutable<GameState> = { ...s, moves: set(s.moves, side, s.moves[side] + 1), movesTracked: true };
  const known = fen ?? positionAfter(s.fen, san);
  if (known) out.fen = known;
  else {
    delete out.fen;
    if (s.fen) out.alerts = [...s.alerts, { code: 'arbiter-call', side, at, message: `${name(side)}'s move ${san} does not follow from the last position` }];
  }
  return out;
}

function positionAfter(fen: string | undefined, san: string): string | undefined {
  try {
    const game = new Chess(fen);
    game.move(san);
    return game.fen();
  } catch {
    return undefined;
  }
}

function drawOffer(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  const move = moveInProgress(s);
  if (config.drawOfferMinMove > 0 && move < config.drawOfferMinMove) {
    return alert(s, {
      code: 'draw-offer-refused',
      side,
      at,
      message: `${name(side)}'s draw offer at move ${move} refused: no draw agreement before move ${config.drawOfferMinMove} (event rule, ${drawAgreementArticle(config.lawsEdition)}); claims under Art. 9.2/9.3 still go to the arbiter`,
    });
  }
  return { ...s, drawOffer: { side, at } };
}

function quickplayClaim(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  const tc = config.timeControl;
  const p = s.period[side];
  const why = !config.quickplayClaim
    ? 'the event does not apply Article 10.2'
    : s.status !== 'running' || s.toMove !== side
      ? 'only the player having the move may claim'
      : s.remainingMs[side] >= twoMinutes
        ? 'the claimant has 2 minutes or more'
        : p !== tc.periods.length - 1
          ? 'not in the final period'
          : bonusOf(tc, p).kind !== 'none'
            ? 'the final period has an increment or delay'
            : undefined;
  if (why) {
    return alert(s, { code: 'quickplay-claim', side, at, message: `${name(side)}'s Article 10.2 claim not admitted: ${why}` });
  }
  const claimed: GameState = {
    ...s,
    status: 'paused',
    paused: { by: { kind: 'player', side }, reason: 'Article 10.2 claim', at },
    quickplay: { side, at, status: 'pending' },
  };
  return alert(claimed, { code: 'quickplay-claim', side, at, message: `${name(side)} claims a draw under Article 10.2: arbiter decides` });
}

function quickplayDecision(config: GameConfig, s: GameState, decision: 'draw' | 'postpone' | 'reject', at: number): GameState {
  const claim = s.quickplay;
  if (!claim) return alert(s, { code: 'ignored-event', at, message: `Article 10.2 decision '${decision}' without a claim` });
  if (decision === 'draw') return finish(config, s, '1/2-1/2', 'Article 10.2 claim upheld');
  const opponent = otherSide(claim.side);
  const out: Mutable<GameState> = claim.status === 'pending' ? { ...setRemaining(s, opponent, s.remainingMs[opponent] + twoMinutes) } : { ...s };
  if (decision === 'postpone') out.quickplay = { ...claim, status: 'postponed' };
  else delete out.quickplay;
  void at;
  return resume(out);
}

function flag(config: GameConfig, s: GameState, side: Side, at: number, byEngine: boolean): GameState {
  if (s.flags[side] !== undefined) return s;
  const due = s.status === 'running' && s.toMove === side && display(s.move, s.move.usedMs) === 0;
  if (!due) {
    const left = s.remainingMs[side];
    return alert(s, { code: 'clock-disagrees', side, at, message: `${name(side)}'s flag reported, but the engine shows ${left} ms left` });
  }
  void byEngine;
  const flagged: GameState = {
    ...s,
    flags: side === 'white' ? { ...s.flags, white: at } : { ...s.flags, black: at },
    firstFlag: s.firstFlag ?? { side, at },
    remainingMs: set(s.remainingMs, side, 0),
  };
  const tc = config.timeControl;
  const p = s.period[side];
  const final = p >= tc.periods.length - 1;
  if (tc.nextPeriod === 'first-flag' && !final) return nextPeriodForBoth(config, flagged, side, at);
  const quota = quotaAtEndOf(tc, p);
  const detail = quota !== undefined ? ` before completing move ${quota} (${s.presses[side]} presses)` : '';
  const ended = alert(flagged, { code: 'flag-fall', side, at, message: `${name(side)}'s flag fell${detail}` });
  const { result, termination } = flagResult(s.fen, side);
  return finish(config, ended, result, termination);
}

/**
 * DGT "TIME" mode: the first flag of a period adds the next period to both clocks. Whether the flagged
 * player had completed the period's moves is for the arbiter to check on the scoresheet (Art. 6.4).
 */
function nextPeriodForBoth(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  const tc = config.timeControl;
  let next = s;
  for (const who of ['white', 'black'] as const) {
    const p = Math.min(next.period[who] + 1, tc.periods.length - 1);
    const base = p === next.period[who] ? 0 : (tc.periods[p]?.baseMs[who] ?? 0);
    next = setRemaining({ ...next, period: set(next.period, who, p) }, who, next.remainingMs[who] + base);
    // The flagged side's clock stays at 0 for the flag record; its display restarts from the new period.
    if (who === side) next = { ...next, flags: withoutFlag(next.flags, side) };
  }
  const quota = quotaAtEndOf(tc, s.period[side]);
  const shortfall = quota !== undefined && s.presses[side] < quota ? ` with ${s.presses[side]} presses of ${quota} moves` : '';
  return alert(next, {
    code: 'flag-fall',
    side,
    at,
    message: `${name(side)}'s flag fell at the end of period ${s.period[side] + 1}${shortfall}; next period added to both clocks: arbiter checks the scoresheet (Art. 6.4)`,
  });
}

function withoutFlag(flags: GameState['flags'], side: Side): GameState['flags'] {
  return side === 'white' ? (flags.black === undefined ? {} : { black: flags.black }) : flags.white === undefined ? {} : { white: flags.white };
}

function defaultTimeExpired(config: GameConfig, s: GameState, at: number): GameState {
  const absent = absentSides(s);
  if (absent.length === 0 || s.defaultTimeExpiredAt !== undefined || s.status === 'waiting') return s;
  const marked: GameState = { ...s, defaultTimeExpiredAt: at };
  const who = absent.length === 2 ? 'Both players are' : `${name(absent[0]!)} is`;
  const article = config.lawsEdition === '2009' ? 'Art. 6.6' : 'Art. 6.7.1';
  if (config.lateArrival === 'arbiter-decides') {
    const paused: GameState = marked.status === 'running' ? { ...marked, status: 'paused', paused: { by: system, reason: `default time expired (${article}): arbiter decides`, at } } : marked;
    return alert(paused, { code: 'default-time-expired', at, message: `${who} absent at the end of the default time (${article}): arbiter decides` });
  }
  const result: GameResult = absent.length === 2 ? '---' : absent[0] === 'white' ? '--+' : '+--';
  const ended = alert(marked, { code: 'default-time-expired', at, message: `${who} absent at the end of the default time: forfeit (${article})` });
  return finish(config, ended, result, `default time expired (${article})`);
}
