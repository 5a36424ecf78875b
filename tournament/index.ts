// Public face of the tournament part: TRF, event files, round robins, results, tie-breaks,
// playoffs, fines and prizes. (tournament/dutch/ is the Swiss pairing engine, exported from here too.)
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
export * from './clocks.ts';
export * from './swiss.ts';
export * from './views.ts';
