// The arbiters' team: roles, sectors of the hall, and who may give which command. Pure: the page
// bundle imports the types and the range parser too, so nothing here may pull in Node code.
import type { ConsoleCommand } from './protocol.ts';

/**
 * chief: everything; deputy: every board and round-wide clock command, results, no credential or
 * event changes; sector: commands on his sector's boards only. (Spectators are not staff.)
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

/** What the journal keeps of the team (`staff` records): sectors, and who was given or lost a credential. */
export type StaffChange =
  | { readonly type: 'defineSector'; readonly sector: Sector }
  | { readonly type: 'removeSector'; readonly sector: string }
  | { readonly type: 'issueCredential'; readonly credential: string; readonly name: string; readonly role: StaffRole; readonly sector?: string }
  | { readonly type: 'revokeCredential'; readonly credential: string; readonly name: string };

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

const EVENT_CHANGES: ReadonlySet<string> = new Set(['pairNextRound', 'swapColours', 'exchangeOpponents', 'discardDraft', 'publishRound', 'startPlayoff', 'decidePlayoff', 'requestBye', 'withdrawPlayer', 'renamePlayer']);
const ROUND_WIDE: ReadonlySet<string> = new Set(['startAll', 'arriveAll', 'pauseAll', 'resumeAll', 'playoffResult', 'recordIncident']);
export const STAFF_COMMANDS: ReadonlySet<string> = new Set(['defineSector', 'removeSector', 'issueCredential', 'revokeCredential', 'listCredentials']);

/** Why `who` may not give `command` (undefined: he may). */
export function refusalFor(who: StaffIdentity, command: ConsoleCommand, scope: CommandScope): string | undefined {
  if (who.role === 'chief') return undefined;
  if (STAFF_COMMANDS.has(command.type)) return `only the chief arbiter manages credentials and sectors (${who.name} is ${roleText(who)})`;
  if (EVENT_CHANGES.has(command.type)) return `${command.type} changes the event: only the chief arbiter may (${who.name} is ${roleText(who)})`;
  if (who.role === 'deputy') return undefined;
  if (ROUND_WIDE.has(command.type)) return `${command.type} is for the chief arbiter and the deputies; a sector arbiter acts on his sector's boards`;
  const sector = who.sector === undefined ? undefined : scope.members(who.sector);
  if (sector === undefined) return `your sector '${who.sector ?? ''}' is not defined (ask the chief arbiter)`;
  const board = scope.boardOf(command);
  if (board === undefined) return `${command.type}: not a game on a board of your sector ${who.sector}`;
  if (!sector.has(board)) return `board ${board} is not in your sector ${who.sector}`;
  return undefined;
}

export function roleText(who: StaffIdentity): string {
  return who.role === 'sector' ? `sector arbiter of ${who.sector ?? '?'}` : who.role === 'deputy' ? 'a deputy' : 'the chief arbiter';
}
