// The DGT codec: real and derived byte vectors (shared/research/dgt-protocol.md §3.4, §5), host
// commands, error accounting, and fast-check fuzzing of the streaming decoder.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DgtDecoder,
  HostCommandDecoder,
  asciiText,
  batteryMessage,
  beep,
  boardCommand,
  boardDumpMessage,
  clockAckMessage,
  clockTimesMessage,
  clockVersion,
  decodeBwtime,
  endDisplay,
  fieldUpdateMessage,
  icons,
  leds,
  longSerialNumberMessage,
  serialNumberMessage,
  setAndRun,
  trademarkMessage,
  versionMessage,
  xlDisplay,
  busAddressMessage,
  eeMovesMessage,
  type DecodeOutput,
  type PieceLetter,
} from '../../device-bridge/internal.ts';

const bytes = (hex: string): number[] =>
  hex
    .split(/\s+/)
    .filter(Boolean)
    .map((h) => parseInt(h, 16));
const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0').toUpperCase()).join(' ');
const decode = (hexText: string): DecodeOutput[] => new DgtDecoder().push(bytes(hexText));

describe('board messages', () => {
  it('decodes the real clock vectors: times, flags, lever, running side', () => {
    expect(decode('8D 00 0A 20 03 02 20 03 02 08')).toEqual([
      {
        type: 'clock',
        right: { ms: 182_000, flag: false, finalFlag: false, timePerMove: true },
        left: { ms: 182_000, flag: false, finalFlag: false, timePerMove: true },
        running: false,
        leverHigh: 'left',
        runningSide: 'none',
        batteryLow: false,
        turnBits: { d3: true, d4: false },
        status: 0x08,
      },
    ]);
    expect(decode('8D 00 0A 20 03 02 20 03 01 09')[0]).toMatchObject({ running: true, runningSide: 'left', left: { ms: 181_000 } });
    expect(decode('8D 00 0A 20 03 01 20 03 01 13')[0]).toMatchObject({ running: true, leverHigh: 'right', runningSide: 'right' });
    expect(decode('8D 00 0A 30 00 00 20 00 16 12')[0]).toMatchObject({
      running: false,
      right: { ms: 0, finalFlag: true, flag: false },
      left: { ms: 16_000, finalFlag: false },
    });
    expect(decode('8D 00 0A 41 02 03 00 00 00 05')[0]).toMatchObject({
      right: { ms: 3_723_000, flag: true },
      batteryLow: true,
      runningSide: 'left',
    });
  });

  it('tells clock acks from times and decodes them (real display ack, derived version/button/error acks)', () => {
    expect(decode('8D 00 0A 0A 10 01 0A 00 00 00')).toEqual([{ type: 'clockAck', ack: [0x10, 0x01, 0, 0], ok: true, auto: false, command: 0x01 }]);
    expect(decode('8D 00 0A 0A 10 09 0A 20 00 00')[0]).toMatchObject({ command: 0x09, version: { major: 2, minor: 0 } });
    expect(decode('8D 00 0A 0A 40 0A 0A 00 00 00')[0]).toMatchObject({ command: 0x0a, ok: false });
    expect(decode('8D 00 0A 0A 10 08 2A 05 31 00')[0]).toMatchObject({ ack: [0x10, 0x88, 0x05, 0x31], auto: true, button: 'back' });
    expect(decode('8D 00 0A 00 00 00 00 00 00 00')).toEqual([{ type: 'clockBlank' }]);
    expect(decode('8D 00 0A 00 00 00 00 00 00 20')).toEqual([{ type: 'noClock', status: 0x20 }]);
  });

  it('encodes acks that decode back to the same four bytes, top bits included', () => {
    fc.assert(
      fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), (ack) => {
        const [m] = new DgtDecoder().push(clockAckMessage(ack));
        expect(m).toMatchObject({ type: 'clockAck', ack });
      }),
    );
  });

  it('decodes board dumps, field updates, version, serials, trademark, bus address, battery, EEPROM log', () => {
    const start = decode('86 00 43 08 09 0A 0C 0B 0A 09 08 ' + '07 '.repeat(8) + '00 '.repeat(32) + '01 '.repeat(8) + '02 03 04 06 05 04 03 02')[0];
    expect(start).toMatchObject({ type: 'boardDump' });
    if (start?.type !== 'boardDump') throw new Error('no dump');
    expect(start.squares.join('')).toBe('rnbqkbnrpppppppp' + '.'.repeat(32) + 'PPPPPPPPRNBQKBNR');
    expect(decode('8E 00 05 34 00 8E 00 05 24 01')).toEqual([
      { type: 'fieldUpdate', square: 0x34, field: 'e2', piece: '.' },
      { type: 'fieldUpdate', square: 0x24, field: 'e4', piece: 'P' },
    ]);
    expect(decode('8E 00 05 1B 0E')[0]).toMatchObject({ field: 'd5', piece: 'white-win-piece' });
    expect(decode('93 00 05 03 0A')).toEqual([{ type: 'version', major: 3, minor: 10, text: '3.10' }]);
    expect(decode('93 00 05 01 02')[0]).toMatchObject({ text: '1.02' });
    expect(decode('91 00 08 41 42 43 44 45')).toEqual([{ type: 'serialNumber', serial: 'ABCDE' }]);
    expect(decode('90 00 05 08 01')).toEqual([{ type: 'busAddress', address: 1025 }]);
    expect(decode('A0 00 0C 58 00 00 00 00 00 00 00 02')[0]).toMatchObject({
      type: 'battery',
      percent: 88,
      minutesLeft: 0,
      discharging: true,
      charging: false,
    });
    expect(decode('A0 00 0C 64 7F 7F 00 00 00 00 00 00')[0]).toMatchObject({ percent: 100, minutesLeft: null });
    expect(new DgtDecoder().push(longSerialNumberMessage('3.10001025'))).toEqual([{ type: 'longSerialNumber', serial: '3.10001025' }]);
    expect(new DgtDecoder().push(trademarkMessage('DGT'))).toEqual([{ type: 'trademark', text: 'DGT' }]);
    expect(new DgtDecoder().push(busAddressMessage(1025))).toEqual([{ type: 'busAddress', address: 1025 }]);
    expect(new DgtDecoder().push(eeMovesMessage([0x6a, 0x6f, 0x40, 0x34, 0x51, 0x24, 0x70, 0x05, 0x30, 0x6b, 0x00]))).toEqual([
      {
        type: 'eeMoves',
        entries: [
          { kind: 'tag', tag: 'power-up' },
          { kind: 'tag', tag: 'begin-position' },
          { kind: 'field', piece: '.', quick: false, square: 0x34 },
          { kind: 'field', piece: 'P', quick: true, square: 0x24 },
          { kind: 'time', side: 'left', ms: 330_000 },
          { kind: 'tag', tag: 'eof' },
        ],
      },
    ]);
  });

  it('rejects impossible clock payloads as counted errors', () => {
    const decoder = new DgtDecoder();
    const out = decoder.push(bytes('8D 00 0A 0B 03 02 20 03 02 08 8D 00 0A 20 6A 02 20 03 02 08'));
    expect(out.map((m) => m.type === 'error' && m.reason)).toEqual(['bad-payload', 'bad-payload']);
    expect(decodeBwtime([1, 2, 3])).toMatch(/expected 7/);
    expect(decoder.stats.badPayloads).toBe(2);
  });
});

describe('resynchronisation and error accounting', () => {
  it('skips garbage, counts bad lengths and truncated messages, and recovers the next message', () => {
    const decoder = new DgtDecoder();
    const out = decoder.push(
      bytes(
        [
          '01 02 03', // garbage before any message
          '8E 00 06 34 00 00', // field update with a bad size (6): the id is dropped, its bytes are garbage
          '8D 00 0A 20 03', // a clock message cut short by the next message start
          '93 00 05 03 0A', // a good version message
          '86 81', // a size byte with its top bit set
          '93 00 05 03 0A',
        ].join(' '),
      ),
    );
    expect(out.map((m) => (m.type === 'error' ? `${m.reason}@${m.offset}:${m.count}` : m.type))).toEqual([
      'garbage@0:3',
      'bad-length@3:1',
      'garbage@4:5',
      'truncated@9:5',
      'version',
      'bad-header@19:1',
      // 0x81 starts a message too, and the next message's id is no size byte.
      'bad-header@20:1',
      'version',
    ]);
    expect(decoder.stats).toEqual({ messages: 2, garbageBytes: 8, badHeaders: 2, badLengths: 1, truncated: 1, badPayloads: 0 });
    expect(decoder.buffered).toBe(0);
  });

  it('waits for the rest of a split message and keeps nothing extra', () => {
    const decoder = new DgtDecoder();
    expect(decoder.push(bytes('8D 00'))).toEqual([]);
    expect(decoder.buffered).toBe(2);
    expect(decoder.push(bytes('0A 20 03 02 20 03'))).toEqual([]);
    expect(decoder.push(bytes('02 08 8E'))).toMatchObject([{ type: 'clock' }]);
    expect(decoder.buffered).toBe(1);
  });

  const piece = fc.constantFrom<PieceLetter>('.', 'P', 'R', 'N', 'B', 'K', 'Q', 'p', 'r', 'n', 'b', 'k', 'q');
  const validMessage = fc.oneof(
    fc.tuple(fc.nat(63), piece).map(([square, p]) => fieldUpdateMessage(square, p)),
    fc.array(piece, { minLength: 64, maxLength: 64 }).map((squares) => boardDumpMessage(squares)),
    fc
      .tuple(fc.nat(35_999), fc.nat(35_999), fc.nat(0x1f), fc.boolean(), fc.boolean())
      .map(([r, l, status, flag, inc]) => clockTimesMessage({ ms: r * 1000, finalFlag: flag, timePerMove: inc }, { ms: l * 1000 }, status)),
    fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((ack) => clockAckMessage(ack)),
    fc.tuple(fc.nat(127), fc.nat(127)).map(([a, b]) => versionMessage(a, b)),
    fc.stringMatching(/^[0-9]{5}$/).map((s) => serialNumberMessage(s)),
    fc.nat(100).map((p) => batteryMessage(p, p % 2 === 0)),
  );
  // Noise that can never complete a message by itself: no byte of it has the top bit set... and noise
  // that does (stray ids and sizes), which the next real message start must cut off.
  const garbage = fc.oneof(
    fc.uint8Array({ maxLength: 12 }).map((b) => b.map((x) => x & 0x7f)),
    fc.uint8Array({ minLength: 1, maxLength: 12 }),
  );

  it('never throws on arbitrary bytes in arbitrary chunks, and accounts for every byte', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (chunks) => {
        const decoder = new DgtDecoder();
        let accounted = 0;
        let total = 0;
        for (const chunk of chunks) {
          total += chunk.length;
          for (const m of decoder.push(chunk)) accounted += m.type === 'error' ? m.count : 0;
        }
        expect(accounted).toBeLessThanOrEqual(total);
        expect(decoder.buffered).toBeLessThanOrEqual(total);
      }),
      { numRuns: 500 },
    );
  });

  it('recovers every valid message interleaved with garbage, however the stream is chunked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(garbage, validMessage), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 10 }),
        (pairs, cuts) => {
          const stream = pairs.flatMap(([noise, message]) => [...noise, ...message]);
          const expected = pairs.map(([, message]) => new DgtDecoder().push(message)[0]);
          const decoder = new DgtDecoder();
          const decoded: DecodeOutput[] = [];
          for (let at = 0, i = 0; at < stream.length; i++) {
            const size = cuts[i % cuts.length] ?? 1;
            decoded.push(...decoder.push(stream.slice(at, at + size)));
            at += size;
          }
          // Every sent message comes out, in order (noise may itself happen to form a message).
          const messages = decoded.filter((m) => m.type !== 'error');
          let next = 0;
          for (const m of messages) if (next < expected.length && JSON.stringify(m) === JSON.stringify(expected[next])) next++;
          expect(next).toBe(expected.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('host commands', () => {
  it('encodes the clock command frames of the protocol notes', () => {
    expect(hex(clockVersion())).toBe('2B 03 03 09 00');
    expect(hex(endDisplay())).toBe('2B 03 03 03 00');
    expect(hex(beep(1024))).toBe('2B 04 03 0B 10 00');
    expect(hex(asciiText('HELLO'))).toBe('2B 0C 03 0C 48 45 4C 4C 4F 20 20 20 00 00');
    expect(hex(setAndRun({ leftMs: 300_000, rightMs: 300_000, run: 'left' }))).toBe('2B 0A 03 0A 00 05 00 00 05 00 01 00');
    expect(hex(setAndRun({ leftMs: 5_400_000, rightMs: 2_730_000, run: 'pause' }))).toBe('2B 0A 03 0A 01 1E 00 00 2D 1E 04 00');
    expect(hex(xlDisplay('123456'))).toBe('2B 0B 03 01 4F 5B 06 7D 6D 66 00 01 00');
    expect(hex(boardCommand('updateNiceMode'))).toBe('4B');
    expect(hex(leds(1, 0x34, 0x24))).toBe('60 04 01 34 24 00');
    expect(hex(leds(0, 0x40, 0x40))).toBe('60 04 00 40 40 00');
    expect(hex(icons(0x01, 0x02, 0x21, 0x01, 0x40))).toBe('2B 0B 03 02 01 02 21 01 40 00 00 00 00');
  });

  it('rounds a started second up on set-and-run and caps at 9:59:59', () => {
    expect(hex(setAndRun({ leftMs: 2_001, rightMs: 0, run: 'right', toggleOnLever: true }))).toBe('2B 0A 03 0A 00 00 03 00 00 00 0A 00');
    expect(hex(setAndRun({ leftMs: 11 * 3_600_000, rightMs: 1, run: 'pause' }))).toBe('2B 0A 03 0A 09 3B 3B 00 00 01 04 00');
  });

  it('splits the host byte stream back into commands (what the simulator reads)', () => {
    const decoder = new HostCommandDecoder();
    const stream = [0x40, ...asciiText('PAUSE', 3), 0x4d, 0x99, ...setAndRun({ leftMs: 1000, rightMs: 2000, run: 'left' }), ...leds(1, 0x34, 0x24)];
    const out = [...decoder.push(stream.slice(0, 7)), ...decoder.push(stream.slice(7))];
    expect(out.map((c) => (c.kind === 'clock' ? `clock ${c.command}` : c.kind === 'board' ? c.byte : c.kind))).toEqual([
      0x40,
      'clock 12',
      0x4d,
      'invalid',
      'clock 10',
      'leds',
    ]);
  });
});
