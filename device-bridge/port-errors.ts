// Why a serial port would not open, in the arbiter's words with the fix: the console (a board's device)
// and `zeitnot devices` say the same thing.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

/**
 * What went wrong opening a port, with the fix: the OS's own words are kept, and where it can tell,
 * which process holds the port.
 */
export function explainPortError(path: string, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const holders = portHolders(path);
  const held = holders.length > 0 ? `; it is open in ${holders.join(', ')}` : '';
  if (/ENOENT|No such file/i.test(text)) return `${path} does not exist: is the board plugged in and switched on? (${text})`;
  if (/EACCES|Permission denied/i.test(text)) {
    return `no permission to open ${path}: add the user running zeitnot to the dialout group (sudo usermod -aG dialout $USER, then log out and in again) (${text})`;
  }
  if (/EBUSY|busy|Cannot lock port|Resource temporarily unavailable/i.test(text)) {
    return `${path} is in use by another program${held || ' (close it, or stop ModemManager from probing the port: see docs/dgt.md)'} (${text})`;
  }
  if (held) return `${text}${held}: another program reading the port takes the board's answers; close it`;
  return text;
}

/** Other processes with `path` open, as "pid 123 (cat)", from /proc where the OS has it (Linux). */
export function portHolders(path: string): string[] {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return [];
  }
  const found: string[] = [];
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (!fds.some((fd) => safeLink(`/proc/${pid}/fd/${fd}`) === target)) continue;
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      found.push(`pid ${pid} (${name})`);
    } catch {
      // Another user's process, or gone meanwhile: the OS does not tell.
    }
  }
  return found;
}

const safeLink = (path: string): string | undefined => {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
};
