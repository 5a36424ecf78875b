// DGT e-boards with a DGT XL / DGT 3000 clock (docs/dgt.md).
export {
  DgtCommand,
  DgtMessageId,
  ClockCommand,
  pieceFromCode,
  codeFromPiece,
  squareName,
  squareIndex,
  type BoardSquare,
  type PieceLetter,
  type DgtCommandName,
} from './protocol.ts';
export type * from './messages.ts';
export { decodeBwtime, encodeBwtimePayload, encodeAckPayload, isClockAck, Status as ClockStatus, type ClockFace } from './bwtime.ts';
export { DgtDecoder, decodePayload, decodeEeMoves, type DecoderStats } from './decoder.ts';
export {
  boardCommand,
  clockFrame,
  setAndRun,
  asciiText,
  xlDisplay,
  beep,
  endDisplay,
  clockVersion,
  clockButtons,
  icons,
  leds,
  HostCommandDecoder,
  type HostCommand,
  type SetAndRun,
  type RunningSide,
} from './commands.ts';
export {
  boardMessage,
  boardDumpMessage,
  fieldUpdateMessage,
  clockTimesMessage,
  clockAckMessage,
  versionMessage,
  serialNumberMessage,
  longSerialNumberMessage,
  trademarkMessage,
  busAddressMessage,
  batteryMessage,
  eeMovesMessage,
} from './encode.ts';
export { ClockCommandQueue, type QueuedClockCommand, type ClockQueueEvent, type ClockQueueOptions } from './clock-queue.ts';
export {
  DgtSession,
  probeDgtPort,
  listSerialPorts,
  findDgtBoards,
  type DgtSessionOptions,
  type SessionEvent,
  type BoardIdentity,
  type ProbeResult,
  type UpdateMode,
  type BindingInterface,
} from './session.ts';
export { PositionTracker, type PositionEvent, type PositionTrackerOptions } from './positions.ts';
export {
  GameReader,
  placementOf,
  resultSignal,
  rotateSquares,
  startFen,
  type GameReaderOptions,
  type PlayedMove,
  type Reading,
  type Reseed,
  type Orientation,
  type SignalledResult,
} from './game-reader.ts';
export { MirrorClock, HostClock, SideMap, formatMs, type WhiteSide, type LastReading, type HostDisplay } from './clock-roles.ts';
export { createDgtDevice, type DgtDevice, type DgtDeviceOptions } from './device.ts';
