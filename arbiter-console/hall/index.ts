// The live hall: every board's game clock (one actor per game, in the event's actor system), the
// boards' attention items, live PGN and history, and the hall's time. It reads and writes the journal;
// it knows nothing of the desk, the server or the bus.
export { boardHistory } from './board-history.ts';
export { Board } from './board.ts';
export { snapshotVersion } from './board-snapshot.ts';
export { actingAs, type CommandBy, type CommandOutcome, type HallChange, PlayingHall } from './hall.ts';
export { boardPgn, boardPgnForTheSecond } from './pgn.ts';
export { type HallClock, manualSource, type ManualSource, realClock, resumeAt, schedulerOf } from './time.ts';
