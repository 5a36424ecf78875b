// WAL checkpoints off the event loop. SQLite copies a journal's WAL into its database file (and syncs
// both) inside whichever commit crosses 1,000 pages: on the console's event loop, that commit stalls
// for 10-20 ms when the disk is busy, and every flag due meanwhile is announced late (bench: event).
// So a journal turns automatic checkpoints off and this process's one checkpoint thread runs them, every
// half second, PASSIVE: it copies what no reader still needs and never waits for, nor blocks, a writer.
// Nothing about durability changes: an entry is in the WAL when its commit returns, as before.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const everyMs = 500;

/** The thread: one connection per journal file it is given, a passive checkpoint of each per tick. */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const journals = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'add') {
    try { journals.set(m.id, new Database(m.file, { fileMustExist: true })); }
    catch (err) { parentPort.postMessage({ type: 'refused', id: m.id, reason: String(err && err.message || err) }); }
  } else if (m.type === 'remove') {
    const db = journals.get(m.id);
    journals.delete(m.id);
    if (db) db.close();
  }
});
setInterval(() => {
  for (const [id, db] of journals) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); }
    catch (err) { journals.delete(id); try { db.close(); } catch {} parentPort.postMessage({ type: 'refused', id, reason: String(err && err.message || err) }); }
  }
}, workerData.everyMs);
`;

type ThreadMessage = { readonly type: 'refused'; readonly id: number; readonly reason: string };

/** What to do for a journal when the thread cannot checkpoint it: go back to SQLite's own checkpoints. */
type Fallback = () => void;

let thread: Worker | undefined;
let nextId = 1;
const fallbacks = new Map<number, Fallback>();

function fallBackAll(): void {
  for (const fallback of fallbacks.values()) fallback();
  fallbacks.clear();
  thread = undefined;
}

function startThread(): Worker {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(threadSource, { eval: true, workerData: { sqlite, everyMs } });
  worker.on('message', (m: ThreadMessage) => {
    const fallback = fallbacks.get(m.id);
    fallbacks.delete(m.id);
    fallback?.();
  });
  worker.on('error', fallBackAll);
  worker.on('exit', fallBackAll);
  // The thread never keeps the process alive: a console that is done exits as before. (After the
  // listeners: attaching a 'message' listener refs the worker again.)
  worker.unref();
  return worker;
}

/**
 * Hands a journal file's checkpoints to the checkpoint thread. `fallback` turns SQLite's automatic
 * checkpoints back on for this journal if the thread cannot do them. Returns what to call on close.
 */
export function checkpointOffLoop(file: string, fallback: Fallback): () => void {
  thread ??= startThread();
  const id = nextId++;
  fallbacks.set(id, fallback);
  thread.postMessage({ type: 'add', id, file });
  return () => {
    fallbacks.delete(id);
    thread?.postMessage({ type: 'remove', id });
  };
}
