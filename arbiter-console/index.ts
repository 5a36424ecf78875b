// Public face of the arbiter console.
export { startConsole, type ConsoleOptions, type RunningConsole } from './console.ts';
export { startHallHost, type HallHostOptions, type RunningHallHost } from './hall-host.ts';
export { StartFailure, type StartFailureCode } from './start-failure.ts';
export { Teardown, type TeardownFailure } from './teardown.ts';
export type { ConsoleBusOptions, ConsoleOnBus } from './bus-console.ts';
export { startConsoleServer, lanAddresses, type ConsoleServer, type ConsoleServerOptions, type ServerLimits } from './server.ts';
export { PlayingHall, type HallChange, type CommandOutcome, type HallOptions, type BoardHost } from './hall.ts';
export { TournamentDesk, type SeatRound } from './tournament-desk.ts';
export { tournamentApi, type ApiAnswer } from './tournament-http.ts';
export type { TournamentRecord, TournamentView, RoundPairings, PairedGame, PairedPlayer, DraftView, ResultSource, TrfImportPreview } from './tournament-view.ts';
export { Board, type Attention, type AttentionCode, type BoardPly, type BoardLine } from './board.ts';
export { Journal, JournalError, type Durability, type JournalRecord, type JournalEntry, type JournalMeta, type ConsoleNote, type EntryPlace } from './journal.ts';
export { journalRecordSchema, parseJournalRecord } from './journal-schema.ts';
export { eventLogic, sectionLogic, gameSystemId, roundSystemId, sectionSystemId, roundPhase } from './event-actor.ts';
export { roundLogic, type RoundPhase, type RoundActorEvent, type RoundActorInput } from './round-actor.ts';
export { eventSummary, roundPgn, type EventSummary } from './event-http.ts';
export { startAutopilot, type AutopilotOptions } from './autopilot.ts';
export { simulateEvent, type EventSimulationOptions } from './event-simulation.ts';
export {
  parseClientMessage,
  arbiterCommandSchema,
  tournamentCommandSchema,
  consoleCommandSchema,
  isTournamentCommand,
  isStaffCommand,
  staffCommandSchema,
  clientMessageSchema,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  type ArbiterCommand,
  type TournamentCommand,
  type StaffCommand,
  type ArbiterView,
  type ConsoleCommand,
  type ClientMessage,
  type ServerMessage,
  type BoardView,
  type RoundView,
  type ClockReference,
  type ErrorCode,
} from './protocol.ts';
export { Coalescer, type Pending, type CoalescerTimers } from './coalescer.ts';
export { openCredentials, type Credentials, type Arbiter, type CredentialInfo } from './credentials.ts';
export { LoginGate, type LoginGateOptions } from './login-gate.ts';
export { ClientSession, type SessionHost, type SessionLimits, type SessionRole, type Backpressure } from './client-session.ts';
export { Team } from './team.ts';
export { refusalFor, parseBoardRanges, sectorMembers, type HallLayout, type StaffRole, type Sector, type SectorView, type StaffChange } from './staff.ts';
export { diffView, applyViewPatch, type ViewPatch, type PatchOp } from './view-patch.ts';
export { boardPgn, clockText } from './pgn.ts';
export { boardHistory, type HistoryItem } from './board-history.ts';
export { MAIN, boardGameConfig, checkRound, pgnTimeControl, type Round, type RoundBoard } from './round.ts';
export { roundFromEvent, seatFor, type RoundChoice, type SeatOptions } from './event-round.ts';
export { deviceRole, explainPortError, parseDeviceSpec, portHolders, timekeeperMismatches, withDeviceTimekeepers, type DeviceSpec } from './devices.ts';
export { simulateRound, classicalThink, type LateArrival, type Simulation, type SimulationOptions } from './simulation.ts';
export { scaledSource, manualSource, realClock, resumeAt, schedulerOf, type MonotonicSource, type ManualSource, type HallClock } from './time.ts';
export { builtPage } from './web/built-page.ts';
export { demoLateArrivals } from './demo.ts';
export { inlineBuilder, workerBuilder, ViewMaker, type TournamentBuilder, type BuilderSetup, type BuiltViews, type ViewRequest } from './tournament-builder.ts';
