// The arbiters' team: roles, sectors of the hall, and who may give which command. Pure: the page
// bundle imports the types and the range parser too, so nothing here may pull in Node code.
import type { ConsoleCommand } from './protocol.ts';
import { refusal, type Refusal } from './refusal.ts';

/**
 * chief: everything; deputy: every board and round-wide clock command, results, no credential or
 * event changes; sector: commands on his sector's boards only (PERMISSIONS). (Spectators are not staff.)
 */
export type StaffRole = 'chief' | 'deputy' | 'sector';

export interface Sector {
  readonly id: string;
  readonly name: string;
  /**
   * Board numbers as the chief typed them: "1-50, 61, 70-80". Across the hall: hall board numbers;
   * in a section: that section's own board numbers (its board 1 sits on whichever hall board).
   */
  readonly boards: string;
  /** A sector of one section (its boards by the section's numbering); absent: across the hall. */
  readonly section?: string;
}

/** A sector as the pages get it: with the hall boards it covers now. */
export interface SectorView extends Sector {
  readonly members: readonly string[];
}

/**
 * A named token's stored hash, never its secret (team/credentials.ts): `sha256` is HMAC-SHA-256 of the
 * secret keyed by `salt`; `scrypt` is an earlier version's, `check` its fingerprint. Checked with zod
 * where the journal or the bus hands it over.
 */
export interface CredentialHash {
  readonly algorithm: 'sha256' | 'scrypt';
  readonly salt: string;
  readonly hash: string;
  readonly check?: string;
}

/**
 * What the journal keeps of the team (`staff` records): sectors, and who was given or lost a
 * credential, with its hash (the journal is the one owner of the team: on the bus every console reads
 * it from the stream). `hash` is absent from an issue journaled before the journal kept hashes; its
 * `credentialHash` record, moved from DIR/arbiters.json at the first start after the upgrade, follows.
 * `credentialHash` also replaces an earlier version's scrypt hash at its first login.
 */
export type StaffChange =
  | { readonly type: 'defineSector'; readonly sector: Sector }
  | { readonly type: 'removeSector'; readonly sector: string }
  | {
      readonly type: 'issueCredential';
      readonly credential: string;
      readonly name: string;
      readonly role: StaffRole;
      readonly sector?: string;
      readonly hash?: CredentialHash;
    }
  | { readonly type: 'revokeCredential'; readonly credential: string; readonly name: string }
  | { readonly type: 'credentialHash'; readonly credential: string; readonly hash: CredentialHash };

export interface StaffIdentity {
  readonly name: string;
  readonly role: StaffRole;
  readonly sector?: string;
}

export type BoardRanges = readonly (readonly [number, number])[];

/** "1-50, 61" -> [[1, 50], [61, 61]]; a reason when the text is not a list of ranges. */
export function parseBoardRanges(text: string): { ok: true; ranges: BoardRanges } | { ok: false; reason: string } {
  const ranges: [number, number][] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const m = /^(\d{1,4})(?:\s*-\s*(\d{1,4}))?$/.exec(part);
    if (!m) return { ok: false, reason: `'${part}' is not a board number or a range like 1-50` };
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    if (from < 1 || to < from) return { ok: false, reason: `'${part}': a range goes from a lower to a higher board, from 1` };
    ranges.push([from, to]);
  }
  return { ok: true, ranges };
}

const inRanges = (id: string, ranges: BoardRanges): boolean => {
  if (!/^\d+$/.test(id)) return false;
  const n = Number(id);
  return ranges.some(([from, to]) => n >= from && n <= to);
};

/** Where the boards stand: every hall board, and each section's hall board for its board n (at n - 1). */
export interface HallLayout {
  readonly hallBoards: Iterable<string>;
  readonly sectionBoards: (section: string) => readonly number[] | undefined;
}

/** The hall boards a sector covers. */
export function sectorMembers(sector: Sector, layout: HallLayout): string[] {
  const parsed = parseBoardRanges(sector.boards);
  if (!parsed.ok) return [];
  if (sector.section === undefined) return [...layout.hallBoards].filter((id) => inRanges(id, parsed.ranges));
  const numbers = layout.sectionBoards(sector.section) ?? [];
  return numbers.filter((_, k) => inRanges(String(k + 1), parsed.ranges)).map(String);
}

/** What a command needs to know of the hall to be judged. */
export interface CommandScope {
  /** The hall board a command acts on, if any (an alert's board, a live game's board). */
  readonly boardOf: (command: ConsoleCommand) => string | undefined;
  readonly members: (sector: string) => ReadonlySet<string> | undefined;
}

/** Where a role may give a command: on any board, on his own sector's boards only, or not at all. */
export type Reach = 'anywhere' | 'own-sector' | 'never';

/** Everything the table decides: each console command, and the TRF import (POST /api/import-trf). */
export type CommandType = ConsoleCommand['type'] | 'importTrf';

/**
 * Who may give a command, role by role; `concerns` says what it acts on, for the refusal's words.
 * Every role is decided for every command: a role, or a command, not in the table is refused.
 */
export type Permission = { readonly [R in StaffRole]: Reach } & { readonly concerns: 'board' | 'round' | 'event' | 'team' };

/** A clock command on a board, an alert or a live game's result: a sector arbiter on his sector's boards. */
const ON_A_BOARD: Permission = { chief: 'anywhere', deputy: 'anywhere', sector: 'own-sector', concerns: 'board' };
/** Every board of the round, a playoff game off the hall, the fines: the chief and the deputies. */
const ROUND_WIDE: Permission = { chief: 'anywhere', deputy: 'anywhere', sector: 'never', concerns: 'round' };
/** Pairings, byes, withdrawals, the playoff's course: the chief arbiter's alone. */
const EVENT_CHANGE: Permission = { chief: 'anywhere', deputy: 'never', sector: 'never', concerns: 'event' };
/** Credentials and sectors. */
const TEAM: Permission = { chief: 'anywhere', deputy: 'never', sector: 'never', concerns: 'team' };

/** Roles x commands: the compiler wants a row for every command. */
export const PERMISSIONS: { readonly [T in CommandType]: Permission } = {
  pause: ON_A_BOARD,
  resume: ON_A_BOARD,
  addTime: ON_A_BOARD,
  setTime: ON_A_BOARD,
  setMoveCounter: ON_A_BOARD,
  penalty: ON_A_BOARD,
  forfeit: ON_A_BOARD,
  result: ON_A_BOARD,
  arrive: ON_A_BOARD,
  setPosition: ON_A_BOARD,
  // The players' claims and offers and the decision on a claim: the arbiter at the board (a sector arbiter on his own).
  drawOffer: ON_A_BOARD,
  drawAnswer: ON_A_BOARD,
  flagClaim: ON_A_BOARD,
  quickplayClaim: ON_A_BOARD,
  quickplayDecision: ON_A_BOARD,
  enterMissedMoves: ON_A_BOARD,
  dismiss: ON_A_BOARD,
  // A kind dismissed across the hall (or a sector) at once: the chief and the deputies, as the round-wide commands.
  dismissKind: ROUND_WIDE,
  startAll: ROUND_WIDE,
  arriveAll: ROUND_WIDE,
  pauseAll: ROUND_WIDE,
  resumeAll: ROUND_WIDE,
  // Handing a silent hall host's boards to another host changes who keeps the clocks: the chief's alone.
  takeOverHost: EVENT_CHANGE,
  enterResult: ON_A_BOARD,
  confirmResult: ON_A_BOARD,
  resolveResultConflict: ON_A_BOARD,
  confirmRound: ROUND_WIDE,
  playoffResult: ROUND_WIDE,
  recordIncident: ROUND_WIDE,
  // A written appeal is received by whichever arbiter is handed it; the committee's decision is the chief's to record.
  lodgeAppeal: ROUND_WIDE,
  decideAppeal: EVENT_CHANGE,
  recordNoShow: EVENT_CHANGE,
  assignRating: EVENT_CHANGE,
  // The regulations leave a fine to the chief's discretion ("may receive"): waiving one is his alone.
  waiveFine: EVENT_CHANGE,
  pairNextRound: EVENT_CHANGE,
  swapColours: EVENT_CHANGE,
  exchangeOpponents: EVENT_CHANGE,
  discardDraft: EVENT_CHANGE,
  publishRound: EVENT_CHANGE,
  startPlayoff: EVENT_CHANGE,
  decidePlayoff: EVENT_CHANGE,
  setPlayoffFormat: EVENT_CHANGE,
  requestBye: EVENT_CHANGE,
  withdrawPlayer: EVENT_CHANGE,
  renamePlayer: EVENT_CHANGE,
  // A TRF brings registrations and rounds played elsewhere; a deputy may run it (the desk refuses it once a round is paired here).
  importTrf: ROUND_WIDE,
  defineSector: TEAM,
  removeSector: TEAM,
  issueCredential: TEAM,
  revokeCredential: TEAM,
  listCredentials: TEAM,
};

/** A command the table decides: a console command, or the TRF import. */
export type Decided = ConsoleCommand | { readonly type: 'importTrf' };

/** Why `who` may not give `command` (undefined: he may). Default deny: what the table does not grant is refused. */
export function refusalFor(who: StaffIdentity, command: Decided, scope: CommandScope): Refusal | undefined {
  const permission: Permission | undefined = Object.hasOwn(PERMISSIONS, command.type) ? PERMISSIONS[command.type] : undefined;
  if (!permission) return refusal('forbidden', `'${command.type}' is no command of this console`);
  const reach: Reach | undefined = Object.hasOwn(permission, who.role) ? permission[who.role] : undefined;
  if (reach === 'anywhere') return undefined;
  if (reach === 'own-sector' && who.role === 'sector') return sectorRefusal(who, command, scope);
  return refusal('forbidden', deniedText(who, command.type, permission));
}

function deniedText(who: StaffIdentity, type: string, permission: Permission): string {
  switch (permission.concerns) {
    case 'team':
      return `only the chief arbiter manages credentials and sectors (${who.name} is ${roleText(who)})`;
    case 'event':
      return `${type} changes the event: only the chief arbiter may (${who.name} is ${roleText(who)})`;
    case 'round':
      if (permission.deputy === 'anywhere') return `${type} is for the chief arbiter and the deputies; a sector arbiter acts on his sector's boards`;
      break;
    case 'board':
      break;
  }
  return `${type} is not for ${who.name} (${roleText(who)})`;
}

/** A sector arbiter's command on a board: refused unless the board is one of his sector's. */
function sectorRefusal(who: StaffIdentity, command: Decided, scope: CommandScope): Refusal | undefined {
  const sector = who.sector === undefined ? undefined : scope.members(who.sector);
  if (sector === undefined) return refusal('sector-undefined', `your sector '${who.sector ?? ''}' is not defined (ask the chief arbiter)`);
  const board = command.type === 'importTrf' ? undefined : scope.boardOf(command);
  if (board === undefined) return refusal('outside-sector', `${command.type}: not a game on a board of your sector ${who.sector}`);
  if (!sector.has(board)) return refusal('outside-sector', `board ${board} is not in your sector ${who.sector}`);
  return undefined;
}

export function roleText(who: StaffIdentity): string {
  return who.role === 'sector' ? `sector arbiter of ${who.sector ?? '?'}` : who.role === 'deputy' ? 'a deputy' : 'the chief arbiter';
}
