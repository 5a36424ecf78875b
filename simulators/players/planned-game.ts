// A game between two virtual players that ends as its plan says (game-plan.ts), unless the board ends
// it first (a mate, stalemate or draw the moves make on their own is the game's result).
import type { Side } from '../../clock-engine/index.ts';
import type { GamePlan } from './game-plan.ts';
import type { ThinkTime } from './think-time.ts';
import { createVirtualPlayer, startVirtualGame, type GamePosition, type VirtualGame } from './virtual-player.ts';

/** The termination of a planned flag: the loser has stopped moving, and the clock decides. */
export const WAITING_FOR_FLAG = 'waiting-for-flag';

/**
 * `from`: a game resumed where the journal left it (a restarted console): the players go on from that
 * position, with seeds of their own for it (the same moves every time the game resumes there), and the
 * plan's end stays where it was (its ply counts the whole game).
 */
export function startPlannedGame(options: {
  readonly seed: number | string;
  readonly thinkMs: ThinkTime;
  readonly plan: GamePlan;
  readonly from?: GamePosition;
}): VirtualGame {
  const { plan, from } = options;
  const winner: Side | undefined = plan.result === '1-0' ? 'white' : plan.result === '0-1' ? 'black' : undefined;
  // A mate needs a hunter: the winner takes what is offered and mates when he can; everyone else plays any legal move.
  const style = (side: Side) => (plan.ending === 'checkmate' && side === winner ? 'eager' : 'random');
  const seed = from ? `${options.seed}/from-${from.ply}` : options.seed;
  const player = (side: Side) => createVirtualPlayer({ seed: `${seed}/${side}`, thinkMs: options.thinkMs, style: style(side) });
  const game = startVirtualGame({ white: player('white'), black: player('black'), maxPlies: plan.atPly, ...(from ? { from } : {}) });
  const ending = (): VirtualGame['outcome'] => {
    const played = game.outcome;
    if (played === undefined || played.termination !== 'move-limit') return played;
    if (plan.ending === 'agreement') return { result: '1/2-1/2', termination: 'agreement' };
    if (plan.ending === 'flag') return { result: plan.result, termination: WAITING_FOR_FLAG };
    // Resignation, or a mate that did not come by the plan's last ply: the loser resigns.
    return { result: plan.result, termination: 'resignation' };
  };
  return {
    startFen: game.startFen,
    move: (ply) => game.move(ply),
    get outcome() {
      return ending();
    },
  };
}
