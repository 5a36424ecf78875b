// The line reader under arbitrary chunking and garbage: every good line between garbage lines is
// recovered, in order, whatever the chunk boundaries; runaway garbage without line ends is dropped.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BoundedReadlineParser, formatLine, parseLine, type LineMessage } from '../../device-bridge/internal.ts';

const good: fc.Arbitrary<LineMessage> = fc.oneof(
  fc.record({ type: fc.constant('press' as const), seq: fc.nat(65_535), deviceMs: fc.nat(1e9), side: fc.constantFrom('white' as const, 'black' as const) }),
  fc.record({
    type: fc.constant('heartbeat' as const),
    deviceMs: fc.nat(1e9),
    running: fc.constantFrom('white' as const, 'none' as const),
    white: fc.nat(1e7),
    black: fc.nat(1e7),
  }),
);
/** Garbage that ends its own line: any bytes but the line end. */
const garbageLine = fc
  .uint8Array({ minLength: 1, maxLength: 200 })
  .map((bytes) => Buffer.concat([Buffer.from(bytes.filter((b) => b !== 0x0a)), Buffer.from('\n')]));

function feed(chunks: Buffer[]): { lines: string[]; overflows: number[] } {
  const parser = new BoundedReadlineParser();
  const lines: string[] = [];
  const overflows: number[] = [];
  parser.onOverflow = (dropped) => overflows.push(dropped);
  parser.on('data', (line: string) => lines.push(line));
  for (const chunk of chunks) parser.write(chunk);
  return { lines, overflows };
}

function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) chunks.push(bytes.subarray(from, point));
    from = Math.max(from, point);
  }
  return chunks;
}

describe('BoundedReadlineParser + parseLine', () => {
  it('recovers every good line among garbage lines, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            good.map((m) => ({ good: m })),
            garbageLine.map((g) => ({ garbage: g })),
          ),
          { maxLength: 30 },
        ),
        fc.array(fc.nat(), { maxLength: 20 }),
        (items, cuts) => {
          const stream = Buffer.concat(items.map((item) => ('good' in item ? Buffer.from(formatLine(item.good), 'latin1') : item.garbage)));
          const { lines } = feed(chunked(stream, cuts));
          const recovered = lines.map((line) => parseLine(line)).flatMap((p) => (p.ok ? [p.message] : []));
          expect(recovered).toEqual(items.flatMap((item) => ('good' in item ? [item.good] : [])));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops runaway bytes without a line end but keeps a line that starts at the end of them', () => {
    const line = formatLine({ type: 'ack', seq: 5 });
    const { lines, overflows } = feed([Buffer.alloc(1_000, 0x41), Buffer.from(line.slice(0, 4)), Buffer.from(line.slice(4))]);
    expect(overflows).toEqual([1_000]);
    expect(lines.map((l) => parseLine(l))).toEqual([{ ok: true, message: { type: 'ack', seq: 5 } }]);
  });
});
