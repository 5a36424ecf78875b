// DGT single-board protocol constants (DGT's dgtbrd.h, checked against real captures; see
// docs/dgt.md). Pure data, no I/O.

/** Host -> board one-byte commands. */
export const DgtCommand = {
  reset: 0x40,
  sendClock: 0x41,
  sendBoard: 0x42,
  updateMode: 0x43,
  updateBoardMode: 0x44,
  serialNumber: 0x45,
  busAddress: 0x46,
  trademark: 0x47,
  hardwareVersion: 0x48,
  eeMoves: 0x49,
  toBusMode: 0x4a,
  updateNiceMode: 0x4b,
  batteryStatus: 0x4c,
  version: 0x4d,
  startBootloader: 0x4e,
  longSerialNumber: 0x55,
  clockMessage: 0x2b,
  setLeds: 0x60,
} as const;
export type DgtCommandName = keyof typeof DgtCommand;

/** Board -> host message ids (MSB set). */
export const DgtMessageId = {
  boardDump: 0x86,
  clock: 0x8d,
  fieldUpdate: 0x8e,
  eeMoves: 0x8f,
  busAddress: 0x90,
  serialNumber: 0x91,
  trademark: 0x92,
  version: 0x93,
  boardDump50b: 0x94,
  boardDump50w: 0x95,
  hardwareVersion: 0x96,
  batteryStatus: 0xa0,
  longSerialNumber: 0xa2,
} as const;

/** Total message sizes (header included) the decoder accepts per id; `undefined` = variable. */
export const messageSizes: ReadonlyMap<number, { readonly min: number; readonly max: number }> = new Map([
  [DgtMessageId.boardDump, { min: 67, max: 67 }],
  [DgtMessageId.clock, { min: 10, max: 10 }],
  [DgtMessageId.fieldUpdate, { min: 5, max: 5 }],
  // Cyclic 0x1F00-byte EEPROM log; accept shorter logs from other firmware.
  [DgtMessageId.eeMoves, { min: 4, max: 0x2000 - 0x100 + 3 }],
  [DgtMessageId.busAddress, { min: 5, max: 5 }],
  // 5 digits (2012+ header); the 1998 header appended " 1.0" (size 12).
  [DgtMessageId.serialNumber, { min: 8, max: 12 }],
  [DgtMessageId.trademark, { min: 3, max: 259 }],
  [DgtMessageId.version, { min: 5, max: 5 }],
  [DgtMessageId.boardDump50b, { min: 53, max: 53 }],
  [DgtMessageId.boardDump50w, { min: 53, max: 53 }],
  [DgtMessageId.hardwareVersion, { min: 5, max: 5 }],
  // The header's size macro says 7 but its byte list runs to 12: parse by the size field.
  [DgtMessageId.batteryStatus, { min: 7, max: 12 }],
  [DgtMessageId.longSerialNumber, { min: 13, max: 13 }],
]);

/** Clock sub-commands inside a 0x2B frame; the ack's ack1 byte echoes them. */
export const ClockCommand = {
  display: 0x01,
  icons: 0x02,
  end: 0x03,
  button: 0x08,
  version: 0x09,
  setAndRun: 0x0a,
  beep: 0x0b,
  ascii: 0x0c,
} as const;
export type ClockCommandName = keyof typeof ClockCommand;

/** Piece letters in FEN notation indexed by DGT piece code (note: king before queen). */
const pieceLetters = ['.', 'P', 'R', 'N', 'B', 'K', 'Q', 'p', 'r', 'n', 'b', 'k', 'q'] as const;
export type PieceLetter = (typeof pieceLetters)[number];
/** Codes 0x0D-0x0F are the "magic result pieces" of newer boards; they are not chess pieces. */
export type BoardSquare = PieceLetter | 'draw-piece' | 'white-win-piece' | 'black-win-piece' | 'unknown';

export function pieceFromCode(code: number): BoardSquare {
  if (code >= 0 && code < pieceLetters.length) return pieceLetters[code] as PieceLetter;
  if (code === 0x0d) return 'draw-piece';
  if (code === 0x0e) return 'white-win-piece';
  if (code === 0x0f) return 'black-win-piece';
  return 'unknown';
}

export function codeFromPiece(piece: PieceLetter): number {
  return pieceLetters.indexOf(piece);
}

/** Square name of a DGT square index (0 = a8 ... 63 = h1) in the board's own, unrotated numbering. */
export function squareName(index: number): string {
  const file = index % 8;
  const rank = 8 - Math.floor(index / 8);
  return `${'abcdefgh'[file] ?? '?'}${rank}`;
}

export function squareIndex(name: string): number {
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name[1]);
  return (8 - rank) * 8 + file;
}

/** 7-bit big-endian size pair used in every board message header. */
export function encodeSize(total: number): [number, number] {
  return [(total >> 7) & 0x7f, total & 0x7f];
}
