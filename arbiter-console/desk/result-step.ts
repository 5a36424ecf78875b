// The result step of the desk: results entered by the arbiter or given by the clocks (provisional
// until confirmed), the round's confirmation in one batch, a result entered for a game still on its
// clock, the contradictions between a clock and the desk and how the arbiter settles them, and the
// section record built from it all. Functions over the desk's face and state: the desk journals.
import {
  boardResultFromClock,
  clockIncidents,
  emptyRecord,
  recordBoardResult,
  type BoardResult,
  type Pairing,
  type SectionRecord,
} from '../../tournament/index.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import type { Attention } from '../contract/index.ts';
import type { Board, CommandBy } from '../hall/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import type { TournamentCommand, TournamentRecord } from '../contract/index.ts';
import { refusal, within, type Refusal } from '../contract/index.ts';
import { journalEntry, key, liveBoard, playerOf, signature, type DeskFace, type DeskState, type EnteredResult } from './desk-state.ts';

/** The result the clock gave a hall board (null while it plays or when its players are unknown). */
export function clockResultOf(desk: DeskFace, hallBoard: string): BoardResult | null {
  const pair = desk.hallPairs.get(hallBoard);
  const board = liveBoard(desk, hallBoard);
  if (!pair || !board) return null;
  return boardResultFromClock(pair.white, pair.black, board.state);
}

/** How a seated board's game ended, as compared to tell a new finish from one already seen ('' while it plays). */
export function finishSignature(desk: DeskFace, id: string): string {
  const state = liveBoard(desk, id)?.state;
  return state?.result ? `${state.result.result}:${state.result.termination}` : '';
}

export type ResultSource = 'clock' | 'confirmed' | 'arbiter';

/** Results with their source: entered or confirmed ones from the journal, provisional ones from the clocks. */
export function knownResults(desk: DeskFace, state: DeskState): { round: number; result: BoardResult; source: ResultSource }[] {
  const out = [...state.entered.values()].map((r): { round: number; result: BoardResult; source: ResultSource } => ({
    round: r.round,
    result: { white: r.white, black: r.black, result: r.result, termination: r.termination, ...(r.lessThanOneMove ? { lessThanOneMove: true } : {}) },
    source: r.source,
  }));
  for (const id of desk.hallPairs.keys()) {
    const result = desk.clockResult(id);
    if (result && !state.entered.has(key(desk.liveRound, result.white, result.black))) out.push({ round: desk.liveRound, result, source: 'clock' as const });
  }
  return out;
}

/** Boards of a round without a result, or with one from the clock the arbiter has not confirmed yet. */
export function missingResults(desk: DeskFace, state: DeskState, round: number): string[] {
  const pairing = desk.pairingOf(round);
  if (!pairing) return [];
  const results = knownResults(desk, state).filter((r) => r.round === round);
  return pairing.games.flatMap((g, i) => {
    const found = results.find((r) => r.result.white === g.white && r.result.black === g.black);
    if (!found) return [`board ${i + 1}`];
    return found.source === 'clock' ? [`board ${i + 1} (clock result to confirm)`] : [];
  });
}

/** The section record as it stands: every known result, the incidents, and the clocks' late arrivals. */
export function sectionRecordOf(desk: DeskFace, state: DeskState): SectionRecord {
  let record: SectionRecord = emptyRecord;
  for (const { round, result } of knownResults(desk, state).sort((a, b) => a.round - b.round)) record = recordBoardResult(desk.section, record, round, result);
  const fromClocks = [...desk.hallPairs].flatMap(([id, pair]) => {
    const board = liveBoard(desk, id)?.state;
    return board?.result ? clockIncidents(desk.section, desk.liveRound, pair, board) : [];
  });
  const entered = state.incidents.map((i) => ({ round: i.round, player: i.player, offence: i.offence, ...(i.note ? { note: i.note } : {}) }));
  // Byes of the paired rounds: the Swiss pairing-allocated bye scores a point (TRF U); requested ones half or none.
  const byes = new Map<number, { player: number; kind: 'pab' | 'full' | 'half' | 'zero' }[]>();
  const addBye = (round: number, bye: { player: number; kind: 'pab' | 'full' | 'half' | 'zero' }) => byes.set(round, [...(byes.get(round) ?? []), bye]);
  for (const bye of state.imported.flatMap((i) => i.byes)) addBye(bye.round, { player: bye.player, kind: bye.kind });
  if (desk.section.format.kind === 'swiss') {
    for (let round = 1; round <= desk.currentRound; round += 1) {
      const pairing = desk.pairingOf(round);
      if (pairing && pairing.status !== 'imported' && pairing.bye !== null) addBye(round, { player: pairing.bye, kind: 'pab' });
    }
  }
  for (const bye of state.byes) if (bye.round <= desk.currentRound) addBye(bye.round, { player: bye.player, kind: bye.kind });
  let rounds = record.rounds;
  for (const [round, list] of byes) {
    const existing = rounds.find((r) => r.round === round) ?? { round, games: [] };
    rounds = [...rounds.filter((r) => r.round !== round), { ...existing, byes: [...(existing.byes ?? []), ...list] }].sort((a, b) => a.round - b.round);
  }
  const withdrawals = state.withdrawals.map((w) => ({ player: w.player, fromRound: w.fromRound, reason: 'withdrew' as const }));
  return { ...record, rounds, withdrawals, incidents: [...fromClocks, ...entered] };
}

/** The confirmations of every clock result of the live round not yet confirmed or entered. */
export function roundConfirmations(desk: DeskFace, state: DeskState, arbiter: CommandBy): TournamentRecord[] {
  const who = signature(arbiter);
  const round = desk.liveRound;
  const actions: TournamentRecord[] = [];
  for (const id of desk.hallPairs.keys()) {
    const clock = desk.clockResult(id);
    if (!clock || state.entered.has(key(round, clock.white, clock.black))) continue;
    actions.push({
      type: 'result',
      round,
      white: clock.white,
      black: clock.black,
      result: clock.result,
      source: 'confirmed',
      termination: clock.termination ?? '',
      ...(clock.lessThanOneMove ? { lessThanOneMove: true } : {}),
      ...who,
    });
  }
  return actions;
}

export function nothingToConfirm(desk: DeskFace): Refusal {
  return desk.liveRound === 0
    ? refusal('no-round', 'no round is on the boards')
    : refusal('nothing-to-do', `round ${desk.liveRound} has no clock result to confirm`);
}

/**
 * A result the arbiter enters for a game still going on a hall board ends that game on its clock,
 * journaled before the result (the PGN and the clocks page show it at once); the clock's refusal is
 * the command's. A game the clock has ended already keeps the clock's record: a different result
 * is the arbiter's correction, journaled on the board too (its PGN's result, with the reason).
 */
export function endOnClock(desk: DeskFace, result: EnteredResult): Refusal | undefined {
  const hallBoard = desk.hallBoardOf(result.round, result.white, result.black);
  const board = hallBoard === undefined ? undefined : desk.hall.boards.get(hallBoard);
  if (!board) return undefined;
  if (board.state.status === 'finished') {
    const clock = board.correctedResult ?? board.state.result?.result;
    if (clock !== result.result) {
      desk.hall.record({
        kind: 'note',
        board: board.id,
        note: {
          type: 'correction',
          at: desk.hall.source.now(),
          result: result.result,
          by: result.by,
          ...(result.credential !== undefined ? { credential: result.credential } : {}),
          reason: result.reason ?? '',
        },
      });
    }
    return undefined;
  }
  // A console on the bus owns no board: the owning host's clock is not ended from here (yet); a
  // different result its clock gives later is a contradiction the arbiter is alerted to (conflictNotes).
  // A draw entered is the players' agreement: the engine's check on the board as this console sees it.
  if (!desk.hall.owns(board.id)) {
    const refused = result.result === '1/2-1/2' ? desk.hall.agreementRefusal(board.id) : undefined;
    return refused ? within(`board ${board.id}'s clock: `, refused) : undefined;
  }
  const termination = `result entered by the arbiter: ${result.reason ?? ''}`.slice(0, 100);
  const ended = desk.hall.command(
    { type: 'result', board: board.id, result: result.result, termination },
    result.credential !== undefined ? { name: result.by, credential: result.credential } : result.by,
  );
  return ended.ok ? undefined : within(`board ${board.id}'s clock: `, ended);
}

/**
 * Desk and clock agree, or the arbiter hears of it: a live board whose clock ended the game with a
 * result other than the one entered on the desk (a hall host's clock result arriving after this
 * console's entry, a journal replayed) gets a `resultConflict` note, once per pair of results: an
 * alert on the hall page until the arbiter keeps one of them (resolveResultConflict).
 */
export function conflictNotes(desk: DeskFace, state: DeskState, at: number): JournalRecord[] {
  const notes: JournalRecord[] = [];
  for (const [id, pair] of desk.hallPairs) {
    const board = liveBoard(desk, id);
    const clock = board?.state.result?.result;
    const entered = state.entered.get(key(desk.liveRound, pair.white, pair.black));
    if (!board || clock === undefined || !entered) continue;
    const shown = board.correctedResult ?? clock;
    if (shown === entered.result || board.resultConflicts.has(`${shown}:${entered.result}`)) continue;
    notes.push({ kind: 'note', board: id, note: { type: 'resultConflict', at, clock: shown, entered: entered.result, by: entered.by } });
  }
  return notes;
}

/** The alert of a contradiction between a live game's clock and its entered result, if one is open. */
function conflictOf(
  desk: DeskFace,
  state: DeskState,
  round: number,
  white: number,
  black: number,
): { board: Board; alert: Attention; clock: GameResult; entered: EnteredResult } | undefined {
  const id = desk.hallBoardOf(round, white, black);
  const board = id === undefined ? undefined : liveBoard(desk, id);
  const alert = board?.attention().find((a) => a.code === 'result-contradicts');
  const entered = state.entered.get(key(round, white, black));
  const clock = board?.correctedResult ?? board?.state.result?.result;
  return board && alert && entered && clock !== undefined ? { board, alert, clock, entered } : undefined;
}

/** A live game's open contradiction, as its view shows it. */
export function contradiction(desk: DeskFace, state: DeskState, round: number, g: Pairing): { clockContradicts?: GameResult } {
  const conflict = conflictOf(desk, state, round, g.white, g.black);
  return conflict ? { clockContradicts: conflict.clock } : {};
}

/**
 * The arbiter settles a contradiction: the entered result kept (a correction note on the board: the
 * PGN's result is the desk's, with who and why), or the clock's taken (the desk's result corrected,
 * with the reason, and the alert dismissed), in one journaled step: `records` to journal (one, or a
 * batch) at `at`, `result` the desk's corrected result to apply once they are.
 */
export function conflictSettlement(
  desk: DeskFace,
  state: DeskState,
  command: Extract<TournamentCommand, { type: 'resolveResultConflict' }>,
  arbiter: CommandBy,
): Refusal | { readonly ok: true; readonly records: JournalRecord[]; readonly at: number; readonly result?: TournamentRecord } {
  const who = signature(arbiter);
  const conflict = conflictOf(desk, state, command.round, command.white, command.black);
  if (!conflict)
    return refusal(
      'no-conflict',
      `round ${command.round}: no contradiction between the clock and the desk for ${playerOf(state, command.white).name} – ${playerOf(state, command.black).name}`,
    );
  const { board, alert, clock, entered } = conflict;
  const at = desk.hall.source.now();
  if (command.keep === 'entered') {
    return {
      ok: true,
      at,
      records: [
        {
          kind: 'note',
          board: board.id,
          note: {
            type: 'correction',
            at,
            result: entered.result,
            ...who,
            reason: `the desk's ${entered.result} kept over the clock's ${clock}: ${command.reason}`,
          },
        },
      ],
    };
  }
  const result: TournamentRecord = {
    type: 'result',
    round: command.round,
    white: command.white,
    black: command.black,
    result: clock,
    source: 'arbiter',
    termination: board.state.result?.termination ?? 'clock',
    replaces: entered.result,
    reason: command.reason,
    ...who,
  };
  return {
    ok: true,
    records: [journalEntry(desk.section.id, result, at), { kind: 'note', board: board.id, note: { type: 'dismiss', at, alertId: alert.id } }],
    at,
    result,
  };
}
