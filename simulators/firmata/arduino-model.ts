// The electrical side of a virtual Arduino clock: pin levels the host wrote, inputs the "hardware" drives,
// and a 16x2 LCD on a PCF8574 I2C backpack. Front-ends (the in-process mock-firmata IO, the Firmata
// firmware on a serial link) translate between a host and this model.
import { Hd44780 } from './hd44780.ts';

export interface PinChange {
  readonly pin: number;
  readonly level: 0 | 1;
  /** Scheduler time of the write. */
  readonly at: number;
}

/** PCF8574 backpack wiring used by johnny-five's PCF8574 controller: P0 RS, P1 RW, P2 EN, P3 backlight, P4..P7 D4..D7. */
const RS = 0x01;
const EN = 0x04;

export class ArduinoModel {
  readonly lcd = new Hd44780();
  /** Every write to a pin in order, for LED and buzzer histories. */
  readonly history: PinChange[] = [];
  private readonly written = new Map<number, 0 | 1>();
  private readonly pwm = new Map<number, number>();
  private readonly inputs = new Map<number, 0 | 1>();
  private readonly pullups = new Set<number>();
  private readonly modes = new Map<number, number>();
  private readonly inputListeners = new Set<(pin: number, level: 0 | 1) => void>();
  private backpackPort = 0;
  readonly lcdAddress: number;
  private readonly now: () => number;

  constructor(options: { readonly lcdAddress?: number; readonly now?: () => number } = {}) {
    this.lcdAddress = options.lcdAddress ?? 0x27;
    this.now = options.now ?? (() => 0);
  }

  /**
   * The USB cable was out and the board lost power: outputs low, every pin back to an input without
   * pull-up, the LCD controller reset (blank, until a driver sets it up again). What the hardware drives
   * (a button held down) stays, and so does the history.
   */
  powerCycle(): void {
    this.written.clear();
    this.pwm.clear();
    this.pullups.clear();
    this.modes.clear();
    this.backpackPort = 0;
    this.lcd.reset();
  }

  /** Firmata pin modes: 0 input, 1 output, 0x0B input with pull-up. */
  setMode(pin: number, mode: number): void {
    this.modes.set(pin, mode);
    if (mode === 0x0b) this.pullups.add(pin);
    else if (mode === 0) this.pullups.delete(pin);
  }

  mode(pin: number): number | undefined {
    return this.modes.get(pin);
  }

  write(pin: number, value: number): void {
    const level: 0 | 1 = value ? 1 : 0;
    // Writing HIGH to an input pin switches its pull-up on (the AVR way, which Firmata keeps).
    if (this.modes.get(pin) === 0) {
      if (level) this.pullups.add(pin);
      else this.pullups.delete(pin);
      return;
    }
    this.written.set(pin, level);
    this.history.push({ pin, level, at: this.now() });
  }

  /** PWM output (LEDs on PWM pins): a duty of 0..255; counted as HIGH when not 0. */
  writePwm(pin: number, duty: number): void {
    this.pwm.set(pin, duty);
    const level: 0 | 1 = duty > 0 ? 1 : 0;
    this.written.set(pin, level);
    this.history.push({ pin, level, at: this.now() });
  }

  /** The PWM duty last written to a pin (undefined if it was never driven as PWM). */
  duty(pin: number): number | undefined {
    return this.pwm.get(pin);
  }

  /** What the host last wrote to an output pin. */
  output(pin: number): 0 | 1 {
    return this.written.get(pin) ?? 0;
  }

  /** The level an input pin reads: what drives it, else its pull-up, else LOW. */
  read(pin: number): 0 | 1 {
    return this.inputs.get(pin) ?? (this.pullups.has(pin) ? 1 : 0);
  }

  /** The hardware drives an input pin (undefined = let it float back to its pull-up). */
  drive(pin: number, level: 0 | 1 | undefined): void {
    const before = this.read(pin);
    if (level === undefined) this.inputs.delete(pin);
    else this.inputs.set(pin, level);
    const after = this.read(pin);
    if (after !== before) for (const listener of this.inputListeners) listener(pin, after);
  }

  onInput(listener: (pin: number, level: 0 | 1) => void): () => void {
    this.inputListeners.add(listener);
    return () => this.inputListeners.delete(listener);
  }

  i2cWrite(address: number, bytes: readonly number[]): void {
    if (address !== this.lcdAddress) return;
    for (const value of bytes) {
      // The HD44780 latches on EN's falling edge.
      if (this.backpackPort & EN && !(value & EN)) this.lcd.latch((value & RS) !== 0, value >> 4);
      this.backpackPort = value & 0xff;
    }
  }

  /** Backlight bit of the backpack (P3). */
  get backlight(): boolean {
    return (this.backpackPort & 0x08) !== 0;
  }
}
