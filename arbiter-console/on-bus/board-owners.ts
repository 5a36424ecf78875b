// Who owns each board, as a console reads the event's stream (docs/hall.md, "Who owns a board"): the
// boards' lease entries are in the stream among the clock events, so ownership is a projection of the
// stream, one holder per board at each of its entries. A clock event from a host that does not hold
// the board's lease there (a host started with another's boards, a host whose boards were handed over
// while it was cut off) is journaled as a `notOwner` note in its place, an alert on the board, never
// applied; every console decides the same at the same place of the stream.
import type { Journal, JournalEntry, JournalRecord } from '../journal/index.ts';
import type { LeaseRecord } from './board-leases.ts';

type Entry = Omit<JournalEntry, 'seq'>;

export class BoardOwners {
  readonly #holder = new Map<string, LeaseRecord>();

  /** The leases the journal has read from the stream already (a restarted console). */
  constructor(journal: Journal) {
    for (const e of journal.entries(0, 'lease')) if (e.record.kind === 'lease') this.#holder.set(e.record.board, e.record);
  }

  /** The host holding the board's lease (undefined: none yet). */
  ownerOf(board: string): string | undefined {
    return this.#holder.get(board)?.host;
  }

  /** The boards `host` holds. */
  boardsOf(host: string): string[] {
    return [...this.#holder.values()].filter((l) => l.host === host).map((l) => l.board);
  }

  lease(board: string): LeaseRecord | undefined {
    return this.#holder.get(board);
  }

  /** The entry as this console takes it, in stream order: a lease moves the board; a non-holder's clock event becomes its refusal. */
  admit(entry: Entry): Entry {
    const record = entry.record;
    if (record.kind === 'lease') {
      this.#holder.set(record.board, record);
      return entry;
    }
    if (record.kind !== 'clock') return entry;
    const owner = this.ownerOf(record.board);
    if (owner === entry.source) return entry;
    const refused: JournalRecord = {
      kind: 'note',
      board: record.board,
      note: { type: 'notOwner', at: record.event.at, host: entry.source, ...(owner !== undefined ? { owner } : {}), event: record.event.type },
    };
    return { ...entry, record: refused };
  }
}
