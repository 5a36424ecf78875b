// What an arbiter's command on one board asks of its clock, decided from the board as it stands: the
// clock event to journal, or the refusal. Pure: the hall journals what this returns (hall.ts).
import { validateFen } from 'chess.js';
import type { ClockEvent, EventActor, Side } from '../../clock-engine/index.ts';
import { drawAgreementRefusal, otherSide, playMoves, samePlacement } from '../../clock-engine/index.ts';
import type { ArbiterCommand } from '../contract/index.ts';
import { refusal, ruleRefusal, type Refusal } from '../contract/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import type { Board } from './board.ts';

/** The commands of one board (the hall's own, `startAll` and the like, are the hall's). */
export type BoardCommand = Extract<ArbiterCommand, { readonly board: string }>;

/**
 * - `record`: the event as it is;
 * - `ruled`: a claim, an offer or a decision the engine rules on (the hall journals it when the engine
 *   admits it);
 * - `position`: the event, and the board is told the position (`fen`) to read on from.
 */
export type BoardCommandPlan =
  | { readonly ok: true; readonly kind: 'record' | 'ruled'; readonly event: ClockEvent }
  | { readonly ok: true; readonly kind: 'position'; readonly event: ClockEvent; readonly fen: string }
  | Refusal;

/** The clock event of a command on a board still playing (a finished game takes no command but missed moves). */
export function boardCommandPlan(command: Exclude<BoardCommand, { type: 'enterMissedMoves' }>, board: Board, at: number, by: EventActor): BoardCommandPlan {
  const s = board.state;
  if (s.status === 'finished') return refusal('game-finished', `the game on board ${board.id} is finished (${s.result?.result ?? ''})`);
  const record = (event: ClockEvent): BoardCommandPlan => ({ ok: true, kind: 'record', event });
  const ruled = (event: ClockEvent): BoardCommandPlan => ({ ok: true, kind: 'ruled', event });
  switch (command.type) {
    case 'pause':
      if (s.status === 'paused') return refusal('already-paused', `board ${board.id} is already paused`);
      return record({ type: 'pause', at, by, reason: command.reason });
    case 'resume':
      if (s.status !== 'paused') return refusal('not-paused', `board ${board.id} is not paused`);
      return record({ type: 'resume', at, by });
    case 'addTime':
      if (s.remainingMs[command.side] + command.ms < 0) return refusal('not-enough-time', `${command.side} has only ${s.remainingMs[command.side]} ms`);
      return record({ type: 'addTime', at, by, side: command.side, ms: command.ms, reason: command.reason });
    case 'setTime':
      return record({ type: 'setTime', at, by, side: command.side, ms: command.ms, reason: command.reason });
    case 'setMoveCounter':
      return record({ type: 'setMoveCounter', at, by, side: command.side, counter: command.counter, moves: command.moves, reason: command.reason });
    case 'penalty':
      return record({ type: 'penalty', at, by, offender: command.offender, offence: command.offence, reason: command.reason });
    case 'forfeit':
      return record({ type: 'forfeit', at, by, side: command.side, reason: command.reason });
    case 'result': {
      const refused = command.result === '1/2-1/2' && (command.drawBy ?? 'agreement') === 'agreement' ? agreementRefusal(board) : undefined;
      return refused ?? record({ type: 'result', at, by, result: command.result, termination: command.termination });
    }
    case 'drawOffer':
      return ruled({ type: 'drawOffer', at, by, side: command.side });
    case 'drawAnswer':
      return ruled({ type: command.accept ? 'drawAccept' : 'drawDecline', at, by, side: command.side });
    case 'flagClaim':
      // The arbiter relays the claim: the engine takes a flag reported by the arbiter as a claim.
      return ruled({ type: 'flag', at, by, side: otherSide(command.claimant) });
    case 'quickplayClaim':
      return ruled({ type: 'quickplayClaim', at, by, side: command.side, ...(command.request ? { request: command.request } : {}) });
    case 'quickplayDecision': {
      const extra = command.extraTime ? ', two minutes to the opponent' : '';
      return ruled({
        type: 'quickplayDecision',
        at,
        by,
        decision: command.decision,
        ...(command.extraTime !== undefined ? { extraTime: command.extraTime } : {}),
        reason: `decision on the claim: ${command.decision}${extra}`,
      });
    }
    case 'arrive':
      if (s.arrived[command.side]) return refusal('already-arrived', `${command.side} on board ${board.id} has already arrived`);
      return record({ type: 'arrive', at, by, side: command.side });
    case 'setPosition': {
      const checked = validateFen(command.fen);
      if (!checked.ok) return refusal('illegal-position', `not a legal position: ${checked.error ?? command.fen}`);
      // A new start of the board's game (the live PGN starts a new line at this FEN); the move counts stand.
      return {
        ok: true,
        kind: 'position',
        event: { type: 'boardPosition', at, by, fen: command.fen, plies: 0, detail: `set by the arbiter: ${command.reason}` },
        fen: command.fen,
      };
    }
  }
}

/**
 * Why a draw by agreement may not be recorded now on a game the clock is playing: the engine's check
 * (the event's move rule, Laws 5.2.3) on the board's state. Undefined when it may, or when the clock
 * plays no game there.
 */
export function agreementRefusal(board: Board): Refusal | undefined {
  if (board.state.status !== 'running' && board.state.status !== 'paused') return undefined;
  const refused = drawAgreementRefusal(board.config, board.state);
  return refused ? ruleRefusal(refused.refusal, refused.message) : undefined;
}

/**
 * The records of the arbiter's moves for the board's latest unread stretch: legal one after the other
 * from the position before it (chess.js, clock-engine/position.ts) and leading to the position the board
 * re-read. A note with who, and the board's move counts corrected where the re-read had counted other plies.
 */
export function missedMovesRecords(
  board: Board,
  moves: readonly string[],
  who: { readonly name: string; readonly credential?: string },
  by: EventActor,
  at: number,
): { readonly ok: true; readonly records: readonly JournalRecord[] } | Refusal {
  const stretch = board.unreadStretch;
  if (!stretch) return refusal('no-unread-stretch', `board ${board.id}'s game has no stretch the board did not read: there are no missed moves to enter`);
  const played = playMoves(stretch.before, moves);
  if (!played.ok) {
    return refusal(
      'illegal-move',
      `${moves[played.index]} (move ${played.index + 1} of those entered) is not a legal move there (the moves start from ${stretch.before})`,
      'Laws Art. 3',
    );
  }
  const reached = played.line.fens.at(-1) ?? stretch.before;
  if (!samePlacement(reached, stretch.after)) {
    return refusal('position-mismatch', `the moves entered lead to ${reached}, not to the position the board re-read (${stretch.after})`);
  }
  const first: Side = stretch.before.split(' ')[1] === 'b' ? 'black' : 'white';
  const entered = pliesBySide(played.line.sans.length, first);
  const counted = pliesBySide(stretch.unseen, first);
  const s = board.state;
  const records: JournalRecord[] = [
    {
      kind: 'note',
      board: board.id,
      note: { type: 'missedMoves', at, moves: played.line.sans, by: who.name, ...(who.credential ? { credential: who.credential } : {}) },
    },
  ];
  for (const side of ['white', 'black'] as const) {
    if (entered[side] === counted[side]) continue;
    const reason = `${entered[side]} moves entered where the board's re-read counted ${counted[side]}`;
    records.push({
      kind: 'clock',
      board: board.id,
      event: { type: 'setMoveCounter', at, by, side, counter: 'moves', moves: s.moves[side] + entered[side] - counted[side], reason },
    });
  }
  return { ok: true, records };
}

function pliesBySide(plies: number, first: Side): { white: number; black: number } {
  const byFirst = Math.ceil(plies / 2);
  return first === 'white' ? { white: byFirst, black: plies - byFirst } : { white: plies - byFirst, black: byFirst };
}
