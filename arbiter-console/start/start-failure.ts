// Why a console or a hall host could not start, said once in the operator's words: what is wrong and
// what to do. The command line prints the message as one line and exits non-zero; code decides on `code`.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export type StartFailureCode =
  /** Another program (often a console already running) listens on the port. */
  | 'port-in-use'
  /** The port needs privileges this process does not have. */
  | 'port-not-allowed'
  /** The listening address is not one of this machine's. */
  | 'address-unavailable'
  /** The data directory is a file, cannot be made, or cannot be written. */
  | 'data-dir'
  /** A device given for a board the hall does not have. */
  | 'unknown-board'
  /** A new data directory and no event given. */
  | 'no-event'
  /** A hall host whose event is not on the bus, which runs another event (its event file is wrong). */
  | 'other-event'
  /** A hall host given a board another host holds the lease of (docs/hall.md, "Who owns a board"). */
  | 'board-owned'
  /** The journal of an earlier version's single-round console (its meta holds a round, no event). */
  | 'round-journal';

export class StartFailure extends Error {
  constructor(
    readonly code: StartFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'StartFailure';
  }
}

const errnoOf = (error: unknown): string | undefined => (error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined);

/** What an errno means for a directory, in words; undefined for one not foreseen here. */
function whyNotWritable(code: string | undefined): string | undefined {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'a read-only file system';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of its path is a file';
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOENT':
      // A file system that makes no files (/proc), or a directory removed meanwhile: never "no such file".
      return 'the file system there takes no new files';
    default:
      return undefined;
  }
}

/**
 * mkdir -p one level at a time: Node 20's recursive mkdirSync never returns where mkdir says ENOENT for
 * a parent that exists (a directory under /proc), so a start would hang instead of saying why.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const path of missing) mkdirSync(path);
}

/**
 * Makes the data directory if it does not exist and proves it writable, before anything is opened in
 * it: SQLite's "unable to open database file" or an ENOENT on the token file would not say why.
 */
export function prepareDataDir(dir: string): void {
  const refuse = (why: string): never => {
    throw new StartFailure('data-dir', `the data directory ${dir} cannot be used (${why}): give a writable directory (--data DIR)`);
  };
  try {
    makeDirectory(dir);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') refuse(whyNotWritable(errnoOf(error)) ?? String(error));
  }
  if (!statSync(dir).isDirectory()) refuse('it is a file, not a directory');
  // Root passes every permission check (access(2) says yes) and a read-only mount shows only on a write.
  const probe = join(dir, `.zeitnot-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
  } catch (error) {
    refuse(whyNotWritable(errnoOf(error)) ?? String(error));
  }
  rmSync(probe, { force: true });
}

/** A listen that failed, said as what the operator can do about it (others as they came). */
export function listenFailure(error: unknown, port: number, host: string): unknown {
  switch (errnoOf(error)) {
    case 'EADDRINUSE':
      return new StartFailure('port-in-use', `port ${port} is in use (another console?): stop the program that holds it, or give another port (--port)`);
    case 'EACCES':
      return new StartFailure('port-not-allowed', `port ${port} needs privileges on this machine: give a port above 1023 (--port)`);
    case 'EADDRNOTAVAIL':
      return new StartFailure(
        'address-unavailable',
        `${host} is not an address of this machine: give one of its addresses, or 0.0.0.0 for every interface (--host)`,
      );
    default:
      return error;
  }
}
