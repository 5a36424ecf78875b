// `--device BOARD=KIND:PATH`: which bridge drives which board. One device's trouble is that board's
// trouble: a port that is missing, forbidden, busy or silent leaves its board disconnected and retried.
import type { ClockDevice, ClockRole, LineClockOptions, Scheduler } from '../../device-bridge/index.ts';
import { createDgtDevice, createFirmataClock, createLineClock } from '../../device-bridge/index.ts';
import type { ClockAlert, GameState, Side, TimeControl } from '../../clock-engine/index.ts';
import type { JournalRecord } from '../journal/index.ts';
import type { Round } from '../contract/index.ts';

export type DeviceKindName = 'dgt' | 'line' | 'firmata';

const BETWEEN_PRESSES_TOLERANCE_MS = 2_000;

export interface DeviceSpec {
  readonly board: string;
  readonly kind: DeviceKindName;
  /** The serial path, or for `dgt:serial=NNNNN` a description ("serial 01025"). */
  readonly path: string;
  /** `dgt:serial=NNNNN`: the DGT board found by its serial number, on whatever port it turns up. */
  readonly serial?: string;
}

/** Parses "3=dgt:/dev/ttyUSB0" or "3=dgt:serial=01025"; throws with the expected form. */
export function parseDeviceSpec(text: string): DeviceSpec {
  const match = /^([A-Za-z0-9_.-]{1,32})=(dgt|line|firmata):(.+)$/.exec(text);
  if (!match) throw new Error(`--device '${text}': expected BOARD=dgt:PATH, BOARD=dgt:serial=NNNNN, BOARD=line:PATH or BOARD=firmata:PATH`);
  const serial = /^serial=([0-9A-Za-z]{1,12})$/.exec(match[3]!);
  if (serial && match[2] !== 'dgt') throw new Error(`--device '${text}': only a DGT board is found by its serial number`);
  if (serial) return { board: match[1]!, kind: 'dgt', path: `serial ${serial[1]!}`, serial: serial[1]! };
  return { board: match[1]!, kind: match[2] as DeviceKindName, path: match[3]! };
}

/**
 * Line and Firmata clocks are host-driven here (the console keeps time; the clock shows it). DGT clocks
 * are mirrored (the clock keeps time; the console follows its readings and flags a disagreement).
 */
export function deviceRole(kind: DeviceKindName): ClockRole {
  return kind === 'dgt' ? 'mirror' : 'host';
}

/** The round with `timekeeper: 'device'` on every board whose clock is mirrored (for a new journal). */
export function withDeviceTimekeepers(round: Round, specs: readonly DeviceSpec[]): Round {
  const mirrored = new Set(specs.filter((s) => deviceRole(s.kind) === 'mirror').map((s) => s.board));
  return { ...round, boards: round.boards.map((b) => (mirrored.has(b.id) ? { ...b, timekeeper: 'device' as const } : b)) };
}

/** A device ready to open once the console listens to it, and what to close besides it. */
export interface OpenedDevice {
  readonly device: ClockDevice;
  /** Mirrored clocks: the engine against the clock's latest reading (between presses). */
  compare?(state: GameState): ClockAlert | undefined;
  open(): Promise<void>;
  close(): Promise<void>;
}

/** A resumed board's presses whose board moves the journal does not have (a DGT board's `unreadPresses`). */
export const unreadPresses = (state: GameState): number => Math.max(0, state.presses.white + state.presses.black - state.moves.white - state.moves.black);

/**
 * A resumed game whose last press has no board move in the journal (the console stopped between a
 * press and the board's reading of its move): the side that pressed. Its DGT board reads that move at
 * once when it is still, not after the confirm wait for a press that already came.
 */
export function pressWithoutMove(state: GameState): Side | undefined {
  if (unreadPresses(state) === 0) return undefined;
  return state.toMove === 'white' ? 'black' : 'white';
}

/**
 * The device events of a board's journal from the latest device boot (their `origin`): a line clock
 * retransmits what the console journaled but died before acknowledging, and must not act on it twice.
 */
export function actedOn(records: Iterable<JournalRecord>): { boot: string; seqs: number[] } | undefined {
  let acted: { boot: string; seqs: number[] } | undefined;
  for (const record of records) {
    if (record.kind !== 'clock' || !record.origin) continue;
    if (acted?.boot !== record.origin.boot) acted = { boot: record.origin.boot, seqs: [] };
    acted.seqs.push(record.origin.seq);
  }
  return acted;
}

/**
 * Opens the bridge for a `--device` spec, in its role (deviceRole). A resumed board: `resumed` is its
 * game's state, `acted` its journal's device events (actedOn).
 */
export async function openDevice(
  spec: DeviceSpec,
  scheduler: Scheduler,
  resumed?: GameState,
  acted?: LineClockOptions['acted'],
  timeControl?: () => TimeControl | undefined,
): Promise<OpenedDevice> {
  switch (spec.kind) {
    case 'line': {
      const device = createLineClock({ boardId: spec.board, role: deviceRole(spec.kind), path: spec.path, scheduler, ...(acted ? { acted } : {}) });
      return { device, open: () => device.open(), close: () => device.close() };
    }
    case 'dgt': {
      // A resumed game: the board is read against the journal's position; what differs is read as
      // moves made while the console was down, or reported (never taken silently).
      const fen = resumed?.fen;
      const pressed = resumed ? pressWithoutMove(resumed) : undefined;
      const where = spec.serial ? { serial: spec.serial } : { path: spec.path };
      const unread = resumed ? unreadPresses(resumed) : 0;
      const device = createDgtDevice({
        boardId: spec.board,
        role: deviceRole(spec.kind),
        ...where,
        scheduler,
        ...(fen ? { fen } : {}),
        ...(pressed ? { pressed } : {}),
        ...(unread ? { unreadPresses: unread } : {}),
        ...(timeControl ? { timeControl } : {}),
      });
      return {
        device,
        // A reading between presses is a whole-second display up to a second old: 2 s, not the press's 1 s.
        compare: (state) => device.compareWithEngine(state, BETWEEN_PRESSES_TOLERANCE_MS),
        open: () => device.open(),
        close: () => device.close(),
      };
    }
    case 'firmata': {
      // The clock owns its port: it opens it, and opens it again after a USB glitch.
      const device = createFirmataClock({ boardId: spec.board, port: { path: spec.path }, scheduler });
      return { device, open: () => device.open(), close: () => device.close() };
    }
  }
}
