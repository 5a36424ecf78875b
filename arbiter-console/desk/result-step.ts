// The result step of the desk: results entered by the arbiter or given by the clocks (provisional
// until confirmed), the round's confirmation in one batch, a result entered for a game still on its
// clock, the contradictions between a clock and the desk and how the arbiter settles them, and the
// section record built from it all. Functions over the desk's face and state: the desk journals.
import {
  boardResultFromClock,
  clockIncidents,
  emptyRecord,
  incidentId,
  recordBoardResults,
  type Incident,
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
import { journalEntry, key, liveBoard, playerOf, signature, withdrawalsOf, type DeskFace, type DeskState, type EnteredResult } from './desk-state.ts';
import { regulationRecord } from './regulation-record.ts';

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
  // The first known result of each game (a Map: a round of 1,000 games is looked up 1,000 times).
  const results = new Map<string, ReturnType<typeof knownResults>[number]>();
  for (const r of knownResults(desk, state)) {
    const k = `${r.result.white}:${r.result.black}`;
    if (r.round === round && !results.has(k)) results.set(k, r);
  }
  return pairing.games.flatMap((g, i) => {
    const found = results.get(`${g.white}:${g.black}`);
    if (!found) return [`board ${i + 1}`];
    return found.source === 'clock' ? [`board ${i + 1} (clock result to confirm)`] : [];
  });
}

/** Boards named in a sentence before the rest are counted, not named. */
const BOARDS_NAMED = 10;

/**
 * The missing results for a sentence: the first boards by name, then how many more. The sentence is
 * the tournament view's `nextRound.why`, sent again with every result while a round ends: all 1,000
 * boards named made it 25–50 KB in every tournament patch to every page, which no arbiter reads.
 */
export function missingText(missing: readonly string[]): string {
  if (missing.length <= BOARDS_NAMED) return missing.join(', ');
  return `${missing.slice(0, BOARDS_NAMED).join(', ')} and ${missing.length - BOARDS_NAMED} more`;
}

/** The section record as it stands: every known result, the incidents, and the clocks' late arrivals. */
export function sectionRecordOf(desk: DeskFace, state: DeskState): SectionRecord {
  let record: SectionRecord = emptyRecord;
  record = recordBoardResults(
    desk.section,
    record,
    knownResults(desk, state).sort((a, b) => a.round - b.round),
  );
  const entered = state.incidents.map((i): Incident => {
    const waived = state.waivers.get(i.id);
    return {
      id: i.id,
      round: i.round,
      player: i.player,
      offence: i.offence,
      ...(i.note ? { note: i.note } : {}),
      by: i.by,
      source: i.source ?? 'arbiter',
      ...(waived ? { waived: { by: waived.by, reason: waived.reason } } : {}),
    };
  });
  // The clock's late arrivals in games not confirmed yet: shown (provisional) until their confirmation journals them.
  const fromClocks = unjournaledClockIncidents(desk, state).map((i): Incident => ({ ...i, source: 'clock', by: 'the clock', provisional: true }));
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
  return { ...record, rounds, withdrawals: withdrawalsOf(state), incidents: [...entered, ...fromClocks], ...regulationRecord(desk, state) };
}

/** The clock's late arrivals on the live round's finished boards not journaled yet, with their ids (optionally: of settled games only). */
function unjournaledClockIncidents(desk: DeskFace, state: DeskState, settled?: (white: number, black: number) => boolean): (Incident & { id: string })[] {
  const round = desk.liveRound;
  return [...desk.hallPairs].flatMap(([id, pair]) => {
    const board = liveBoard(desk, id)?.state;
    if (!board?.result || (settled && !settled(pair.white, pair.black))) return [];
    return clockIncidents(desk.section, round, pair, board)
      .filter((i) => !state.incidents.some((j) => j.round === i.round && j.player === i.player && j.offence === i.offence))
      .map((i) => ({ ...i, id: incidentId(i.round, i.player, i.offence) }));
  });
}

/**
 * The clock's late arrivals to journal with `actions` (Cairns Cup 1: "may receive a fine of $1,000"):
 * those of the live round's games whose result these actions or earlier ones settle (entered or
 * confirmed), signed by who settles it. Journaled with the result and not when the clock shows the
 * late start, because the fine depends on how the game ended (a player who never came lost by default
 * and is not fined) and a result is final only once confirmed; and with the desk's own record, so the
 * desk is its one owner, a console on the bus writes it to the stream with the result, and its id
 * (incidentId) makes a second write of it one incident. Publishing the next round takes any left (a
 * result entered before its clock ended the game).
 */
export function clockIncidentRecords(desk: DeskFace, state: DeskState, actions: readonly TournamentRecord[], arbiter: CommandBy): TournamentRecord[] {
  const round = desk.liveRound;
  if (!actions.some((a) => (a.type === 'result' && a.round === round) || a.type === 'publish')) return [];
  const settled = (white: number, black: number): boolean =>
    state.entered.has(key(round, white, black)) || actions.some((a) => a.type === 'result' && a.round === round && a.white === white && a.black === black);
  const who = signature(arbiter);
  return unjournaledClockIncidents(desk, state, settled).map((i): TournamentRecord => ({
    type: 'incident',
    id: i.id,
    round: i.round,
    player: i.player,
    offence: i.offence,
    ...(i.note ? { note: i.note } : {}),
    source: 'clock',
    ...who,
  }));
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
 * alert on the hall page until the arbiter keeps one of them (resolveResultConflict). Only `boards`
 * are looked at when given (those whose clock changed since the last look).
 */
export function conflictNotes(desk: DeskFace, state: DeskState, at: number, boards?: ReadonlySet<string>): JournalRecord[] {
  const notes: JournalRecord[] = [];
  const pairs = boards ? [...boards].flatMap((id) => (desk.hallPairs.has(id) ? [[id, desk.hallPairs.get(id)!] as const] : [])) : desk.hallPairs;
  for (const [id, pair] of pairs) {
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
