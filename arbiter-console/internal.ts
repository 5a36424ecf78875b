// What the tests reach beyond the public face (as nats.js's internal_mod.ts): the folders' parts a test
// drives directly. Nothing outside tests/ imports this.
export * from './index.ts';
export {
  MAX_MESSAGE_BYTES,
  applyAttention,
  applyViewPatch,
  type Attention,
  arbiterCommandSchema,
  boardGameConfig,
  clockText,
  consoleCommandSchema,
  isRefusalCode,
  kindOf,
  PERMISSIONS,
  staffCommandSchema,
  tournamentCommandSchema,
  type Arbiter,
  type StaffRole,
  diffView,
  isTournamentCommand,
  parseClientMessage,
  refusalFor,
  type ConsoleCommand,
  type TournamentRecord,
  type TournamentView,
  type ViewPatch,
} from './contract/index.ts';
export { eventSummary, tournamentApi, type EventSummary, type LccGame, type LccRound, type LccTournament } from './desk/index.ts';
export { csvLine, roundFromEvent } from './desk/internal.ts';
export { withDeviceTimekeepers } from './devices/index.ts';
export { boardHistory, boardPgn, type ManualSource } from './hall/index.ts';
export { gameSystemId, roundLogic, type HallOptions, type RoundActorInput } from './hall/internal.ts';
export { type ArchivedBlob, type ArchiveIndex, emptyIndex, indexWith, packRows, partOf, type RowDump, type StoredSnapshot } from './journal/index.ts';
export { hostCommands } from './on-bus/internal.ts';
export { builtPage, startPgnFolder } from './server/index.ts';
export { ClientSession, inlineBuilder, type Pending, type SessionHost, type SessionLimits, withFirstScreen } from './server/internal.ts';
export { startAutopilot } from './simulation/index.ts';
export { openCredentials, type Credentials } from './team/index.ts';
