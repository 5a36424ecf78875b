// The journal: every record of the event in order (SQLite, WAL), the one source a restart, a replay and
// the bus replicate from; beside it the boards' snapshots, a cache derived from it (board-snapshots.ts),
// and the entries a restored journal keeps as blobs (journal-archive.ts).
export type { StoredSnapshot } from './board-snapshots.ts';
export { type ArchivedBlob, type ArchiveIndex, type ArchivePart, emptyIndex, indexWith, partOf } from './journal-archive.ts';
export { isRowDump, packRows, type RowDump, unpackRows } from './journal-dump.ts';
export { type ConsoleNote, type JournalRecord, journalRecordSchema } from './journal-schema.ts';
export { type Durability, type EntryPlace, Journal, type JournalEntry, type JournalMeta, JournalUnavailable } from './journal.ts';
