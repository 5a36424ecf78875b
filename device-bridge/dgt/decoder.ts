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
/** Consecutive skipped stretches reported one by one before the rest of the run is merged. */
const separateErrors = 8;
type MutableError = { -readonly [K in keyof DecodeError]: DecodeError[K] };
const maxSize = Math.max(...[...messageSizes.values()].map((s) => s.max));

const hexByte = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hex = (bytes: ArrayLike<number>, limit = 32): string => {
  let text = '';
  const shown = Math.min(limit, bytes.length);
  for (let i = 0; i < shown; i++) text += (i ? ' ' : '') + hexByte[(bytes[i] ?? 0) & 0xff];
  return bytes.length > limit ? `${text} ...` : text;
};

/**
 * Linear in the input over any chunk size: bytes live in one growing buffer read through offsets, and
 * what has been consumed is dropped only when it is more than half the buffer (amortised O(1) a byte).
 */
export class DgtDecoder {
  readonly stats: DecoderStats = { messages: 0, garbageBytes: 0, badHeaders: 0, badLengths: 0, truncated: 0, badPayloads: 0 };
  private buffer = new Uint8Array(256);
  /** buffer[head, tail) holds the bytes not yet decoded. */
  private head = 0;
  private tail = 0;
  /** Stream offset of buffer[head]. */
  private offset = 0;
  /**
   * Skips since the last message (across pushes: a serial read may bring one byte), and the stretch the
   * later ones are merged into.
   */
  private run = 0;
  private noise: MutableError | undefined;
  /** The last skip when it was garbage, and the stream offset where it ended: a stretch a read cut in two. */
  private garbage: { readonly error: MutableError; end: number } | undefined;

  /**
   * Decodes what can be decoded; keeps an incomplete message for the next chunk. A run of more than
   * `separateErrors` skips with no message between (line noise) goes on as one 'garbage' stretch, and
   * garbage that goes on into the next chunk goes on in the same error, so noise costs one error, not
   * one per byte or per read, whatever the chunk size (the stats still count every kind; an error's
   * `count` grows while its stretch goes on).
   */
  push(chunk: ArrayLike<number>): DecodeOutput[] {
    this.append(chunk);
    const out: DecodeOutput[] = [];
    for (;;) {
      const step = this.step();
      if (step === 'wait') break;
      if (step === 'merged') continue;
      if (step.type !== 'error') {
        this.run = 0;
        this.noise = undefined;
        this.garbage = undefined;
      }
      out.push(step);
    }
    if (this.head === this.tail) this.head = this.tail = 0;
    return out;
  }

  /** Bytes held while waiting for the rest of a message. */
  get buffered(): number {
    return this.tail - this.head;
  }

  private append(chunk: ArrayLike<number>): void {
    const length = chunk.length;
    if (this.tail + length > this.buffer.length) {
      const kept = this.tail - this.head;
      const size = Math.max(this.buffer.length, 2 * (kept + length));
      const next = size > this.buffer.length ? new Uint8Array(size) : this.buffer;
      next.set(this.buffer.subarray(this.head, this.tail), 0);
      this.buffer = next;
      this.head = 0;
      this.tail = kept;
    }
    if (chunk instanceof Uint8Array) this.buffer.set(chunk, this.tail);
    else for (let i = 0; i < length; i++) this.buffer[this.tail + i] = (chunk[i] ?? 0) & 0xff;
    this.tail += length;
  }

  private at(i: number): number {
    return this.buffer[this.head + i] ?? 0;
  }

  /** Whether the next skip is reported on its own (and so needs its detail text). */
  private get reporting(): boolean {
    return this.run < separateErrors;
  }

  private skip(count: number, reason: DecodeErrorReason, detail: string): DecodeError | 'merged' {
    if (reason === 'garbage') this.stats.garbageBytes += count;
    else if (reason === 'bad-header') this.stats.badHeaders++;
    else if (reason === 'bad-length') this.stats.badLengths++;
    else if (reason === 'truncated') this.stats.truncated++;
    else this.stats.badPayloads++;
    const offset = this.offset;
    if (reason === 'garbage' && this.garbage?.end === offset) {
      // The same stretch, cut by the end of the last chunk.
      this.garbage.error.count += count;
      this.consume(count);
      this.garbage.end = this.offset;
      return 'merged';
    }
    const merged = ++this.run > separateErrors;
    if (merged && this.noise) {
      this.noise.count += count;
      this.consume(count);
      this.garbage = { error: this.noise, end: this.offset };
      return 'merged';
    }
    const bytes = hex(this.buffer.subarray(this.head, this.head + count));
    this.consume(count);
    if (merged)
      this.noise = {
        type: 'error',
        reason: 'garbage',
        offset,
        bytes,
        count,
        detail: 'line noise: skips of every kind in a row, merged (the stats count each)',
      };
    const error: MutableError = this.noise ?? { type: 'error', reason, offset, bytes, count, detail };
    this.garbage = error.reason === 'garbage' ? { error, end: this.offset } : undefined;
    return error;
  }

  private consume(count: number): void {
    this.head += count;
    this.offset += count;
  }

  private step(): DecodeOutput | 'wait' | 'merged' {
    const length = this.tail - this.head;
    if (length === 0) return 'wait';
    let start = 0;
    while (start < length && !(this.at(start) & 0x80)) start++;
    if (start !== 0) return this.skip(start, 'garbage', this.reporting ? `${start} byte(s) outside any message` : '');
    if (length < 3) {
      for (let i = 1; i < length; i++) if (this.at(i) & 0x80) return this.badHeader();
      return 'wait';
    }
    const id = this.at(0);
    const s1 = this.at(1);
    const s2 = this.at(2);
    if ((s1 | s2) & 0x80) return this.badHeader();
    const size = (s1 << 7) | s2;
    const allowed = messageSizes.get(id) ?? unknownSizes;
    if (size < allowed.min || size > allowed.max || size > maxSize) {
      return this.skip(1, 'bad-length', this.reporting ? `message 0x${id.toString(16)} with size ${size}, expected ${allowed.min}..${allowed.max}` : '');
    }
    const available = Math.min(length, size);
    for (let i = 3; i < available; i++) {
      if (this.at(i) & 0x80) return this.skip(i, 'truncated', this.reporting ? `message 0x${id.toString(16)} cut after ${i} of ${size} bytes` : '');
    }
    if (length < size) return 'wait';
    const payload = Array.from(this.buffer.subarray(this.head + 3, this.head + size));
    const message = decodePayload(id, payload);
    if (typeof message === 'string') return this.skip(size, 'bad-payload', message);
    this.consume(size);
    this.stats.messages++;
    return message;
  }

  private badHeader(): DecodeError | 'merged' {
    const id = this.at(0);
    return this.skip(1, 'bad-header', this.reporting ? `message 0x${id.toString(16)} without a size` : '');
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
  for (let i = 0; i < payload.length;) {
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
