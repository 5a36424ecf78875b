// WAL checkpoints off the event loop. SQLite copies a journal's WAL into its database file (and syncs
// both) inside whichever commit crosses 1,000 pages: on the console's event loop, that commit stalls
// for 10-20 ms when the disk is busy, and every flag due meanwhile is announced late (bench: event).
// So a journal turns automatic checkpoints off and this process's one checkpoint thread runs them, every
// half second, PASSIVE: it copies what no reader still needs and never waits for, nor blocks, a writer.
// Nothing about durability changes: an entry is in the WAL when its commit returns, as before.
// A passive checkpoint never rewinds the WAL while writes keep coming (SQLite starts it again only when a
// writer finds every frame copied), so under steady play it only grew (903 MB beside a 69 MB database).
// Once it passes `walLimitBytes` the thread runs a TRUNCATE checkpoint: it copies the few frames the last
// passive one left and empties the file, holding writers off for those milliseconds only; it waits at
// most 50 ms for a reader and otherwise tries again on the next tick. A checkpoint the disk refuses (full,
// an I/O error) is tried again on the next tick too: the thread keeps the journal through a full disk.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const everyMs = 500;
/** The WAL's size past which it is emptied: the bound is this plus what the console writes in half a second. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

/** The thread: one connection per journal file it is given, a passive checkpoint of each per tick. */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.sqlite);
const journals = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'add') {
    try { journals.set(m.id, { db: new Database(m.file, { fileMustExist: true, timeout: 50 }), wal: m.file + '-wal', limit: m.walLimitBytes }); }
    catch (err) { parentPort.postMessage({ type: 'refused', id: m.id, reason: String(err && err.message || err) }); }
  } else if (m.type === 'remove') {
    const journal = journals.get(m.id);
    journals.delete(m.id);
    if (journal) journal.db.close();
    Atomics.store(m.closed, 0, 1);
    Atomics.notify(m.closed, 0);
  }
});
setInterval(() => {
  for (const [id, { db, wal, limit }] of journals) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
      if ((statSync(wal, { throwIfNoEntry: false })?.size ?? 0) > limit) db.pragma('wal_checkpoint(TRUNCATE)');
    }
    catch (err) {
      // A full disk or an I/O error is the disk's trouble, not the thread's: the next tick tries again.
      if (/^SQLITE_(FULL|IOERR|BUSY|LOCKED|PROTOCOL)/.test(String(err && err.code))) continue;
      journals.delete(id); try { db.close(); } catch {} parentPort.postMessage({ type: 'refused', id, reason: String(err && err.message || err) });
    }
  }
}, workerData.everyMs);
`;

type ThreadMessage = { readonly type: 'refused'; readonly id: number; readonly reason: string };

/** What to do for a journal when the thread cannot checkpoint it: go back to SQLite's own checkpoints. */
type Fallback = () => void;

let thread: Worker | undefined;
/** How long a journal's close waits for the thread to close its connection (a tick's checkpoint, at most). */
const REMOVE_WAIT_MS = 1_000;
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
export function checkpointOffLoop(file: string, fallback: Fallback, walLimitBytes = WAL_LIMIT_BYTES): () => void {
  thread ??= startThread();
  const id = nextId++;
  fallbacks.set(id, fallback);
  thread.postMessage({ type: 'add', id, file, walLimitBytes });
  return () => {
    fallbacks.delete(id);
    if (!thread) return;
    // The thread's connection closes before the journal's own, so that the journal's close is the last
    // one and takes the WAL and its index with it: a data directory removed right after a stop had a
    // file appear in it (the thread's late close checkpointing a WAL already unlinked).
    const closed = new Int32Array(new SharedArrayBuffer(4));
    thread.postMessage({ type: 'remove', id, closed });
    Atomics.wait(closed, 0, 0, REMOVE_WAIT_MS);
  };
}
