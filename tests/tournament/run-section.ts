// Runs a section's rounds on simulated clocks: boards from the event, clocks from the clock engine,
// results from the clocks' final states.
import type { Side } from '../../clock-engine/index.ts';
import {
  sectionGameConfig,
  boardResultFromClock,
  playoffGameConfig,
  recordPlayoffResult,
  pendingGames,
  roundBoards,
  type BoardResult,
  type Pairing,
  type PlayoffState,
  type RoundResults,
  type ZeitnotEvent,
} from '../../tournament/internal.ts';
import { playGame, planFor } from './simulate.ts';

export interface RoundScript {
  /** White's score in the game (the plan decides how it ends). */
  score(white: number, black: number, round: number): 1 | 0.5 | 0;
  /** A player who does not come to the board. */
  absent?(white: number, black: number, round: number): Side | undefined;
}

export function playRound(
  event: ZeitnotEvent,
  sectionId: string,
  round: number,
  script: RoundScript,
  pairings?: { games: readonly Pairing[]; bye?: number | null },
): { results: BoardResult[]; bye: number | null } {
  const setup = roundBoards(event, sectionId, round, pairings);
  const results = setup.boards.map((board) => {
    const config = sectionGameConfig(event, sectionId, { scheduledStart: board.scheduledStartMs, autoStart: true });
    const absent = script.absent?.(board.white.id, board.black.id, round);
    const seed = round * 1000 + board.board;
    const plan = absent ? ({ end: 'absent', absent } as const) : planFor(script.score(board.white.id, board.black.id, round), seed);
    const { state } = playGame(config, plan, seed);
    const result = boardResultFromClock(board.white.id, board.black.id, state);
    if (!result) throw new Error(`round ${round} board ${board.board} did not finish`);
    return result;
  });
  return { results, bye: setup.bye?.id ?? null };
}

/** Plays a whole round robin section; byes of odd fields are recorded as the pairing-allocated zero-point rounds they are. */
export function playRoundRobin(event: ZeitnotEvent, sectionId: string, rounds: number, script: RoundScript): RoundResults[] {
  return Array.from({ length: rounds }, (_, i) => {
    const { results } = playRound(event, sectionId, i + 1, script);
    return { round: i + 1, games: results };
  });
}

/** Plays every pending playoff game on the clocks until the playoff is decided (or the arbiter must decide). */
export function playPlayoff(
  event: ZeitnotEvent,
  start: PlayoffState,
  whiteScore: (white: number, black: number, gameId: string) => 1 | 0.5 | 0,
  firstStart = Date.UTC(2019, 1, 16, 18, 0, 0),
): {
  state: PlayoffState;
  clocks: { gameId: string; result: string; remainingMs: { white: number; black: number }; baseMs: { white: number; black: number } }[];
} {
  let state = start;
  const clocks: { gameId: string; result: string; remainingMs: { white: number; black: number }; baseMs: { white: number; black: number } }[] = [];
  let slot = 0;
  for (let guard = 0; guard < 200 && state.winner === undefined && !state.arbiterDecision; guard += 1) {
    const game = pendingGames(state)[0];
    if (!game) break;
    const config = playoffGameConfig(event, game, firstStart + slot++ * 3_600_000);
    const { state: clock } = playGame(config, planFor(whiteScore(game.white, game.black, game.id), slot), slot);
    const result = boardResultFromClock(game.white, game.black, clock);
    if (!result) throw new Error(`playoff game ${game.id} did not finish`);
    const first = config.timeControl.periods[0];
    clocks.push({ gameId: game.id, result: result.result, remainingMs: clock.remainingMs, baseMs: first ? first.baseMs : { white: 0, black: 0 } });
    state = recordPlayoffResult(state, game.id, result.result);
  }
  return { state, clocks };
}
