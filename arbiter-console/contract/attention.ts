// What needs the arbiter's eyes on a board: the hall raises it, the page lists it in its queue.
import type { ClockAlert, Side } from '../../clock-engine/index.ts';

// 'command-pending': a console on the bus sent the board's hall host a command whose outcome is not known
// yet (the host did not answer by its deadline); it leaves the queue when the host answers.
// 'not-owner': a console on the bus was sent a clock event of the board by a hall host that does not hold
// its lease, and did not apply it; 'handed-over': the board's lease went to another host (the chief's takeover).
export type AttentionCode = ClockAlert['code'] | 'silent-board' | 'result-contradicts' | 'command-pending' | 'not-owner' | 'handed-over';

export interface Attention {
  /** Stable while the condition lasts; the arbiter dismisses by id. */
  readonly id: string;
  readonly board: string;
  readonly code: AttentionCode;
  readonly side?: Side;
  readonly at: number;
  readonly message: string;
}

/**
 * The kinds of the queue, as the arbiter sorts his work: the page groups by them and `dismissKind`
 * dismisses one kind at once. A code no kind names is 'other'.
 */
export const ATTENTION_KINDS = [
  { id: 'flags', title: 'Flags', codes: ['flag-fall', 'clock-unreachable'] },
  { id: 'late', title: 'Late players', codes: ['late-player', 'default-time-expired'] },
  { id: 'calls', title: 'Arbiter calls', codes: ['arbiter-call', 'quickplay-claim', 'draw-offer-refused'] },
  { id: 'disagreements', title: 'Disagreements', codes: ['clock-disagrees', 'move-count-mismatch', 'presses-missed', 'result-contradicts'] },
  { id: 'devices', title: 'Device problems', codes: ['silent-board', 'not-owner', 'handed-over'] },
  { id: 'other', title: 'Penalties and other', codes: [] },
] as const satisfies readonly { readonly id: string; readonly title: string; readonly codes: readonly AttentionCode[] }[];

export type AttentionKind = (typeof ATTENTION_KINDS)[number]['id'];

export const kindOf = (a: Pick<Attention, 'code'>): AttentionKind =>
  ATTENTION_KINDS.find((k) => (k.codes as readonly AttentionCode[]).includes(a.code))?.id ?? 'other';

/**
 * What a finished game still asks of the arbiter: a flag fall that ended it (he checks the flag), a
 * result the clock and the desk disagree on, and the board's device (it outlives the game). The rest
 * (a late player, move counts, a claim, an offer) was about the game in play and leaves with it.
 */
export const AFTER_THE_GAME: readonly AttentionCode[] = ['flag-fall', 'result-contradicts', 'silent-board'];

/**
 * The queue after a delta's `attentionByBoard`: those boards' items replaced by theirs now, the rest
 * kept, ordered by time (the snapshot's order).
 */
export function applyAttention(queue: readonly Attention[], byBoard: Readonly<Record<string, readonly Attention[]>>): Attention[] {
  const kept = queue.filter((a) => !Object.hasOwn(byBoard, a.board));
  return [...kept, ...Object.values(byBoard).flat()].sort((a, b) => a.at - b.at);
}

/**
 * Whether the journal takes writes: 'failing' from the first write refused (`code`: SQLite's, e.g.
 * SQLITE_FULL for a full disk, SQLITE_IOERR_WRITE) at `since` (wall-clock ms) until one goes through.
 */
export type JournalHealth = { readonly state: 'ok' } | { readonly state: 'failing'; readonly code: string; readonly since: number };

/** What the console itself went through, not a board: the journal stopped writing, and wrote again. */
export interface ConsoleIncident {
  readonly id: string;
  readonly code: 'journal-failing' | 'journal-recovered';
  /** Wall-clock ms. */
  readonly wallMs: number;
  readonly message: string;
}

/** The console's own state beside the boards' queue: sent with the queue (snapshot, and a delta that carries it). */
export interface ConsoleStatus {
  readonly journal: JournalHealth;
  /** The latest first, at most a few: they live in memory, not in the journal that failed. */
  readonly incidents: readonly ConsoleIncident[];
}
