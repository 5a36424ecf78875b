// Board -> host message bytes: what a board sends. The simulator speaks with these; tests build vectors.
import { encodeAckPayload, encodeBwtimePayload, type ClockFace } from './bwtime.ts';
import { DgtMessageId, codeFromPiece, encodeSize, type PieceLetter } from './protocol.ts';

export function boardMessage(id: number, payload: readonly number[]): Uint8Array {
  return Uint8Array.of(id, ...encodeSize(payload.length + 3), ...payload);
}

export const boardDumpMessage = (squares: readonly PieceLetter[]): Uint8Array => boardMessage(DgtMessageId.boardDump, squares.map(codeFromPiece));

export const fieldUpdateMessage = (square: number, piece: PieceLetter): Uint8Array => boardMessage(DgtMessageId.fieldUpdate, [square, codeFromPiece(piece)]);

export const clockTimesMessage = (right: ClockFace, left: ClockFace, status: number): Uint8Array =>
  boardMessage(DgtMessageId.clock, encodeBwtimePayload(right, left, status));

export const clockAckMessage = (ack: readonly [number, number, number, number]): Uint8Array => boardMessage(DgtMessageId.clock, encodeAckPayload(ack));

export const versionMessage = (major: number, minor: number): Uint8Array => boardMessage(DgtMessageId.version, [major, minor]);

const asciiBytes = (text: string): number[] => [...text].map((c) => c.charCodeAt(0) & 0x7f);

export const serialNumberMessage = (serial: string): Uint8Array => boardMessage(DgtMessageId.serialNumber, asciiBytes(serial.padStart(5, '0').slice(-5)));
export const longSerialNumberMessage = (serial: string): Uint8Array =>
  boardMessage(DgtMessageId.longSerialNumber, asciiBytes(serial.padStart(10, '0').slice(-10)));
export const trademarkMessage = (text: string): Uint8Array => boardMessage(DgtMessageId.trademark, asciiBytes(text));
export const busAddressMessage = (address: number): Uint8Array => boardMessage(DgtMessageId.busAddress, [(address >> 7) & 0x7f, address & 0x7f]);
export const batteryMessage = (percent: number, charging: boolean): Uint8Array =>
  boardMessage(DgtMessageId.batteryStatus, [percent & 0x7f, 0x7f, 0x7f, 0, 0, 0, 0, 0, charging ? 0x01 : 0x02]);
export const eeMovesMessage = (log: readonly number[]): Uint8Array => boardMessage(DgtMessageId.eeMoves, log);
