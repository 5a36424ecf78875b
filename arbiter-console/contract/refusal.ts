// Why the console refuses: one code per kind of refusal, the arbiter's message with it, and the rule or
// article where one applies. Code (the page, the CLI, the bus) decides on the code; the message is for
// the arbiter and may say more. Pure: the page bundle imports it with the protocol.

/** Refusals of a connection or a message as such (protocol errors: `error` messages). */
export const SESSION_REFUSALS = ['malformed', 'too-large', 'rate-limited', 'unauthenticated', 'forbidden', 'bad-token', 'busy', 'locked-out', 'full'] as const;

/** Refusals of a command by the team's roles and sectors (staff.ts's permission table). */
export const PERMISSION_REFUSALS = ['forbidden', 'outside-sector', 'sector-undefined'] as const;

/** Refusals of a command by the hall's clocks (hall.ts). */
export const HALL_REFUSALS = [
  'unknown-board',
  'unknown-alert',
  'game-finished',
  'already-paused',
  'not-paused',
  'already-arrived',
  'not-enough-time',
  'illegal-position',
  // Missed moves entered (enterMissedMoves): the board's game has no stretch it did not read; a move is not
  // legal where it comes; the moves do not lead to the position the board re-read.
  'no-unread-stretch',
  'illegal-move',
  'position-mismatch',
  'no-round',
  'already-started',
  // The section's round may not start yet (its pairing is still a draft).
  'start-held',
  'board-in-use',
  // Nothing for the command to act on (no clock running, every player present, no result to confirm).
  'nothing-to-do',
] as const;

/** Refusals of the tournament desk (desk/desk-checks.ts and the desk's steps) and of a TRF import. */
export const DESK_REFUSALS = [
  'no-section',
  'round-not-paired',
  'round-paired',
  'beyond-last-round',
  'unknown-game',
  'unknown-player',
  'no-clock-result',
  'already-recorded',
  'no-conflict',
  'no-draft',
  'draft-on-clocks',
  'draft-waiting',
  'unknown-draft-board',
  'already-met',
  'results-unconfirmed',
  'no-playoff',
  'playoff-impossible',
  'playoff-on-board',
  'not-swiss',
  'no-rule',
  // What the tournament's rules refuse (the pairing, result or playoff code's own check).
  'tournament-rule',
  'import-too-late',
  'bad-trf',
  'trf-mismatch',
] as const;

/** Refusals of the chief's team commands (team.ts). */
export const TEAM_REFUSALS = ['no-team', 'bad-boards', 'unknown-sector', 'sector-in-use', 'name-in-use', 'unknown-credential', 'already-revoked'] as const;

/** Refusals on the bus (bus-console.ts, bus-desk.ts, hall-host.ts): the command may not have been carried out. */
export const BUS_REFUSALS = [
  'host-unreachable',
  'host-error',
  'no-host',
  'not-on-host',
  'bus-away',
  'bus-refused',
  'still-reading',
  'behind-bus',
  // Another console's desk record about the same thing came first.
  'came-first',
  'desk-busy',
] as const;

export type SessionRefusalCode = (typeof SESSION_REFUSALS)[number];
export type PermissionRefusalCode = (typeof PERMISSION_REFUSALS)[number];
export type HallRefusalCode = (typeof HALL_REFUSALS)[number];
export type DeskRefusalCode = (typeof DESK_REFUSALS)[number];
export type TeamRefusalCode = (typeof TEAM_REFUSALS)[number];
export type BusRefusalCode = (typeof BUS_REFUSALS)[number];

/** Every refusal the console gives; `internal`: the command failed on an error of the console itself. */
export type RefusalCode = SessionRefusalCode | PermissionRefusalCode | HallRefusalCode | DeskRefusalCode | TeamRefusalCode | BusRefusalCode | 'internal';

export const REFUSAL_CODES: ReadonlySet<RefusalCode> = new Set<RefusalCode>([
  ...SESSION_REFUSALS,
  ...PERMISSION_REFUSALS,
  ...HALL_REFUSALS,
  ...DESK_REFUSALS,
  ...TEAM_REFUSALS,
  ...BUS_REFUSALS,
  'internal',
]);

export const isRefusalCode = (code: unknown): code is RefusalCode => typeof code === 'string' && REFUSAL_CODES.has(code as RefusalCode);

export interface Refusal {
  readonly ok: false;
  readonly code: RefusalCode;
  /** For the arbiter. */
  readonly reason: string;
  /** The rule it follows, where one applies ("FIDE C.04.1": two players meet once). */
  readonly article?: string;
}

export function refusal(code: RefusalCode, reason: string, article?: string): Refusal {
  return article === undefined ? { ok: false, code, reason } : { ok: false, code, reason, article };
}

/** A refusal's message with a prefix saying where it comes from; its code and article kept. */
export function within(prefix: string, refused: Refusal): Refusal {
  return { ...refused, reason: `${prefix}${refused.reason}` };
}
