// `--device BOARD=KIND:PATH`: which bridge drives which board.
import type { ClockDevice, ClockRole, Scheduler } from '../device-bridge/index.ts';
import { createDgtDevice, createFirmataClock, createLineClock, openFirmataLink } from '../device-bridge/index.ts';
import { deviceFlagGraceMs, type ClockAlert, type GameState } from '../clock-engine/index.ts';
import type { Round } from './round.ts';

export type DeviceKindName = 'dgt' | 'line' | 'firmata';

const BETWEEN_PRESSES_TOLERANCE_MS = 2_000;

export interface DeviceSpec {
  readonly board: string;
  readonly kind: DeviceKindName;
  readonly path: string;
}

/** Parses "3=dgt:/dev/ttyUSB0"; throws with the expected form. */
export function parseDeviceSpec(text: string): DeviceSpec {
  const match = /^([A-Za-z0-9_.-]{1,32})=(dgt|line|firmata):(.+)$/.exec(text);
  if (!match) throw new Error(`--device '${text}': expected BOARD=dgt:PATH, BOARD=line:PATH or BOARD=firmata:PATH`);
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

/**
 * What a restart cannot change: the journal's timekeeper per board stands (the replay depends on it).
 * Returns one sentence per board where the devices given now would have chosen otherwise.
 */
export function timekeeperMismatches(round: Round, specs: readonly DeviceSpec[]): string[] {
  const wanted = withDeviceTimekeepers({ ...round, boards: round.boards.map(({ timekeeper: _, ...b }) => b) }, specs);
  return wanted.boards.flatMap((b, i) => {
    const kept = round.boards[i]?.timekeeper;
    if (kept === b.timekeeper) return [];
    return [
      kept === 'device'
        ? `board ${b.id}: the journal has its clock keeping the time (mirrored) but no mirrored device is given now; the console follows the journal and waits ${deviceFlagGraceMs / 1000} s past zero for a flag from the clock`
        : `board ${b.id}: a mirrored clock is given but the journal has the console keeping this board's time; the clock's readings are only compared`,
    ];
  });
}

/** A device ready to open once the console listens to it, and what to close besides it. */
export interface OpenedDevice {
  readonly device: ClockDevice;
  /** Mirrored clocks: the engine against the clock's latest reading (between presses). */
  compare?(state: GameState): ClockAlert | undefined;
  open(): Promise<void>;
  close(): Promise<void>;
}

/** Opens the bridge for a `--device` spec, in its role (deviceRole). */
export async function openDevice(spec: DeviceSpec, scheduler: Scheduler, resumed?: GameState): Promise<OpenedDevice> {
  switch (spec.kind) {
    case 'line': {
      const device = createLineClock({ boardId: spec.board, role: deviceRole(spec.kind), path: spec.path, scheduler });
      return { device, open: () => device.open(), close: () => device.close() };
    }
    case 'dgt': {
      // A resumed game: the board is read against the journal's position; what differs is read as
      // moves made while the console was down, or reported (never taken silently).
      const fen = resumed?.fen;
      const device = createDgtDevice({ boardId: spec.board, role: deviceRole(spec.kind), path: spec.path, scheduler, ...(fen ? { fen } : {}) });
      return {
        device,
        // A reading between presses is a whole-second display up to a second old: 2 s, not the press's 1 s.
        compare: (state) => device.compareWithEngine(state, BETWEEN_PRESSES_TOLERANCE_MS),
        open: () => device.open(),
        close: () => device.close(),
      };
    }
    case 'firmata': {
      const link = await openFirmataLink({ path: spec.path });
      const device = createFirmataClock({ boardId: spec.board, io: link.io, scheduler });
      return {
        device,
        open: () => device.open(),
        async close() {
          await device.close();
          await link.close();
        },
      };
    }
  }
}
