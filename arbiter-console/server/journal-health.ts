// The journal's health as the server tells it: in /health (a monitor sees a full disk), and as the
// refusal of a command while the journal cannot write (docs/console.md#when-the-journal-cannot-write).
import type { PlayingHall } from '../hall/index.ts';
import { JournalUnavailable } from '../journal/index.ts';
import { refusal, type JournalHealth, type Refusal } from '../contract/index.ts';

const clockTime = (wallMs: number): string => new Date(wallMs).toISOString().slice(11, 19);

function unavailable(code: string, since: number): Refusal {
  return refusal(
    'journal-unavailable',
    `the journal cannot write since ${clockTime(since)} UTC (${code}): nothing was done; give the command again once the console says the journal writes`,
  );
}

/** The refusal of every command while the journal fails: at once, before anything is tried. */
export function journalRefusal(health: JournalHealth): Refusal | undefined {
  return health.state === 'failing' ? unavailable(health.code, health.since) : undefined;
}

/** A command that threw: the journal's failure has its code, anything else is the console's own error. */
export function refusalOfError(err: unknown): Refusal {
  if (err instanceof JournalUnavailable) return unavailable(err.code, err.since);
  return refusal('internal', `could not be carried out: ${String(err)}`);
}

/** /health's `journal`: the file, its health, the device messages waiting for it. */
export function journalHealthOf(hall: PlayingHall): { readonly file: string; readonly held: number } & JournalHealth {
  return { file: hall.journal.file, ...hall.journal.health, held: hall.held };
}
