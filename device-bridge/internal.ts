// Everything device-bridge/ exports, for the tests (as nats.js's internal_mod.ts): index.ts is the part's public
// face, what other parts use. Nothing outside tests/ imports this.
export type * from './device.ts';
export { systemScheduler, after, type Scheduler, type CancelTimer } from './scheduler.ts';
export { nativeBinding, hangUpAware } from './serial-binding.ts';
export * from './dgt/index.ts';
export * from './line/index.ts';
export * from './firmata/index.ts';
