// An HD44780 character LCD controller, as far as a 16x2 clock display needs: the 8-bit/4-bit interface
// (including the reset-by-instruction sequence drivers send at start), DDRAM addressing for two lines,
// clear/home/entry mode/display control, data writes. CGRAM writes are accepted and ignored.

export class Hd44780 {
  private readonly ddram = new Uint8Array(0x80).fill(0x20);
  private address = 0;
  private fourBit = false;
  private pendingHigh: number | undefined;
  private writingCgram = false;
  private increment = true;
  /** Power-on reset leaves N = 0 (one line) until a function set says otherwise. */
  private twoLines = false;
  displayOn = false;
  /** Instructions and data bytes executed (what the bus carried, for tests of the driver). */
  executed = 0;

  /** Power-on reset: a blank display, off, 8-bit interface, one line, until a driver sets it up again. */
  reset(): void {
    this.ddram.fill(0x20);
    this.address = 0;
    this.fourBit = false;
    this.pendingHigh = undefined;
    this.writingCgram = false;
    this.increment = true;
    this.twoLines = false;
    this.displayOn = false;
  }

  /** One falling edge of EN: the level of RS and the D7..D4 lines as a nibble. */
  latch(rs: boolean, nibble: number): void {
    if (!this.fourBit) {
      // 8-bit interface with only D7..D4 wired: the low lines read as 0.
      this.execute(rs, (nibble & 0x0f) << 4);
      return;
    }
    if (this.pendingHigh === undefined) {
      this.pendingHigh = nibble & 0x0f;
      return;
    }
    const byte = (this.pendingHigh << 4) | (nibble & 0x0f);
    this.pendingHigh = undefined;
    this.execute(rs, byte);
  }

  /** The visible characters of each row (no display shift). */
  rows(columns = 16): string[] {
    const row = (start: number): string => String.fromCharCode(...this.ddram.subarray(start, start + columns)).replace(/[^\x20-\x7e]/g, '?');
    return this.twoLines ? [row(0x00), row(0x40)] : [row(0x00)];
  }

  private execute(rs: boolean, byte: number): void {
    this.executed++;
    if (rs) {
      if (!this.writingCgram) this.ddram[this.address] = byte;
      this.step();
      return;
    }
    if (byte & 0x80) {
      this.writingCgram = false;
      this.address = byte & 0x7f;
    } else if (byte & 0x40) {
      this.writingCgram = true;
    } else if (byte & 0x20) {
      this.fourBit = (byte & 0x10) === 0;
      this.pendingHigh = undefined;
      this.twoLines = (byte & 0x08) !== 0;
    } else if (byte & 0x10) {
      // cursor/display shift: not used by the clock
    } else if (byte & 0x08) {
      this.displayOn = (byte & 0x04) !== 0;
    } else if (byte & 0x04) {
      this.increment = (byte & 0x02) !== 0;
    } else if (byte & 0x02) {
      this.address = 0;
      this.writingCgram = false;
    } else if (byte & 0x01) {
      this.ddram.fill(0x20);
      this.address = 0;
      this.increment = true;
      this.writingCgram = false;
    }
  }

  private step(): void {
    if (this.writingCgram) return;
    const next = this.address + (this.increment ? 1 : -1);
    // One line: 0x00..0x4F. Two lines: line 1 is 0x00..0x27, line 2 is 0x40..0x67, and each runs into the other.
    if (!this.twoLines) this.address = (next + 0x50) % 0x50;
    else if (next === 0x28) this.address = 0x40;
    else if (next === 0x68) this.address = 0x00;
    else if (next === 0x3f) this.address = 0x27;
    else if (next === -1) this.address = 0x67;
    else this.address = next & 0x7f;
  }
}
