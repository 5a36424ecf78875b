// Public face of the simulators.
export * from './dgt/index.ts';
export * from './players/index.ts';
export * from './line/index.ts';
export * from './firmata/index.ts';
