// The virtual line-protocol clock and the serial ends that connect virtual devices to a host.
export { createVirtualLineClock, type VirtualLineClock, type VirtualLineClockOptions } from './virtual-line-clock.ts';
export { mockSerialDevice, ptySerialDevice, type DeviceEnd } from './device-end.ts';
export { playOnLineClock } from './play.ts';
