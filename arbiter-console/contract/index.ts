// The page<->server contract and the console's shared vocabulary: the commands and their schemas, the
// views and patches the page receives, a round's seating, the team's roles and scopes. Pure (no Node, no
// other folder of the console). The page imports page.ts, the part of it without the schemas.
export * from './page.ts';
export type { Arbiter } from './arbiter.ts';
export {
  arbiterCommandSchema,
  type ClientMessage,
  consoleCommandSchema,
  type ErrorCode,
  isStaffCommand,
  isTournamentCommand,
  MAX_MESSAGE_BYTES,
  parseClientMessage,
  PROTOCOL_VERSION,
  type StaffCommand,
  staffCommandSchema,
  type TournamentCommand,
  tournamentCommandSchema,
} from './protocol.ts';
export { boardGameConfig, checkRound, MAIN, pgnTimeControl, type Round, type RoundBoard, seatedPlayers } from './round.ts';
export {
  type CommandType,
  type HallLayout,
  parseBoardRanges,
  type Permission,
  PERMISSIONS,
  type Reach,
  refusalFor,
  type Sector,
  sectorMembers,
  type StaffChange,
  type CredentialHash,
  type StaffRole,
} from './staff.ts';
export type { PairedPlayer, RegistrationUpdate, TournamentRecord, ViewParts } from './tournament-view.ts';
export { diffView, type ViewPatch } from './view-patch.ts';
export { type HostCommandOutcome, isRefusalCode, REFUSAL_CODES, refusal, ruleRefusal, type Refusal, type RefusalCode, within } from './refusal.ts';
