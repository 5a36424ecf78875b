// Public face of the device bridge.
export type * from './device.ts';
export { systemScheduler, after, type Scheduler, type CancelTimer } from './scheduler.ts';
export { nativeBinding, hangUpAware } from './serial-binding.ts';
export * from './dgt/index.ts';
export * from './line/index.ts';
export * from './firmata/index.ts';
