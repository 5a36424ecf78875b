// Everything clock-engine/ exports, for the tests (as nats.js's internal_mod.ts): index.ts is the part's public
// face, what other parts use. Nothing outside tests/ imports this.
export * from './types.ts';
export {
  TimeControlError,
  normalizeTimeControl,
  sameTimeControl,
  periodFirstMove,
  totalBaseMs,
  fideCategory,
  unplayable,
  timeControlLimits,
  type Unplayable,
} from './time-control.ts';
export { parseTimeControl, detectNotation, type TimeControlNotation, type ParseOptions } from './time-control-parse.ts';
export { formatTimeControl, assertPlayable } from './time-control-format.ts';
export { gameConfig } from './game-config.ts';
export { drawAgreementRefusal } from './rulings.ts';
export { presetAmbiguity, timeControlPresets, type TimeControlPreset } from './presets.ts';
export { penaltyOutcome, canCheckmate, type PenaltyOutcome } from './laws.ts';
export {
  initialGameState,
  applyClockEvent,
  advanceTo,
  clockEventTypes,
  noDeadlineBy,
  pressesWhileUnreachable,
  replayGame,
  remainingAt,
  nextDeadline,
  moveInProgress,
  incrementFor,
  deviceFlagGraceMs,
  followsReading,
  type Deadline,
  type FoldStep,
} from './fold.ts';
export {
  gameClockMachine,
  createGameClock,
  gameClockLogic,
  type GameClockContext,
  type GameClockInput,
  type ClockWithNow,
  type GameClockEmitted,
  type GameClockOptions,
  type GameClock,
  type Clock,
} from './machine.ts';
export { readPgnGames, formatClockComment, parseClockValue, type PgnGame, type PgnPly } from './pgn-clock.ts';
export {
  replayThinkTimes,
  auditPgnGame,
  replayConfig,
  timeControlFromTag,
  type AuditOptions,
  type ThinkReplayLine,
  type AuditReport,
  type AuditDifference,
} from './replay.ts';
export { playMoves, type PlayedLine, samePlacement } from './position.ts';
