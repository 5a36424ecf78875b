// Host -> board bytes: one-byte board commands and the DGT XL / DGT 3000 clock commands (0x2B frames).
import { ClockCommand, DgtCommand, type DgtCommandName } from './protocol.ts';

export function boardCommand(name: DgtCommandName): Uint8Array {
  return Uint8Array.of(DgtCommand[name]);
}

/** `2B size 03 cmd data... 00`, size counting the bytes after itself. */
export function clockFrame(command: number, data: readonly number[] = []): Uint8Array {
  return Uint8Array.of(DgtCommand.clockMessage, data.length + 3, 0x03, command, ...data, 0x00);
}

export type RunningSide = 'left' | 'right' | 'pause';

export interface SetAndRun {
  readonly leftMs: number;
  readonly rightMs: number;
  readonly run: RunningSide;
  /** Let the clock switch sides itself at a lever change (run byte bit 3). */
  readonly toggleOnLever?: boolean;
}

const hms = (ms: number): [number, number, number] => {
  // The clock counts whole seconds down; show a started second as a whole one (2.4 s -> 0:00:03).
  const total = Math.min(9 * 3600 + 59 * 60 + 59, Math.max(0, Math.ceil(ms / 1000)));
  return [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
};

const runBytes: Record<RunningSide, number> = { left: 0x01, right: 0x02, pause: 0x04 };

/** Times are sent as plain binary, as every serial implementation does (only DGT's I2C library uses BCD). */
export function setAndRun(command: SetAndRun): Uint8Array {
  const run = runBytes[command.run] | (command.toggleOnLever ? 0x08 : 0);
  return clockFrame(ClockCommand.setAndRun, [...hms(command.leftMs), ...hms(command.rightMs), run]);
}

/** DGT 3000 text: exactly 8 characters (padded/cut), then a beep of 0-15 (0 = none). */
export function asciiText(text: string, beep = 0): Uint8Array {
  const chars = [...text.padEnd(8, ' ').slice(0, 8)].map((c) => {
    const code = c.charCodeAt(0);
    return code >= 0x20 && code < 0x7f ? code : 0x20;
  });
  return clockFrame(ClockCommand.ascii, [...chars, Math.max(0, Math.min(15, beep))]);
}

const segments: Record<string, number> = {
  '0': 0x3f,
  '1': 0x06,
  '2': 0x5b,
  '3': 0x4f,
  '4': 0x66,
  '5': 0x6d,
  '6': 0x7d,
  '7': 0x07,
  '8': 0x7f,
  '9': 0x6f,
  a: 0x5f,
  b: 0x7c,
  c: 0x58,
  d: 0x5e,
  e: 0x7b,
  f: 0x71,
  g: 0x3d,
  h: 0x74,
  i: 0x10,
  j: 0x1e,
  k: 0x75,
  l: 0x38,
  m: 0x55,
  n: 0x54,
  o: 0x5c,
  p: 0x73,
  q: 0x67,
  r: 0x50,
  s: 0x6d,
  t: 0x78,
  u: 0x3e,
  v: 0x2a,
  w: 0x7e,
  x: 0x64,
  y: 0x6e,
  z: 0x5b,
  ' ': 0x00,
  '-': 0x40,
  '/': 0x52,
  '|': 0x36,
  '\\': 0x64,
  '?': 0x53,
  '@': 0x65,
  '=': 0x48,
  _: 0x08,
};

/** DGT XL 7-segment text: six digits "AB CDEF" sent in the clock's order C, B, A, F, E, D. */
export function xlDisplay(text: string, options: { icons?: number; beep?: boolean } = {}): Uint8Array {
  const codes = [...text.toLowerCase()].map((c) => segments[c]).filter((c): c is number => c !== undefined);
  const d = [...codes, 0, 0, 0, 0, 0, 0].slice(0, 6) as [number, number, number, number, number, number];
  // The header says 0x03 = beep, 0x01 = no beep.
  return clockFrame(ClockCommand.display, [d[2], d[1], d[0], d[5], d[4], d[3], options.icons ?? 0, options.beep ? 0x03 : 0x01]);
}

/** Beep for `ms` (64 ms units, at most 127 units). */
export function beep(ms: number): Uint8Array {
  return clockFrame(ClockCommand.beep, [Math.max(1, Math.min(0x7f, Math.round(ms / 64)))]);
}

/** Back to showing the times after a text. */
export const endDisplay = (): Uint8Array => clockFrame(ClockCommand.end);
export const clockVersion = (): Uint8Array => clockFrame(ClockCommand.version);
export const clockButtons = (): Uint8Array => clockFrame(ClockCommand.button);

/** Icons: left and right icon bytes, period/flag bytes, the special byte; 3 reserved zero bytes. */
export function icons(left: number, right: number, leftPeriod: number, rightPeriod: number, special: number): Uint8Array {
  return clockFrame(ClockCommand.icons, [left & 0x7f, right & 0x7f, leftPeriod & 0x7f, rightPeriod & 0x7f, special & 0x7f, 0, 0, 0]);
}

/** Revelation II / Pegasus LEDs: pattern 0 off, 1 on, 2 configuration; squares in the board's numbering. */
export function leds(pattern: 0 | 1 | 2, start: number, end: number): Uint8Array {
  return Uint8Array.of(DgtCommand.setLeds, 0x04, pattern, start & 0x7f, end & 0x7f, 0x00);
}

/** A decoded host -> board command, as the simulator (or a protocol analyser) reads it. */
export type HostCommand =
  | { readonly kind: 'board'; readonly byte: number }
  | { readonly kind: 'clock'; readonly command: number; readonly data: readonly number[]; readonly frame: readonly number[] }
  | { readonly kind: 'leds'; readonly data: readonly number[] }
  | { readonly kind: 'invalid'; readonly bytes: readonly number[] };

/** Splits the host's byte stream into commands; never throws. */
export class HostCommandDecoder {
  private pending: number[] = [];

  push(chunk: ArrayLike<number>): HostCommand[] {
    for (let i = 0; i < chunk.length; i++) this.pending.push((chunk[i] ?? 0) & 0xff);
    const out: HostCommand[] = [];
    for (;;) {
      const first = this.pending[0];
      if (first === undefined) break;
      if (first === DgtCommand.clockMessage || first === DgtCommand.setLeds) {
        const size = this.pending[1];
        if (size === undefined) break;
        if (size < 2 || size > 20) {
          out.push({ kind: 'invalid', bytes: this.pending.splice(0, 1) });
          continue;
        }
        if (this.pending.length < size + 2) break;
        const frame = this.pending.splice(0, size + 2);
        if (first === DgtCommand.setLeds) out.push({ kind: 'leds', data: frame.slice(2, -1) });
        else if (frame[2] !== 0x03 || frame[frame.length - 1] !== 0x00) out.push({ kind: 'invalid', bytes: frame });
        else out.push({ kind: 'clock', command: frame[3] ?? 0, data: frame.slice(4, -1), frame });
      } else if (first >= 0x40 && first <= 0x58) {
        out.push({ kind: 'board', byte: this.pending.shift() ?? first });
      } else {
        out.push({ kind: 'invalid', bytes: this.pending.splice(0, 1) });
      }
    }
    return out;
  }
}
