// Virtual players: seeded legal games and PGN replays, played in real, accelerated or simulated time.
export { seededRandom, type Random } from './random.ts';
export { drawThinkMs, type ThinkTime } from './think-time.ts';
export { totalThinkMs, type GameScript, type ScriptedMove, type ScriptResult, type Promotion } from './game-script.ts';
export {
  createVirtualPlayer,
  createVirtualGame,
  playVirtualGame,
  startVirtualGame,
  startSeededGame,
  type GamePosition,
  type VirtualGame,
  type VirtualPlayer,
  type VirtualPlayerOptions,
  type VirtualGameOptions,
  type PlayingStyle,
} from './virtual-player.ts';
export { pgnGameScript, splitPgnGames, commandDuration, PgnScriptError, type PgnScriptOptions } from './pgn-script.ts';
export { createManualScheduler, createRealTimeScheduler, type Scheduler, type ManualScheduler } from './scheduler.ts';
export { runGameScript, type ScriptRun, type RunScriptOptions } from './run-script.ts';
export { planGame, resultOdds, DRAW_RATE, type GamePlan, type GameEnding, type GameCategory, type PlanInput, type PlannedResult } from './game-plan.ts';
export { startPlannedGame, WAITING_FOR_FLAG } from './planned-game.ts';
