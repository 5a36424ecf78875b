// What a display should show for an engine state at a given instant (the engine's own arithmetic:
// delay and Bronstein included).
import { remainingAt, type GameState, type Side } from '../../clock-engine/index.ts';

export interface DisplayTimes {
  readonly white: number;
  readonly black: number;
  readonly running: Side | 'none';
}

export function displayTimes(state: GameState, now: number): DisplayTimes {
  const { white, black } = remainingAt(state, now);
  return { white: Math.max(0, white), black: Math.max(0, black), running: state.status === 'running' ? state.toMove : 'none' };
}

/** Whether a flag has fallen in this state. */
export function flagFallen(state: GameState): boolean {
  return state.firstFlag !== undefined;
}
