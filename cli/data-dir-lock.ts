// One console per data directory. A second `zeitnot serve` on a directory a live console runs from
// would write a second history into its journal, and a second `npm start` (serve --demo) would wipe
// the running demo's journal: both are refused before anything is touched.
//
// A lock file holding the owner's pid, created exclusively (O_EXCL, so two starting at once cannot
// both win) and checked with process.kill(pid, 0). Not an SQLite lock: the demo's wipe comes before
// the journal is opened, unlinking a file another process holds open succeeds anyway, and a lock of
// the database would have to be tried by opening (so creating) it. A console killed without cleaning
// up leaves a lock whose pid is dead: the next start takes it over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDataDir } from '../arbiter-console/index.ts';

export const LOCK_FILE = 'console.pid';

/** The pid of the live process holding the directory's lock, or undefined (no lock, or its owner is dead). */
function liveOwner(lock: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive, only not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/**
 * Claims `dataDir` for this process until it exits (made if missing, refused with a StartFailure when it
 * is not a writable directory); returns the pid of the live console already
 * running there instead (nothing claimed then).
 */
export function claimDataDir(dataDir: string): { ok: true } | { ok: false; pid: number } {
  // A directory that cannot hold the lock cannot hold the journal either: one line saying why (StartFailure).
  prepareDataDir(dataDir);
  const lock = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = liveOwner(lock);
      if (pid !== undefined && pid !== process.pid) return { ok: false, pid };
      rmSync(lock, { force: true }); // a dead owner's lock
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    process.once('exit', () => {
      if (liveOwner(lock) === process.pid) rmSync(lock, { force: true });
    });
    return { ok: true };
  }
  // Another process took the dead owner's lock between our two attempts.
  const pid = liveOwner(lock);
  if (pid !== undefined) return { ok: false, pid };
  throw new Error(`${lock}: could not take the lock (created and removed by another process meanwhile)`);
}
