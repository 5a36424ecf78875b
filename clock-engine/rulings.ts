// The Laws the clock applies on top of the arithmetic: penalties, arrival and default time, board moves and
// the two move counts, draw offers, Article 10.2, and flag falls. Each takes a state already brought up to
// the event's instant and returns the next one.
import { Chess } from 'chess.js';
import {
  absentSides,
  alert,
  display,
  finish,
  moveInProgress,
  name,
  quotaAtEndOf,
  resume,
  set,
  setRemaining,
  system,
  twoMinutes,
  withArrival,
  type Mutable,
} from './clock-state.ts';
import { nextRepeatable, positionEnding, readPosition, startFen, type ReadPosition } from './position.ts';
import {
  drawAgreementArticle,
  drawOfferArticle,
  flagArticle,
  flagNeedsClaim,
  flagResult,
  lossResult,
  penaltyOutcome,
  quickplayIncrementMs,
  quickplayRule,
} from './laws.ts';
import type { GameConfig, GameResult, GameState, RuleRefusal, Side } from './types.ts';
import { otherSide } from './types.ts';

/**
 * Compares the press counter with the authoritative move count for `side` (Laws 6.10.2, 7.1). Checked for
 * the side whose move is settled: the opponent of the player who just pressed, or after a correction.
 */
export function checkMoveCounts(s: GameState, side: Side, at: number): GameState {
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

export function penalty(config: GameConfig, s: GameState, offender: Side, offence: 'illegal-move' | 'false-claim', at: number): GameState {
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

export function arrive(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  if (s.arrived[side]) return s;
  const next = { ...s, arrived: withArrival(s.arrived, side) };
  if (s.defaultTimeExpiredAt === undefined) return next;
  return alert(next, {
    code: 'late-player',
    side,
    at,
    message: `${name(side)} arrived ${Math.round((at - config.scheduledStart) / 1000)} s after the scheduled start, after the default time: arbiter decides`,
  });
}

/**
 * A move on the board: the authoritative move count, the position after it, and the end of the game if
 * that position ends it (checkmate, stalemate, dead position; from L2018 fivefold repetition and the
 * 75-move rule: position.ts). A finished game keeps counting moves but its result stands.
 */
export function boardMove(config: GameConfig, s: GameState, side: Side, san: string, fen: string | undefined, at: number): GameState {
  const out: Mutable<GameState> = { ...s, moves: set(s.moves, side, s.moves[side] + 1), movesTracked: true };
  const known = fen ?? positionAfter(s.fen, san);
  const position = known === undefined ? undefined : readPosition(known);
  if (known) out.fen = known;
  else {
    delete out.fen;
    if (s.fen) out.alerts = [...s.alerts, { code: 'arbiter-call', side, at, message: `${name(side)}'s move ${san} does not follow from the last position` }];
  }
  if (!position) {
    delete out.repeatablePositions;
    return out;
  }
  out.repeatablePositions = nextRepeatable(repeatableBefore(s), position);
  return endedByPosition(config, out, position);
}

/** The positions that may repeat up to `s` (the start position when no move was read yet). */
function repeatableBefore(s: GameState): readonly string[] {
  if (s.repeatablePositions) return s.repeatablePositions;
  const before = readPosition(s.fen ?? startFen);
  return before ? [before.key] : [];
}

function endedByPosition(config: GameConfig, s: GameState, position: ReadPosition): GameState {
  if (s.status === 'finished') return s;
  const ending = positionEnding(config, position, s.repeatablePositions ?? [position.key]);
  return ending ? finish(config, s, ending.result, ending.termination) : s;
}

/**
 * Moves counts after a takeback (plies < 0) or unseen plies (plies > 0): the plies alternate from the side
 * to move. A takeback drops the plies taken back from the positions that may repeat; a re-read position
 * starts them afresh (the positions in between are unknown) and ends the game if it is an end (a mate
 * made while the board was unplugged).
 */
export function boardPosition(config: GameConfig, s: GameState, fen: string, plies: number, at: number): GameState {
  const before: Side = (s.fen ?? '').split(' ')[1] === 'b' ? 'black' : 'white';
  let moves = s.moves;
  let turn = before;
  for (let i = 0; i < Math.abs(plies); i++) {
    if (plies < 0) {
      turn = otherSide(turn);
      moves = set(moves, turn, Math.max(0, moves[turn] - 1));
    } else {
      moves = set(moves, turn, moves[turn] + 1);
      turn = otherSide(turn);
    }
  }
  const out: Mutable<GameState> = { ...s, moves, fen, movesTracked: true };
  const position = readPosition(fen);
  if (!position) delete out.repeatablePositions;
  else {
    const kept = plies < 0 ? (s.repeatablePositions ?? []).slice(0, plies) : [];
    out.repeatablePositions = kept.at(-1) === position.key ? kept : [position.key];
  }
  const counted = checkMoveCounts(checkMoveCounts(out, 'white', at), 'black', at);
  return position && plies >= 0 ? endedByPosition(config, counted, position) : counted;
}

export function positionAfter(fen: string | undefined, san: string): string | undefined {
  try {
    const game = new Chess(fen);
    game.move(san);
    return game.fen();
  } catch {
    return undefined;
  }
}

/** A refusal of the engine: the alert's message and its typed reason. */
interface Refused {
  readonly message: string;
  readonly refusal: RuleRefusal;
}

/** Why the event's move rule refuses a draw agreement (`what`: the offer or the agreement) now, or undefined. */
function moveRuleRefusal(config: GameConfig, s: GameState, what: string): Refused | undefined {
  const move = moveInProgress(s);
  if (config.drawOfferMinMove <= 0 || move >= config.drawOfferMinMove) return undefined;
  const article = `event regulation: no draw agreement before move ${config.drawOfferMinMove}; ${drawAgreementArticle(config.lawsEdition)}`;
  return {
    message: `${what} at move ${move} refused: no draw agreement before move ${config.drawOfferMinMove} (event rule, ${drawAgreementArticle(config.lawsEdition)}); claims under Art. 9.2/9.3 still go to the arbiter`,
    refusal: { reason: 'draw-before-move-limit', article },
  };
}

/**
 * Whether `side` has made a move, for L2018/L2023 5.2.3 ("provided both players have made at least one
 * move"): a press, or a move the board reported (a first move made but not yet pressed counts only then).
 */
const hasMoved = (s: GameState, side: Side): boolean => s.presses[side] > 0 || s.moves[side] > 0;

/** L2018/L2023 5.2.3 (L2009 5.2 c has no such condition): no agreement before both players have moved. */
function firstMovesRefusal(config: GameConfig, s: GameState): Refused | undefined {
  if (config.lawsEdition === '2009' || (hasMoved(s, 'white') && hasMoved(s, 'black'))) return undefined;
  const article = `Laws ${config.lawsEdition} Art. 5.2.3`;
  return {
    message: `draw agreement refused: both players must have made at least one move (${article})`,
    refusal: { reason: 'draw-before-first-moves', article },
  };
}

/**
 * Why a draw by agreement the arbiter records now (a result, not an offer and its acceptance) is
 * refused: the event's move rule or 5.2.3; undefined when it may stand.
 */
export function drawAgreementRefusal(config: GameConfig, s: GameState): Refused | undefined {
  return moveRuleRefusal(config, s, 'a draw by agreement') ?? firstMovesRefusal(config, s);
}

export function drawOffer(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  const refused = moveRuleRefusal(config, s, `${name(side)}'s draw offer`);
  if (refused) return alert(s, { code: 'draw-offer-refused', side, at, ...refused });
  return { ...s, drawOffer: { side, at } };
}

const noOffer = (config: GameConfig, s: GameState, side: Side, at: number, answer: string): GameState =>
  alert(s, {
    code: 'ignored-event',
    side,
    at,
    message: `${name(side)} ${answer} a draw that was not offered`,
    refusal: { reason: 'no-draw-offer', article: drawOfferArticle(config.lawsEdition) },
  });

/**
 * `side` accepts the opponent's standing offer: the game is drawn by agreement, except under L2018/L2023
 * before both players have made a move (5.2.3; L2009 5.2 c has no such condition), when the agreement is
 * refused and the offer lapses.
 */
export function drawAccept(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  if (!s.drawOffer || s.drawOffer.side === side) return noOffer(config, s, side, at, 'accepted');
  const refused = firstMovesRefusal(config, s);
  if (refused) {
    const out: Mutable<GameState> = { ...s };
    delete out.drawOffer;
    return alert(out, { code: 'draw-offer-refused', side, at, ...refused });
  }
  return finish(config, s, '1/2-1/2', 'agreement');
}

/** `side` declines the opponent's standing offer: it lapses (a claim it came with still waits for the arbiter). */
export function drawDecline(config: GameConfig, s: GameState, side: Side, at: number): GameState {
  if (!s.drawOffer || s.drawOffer.side === side) return noOffer(config, s, side, at, 'declined');
  const out: Mutable<GameState> = { ...s };
  delete out.drawOffer;
  return out;
}

export function quickplayClaim(config: GameConfig, s: GameState, side: Side, at: number, request: 'draw' | 'increment' = 'draw'): GameState {
  const tc = config.timeControl;
  const p = s.period[side];
  const rule = quickplayRule(config);
  const notApplied =
    'unavailable' in rule
      ? rule.unavailable
      : request === 'increment' && !rule.incrementOption
        ? `${rule.article} has no five-second increment option (Guidelines III.4, Laws 2018 and 2023)`
        : undefined;
  const conditions =
    s.status !== 'running' || s.toMove !== side
      ? 'only the player having the move may claim'
      : s.remainingMs[side] >= twoMinutes
        ? 'the claimant has 2 minutes or more'
        : p !== tc.periods.length - 1
          ? 'not in the final period'
          : s.quickplay?.status === 'increment'
            ? 'the five-second increment is already in force'
            : undefined;
  const article = 'unavailable' in rule ? rule.article : request === 'increment' ? rule.article.replace('III.5', 'III.4') : rule.article;
  const why = notApplied ?? conditions;
  if (why) {
    return alert(s, {
      code: 'quickplay-claim',
      side,
      at,
      message: `${name(side)}'s ${request === 'increment' ? 'increment request' : 'draw claim'} (${'unavailable' in rule ? 'quickplay finish' : article}) not admitted: ${why}`,
      refusal: { reason: notApplied ? 'claim-not-applied' : 'claim-conditions', article },
    });
  }
  const claimed: Mutable<GameState> = {
    ...s,
    status: 'paused',
    paused: { by: { kind: 'player', side }, reason: `${article} ${request === 'increment' ? 'increment request' : 'claim'}`, at },
    quickplay: { side, at, status: 'pending', request },
  };
  // III.4: "This constitutes the offer of a draw": the opponent may accept it. L2009 9.1 b 3: so does a
  // claim under Article 10.2 (where the event's move rule allows an offer at all).
  const alsoAnOffer = request === 'increment' || (config.lawsEdition === '2009' && moveRuleRefusal(config, s, '') === undefined);
  if (alsoAnOffer) claimed.drawOffer = { side, at };
  const message =
    request === 'increment'
      ? `${name(side)} asks for a five-second increment for both players, which is also a draw offer (${article}): arbiter decides if it is refused`
      : `${name(side)} claims a draw under ${article}: arbiter decides`;
  return alert(claimed, { code: 'quickplay-claim', side, at, message });
}

/**
 * The arbiter's decision on a claim. Two minutes go to the opponent on a rejected draw claim (L2009
 * 10.2 c, III.5 c) and when the increment is introduced (III.4); on a postponed claim only when the
 * arbiter gives them (`extraTime`: "may", L2009 10.2 b, III.5 b).
 */
export function quickplayDecision(
  config: GameConfig,
  s: GameState,
  decision: 'draw' | 'postpone' | 'reject' | 'increment',
  at: number,
  extraTime = false,
): GameState {
  const claim = s.quickplay;
  const rule = quickplayRule(config);
  if (!claim || claim.status === 'increment') {
    return alert(s, {
      code: 'ignored-event',
      at,
      message: `quickplay decision '${decision}' without a claim`,
      refusal: { reason: 'no-claim', article: rule.article },
    });
  }
  const incrementRequest = claim.request === 'increment';
  if (incrementRequest !== (decision === 'increment' || (decision === 'reject' && incrementRequest))) {
    return alert(s, {
      code: 'ignored-event',
      at,
      message: `quickplay decision '${decision}' does not answer ${incrementRequest ? 'an increment request (increment or reject)' : 'a draw claim (draw, postpone or reject)'}`,
      refusal: { reason: 'decision-mismatch', article: incrementRequest ? rule.article.replace('III.5', 'III.4') : rule.article },
    });
  }
  if (decision === 'draw') return finish(config, s, '1/2-1/2', `${'unavailable' in rule ? 'quickplay-finish' : rule.article} claim upheld`);
  const opponent = otherSide(claim.side);
  const pending = claim.status === 'pending';
  const award = pending && (decision === 'reject' ? !incrementRequest : decision === 'increment' || extraTime);
  const out: Mutable<GameState> = award ? { ...setRemaining(s, opponent, s.remainingMs[opponent] + twoMinutes) } : { ...s };
  if (incrementRequest) delete out.drawOffer;
  if (decision === 'postpone') out.quickplay = { ...claim, status: 'postponed' };
  else if (decision === 'increment') {
    out.quickplay = { side: claim.side, at, status: 'increment', request: 'increment' };
    // Credited before the move (a DGT clock's convention), the move now in progress gets its 5 s too.
    if (config.timeControl.incrementCredit === 'before-move') return resume(setRemaining(out, out.toMove, out.remainingMs[out.toMove] + quickplayIncrementMs));
  } else delete out.quickplay;
  return resume(out);
}

/** A flag for `side`; `accepted`: reported by the clock that keeps the time, so no check against the engine. */
export function flag(config: GameConfig, s: GameState, side: Side, at: number, accepted = false, claimed = false): GameState {
  if (flagNeedsClaim(config)) return flagOnClaim(config, s, side, at, claimed);
  if (s.flags[side] !== undefined) return s;
  const due = s.status === 'running' && s.toMove === side && display(s.move, s.move.usedMs) === 0;
  if (!due && !accepted) {
    const left = s.remainingMs[side];
    return alert(s, {
      code: 'clock-disagrees',
      side,
      at,
      message: `${name(side)}'s flag reported, but the engine shows ${left} ms left`,
      ...(claimed ? { refusal: { reason: 'flag-up', article: flagArticle(config.lawsEdition) } as const } : {}),
    });
  }
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
 * L2009 A.4 d (rapid, and blitz by B.3 a, without adequate supervision): the arbiter does not call a
 * flag; the engine records it and says so, and the game goes on until the opponent claims it (a `flag`
 * event from a player or the arbiter relaying the claim), the claim succeeding only while the
 * claimant's own flag is up. Both flags down: the arbiter declares a draw.
 */
function flagOnClaim(config: GameConfig, s: GameState, side: Side, at: number, claimed: boolean): GameState {
  const down = s.flags[side] !== undefined || (s.status === 'running' && s.toMove === side && display(s.move, s.move.usedMs) === 0);
  const article = config.category === 'blitz' ? 'Laws 2009 Appendix B.3 a, A.4 d' : 'Laws 2009 Appendix A.4 d';
  if (!claimed) {
    if (s.flags[side] !== undefined || !down) return s;
    const flagged: GameState = {
      ...s,
      flags: side === 'white' ? { ...s.flags, white: at } : { ...s.flags, black: at },
      firstFlag: s.firstFlag ?? { side, at },
      remainingMs: set(s.remainingMs, side, 0),
    };
    if (flagged.flags.white !== undefined && flagged.flags.black !== undefined) {
      const both = alert(flagged, { code: 'flag-fall', side, at, message: `both flags have fallen: drawn (${article})` });
      return finish(config, both, '1/2-1/2', `both flags fallen (${article})`);
    }
    return alert(flagged, {
      code: 'flag-fall',
      side,
      at,
      message: `${name(side)}'s flag fell; it counts only when ${name(otherSide(side))} claims it (${article}: the arbiter does not call it)`,
    });
  }
  const claimant = otherSide(side);
  if (!down || s.flags[claimant] !== undefined) {
    const why = !down ? `${name(side)}'s flag is still up` : `${name(claimant)}'s own flag is down too`;
    return alert(s, {
      code: 'clock-disagrees',
      side,
      at,
      message: `${name(claimant)}'s flag claim rejected: ${why} (${article})`,
      refusal: { reason: !down ? 'flag-up' : 'claimant-flag-down', article },
    });
  }
  const marked: GameState =
    s.flags[side] !== undefined
      ? s
      : {
          ...s,
          flags: side === 'white' ? { ...s.flags, white: at } : { ...s.flags, black: at },
          firstFlag: s.firstFlag ?? { side, at },
          remainingMs: set(s.remainingMs, side, 0),
        };
  const ended = alert(marked, { code: 'flag-fall', side, at, message: `${name(claimant)} claims ${name(side)}'s flag: upheld (${article})` });
  const { result, termination } = flagResult(s.fen, side);
  return finish(config, ended, result, `${termination} on the opponent's claim`);
}

/**
 * DGT "TIME" mode: the first flag of a period adds the next period to both clocks. Whether the flagged
 * player had completed the period's moves is for the arbiter to check on the scoresheet (Art. 6.4).
 */
export function nextPeriodForBoth(config: GameConfig, s: GameState, side: Side, at: number): GameState {
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

export function withoutFlag(flags: GameState['flags'], side: Side): GameState['flags'] {
  return side === 'white' ? (flags.black === undefined ? {} : { black: flags.black }) : flags.white === undefined ? {} : { white: flags.white };
}

export function defaultTimeExpired(config: GameConfig, s: GameState, at: number): GameState {
  const absent = absentSides(s);
  if (absent.length === 0 || s.defaultTimeExpiredAt !== undefined || s.status === 'waiting') return s;
  const marked: GameState = { ...s, defaultTimeExpiredAt: at };
  const who = absent.length === 2 ? 'Both players are' : `${name(absent[0]!)} is`;
  const article = `${config.lawsEdition === '2009' ? 'Art. 6.6' : 'Art. 6.7.1'}, ${(config.defaultTimeBoundary ?? 'more-than') === 'more-than' ? 'absent more than' : 'absent at'} ${config.defaultTimeMs / 60_000} min`;
  if (config.lateArrival === 'arbiter-decides') {
    const paused: GameState =
      marked.status === 'running'
        ? { ...marked, status: 'paused', paused: { by: system, reason: `default time expired (${article}): arbiter decides`, at } }
        : marked;
    return alert(paused, { code: 'default-time-expired', at, message: `${who} absent at the end of the default time (${article}): arbiter decides` });
  }
  const result: GameResult = absent.length === 2 ? '---' : absent[0] === 'white' ? '--+' : '+--';
  // The event's regulation makes it a forfeit where the Laws might leave it to the arbiter: cite it first.
  const why = config.lateArrivalRule ? `${config.lateArrivalRule}; ${article}` : article;
  const ended = alert(marked, { code: 'default-time-expired', at, message: `${who} absent at the end of the default time: forfeit (${why})` });
  return finish(config, ended, result, `default time expired (${why})`);
}
