// Results as the boards and clocks give them, turned into the crosstable (a TRF model).
// A game's result comes from the clock engine's GameState (flag falls, results signalled on the
// board, arbiter entries); byes and withdrawals come from the arbiter.
import type { GameResult, GameState } from '../clock-engine/index.ts';
import { standardScoring, totalPoints, type TrfPlayer, type TrfResultCode, type TrfRoundEntry, type TrfScoring, type TrfTournament } from './trf.ts';

export interface BoardResult {
  readonly white: number;
  readonly black: number;
  readonly result: GameResult;
  /** Fewer than one move each was made: TRF W/D/L, not rated. */
  readonly lessThanOneMove?: boolean;
  /** Why (flag fall, checkmate, forfeit: default time, device noise…), for the record. */
  readonly termination?: string;
}

export type ByeKind = 'pab' | 'full' | 'half' | 'zero';

export interface RoundResults {
  readonly round: number;
  readonly games: readonly BoardResult[];
  readonly byes?: readonly { readonly player: number; readonly kind: ByeKind }[];
}

/** The board's result as the clock engine decided it; null while the game goes on. */
export function boardResultFromClock(white: number, black: number, state: GameState): BoardResult | null {
  if (!state.result) return null;
  // Black never completed a move (neither on the board nor on the clock): not even one move was played.
  const lessThanOneMove =
    Math.max(state.moves.black, state.presses.black) === 0 &&
    (state.result.result === '1-0' || state.result.result === '0-1' || state.result.result === '1/2-1/2');
  return { white, black, result: state.result.result, lessThanOneMove, termination: state.result.termination };
}

/** TRF result codes of both sides. */
export function trfCodes(board: BoardResult): { readonly white: TrfResultCode; readonly black: TrfResultCode } {
  const short = board.lessThanOneMove === true;
  switch (board.result) {
    case '1-0':
      return short ? { white: 'W', black: 'L' } : { white: '1', black: '0' };
    case '0-1':
      return short ? { white: 'L', black: 'W' } : { white: '0', black: '1' };
    case '1/2-1/2':
      return short ? { white: 'D', black: 'D' } : { white: '=', black: '=' };
    case '+--':
      return { white: '+', black: '-' };
    case '--+':
      return { white: '-', black: '+' };
    case '---':
      return { white: '-', black: '-' };
  }
}

const byeCode: Record<ByeKind, TrfResultCode> = { pab: 'U', full: 'F', half: 'H', zero: 'Z' };

export interface CrosstablePlayer {
  readonly id: number;
  readonly name: string;
  readonly rating?: number | null;
  readonly federation?: string;
  readonly fideId?: string;
  readonly title?: string;
  readonly sex?: 'm' | 'w';
  readonly birthDate?: string;
}

export interface CrosstableOptions {
  readonly name?: string;
  readonly totalRounds?: number;
  readonly scoring?: TrfScoring;
  readonly type?: string;
  /** Rounds played so far (default: the highest round in `rounds`). */
  readonly roundsPlayed?: number;
}

/**
 * Builds the crosstable from round results. A player missing from a round gets a zero-point bye
 * (absent); a player who appears twice in a round, or a game naming an unknown player, is an error.
 */
export function buildCrosstable(players: readonly CrosstablePlayer[], rounds: readonly RoundResults[], options: CrosstableOptions = {}): TrfTournament {
  const scoring = options.scoring ?? standardScoring;
  const roundsPlayed = options.roundsPlayed ?? Math.max(0, ...rounds.map((r) => r.round));
  const ids = new Set(players.map((p) => p.id));
  const grid = new Map<number, TrfRoundEntry[]>(players.map((p) => [p.id, []]));
  for (const results of rounds) {
    const seen = new Set<number>();
    const place = (id: number, entry: TrfRoundEntry): void => {
      if (!ids.has(id)) throw new RangeError(`round ${results.round}: no player ${id}`);
      if (seen.has(id)) throw new RangeError(`round ${results.round}: player ${id} has two results`);
      seen.add(id);
      (grid.get(id) as TrfRoundEntry[])[results.round - 1] = entry;
    };
    for (const game of results.games) {
      const codes = trfCodes(game);
      place(game.white, { opponent: game.black, colour: 'w', result: codes.white });
      place(game.black, { opponent: game.white, colour: 'b', result: codes.black });
    }
    for (const bye of results.byes ?? []) place(bye.player, { opponent: null, colour: null, result: byeCode[bye.kind] });
  }
  const trfPlayers: TrfPlayer[] = players.map((p) => {
    const entries = grid.get(p.id) as TrfRoundEntry[];
    const filled = Array.from({ length: roundsPlayed }, (_, i): TrfRoundEntry => entries[i] ?? { opponent: null, colour: null, result: 'Z' });
    const base: TrfPlayer = {
      id: p.id,
      sex: p.sex ?? '',
      title: p.title ?? '',
      name: p.name,
      rating: p.rating ?? null,
      federation: p.federation ?? '',
      fideId: p.fideId ?? '',
      birthDate: p.birthDate ?? '',
      points: 0,
      rank: null,
      rounds: filled,
    };
    return { ...base, points: totalPoints(base, scoring) };
  });
  return {
    name: options.name,
    type: options.type,
    playerCount: players.length,
    totalRounds: options.totalRounds,
    deputyArbiters: [],
    roundDates: [],
    configuration: [],
    scoring,
    customScoring: scoring !== standardScoring,
    players: trfPlayers,
    teams: [],
    otherLines: [],
  };
}
