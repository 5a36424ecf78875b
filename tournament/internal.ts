// Everything tournament/ exports, for the tests (as nats.js's internal_mod.ts): index.ts is the part's public
// face, what other parts use. Nothing outside tests/ imports this.
export * from './trf.ts';
export * from './berger.ts';
export * from './tiebreak-codes.ts';
export * from './event.ts';
export * from './presets.ts';
export * from './boards.ts';
export * from './rating-tables.ts';
export * from './tiebreaks.ts';
export * from './dutch/index.ts';
export * from './results.ts';
export * from './section-record.ts';
export * from './prizes.ts';
export * from './playoff.ts';
export * from './playoff-format.ts';
export * from './clocks.ts';
export * from './swiss.ts';
export * from './views.ts';
