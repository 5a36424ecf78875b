// What tests reach beyond index.ts: the actor logic itself.
export { gameSystemId } from './event-actor.ts';
export type { HallOptions } from './hall.ts';
export { type RoundActorInput, roundLogic } from './round-actor.ts';
