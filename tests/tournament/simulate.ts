// Simulated games on the real clock engine: scripted players press the clock with seeded think times
// and end the game as planned (resignation, agreed draw, flag fall, absence past the default time).
// The result the tournament records is the one the clock engine's fold decides.
import { Chess } from 'chess.js';
import { advanceTo, replayGame, type ClockEvent, type GameConfig, type GameState, type Side } from '../../clock-engine/internal.ts';
import { drawingOfLots } from '../../tournament/index.ts';

export type GamePlan =
  | { readonly end: 'resign'; readonly winner: Side }
  | { readonly end: 'agreement' }
  | { readonly end: 'flag'; readonly loser: Side }
  | { readonly end: 'absent'; readonly absent: Side | 'both' };

const player = (side: Side) => ({ kind: 'player', side }) as const;

/** Plays one game; returns the final clock state and the events (the journal). */
export function playGame(config: GameConfig, plan: GamePlan, seed: number, fullMoves = 32): { state: GameState; events: ClockEvent[] } {
  const random = drawingOfLots(seed);
  const events: ClockEvent[] = [];
  const t0 = config.scheduledStart;
  const sides: Side[] = ['white', 'black'];
  for (const side of sides) {
    if (plan.end === 'absent' && (plan.absent === side || plan.absent === 'both')) continue;
    events.push({ type: 'arrive', side, at: t0 - 60_000, by: player(side) });
  }
  if (!config.autoStart) events.push({ type: 'start', at: t0, by: { kind: 'arbiter', name: 'Chief Arbiter' } });
  if (plan.end === 'absent') {
    const state = advanceTo(config, replayGame(config, events), t0 + config.defaultTimeMs + 1).state;
    return { state, events };
  }
  const board = new Chess();
  // Slow enough to show the clocks run, fast enough for any control: at most 1/60 of the base time.
  const base = Math.min(config.timeControl.periods[0]?.baseMs.white ?? 300_000, config.timeControl.periods[0]?.baseMs.black ?? 300_000);
  const think = (): number => 500 + Math.floor(random() * (base / 60));
  let now = t0;
  const movesToPlay = plan.end === 'flag' ? fullMoves + 400 : fullMoves;
  for (let move = 1; move <= movesToPlay; move += 1) {
    for (const side of sides) {
      if (board.isGameOver()) board.reset();
      const legal = board.moves();
      const san = legal[Math.floor(random() * legal.length)] as string;
      board.move(san);
      if (plan.end === 'flag' && side === plan.loser && move > fullMoves) {
        // The losing side stops moving: its flag falls on the engine's own deadline.
        const state = advanceTo(config, replayGame(config, events), now + 24 * 3_600_000).state;
        return { state, events };
      }
      now += think();
      events.push({ type: 'boardMove', side, san, at: now, by: { kind: 'device', deviceId: 'board' } });
      events.push({ type: 'press', side, at: now, by: player(side) });
    }
  }
  if (plan.end === 'resign') {
    events.push({
      type: 'result',
      result: plan.winner === 'white' ? '1-0' : '0-1',
      termination: 'resignation',
      at: now + 1_000,
      by: { kind: 'arbiter', name: 'Arbiter' },
    });
  } else if (plan.end === 'agreement') {
    events.push({ type: 'drawOffer', side: 'white', at: now + 1_000, by: player('white') });
    events.push({ type: 'drawAccept', side: 'black', at: now + 2_000, by: player('black') });
  }
  return { state: replayGame(config, events), events };
}

/** The plan that gives `score` to White (1, 0.5, 0); the way it ends is drawn from the seed. */
export function planFor(whiteScore: 1 | 0.5 | 0, seed: number): GamePlan {
  const random = drawingOfLots(seed);
  if (whiteScore === 0.5) return { end: 'agreement' };
  const winner: Side = whiteScore === 1 ? 'white' : 'black';
  return random() < 0.3 ? { end: 'flag', loser: winner === 'white' ? 'black' : 'white' } : { end: 'resign', winner };
}
