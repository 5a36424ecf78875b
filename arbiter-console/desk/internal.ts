// What tests reach beyond index.ts.
export { roundFromEvent } from './event-round.ts';
