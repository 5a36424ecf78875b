// Public face of the device bridge.
export type * from './device.ts';
