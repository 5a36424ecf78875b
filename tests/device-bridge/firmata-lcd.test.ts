import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatClockTime } from '../../device-bridge/internal.ts';
import { Hd44780 } from '../../simulators/internal.ts';

describe('LCD clock format', () => {
  it.each([
    [5_400_000, '1:30:00'],
    [5_399_999, '1:29:59'],
    [3_600_000, '1:00:00'],
    [3_599_999, '  59:59'],
    [754_000, '  12:34'],
    [10_000, '   0:10'],
    [9_999, '    9.9'],
    [9_050, '    9.0'],
    [99, '    0.0'],
    [0, '    0.0'],
    [-500, '    0.0'],
    [36_000_000, '  10h00'],
  ])('%i ms shows "%s"', (ms, shown) => {
    expect(formatClockTime(ms)).toBe(shown);
  });

  it('is always seven characters and never increases as time runs down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 35_999_999 }), fc.integer({ min: 1, max: 5_000 }), (ms, used) => {
        const before = formatClockTime(ms);
        expect(before).toHaveLength(7);
        const seconds = (text: string) => text.trim().split(/[:.]/).map(Number);
        const after = seconds(formatClockTime(Math.max(0, ms - used)));
        const now = seconds(before);
        // Compare as tenths of a second shown.
        const tenths = (parts: number[], text: string) =>
          text.includes('.') ? (parts[0] ?? 0) * 10 + (parts[1] ?? 0) : parts.reduce((total, part) => total * 60 + part, 0) * 10;
        expect(tenths(after, formatClockTime(Math.max(0, ms - used)))).toBeLessThanOrEqual(tenths(now, before));
      }),
    );
  });
});

/** Drives the controller as johnny-five's PCF8574 driver does: 4-bit reset sequence, then commands. */
function initialise(lcd: Hd44780, twoLines = true): void {
  lcd.latch(false, 0x3);
  lcd.latch(false, 0x3);
  lcd.latch(false, 0x3);
  lcd.latch(false, 0x2); // 8-bit mode until here; now 4-bit
  send(lcd, false, twoLines ? 0x28 : 0x20);
  send(lcd, false, 0x0c);
  send(lcd, false, 0x06);
  send(lcd, false, 0x01);
}
function send(lcd: Hd44780, rs: boolean, byte: number): void {
  lcd.latch(rs, byte >> 4);
  lcd.latch(rs, byte & 0x0f);
}
function print(lcd: Hd44780, text: string): void {
  for (const char of text) send(lcd, true, char.charCodeAt(0));
}

describe('HD44780 model', () => {
  it('follows the 4-bit reset sequence, addresses both lines and clears', () => {
    const lcd = new Hd44780();
    initialise(lcd);
    expect(lcd.displayOn).toBe(true);
    expect(lcd.rows()).toEqual([' '.repeat(16), ' '.repeat(16)]);
    print(lcd, 'WHITE');
    send(lcd, false, 0x80 | 0x40 | 3); // DDRAM 0x43: second line, column 3
    print(lcd, 'black');
    expect(lcd.rows()).toEqual(['WHITE           ', '   black        ']);
    send(lcd, false, 0x01);
    expect(lcd.rows()).toEqual([' '.repeat(16), ' '.repeat(16)]);
  });

  it('runs line 1 into line 2 after 40 characters, as the controller does', () => {
    const lcd = new Hd44780();
    initialise(lcd);
    send(lcd, false, 0x80 | 0x26);
    print(lcd, 'abcd');
    expect(lcd.rows()[1]).toBe('cd              ');
  });

  it('stays on one line without a two-line function set (johnny-five PARALLEL driver)', () => {
    const lcd = new Hd44780();
    initialise(lcd, false);
    expect(lcd.rows()).toHaveLength(1);
  });

  it('ignores writes to character RAM', () => {
    const lcd = new Hd44780();
    initialise(lcd);
    send(lcd, false, 0x40);
    print(lcd, '\x1f\x11\x11');
    send(lcd, false, 0x80);
    print(lcd, 'ok');
    expect(lcd.rows()[0]).toBe('ok              ');
  });
});
