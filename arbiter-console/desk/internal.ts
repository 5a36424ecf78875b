// What tests reach beyond index.ts.
export { roundFromEvent } from './event-round.ts';
export { type LivePairing, swissRoundPairing } from './swiss-round.ts';
export { csvLine } from './tournament-http.ts';
