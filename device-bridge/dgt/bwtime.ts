// DGT_MSG_BWTIME (0x8D): either both clock times or a clock-command acknowledgement.
// Layout: [3..5] right side (flags|hours, BCD minutes, BCD seconds), [6..8] left side, [9] status.
import type { BlankClockMessage, ClockAckMessage, ClockButton, ClockSideName, ClockSideReading, ClockTimesMessage, NoClockMessage } from './messages.ts';

export const Status = {
  running: 0x01,
  leverRightHigh: 0x02,
  batteryLow: 0x04,
  d3: 0x08,
  d4: 0x10,
  noClock: 0x20,
} as const;

const SideFlag = { finalFlag: 0x10, timePerMove: 0x20, flag: 0x40 } as const;

export const toBcd = (n: number): number => ((Math.floor(n / 10) % 10) << 4) | (n % 10);
const fromBcd = (b: number): number | undefined => {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi > 5 || lo > 9 ? undefined : hi * 10 + lo;
};

/** The ack's `ack3` codes for the five DGT 3000 buttons. */
const buttons: Record<number, ClockButton> = { 0x31: 'back', 0x32: 'plus', 0x33: 'run', 0x34: 'minus', 0x35: 'ok' };

/** True when the payload is an ack: hours are 0-9, so a low nibble of 0x0A cannot be a time. */
export const isClockAck = (p: ArrayLike<number>): boolean => ((p[0] ?? 0) & 0x0f) === 0x0a || ((p[3] ?? 0) & 0x0f) === 0x0a;

function decodeAck(p: ArrayLike<number>): ClockAckMessage {
  const b = (i: number) => p[i] ?? 0;
  const ack0 = (b(1) & 0x7f) | ((b(3) << 3) & 0x80);
  const ack1 = (b(2) & 0x7f) | ((b(3) << 2) & 0x80);
  const ack2 = (b(4) & 0x7f) | ((b(0) << 3) & 0x80);
  const ack3 = (b(5) & 0x7f) | ((b(0) << 2) & 0x80);
  const auto = (ack1 & 0x80) !== 0;
  const command = ack1 & 0x7f;
  const button = auto && command === 0x08 ? buttons[ack3] : undefined;
  const version = !auto && command === 0x09 ? { major: ack2 >> 4, minor: ack2 & 0x0f } : undefined;
  return {
    type: 'clockAck',
    ack: [ack0, ack1, ack2, ack3],
    ok: ack0 === 0x10,
    auto,
    command,
    ...(button ? { button } : {}),
    ...(version ? { version } : {}),
  };
}

function decodeSide(flagsHours: number, minutes: number, seconds: number): ClockSideReading | string {
  const hours = flagsHours & 0x0f;
  const m = fromBcd(minutes);
  const s = fromBcd(seconds);
  if (hours > 9 || m === undefined || s === undefined) {
    return `impossible time ${flagsHours.toString(16)}:${minutes.toString(16)}:${seconds.toString(16)}`;
  }
  return {
    ms: ((hours * 60 + m) * 60 + s) * 1000,
    flag: (flagsHours & SideFlag.flag) !== 0,
    finalFlag: (flagsHours & SideFlag.finalFlag) !== 0,
    timePerMove: (flagsHours & SideFlag.timePerMove) !== 0,
  };
}

export type BwtimeDecoded = ClockTimesMessage | NoClockMessage | BlankClockMessage | ClockAckMessage;

/** Decodes the 7 payload bytes; a string is the reason the payload is impossible. */
export function decodeBwtime(p: ArrayLike<number>): BwtimeDecoded | string {
  if (p.length !== 7) return `clock payload of ${p.length} bytes, expected 7`;
  if (isClockAck(p)) return decodeAck(p);
  const b = (i: number) => p[i] ?? 0;
  if ([0, 1, 2, 3, 4, 5].every((i) => b(i) === 0) && b(6) === 0) return { type: 'clockBlank' };
  const status = b(6);
  if (status & Status.noClock) return { type: 'noClock', status };
  const right = decodeSide(b(0), b(1), b(2));
  const left = decodeSide(b(3), b(4), b(5));
  if (typeof right === 'string') return `right side: ${right}`;
  if (typeof left === 'string') return `left side: ${left}`;
  const running = (status & Status.running) !== 0;
  const leverHigh: ClockSideName = status & Status.leverRightHigh ? 'right' : 'left';
  return {
    type: 'clock',
    right,
    left,
    running,
    leverHigh,
    runningSide: running ? leverHigh : 'none',
    batteryLow: (status & Status.batteryLow) !== 0,
    turnBits: { d3: (status & Status.d3) !== 0, d4: (status & Status.d4) !== 0 },
    status,
  };
}

export interface ClockFace {
  readonly ms: number;
  readonly flag?: boolean;
  readonly finalFlag?: boolean;
  readonly timePerMove?: boolean;
}

function encodeSide(side: ClockFace): [number, number, number] {
  const total = Math.max(0, Math.floor(side.ms / 1000));
  const hours = Math.min(9, Math.floor(total / 3600));
  const minutes = Math.floor(total / 60) % 60;
  const seconds = total % 60;
  const flags = (side.flag ? SideFlag.flag : 0) | (side.finalFlag ? SideFlag.finalFlag : 0) | (side.timePerMove ? SideFlag.timePerMove : 0);
  return [flags | hours, toBcd(minutes), toBcd(seconds)];
}

/** The 7 payload bytes of a time message (what a clock sends); used by the simulator and tests. */
export function encodeBwtimePayload(right: ClockFace, left: ClockFace, status: number): number[] {
  return [...encodeSide(right), ...encodeSide(left), status & 0x7f];
}

/** The 7 payload bytes of an ack carrying ack0..ack3, with the 0x0A markers in bytes 0 and 3. */
export function encodeAckPayload(ack: readonly [number, number, number, number]): number[] {
  const [a0, a1, a2, a3] = ack;
  const byte0 = 0x0a | ((a2 & 0x80) >> 3) | ((a3 & 0x80) >> 2);
  const byte3 = 0x0a | ((a0 & 0x80) >> 3) | ((a1 & 0x80) >> 2);
  return [byte0, a0 & 0x7f, a1 & 0x7f, byte3, a2 & 0x7f, a3 & 0x7f, 0];
}
