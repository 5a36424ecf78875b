// Public face of the arbiter console.
export { startConsole, type ConsoleOptions, type RunningConsole } from './console.ts';
export { startHallHost, type HallHostOptions, type RunningHallHost } from './on-bus/hall-host.ts';
export type { ConsoleBusOptions, ConsoleOnBus } from './on-bus/bus-console.ts';
export { startConsoleServer, lanAddresses, type ConsoleServer, type ConsoleServerOptions, type ServerLimits } from './server/server.ts';
export { PlayingHall, type HallChange, type CommandOutcome, type HallOptions, type BoardHost } from './hall/hall.ts';
export { TournamentDesk, type TournamentContext, type SeatRound } from './desk/tournament-desk.ts';
export { tournamentApi, type ApiAnswer } from './desk/tournament-http.ts';
export type { TournamentRecord, TournamentView, RoundPairings, PairedGame, PairedPlayer, DraftView, ResultSource, TrfImportPreview } from './contract/tournament-view.ts';
export { Board, type Attention, type AttentionCode, type BoardPly, type BoardLine } from './hall/board.ts';
export { Journal, JournalError, type Durability, type JournalRecord, type JournalEntry, type JournalMeta, type ConsoleNote, type EntryPlace } from './journal/journal.ts';
export { journalRecordSchema, parseJournalRecord } from './journal/journal-schema.ts';
export { eventLogic, sectionLogic, gameSystemId, roundSystemId, sectionSystemId, roundPhase } from './hall/event-actor.ts';
export { roundLogic, type RoundPhase, type RoundActorEvent, type RoundActorInput } from './hall/round-actor.ts';
export { eventSummary, roundPgn, type EventSummary } from './desk/event-http.ts';
export { startAutopilot, type AutopilotOptions } from './simulation/autopilot.ts';
export { simulateEvent, type EventSimulationOptions } from './simulation/event-simulation.ts';
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
} from './contract/protocol.ts';
export { Coalescer, type Pending, type CoalescerTimers } from './server/coalescer.ts';
export { openCredentials, type Credentials, type Arbiter, type CredentialInfo } from './team/credentials.ts';
export { LoginGate, type LoginGateOptions } from './server/login-gate.ts';
export { ClientSession, type SessionHost, type SessionLimits, type SessionRole, type Backpressure } from './server/client-session.ts';
export { Team } from './team/team.ts';
export { refusalFor, parseBoardRanges, sectorMembers, type HallLayout, type StaffRole, type Sector, type SectorView, type StaffChange } from './contract/staff.ts';
export { diffView, applyViewPatch, type ViewPatch, type PatchOp } from './contract/view-patch.ts';
export { boardPgn, clockText } from './hall/pgn.ts';
export { boardHistory, type HistoryItem } from './hall/board-history.ts';
export { MAIN, boardGameConfig, checkRound, pgnTimeControl, type Round, type RoundBoard } from './contract/round.ts';
export { roundFromEvent, seatFor, type RoundChoice, type SeatOptions } from './desk/event-round.ts';
export { swissRoundPairing, type LivePairing, type SwissRoundInput } from './desk/swiss-round.ts';
export { deviceRole, explainPortError, parseDeviceSpec, portHolders, timekeeperMismatches, withDeviceTimekeepers, type DeviceSpec } from './devices/devices.ts';
export { simulateRound, classicalThink, type LateArrival, type Simulation, type SimulationOptions } from './simulation/simulation.ts';
export { scaledSource, manualSource, realClock, resumeAt, schedulerOf, type MonotonicSource, type ManualSource, type HallClock } from './hall/time.ts';
export { builtPage } from './server/built-page.ts';
export { demoLateArrivals } from './simulation/demo.ts';
export { inlineBuilder, workerBuilder, ViewMaker, type TournamentBuilder, type BuilderSetup, type BuiltViews, type ViewRequest } from './server/tournament-builder.ts';
