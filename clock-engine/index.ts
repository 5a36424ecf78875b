// Public face of the clock engine: the vocabulary, time-control notations and presets, the pure fold,
// the XState game-clock actor, and PGN clock comments; what other parts use (tests reach everything
// through internal.ts).
export { clockEventTypes, deviceFlagGraceMs, moveInProgress } from './clock-state.ts';
export { advanceTo, applyClockEvent, type Deadline, initialGameState, nextDeadline, noDeadlineBy, remainingAt } from './fold.ts';
export { gameConfig } from './game-config.ts';
export { flagNeedsClaim } from './laws.ts';
export { createGameClock, type GameClock, type GameClockInput, gameClockLogic } from './machine.ts';
export { readPgnGames } from './pgn-clock.ts';
export { presetAmbiguity, timeControlPresets } from './presets.ts';
export { auditPgnGame, replayConfig, replayThinkTimes, timeControlFromTag } from './replay.ts';
export { assertPlayable } from './time-control-format.ts';
export { type ParseOptions, parseTimeControl } from './time-control-parse.ts';
export { TimeControlError } from './time-control.ts';
export {
  type ClockAlert,
  type ClockEvent,
  type ClockReading,
  type EventActor,
  type GameConfig,
  type GameResult,
  type GameState,
  type GameStatus,
  otherSide,
  type Side,
  type TimeControl,
} from './types.ts';
