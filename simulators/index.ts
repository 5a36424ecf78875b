// Public face of the simulators: what other parts use (tests reach everything through internal.ts).
export { mockBoardLink } from './dgt/links.ts';
export { VirtualDgtBoard } from './dgt/virtual-board.ts';
export { seededRandom } from './players/random.ts';
export { createManualScheduler } from './players/scheduler.ts';
export type { ThinkTime } from './players/think-time.ts';
export { startSeededGame, type GamePosition, type VirtualGame } from './players/virtual-player.ts';
export { planGame, type GameCategory, type GamePlan } from './players/game-plan.ts';
export { startPlannedGame, WAITING_FOR_FLAG } from './players/planned-game.ts';
