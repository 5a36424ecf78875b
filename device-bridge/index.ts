// Public face of the device bridge: what other parts use (tests reach everything through internal.ts).
export type { ClockDevice, ClockRole, DeviceListener, DeviceMessage, DeviceOrigin } from './device.ts';
export { Status as ClockStatus } from './dgt/bwtime.ts';
export { type HostCommand, HostCommandDecoder } from './dgt/commands.ts';
export { DgtDecoder } from './dgt/decoder.ts';
export { createDgtDevice, type DgtDevice } from './dgt/device.ts';
export {
  batteryMessage,
  boardDumpMessage,
  boardMessage,
  busAddressMessage,
  clockAckMessage,
  clockTimesMessage,
  eeMovesMessage,
  fieldUpdateMessage,
  longSerialNumberMessage,
  serialNumberMessage,
  trademarkMessage,
  versionMessage,
} from './dgt/encode.ts';
export type { SignalledResult } from './dgt/game-reader.ts';
export type { DecodeOutput } from './dgt/messages.ts';
export { type PositionEvent, PositionTracker } from './dgt/positions.ts';
export { ClockCommand, DgtCommand, type PieceLetter, squareIndex } from './dgt/protocol.ts';
export { type BindingInterface, listSerialPorts, probeDgtPort, type ProbeResult } from './dgt/session.ts';
export { createFirmataClock } from './firmata/firmata-clock.ts';
export { explainPortError } from './port-errors.ts';
export { probeFirmata } from './firmata/firmata-io.ts';
export {
  type DeviceLine,
  formatLine,
  type HostLine,
  LINE_PROTOCOL_VERSION,
  type DeviceButton as LineButton,
  type Lamp as LineLamp,
  type Running as LineRunning,
  parseLine,
} from './line/codec.ts';
export { createLineClock, type LineClockOptions } from './line/line-clock.ts';
export { BoundedReadlineParser } from './line/line-reader.ts';
export { probeLineClock } from './line/probe.ts';
export type { SerialBinding } from './line/serial-link.ts';
export type { Scheduler } from './scheduler.ts';
export { nativeBinding } from './serial-binding.ts';
