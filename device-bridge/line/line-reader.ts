// Lines from a serial stream with @serialport/parser-readline, bounded: a device that sends bytes but
// never a line end must not grow the buffer without limit.
import { ReadlineParser } from '@serialport/parser-readline';
import type { TransformCallback } from 'node:stream';
import { MAX_LINE_LENGTH } from './codec.ts';

export class BoundedReadlineParser extends ReadlineParser {
  /** Called with the number of bytes dropped when a line grows past the limit. */
  onOverflow: (droppedBytes: number) => void = () => {};
  private readonly limit: number;

  constructor(limit = MAX_LINE_LENGTH * 4) {
    // latin1: one character per byte, so the checksum covers exactly the bytes on the wire.
    super({ delimiter: '\n', encoding: 'latin1' });
    this.limit = limit;
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    super._transform(chunk, encoding, (error?: Error | null) => {
      if (this.buffer.length > this.limit) {
        // Keep a possible line start at the end of the garbage: it may be a good line cut by the chunking.
        const start = this.buffer.lastIndexOf(0x24 /* $ */);
        const keep = start !== -1 && this.buffer.length - start <= MAX_LINE_LENGTH ? this.buffer.subarray(start) : Buffer.alloc(0);
        const dropped = this.buffer.length - keep.length;
        this.buffer = Buffer.from(keep);
        this.onOverflow(dropped);
      }
      callback(error);
    });
  }
}
