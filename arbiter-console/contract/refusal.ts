// Why the console refuses: one code per kind of refusal, the arbiter's message with it, and the rule or
// article where one applies. Code (the page, the CLI, the bus) decides on the code; the message is for
// the arbiter and may say more. Pure: the page bundle imports it with the protocol.
import type { RuleRefusal } from '../../clock-engine/index.ts';

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

/**
 * Refusals of a player's claim or offer, or of the arbiter's decision on one, by the clock engine's
 * rules (the board's Laws edition and the event's): one code per kind of the engine's reasons.
 */
export const RULE_REFUSALS = [
  // The event's move rule (Cairns Cup: no draw agreement before move 30).
  'draw-too-early',
  // Laws 2018/2023 5.2.3: no agreement before both players have made a move.
  'draw-before-first-moves',
  'no-draw-offer',
  // The game has no such claim: Article 10.2 or Guidelines III not in force (edition, event, blitz, increment).
  'claim-not-applied',
  // The claim's conditions are not met: the player having the move, under two minutes, the final period.
  'claim-not-admitted',
  'no-claim-pending',
  // The decision does not answer the claim (increment for a draw claim, postpone for an increment request).
  'decision-mismatch',
  'flag-not-fallen',
  // Laws 2009 A.4 d: the claimant's own flag is down too.
  'claimant-flag-fallen',
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
  // The chief's playoff format: the regulations give this playoff's format (or there is no tie to format);
  // the playoff has its format or its games already; a stage's time control the clock engine cannot
  // play; a format that does not fit (the cut's tie-breaks or size, a stage that can never be reached).
  'not-left-to-chief',
  'playoff-under-way',
  'bad-time-control',
  'bad-playoff-format',
  'not-swiss',
  'no-rule',
  // The regulations' own steps (desk/regulation-step.ts): a no-show that is none, a rating too early or
  // for a rated player, an appeal too early, too late, without its fee, unknown, decided, or its committee.
  'not-a-no-show',
  'round-incomplete',
  'player-rated',
  'appeal-late',
  'appeal-fee',
  'unknown-appeal',
  'appeal-decided',
  'committee-invalid',
  // waiveFine: no journaled incident of that id; waived before; an incident whose rule sets no fine.
  'unknown-incident',
  'already-waived',
  'no-fine',
  // What the tournament's rules refuse (the pairing, result or playoff code's own check).
  'tournament-rule',
  'import-too-late',
  'bad-trf',
  'trf-mismatch',
  // The Dutch engine pairs in a worker thread (desk/swiss-pairer.ts): the section's next round is
  // being paired already; the worker died, failed or took too long (nothing journaled).
  'pairing-under-way',
  'pairing-failed',
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
  // A board or hall command's outcome on a hall host (docs/hall.md, "What a command's answer means"):
  // the host got it after its deadline and did not carry it out; the host did not answer by the
  // deadline, so whether it was carried out is not known yet (a second answer follows when the host
  // speaks); a command for a board (or host) whose earlier command is still unknown; a round-wide
  // command some hosts carried out and others did not (each host's outcome listed).
  'deadline-passed',
  'outcome-unknown',
  'outcome-pending',
  'partly-carried-out',
  // takeOverHost (docs/hall.md, "Replacing a hall host"): the host's lease is still renewed (it lives);
  // it holds no board; the console runs no bus (one process owns every board).
  'lease-live',
  'holds-no-board',
  'not-on-bus',
] as const;

/** The journal cannot write (a full disk, an I/O error): nothing was done, and the command may be given again once it writes. */
export const JOURNAL_REFUSALS = ['journal-unavailable'] as const;

export type SessionRefusalCode = (typeof SESSION_REFUSALS)[number];
export type PermissionRefusalCode = (typeof PERMISSION_REFUSALS)[number];
export type HallRefusalCode = (typeof HALL_REFUSALS)[number];
export type RuleRefusalCode = (typeof RULE_REFUSALS)[number];
export type DeskRefusalCode = (typeof DESK_REFUSALS)[number];
export type TeamRefusalCode = (typeof TEAM_REFUSALS)[number];
export type BusRefusalCode = (typeof BUS_REFUSALS)[number];
export type JournalRefusalCode = (typeof JOURNAL_REFUSALS)[number];

/** Every refusal the console gives; `internal`: the command failed on an error of the console itself. */
export type RefusalCode =
  | SessionRefusalCode
  | PermissionRefusalCode
  | HallRefusalCode
  | RuleRefusalCode
  | DeskRefusalCode
  | TeamRefusalCode
  | BusRefusalCode
  | JournalRefusalCode
  | 'internal';

export const REFUSAL_CODES: ReadonlySet<RefusalCode> = new Set<RefusalCode>([
  ...SESSION_REFUSALS,
  ...PERMISSION_REFUSALS,
  ...HALL_REFUSALS,
  ...RULE_REFUSALS,
  ...DESK_REFUSALS,
  ...TEAM_REFUSALS,
  ...BUS_REFUSALS,
  ...JOURNAL_REFUSALS,
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
  /** A round-wide command on the bus: what each hall host did with it. */
  readonly hosts?: readonly HostCommandOutcome[];
}

/**
 * What one hall host did with a command a console on the bus sent it (docs/hall.md): carried it out,
 * did not carry it out (`code`: its refusal, `deadline-passed`, `host-unreachable`), or not known yet
 * (`outcome-unknown`: it did not answer by the deadline).
 */
export interface HostCommandOutcome {
  readonly host: string;
  readonly outcome: 'carried-out' | 'not-carried-out' | 'unknown';
  readonly code?: RefusalCode;
  readonly reason?: string;
}

export function refusal(code: RefusalCode, reason: string, article?: string): Refusal {
  return article === undefined ? { ok: false, code, reason } : { ok: false, code, reason, article };
}

/** A refusal's message with a prefix saying where it comes from; its code and article kept. */
export function within(prefix: string, refused: Refusal): Refusal {
  return { ...refused, reason: `${prefix}${refused.reason}` };
}

/** The console's code for each reason the clock engine gives for not admitting a claim, an offer or a decision. */
export const RULE_REFUSAL_CODES: { readonly [R in RuleRefusal['reason']]: RuleRefusalCode } = {
  'draw-before-move-limit': 'draw-too-early',
  'draw-before-first-moves': 'draw-before-first-moves',
  'no-draw-offer': 'no-draw-offer',
  'claim-not-applied': 'claim-not-applied',
  'claim-conditions': 'claim-not-admitted',
  'no-claim': 'no-claim-pending',
  'decision-mismatch': 'decision-mismatch',
  'flag-up': 'flag-not-fallen',
  'claimant-flag-down': 'claimant-flag-fallen',
};

/** The engine's refusal as the console's: its code, the engine's message, the article. */
export function ruleRefusal(refused: RuleRefusal, message: string): Refusal {
  return refusal(RULE_REFUSAL_CODES[refused.reason], message, refused.article);
}
