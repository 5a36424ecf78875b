// How a simulated game ends, decided from the players' ratings and the time control before its first
// move, so that a simulated event looks like one to a chief arbiter: about a third of classical games
// between close ratings drawn, fewer the wider the gap and the faster the game; the stronger player
// (and White, a little) winning more often; games ending by resignation, agreement after move 30 (or
// the event's later draw-offer move), checkmate and the flag. The moves stay the virtual players'
// (chess.js): the plan says only who is to win and when the loser gives up, stops or gets mated.
import type { Random } from './random.ts';

export type GameEnding = 'checkmate' | 'resignation' | 'agreement' | 'flag';
export type PlannedResult = '1-0' | '0-1' | '1/2-1/2';
export type GameCategory = 'standard' | 'rapid' | 'blitz';

export interface GamePlan {
  readonly result: PlannedResult;
  readonly ending: GameEnding;
  /**
   * Plies played when the plan ends the game: the loser is to move there (he resigns, or stops moving
   * and his flag falls); an agreement is made after the move that completes that many plies (even: after
   * Black's move). For a mate, the ply by which the loser resigns if the winner has not mated him yet.
   */
  readonly atPly: number;
}

export interface PlanInput {
  /** Unknown ratings count as the opponent's (or equal, if neither is known). */
  readonly whiteRating?: number;
  readonly blackRating?: number;
  readonly category: GameCategory;
  /** The event's draw-offer rule (GameConfig.drawOfferMinMove): no agreement before this move. */
  readonly drawOfferMinMove: number;
  /**
   * False where a fallen flag counts only when the opponent claims it (L2009 rapid and blitz without
   * adequate supervision): there a loser resigns instead of waiting for a flag nobody calls.
   */
  readonly flagFalls?: boolean;
}

/** Draws between equal ratings, by FIDE category: classical about a third, rapid and blitz fewer. */
export const DRAW_RATE: Readonly<Record<GameCategory, number>> = { standard: 0.34, rapid: 0.26, blitz: 0.18 };
/** White's first move is worth about this much rating. */
const WHITE_EDGE = 35;
/** The rating gap over which draws thin out (a 350-point gap leaves 37 % of the equal-rating rate). */
const DRAW_SPREAD = 350;
/** How a decisive game ends, by category: the rest by resignation. */
const DECISIVE_ENDINGS: Readonly<Record<GameCategory, { readonly checkmate: number; readonly flag: number }>> = {
  standard: { checkmate: 0.1, flag: 0.1 },
  rapid: { checkmate: 0.15, flag: 0.2 },
  blitz: { checkmate: 0.2, flag: 0.3 },
};
/** Agreements come after move 30 at the earliest (and after the event's draw-offer move). */
const EARLIEST_AGREEMENT = 30;

/** The chances of a White win, a draw and a Black win (Elo expectation, with White's edge). */
export function resultOdds(input: PlanInput): { readonly white: number; readonly draw: number; readonly black: number } {
  const white = input.whiteRating ?? input.blackRating ?? 0;
  const black = input.blackRating ?? input.whiteRating ?? 0;
  const gap = white + WHITE_EDGE - black;
  const expected = 1 / (1 + 10 ** (-gap / 400));
  // A draw is half a point to each, so it cannot exceed twice the weaker side's expectation.
  const draw = Math.min(DRAW_RATE[input.category] * Math.exp(-((gap / DRAW_SPREAD) ** 2)), 2 * Math.min(expected, 1 - expected));
  return { white: expected - draw / 2, draw, black: 1 - expected - draw / 2 };
}

/** A game's plan, drawn from `random` (the board's seed: the same game every time). */
export function planGame(random: Random, input: PlanInput): GamePlan {
  const odds = resultOdds(input);
  const r = random.next();
  if (r >= odds.white && r < odds.white + odds.draw) {
    const earliest = Math.max(EARLIEST_AGREEMENT, input.drawOfferMinMove);
    return { result: '1/2-1/2', ending: 'agreement', atPly: 2 * (earliest + random.int(0, 30)) };
  }
  const loser = r < odds.white ? 'black' : 'white';
  const result: PlannedResult = loser === 'black' ? '1-0' : '0-1';
  const e = random.next();
  const shares = DECISIVE_ENDINGS[input.category];
  const flag = e >= shares.checkmate && e < shares.checkmate + shares.flag;
  const ending: GameEnding = e < shares.checkmate ? 'checkmate' : flag && input.flagFalls !== false ? 'flag' : 'resignation';
  // White is to move after an even number of plies.
  const loserToMove = (plies: number): number => (loser === 'white' ? plies - (plies % 2) : plies - (plies % 2) + 1);
  const span = ending === 'checkmate' ? random.int(100, 160) : ending === 'flag' ? random.int(60, 120) : random.int(50, 130);
  return { result, ending, atPly: loserToMove(span) };
}
