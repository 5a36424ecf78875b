// The tournament desk: registration, pairing, results, standings, playoffs and the event's seating
// of the hall, journaled as tournament records; the views it builds and the HTTP answers it gives.
export { deskAsked, eventApi, eventSummary, replayRound, type EventSummary } from './event-http.ts';
export { seatFor } from './event-round.ts';
export { LCC_PREFIX, lccApi, type LccGame, type LccPairing, type LccPlayer, type LccRound, type LccTournament } from './lcc-feed.ts';
export { playoffSeatFor } from './playoff-boards.ts';
export { inlinePairer, workerPairer, type SwissPairer, type SwissPairingInput, type SwissPairing } from './swiss-pairer.ts';
export { TournamentDesk } from './tournament-desk.ts';
export { TOURNAMENT_PATHS, tournamentApi } from './tournament-http.ts';
export { assembleViews, eventViews, type RoleViews } from './tournament-view-build.ts';
