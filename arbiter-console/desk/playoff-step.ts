// The playoff step of the desk: whether a playoff may start (the last round done, a tie for first),
// the playoff played on the hall's boards (the clocks' results journaled as its games' results, its
// next sitting seated, its last one closed) and which board each playoff game is played on. The
// boards themselves are playoff-boards.ts's. Functions over the desk's face and state.
import { checkPlayoffFormat, playoffQualifiers, sectionStandings, tiedForFirst } from '../../tournament/index.ts';
import { refusal, type Refusal, type TournamentCommand, type TournamentRecord } from '../contract/index.ts';
import { journalEntry, type DeskFace, type DeskState } from './desk-state.ts';
import { playoffBoardsStep, type SeatPlayoff } from './playoff-boards.ts';
import { missingResults } from './result-step.ts';

export function playoffPossible(desk: DeskFace, state: DeskState): { possible: boolean; why?: string } {
  if (desk.section.playoff.kind === 'none') return { possible: false, why: `the regulations of '${desk.section.id}' have no playoff: the tie-breaks decide` };
  if (state.playoff) return { possible: false, why: 'the playoff has already been started' };
  if (desk.currentRound < desk.totalRounds)
    return { possible: false, why: `the playoff follows the last round (round ${desk.currentRound} of ${desk.totalRounds} is paired)` };
  const missing = missingResults(desk, state, desk.totalRounds);
  if (missing.length > 0) return { possible: false, why: `the last round needs confirmed results: ${missing.join(', ')}` };
  const tied = tiedForFirst(sectionStandings(desk.event, desk.section.id, desk.record()));
  if (tied.length < 2) return { possible: false, why: 'no tie for first place' };
  return { possible: true };
}

/**
 * The chief arbiter's playoff format as the record to journal (the cut's outcome with it), or why it
 * does not apply: only a playoff the regulations leave to him (Cairns Cup 7: more than four tied),
 * started and with no format, ruling or game yet; every time control one the clock engine plays, the
 * cut by the section's own tie-breaks.
 */
export function playoffFormatRecord(
  desk: DeskFace,
  state: DeskState,
  command: Extract<TournamentCommand, { type: 'setPlayoffFormat' }>,
  by: string,
): Refusal | TournamentRecord {
  const playoff = state.playoff;
  if (!playoff) return refusal('no-playoff', 'no playoff has been started: start it first (the tie it shows is what the format is for)');
  if (playoff.format) return refusal('playoff-under-way', `the playoff has the chief arbiter's format already (${playoff.format.reason})`);
  if (playoff.winner !== undefined)
    return playoff.ruling || playoff.games.length > 0
      ? refusal('playoff-under-way', 'the playoff is decided')
      : refusal('not-left-to-chief', `no playoff to format: ${playoff.log.at(-1) ?? 'the tie-breaks decide'}`);
  if (!playoff.arbiterDecision) return refusal('not-left-to-chief', `the regulations of '${desk.section.id}' give this playoff's format: its games decide`);
  if (playoff.games.length > 0)
    return refusal('playoff-under-way', `the playoff's games have been played (${playoff.arbiterDecision}): record the ruling instead`);
  const problem = checkPlayoffFormat(desk.section, playoff.tied.length, command.format);
  if (problem) return refusal(problem.problem === 'time-control' ? 'bad-time-control' : 'bad-playoff-format', problem.message);
  const qualified = playoffQualifiers(desk.event, desk.section.id, desk.record(), playoff.tied, command.format);
  return { type: 'playoffFormat', format: command.format, qualified, reason: command.reason, by };
}

/** Playoff game id -> the hall board it is (or was) played on. */
export function playoffBoards(desk: DeskFace, state: DeskState): Record<string, string> {
  const boards = new Map(state.playoffBoardOf);
  for (const b of desk.hall.seated.get(desk.playoffSection)?.boards ?? []) if (b.playoffGame !== undefined) boards.set(b.playoffGame, b.id);
  return Object.fromEntries(boards);
}

export const isPlayoffStep = (action: TournamentRecord): boolean =>
  action.type === 'playoffStart' || action.type === 'playoffResult' || action.type === 'playoffRuling' || action.type === 'playoffFormat';

/**
 * The playoff on the hall's boards: every result a playoff board's clock gave is journaled as its
 * game's result (the playoff then opens its next stage by itself: `apply` applies each to the desk),
 * and when every game on the boards has one, the next sitting is seated (its clocks wait for the
 * arbiter's start). Whether anything changed.
 */
export function playoffOnBoards(
  desk: DeskFace,
  state: DeskState,
  seatPlayoff: SeatPlayoff | undefined,
  apply: (action: TournamentRecord, at: number) => void,
): boolean {
  if (!seatPlayoff || !state.playoff) return false;
  let changed = false;
  for (let guard = 0; guard < 100; guard += 1) {
    const step = playoffBoardsStep(desk.hall, desk.section.id, state.playoff);
    if (step.results.length > 0) {
      const at = desk.hall.source.now();
      desk.hall.recordBatch(step.results.map((action) => journalEntry(desk.section.id, action, at)));
      for (const action of step.results) apply(action, at);
      changed = true;
      continue;
    }
    if (step.next.length > 0) {
      const seated = desk.hall.seat(seatPlayoff(step.sitting + 1, step.next, desk.event));
      state.playoffHeld = seated.ok ? undefined : seated.reason;
      changed = true;
    } else if (
      step.sitting > 0 &&
      (state.playoff.winner !== undefined || state.playoff.arbiterDecision) &&
      desk.hall.phaseOf(desk.playoffSection, step.sitting) !== 'closed'
    ) {
      desk.hall.lifecycle(desk.playoffSection, step.sitting, { type: 'close' });
    }
    break;
  }
  return changed;
}
