// Public face of the simulators.
export * from './players/index.ts';
export * from './line/index.ts';
