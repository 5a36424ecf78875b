// What needs the arbiter's eyes on a board: the hall raises it, the page lists it in its queue.
import type { ClockAlert, Side } from '../../clock-engine/index.ts';

export type AttentionCode = ClockAlert['code'] | 'silent-board' | 'result-contradicts';

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
