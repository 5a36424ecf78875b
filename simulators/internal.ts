// Everything simulators/ exports, for the tests (as nats.js's internal_mod.ts): index.ts is the part's public
// face, what other parts use. Nothing outside tests/ imports this.
export * from './dgt/index.ts';
export * from './players/index.ts';
export * from './line/index.ts';
export * from './firmata/index.ts';
