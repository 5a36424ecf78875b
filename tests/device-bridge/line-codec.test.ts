import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatLine, lineChecksum, MAX_LINE_LENGTH, parseLine, type LineMessage } from '../../device-bridge/internal.ts';

// Checksums computed independently (Python: reduce(xor, map(ord, body))).
const vectors: Array<[string, LineMessage]> = [
  ['$PRESS,12,73250,W,5386750,5400000*07', { type: 'press', seq: 12, deviceMs: 73250, side: 'white', reading: { white: 5386750, black: 5400000 } }],
  ['$HB,1000,-,5400000,5400000*26', { type: 'heartbeat', deviceMs: 1000, running: 'none', white: 5400000, black: 5400000 }],
  ['$TIME,5386750,5399000,B*77', { type: 'time', white: 5386750, black: 5399000, running: 'black' }],
  ['$ACK,12*66', { type: 'ack', seq: 12 }],
  ['$HELLO,1,ZN-LINE,3f2a,0*72', { type: 'hello', version: 1, name: 'ZN-LINE', bootId: '3f2a', deviceMs: 0 }],
  ['$BUTTON,3,9000,ARBITER*5B', { type: 'button', seq: 3, deviceMs: 9000, button: 'arbiter' }],
];

const side = fc.constantFrom('white' as const, 'black' as const);
const running = fc.constantFrom('white' as const, 'black' as const, 'none' as const);
const ms = fc.integer({ min: 0, max: 36_000_000 });
const seq = fc.integer({ min: 0, max: 65_535 });
const word = fc.stringMatching(/^[A-Za-z0-9 ._-]{0,16}$/);
const message: fc.Arbitrary<LineMessage> = fc.oneof(
  fc.record({ type: fc.constant('hello' as const), version: fc.nat(9), name: word, bootId: word, deviceMs: ms }),
  fc.record({ type: fc.constant('press' as const), seq, deviceMs: ms, side }),
  fc.record({ type: fc.constant('press' as const), seq, deviceMs: ms, side, reading: fc.record({ white: ms, black: ms }) }),
  fc.record({ type: fc.constant('button' as const), seq, deviceMs: ms, button: fc.constantFrom('pause' as const, 'arbiter' as const, 'start' as const) }),
  fc.record({ type: fc.constant('flag' as const), seq, deviceMs: ms, side }),
  fc.record({ type: fc.constant('heartbeat' as const), deviceMs: ms, running, white: ms, black: ms }),
  fc.constant({ type: 'query' as const }),
  fc.record({ type: fc.constant('mode' as const), role: fc.constantFrom('host' as const, 'mirror' as const) }),
  fc.record({ type: fc.constant('time' as const), white: ms, black: ms, running }),
  fc.record({ type: fc.constant('lamp' as const), lamp: fc.constantFrom('off' as const, 'on' as const, 'blink' as const) }),
  fc.record({ type: fc.constant('beep' as const), ms }),
  fc.record({ type: fc.constant('text' as const), text: word }),
  fc.record({ type: fc.constant('ack' as const), seq }),
);

describe('line protocol codec', () => {
  it.each(vectors)('formats and parses %s', (line, expected) => {
    expect(formatLine(expected)).toBe(`${line}\r\n`);
    expect(parseLine(line)).toEqual({ ok: true, message: expected });
    expect(parseLine(`${line}\r`)).toEqual({ ok: true, message: expected });
  });

  it('round-trips every message', () => {
    fc.assert(
      fc.property(message, (m) => {
        const line = formatLine(m);
        expect(line.endsWith('\r\n')).toBe(true);
        expect(line.length - 2).toBeLessThanOrEqual(MAX_LINE_LENGTH);
        expect(parseLine(line.slice(0, -1))).toEqual({ ok: true, message: m });
      }),
    );
  });

  it('accepts a lower-case checksum', () => {
    expect(parseLine('$TIME,5386750,5399000,B*77').ok).toBe(true);
    expect(lineChecksum('ACK,12')).toBe('66');
    expect(parseLine('$LAMP,ON*' + lineChecksum('LAMP,ON').toLowerCase()).ok).toBe(true);
  });

  it('rejects any single corrupted character', () => {
    fc.assert(
      fc.property(message, fc.nat(), fc.integer({ min: 1, max: 127 }), (m, position, flip) => {
        const line = formatLine(m).slice(0, -2);
        const index = 1 + (position % (line.length - 1)); // keep the "$"
        const corrupted = line.slice(0, index) + String.fromCharCode(line.charCodeAt(index) ^ flip) + line.slice(index + 1);
        // A flipped checksum letter may only change its case: that is the same checksum.
        fc.pre(corrupted.toUpperCase() !== line.toUpperCase());
        expect(parseLine(corrupted).ok).toBe(false);
      }),
    );
  });

  it.each([
    ['$ACK,12*67', /checksum mismatch: line says 67, body gives 66/],
    ['$ACK,12', /no "\*HH" checksum/],
    ['ACK,12*66', /no "\$"/],
    ['xx$ACK,12*66', /2 stray characters before "\$"/],
    ['$ACK,12*6G', /not two hex digits/],
    [`$BEEP,1*${lineChecksum('BEEP,1')}junk`, /no "\*HH" checksum/],
    [`$NOPE,1*${lineChecksum('NOPE,1')}`, /unknown message type "NOPE"/],
    [`$PRESS,1,2,X*${lineChecksum('PRESS,1,2,X')}`, /PRESS: "X" is not a side/],
    [`$PRESS,1,-2,W*${lineChecksum('PRESS,1,-2,W')}`, /"-2" is not a whole number/],
    [`$HB,1,W,5*${lineChecksum('HB,1,W,5')}`, /HB: expected 4 fields, got 3/],
    [`$LAMP,RED*${lineChecksum('LAMP,RED')}`, /"red" is not one of off, on, blink/],
    ['$' + 'A'.repeat(200), /line too long/],
  ])('explains what is wrong with %s', (line, error) => {
    const parsed = parseLine(line);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const parsed = parseLine(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps separators out of texts and clamps to the display width', () => {
    const line = formatLine({ type: 'text', text: 'FLAG*$,é and far too long' });
    expect(line).toMatch(/^\$TEXT,FLAG\?\?\?\? and far\*[0-9A-F]{2}\r\n$/);
    expect(parseLine(line.trim()).ok).toBe(true);
  });
});

describe('docs/line-protocol.md', () => {
  it('every example line in the spec has a correct checksum and parses', async () => {
    const { readFileSync } = await import('node:fs');
    const spec = readFileSync(new URL('../../docs/line-protocol.md', import.meta.url), 'utf8');
    const lines = [...spec.matchAll(/(\$[A-Z]+[^*\s]*\*[0-9A-F]{2})/g)].map((m) => m[1]!);
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const line of lines) expect(parseLine(line), line).toMatchObject({ ok: true });
  });
});
