// A reader in its own process, as a console is, for the tests that SIGKILL it: each entry goes into a
// SQLite file (WAL) before the reader moves on, with where to resume; started again on the same file
// it resumes from there. Prints `ready` once reading.
//   node bin/run-ts.js tests/bus/reader-process.ts NATS_URL EVENT NAME DB_FILE
import Database from 'better-sqlite3';
import { connectBus, eventSubjects, startReader } from '../../bus/index.ts';
import { anyRecord } from './memory-journal.ts';

const [url, event, name, file] = process.argv.slice(2);
if (!url || !event || !name || !file) throw new Error('usage: reader-process.ts NATS_URL EVENT NAME DB_FILE');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS got (n INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT, source_seq INTEGER, stream_seq INTEGER, resume_after INTEGER)');
const after = (db.prepare('SELECT MAX(resume_after) AS a FROM got').get() as { a: number | null }).a ?? 0;
const sources = new Map(
  (db.prepare('SELECT source, MAX(source_seq) AS s FROM got GROUP BY source').all() as { source: string; s: number }[]).map((r) => [r.source, r.s]),
);
const insert = db.prepare('INSERT INTO got (source, source_seq, stream_seq, resume_after) VALUES (?, ?, ?, ?)');
const bus = await connectBus({ servers: url.split(','), name });
await startReader(bus, eventSubjects(event), {
  name,
  after,
  sources,
  parse: anyRecord,
  onEntry: (e, p) => void insert.run(e.source, e.sourceSeq, p.streamSeq, p.resumeAfter),
});
process.stdout.write('ready\n');
