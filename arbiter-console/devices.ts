// `--device BOARD=KIND:PATH`: which bridge drives which board.
import type { ClockDevice, Scheduler } from '../device-bridge/index.ts';
import { createLineClock } from '../device-bridge/index.ts';

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

/**
 * A line clock is host-driven here (the console keeps time; the clock shows it). DGT clocks are mirrored
 * (the clock keeps time; the console resyncs from its readings).
 */
export function openDevice(spec: DeviceSpec, scheduler: Scheduler): ClockDevice {
  switch (spec.kind) {
    case 'line':
      return createLineClock({ boardId: spec.board, role: 'host', path: spec.path, scheduler });
    case 'dgt':
    case 'firmata':
      throw new Error(`--device ${spec.board}=${spec.kind}:${spec.path}: the ${spec.kind} bridge does not offer a ClockDevice in this build yet`);
  }
}
