// Public face of the clock engine. (The engine itself lands with the clock-engine work.)
export * from './types.ts';
