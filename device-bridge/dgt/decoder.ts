// Streaming decoder for board -> host messages. Feed it chunks as they arrive; it returns every
// complete message and an error for every stretch of bytes it had to skip. It never throws: payload
// bytes never have the top bit set, so any byte with the top bit set is a place to resynchronise.
import { decodeBwtime } from './bwtime.ts';
import type { DecodeError, DecodeErrorReason, DecodeOutput, DgtMessage, EeMovesEntry } from './messages.ts';
import { DgtMessageId, messageSizes, pieceFromCode, squareName } from './protocol.ts';

export interface DecoderStats {
  messages: number;
  garbageBytes: number;
  badHeaders: number;
  badLengths: number;
  truncated: number;
  badPayloads: number;
}

/** Sizes accepted for ids the decoder does not know: small messages only, so a stray id cannot eat the stream. */
const unknownSizes = { min: 3, max: 64 };
const maxSize = Math.max(...[...messageSizes.values()].map((s) => s.max));

const hex = (bytes: ArrayLike<number>, limit = 32): string => {
  const shown = Array.from(bytes).slice(0, limit);
  const text = shown.map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > limit ? `${text} ...` : text;
};

export class DgtDecoder {
  readonly stats: DecoderStats = { messages: 0, garbageBytes: 0, badHeaders: 0, badLengths: 0, truncated: 0, badPayloads: 0 };
  private pending: number[] = [];
  /** Stream offset of pending[0]. */
  private offset = 0;

  /** Decodes what can be decoded; keeps an incomplete message for the next chunk. */
  push(chunk: ArrayLike<number>): DecodeOutput[] {
    for (let i = 0; i < chunk.length; i++) this.pending.push((chunk[i] ?? 0) & 0xff);
    const out: DecodeOutput[] = [];
    for (;;) {
      const step = this.step();
      if (step === 'wait') break;
      out.push(step);
    }
    return out;
  }

  /** Bytes held while waiting for the rest of a message. */
  get buffered(): number {
    return this.pending.length;
  }

  private skip(count: number, reason: DecodeErrorReason, detail: string): DecodeError {
    const skipped = this.pending.splice(0, count);
    const error: DecodeError = { type: 'error', reason, offset: this.offset, bytes: hex(skipped), count, detail };
    this.offset += count;
    if (reason === 'garbage') this.stats.garbageBytes += count;
    else if (reason === 'bad-header') this.stats.badHeaders++;
    else if (reason === 'bad-length') this.stats.badLengths++;
    else if (reason === 'truncated') this.stats.truncated++;
    else this.stats.badPayloads++;
    return error;
  }

  private step(): DecodeOutput | 'wait' {
    const p = this.pending;
    if (p.length === 0) return 'wait';
    const start = p.findIndex((b) => b & 0x80);
    if (start !== 0) {
      const count = start < 0 ? p.length : start;
      return this.skip(count, 'garbage', `${count} byte(s) outside any message`);
    }
    if (p.length < 3) return p.slice(1).some((b) => b & 0x80) ? this.badHeader() : 'wait';
    const id = p[0] ?? 0;
    const s1 = p[1] ?? 0;
    const s2 = p[2] ?? 0;
    if ((s1 | s2) & 0x80) return this.badHeader();
    const size = (s1 << 7) | s2;
    const allowed = messageSizes.get(id) ?? unknownSizes;
    if (size < allowed.min || size > allowed.max || size > maxSize) {
      return this.skip(1, 'bad-length', `message 0x${id.toString(16)} with size ${size}, expected ${allowed.min}..${allowed.max}`);
    }
    const available = Math.min(p.length, size);
    for (let i = 3; i < available; i++) {
      if ((p[i] ?? 0) & 0x80) return this.skip(i, 'truncated', `message 0x${id.toString(16)} cut after ${i} of ${size} bytes`);
    }
    if (p.length < size) return 'wait';
    const payload = p.slice(3, size);
    const message = decodePayload(id, payload);
    if (typeof message === 'string') return this.skip(size, 'bad-payload', message);
    this.pending.splice(0, size);
    this.offset += size;
    this.stats.messages++;
    return message;
  }

  private badHeader(): DecodeError {
    return this.skip(1, 'bad-header', `message 0x${(this.pending[0] ?? 0).toString(16)} without a size`);
  }
}

const ascii = (payload: readonly number[]): string => String.fromCharCode(...payload).replace(/\0+$/, '');

/** Decodes one complete message's payload; a string says why it is impossible. */
export function decodePayload(id: number, payload: readonly number[]): DgtMessage | string {
  switch (id) {
    case DgtMessageId.boardDump:
      return { type: 'boardDump', squares: payload.map(pieceFromCode) };
    case DgtMessageId.fieldUpdate: {
      const [square = 0, code = 0] = payload;
      if (square > 63) return `field update for square ${square}`;
      return { type: 'fieldUpdate', square, field: squareName(square), piece: pieceFromCode(code) };
    }
    case DgtMessageId.clock: {
      const decoded = decodeBwtime(payload);
      return decoded;
    }
    case DgtMessageId.version: {
      const [major = 0, minor = 0] = payload;
      return { type: 'version', major, minor, text: `${major}.${String(minor).padStart(2, '0')}` };
    }
    case DgtMessageId.hardwareVersion: {
      const [major = 0, minor = 0] = payload;
      return { type: 'hardwareVersion', major, minor };
    }
    case DgtMessageId.serialNumber:
      return { type: 'serialNumber', serial: ascii(payload.slice(0, 5)) };
    case DgtMessageId.longSerialNumber:
      return { type: 'longSerialNumber', serial: ascii(payload) };
    case DgtMessageId.trademark:
      return { type: 'trademark', text: ascii(payload) };
    case DgtMessageId.busAddress: {
      const [hi = 0, lo = 0] = payload;
      return { type: 'busAddress', address: (hi << 7) | lo };
    }
    case DgtMessageId.batteryStatus: {
      const [percent = 0, hours = 0x7f, minutes = 0x7f] = payload;
      const status = payload[8] ?? 0;
      return {
        type: 'battery',
        percent,
        minutesLeft: hours === 0x7f || minutes === 0x7f ? null : hours * 60 + minutes,
        charging: (status & 0x01) !== 0,
        discharging: (status & 0x02) !== 0,
        raw: payload,
      };
    }
    case DgtMessageId.eeMoves:
      return { type: 'eeMoves', entries: decodeEeMoves(payload) };
    case DgtMessageId.boardDump50b:
    case DgtMessageId.boardDump50w:
      return { type: 'draughtsBoard', id, squares: payload };
    default:
      return { type: 'unknown', id, payload };
  }
}

const eeTags: Record<number, string> = {
  0x6a: 'power-up',
  0x6b: 'eof',
  0x6c: 'four-rows',
  0x6d: 'empty-board',
  0x6e: 'downloaded',
  0x6f: 'begin-position',
  0x7a: 'begin-position-rotated',
  0x7b: 'start-tag',
  0x7c: 'watchdog-action',
  0x7d: 'future-1',
  0x7e: 'future-2',
};

/** The board's EEPROM log: field changes, clock times at lever changes, and one-byte tags. */
export function decodeEeMoves(payload: readonly number[]): EeMovesEntry[] {
  const entries: EeMovesEntry[] = [];
  for (let i = 0; i < payload.length; ) {
    const b = payload[i] ?? 0;
    if (b >= 0x40 && b <= 0x5f && i + 1 < payload.length) {
      entries.push({ kind: 'field', piece: pieceFromCode(b & 0x0f), quick: (b & 0x10) !== 0, square: (payload[i + 1] ?? 0) & 0x3f });
      i += 2;
    } else if (((b >= 0x60 && b <= 0x69) || (b >= 0x70 && b <= 0x79)) && i + 2 < payload.length) {
      const hours = b & 0x0f;
      const bcd = (x: number) => (x >> 4) * 10 + (x & 0x0f);
      const ms = ((hours * 60 + bcd(payload[i + 1] ?? 0)) * 60 + bcd(payload[i + 2] ?? 0)) * 1000;
      entries.push({ kind: 'time', side: b & 0x10 ? 'left' : 'right', ms });
      i += 3;
    } else {
      if (b !== 0x7f && b !== 0x00) entries.push({ kind: 'tag', tag: eeTags[b] ?? `0x${b.toString(16)}` });
      i += 1;
      if (b === 0x6b) break;
    }
  }
  return entries;
}
