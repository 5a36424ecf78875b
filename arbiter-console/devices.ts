// `--device BOARD=KIND:PATH`: which bridge drives which board.
import type { ClockDevice, Scheduler } from '../device-bridge/index.ts';
import { createDgtDevice, createFirmataClock, createLineClock, openFirmataLink } from '../device-bridge/index.ts';

export type DeviceKindName = 'dgt' | 'line' | 'firmata';

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

/** A device ready to open once the console listens to it, and what to close besides it. */
export interface OpenedDevice {
  readonly device: ClockDevice;
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Line and Firmata clocks are host-driven here (the console keeps time; the clock shows it). DGT clocks
 * are mirrored (the clock keeps time; the console follows its readings and flags a disagreement).
 */
export async function openDevice(spec: DeviceSpec, scheduler: Scheduler): Promise<OpenedDevice> {
  switch (spec.kind) {
    case 'line': {
      const device = createLineClock({ boardId: spec.board, role: 'host', path: spec.path, scheduler });
      return { device, open: () => device.open(), close: () => device.close() };
    }
    case 'dgt': {
      const device = createDgtDevice({ boardId: spec.board, role: 'mirror', path: spec.path, scheduler });
      return { device, open: () => device.open(), close: () => device.close() };
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
