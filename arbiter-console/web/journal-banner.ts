// The team's banner while the console's journal cannot write (a full disk): shown on every page above
// the content, gone when the journal writes again (the queue keeps both moments, view/queue.ts).
// Spectators see no banner: nothing they can do about it.
import type { ConsoleStatus } from '../contract/page.ts';

/** A wall-clock instant as the hall reads it (the browser's time zone). */
export const wallTime = (wallMs: number): string => new Date(wallMs).toLocaleTimeString([], { hour12: false });

export function showJournalBanner(banner: HTMLElement, status: ConsoleStatus | undefined, arbiter: boolean): void {
  const journal = status?.journal;
  const failing = arbiter && journal?.state === 'failing' ? journal : undefined;
  banner.hidden = failing === undefined;
  if (!failing) return;
  const full = failing.code.startsWith('SQLITE_FULL') ? ': the disk is full' : '';
  banner.dataset.code = failing.code;
  banner.textContent =
    `The journal cannot write since ${wallTime(failing.since)} (${failing.code}${full}). ` +
    'Commands are refused and nothing is lost: clocks and devices go on and are journaled when it writes again. ' +
    "Free space on the console's disk.";
}
