// Line-protocol clocks: simple serial clocks and custom firmware (docs/line-protocol.md).
export {
  formatLine,
  parseLine,
  lineChecksum,
  LINE_PROTOCOL_VERSION,
  MAX_LINE_LENGTH,
  MAX_TEXT_LENGTH,
  type DeviceLine,
  type HostLine,
  type LineMessage,
  type ParsedLine,
  type Running as LineRunning,
  type DeviceButton as LineButton,
  type Lamp as LineLamp,
} from './codec.ts';
export { createLineClock, type LineClock, type LineClockOptions } from './line-clock.ts';
export { BoundedReadlineParser } from './line-reader.ts';
export { probeLineClock, type LineClockIdentity } from './probe.ts';
export type { SerialBinding } from './serial-link.ts';
