// A virtual Firmata board in-process: a mock-firmata IO object (what johnny-five takes as `io`) wired to
// an ArduinoModel, so tests and simulations can press buttons and read the LEDs, buzzer and LCD.
import mockFirmata, { type Firmata as MockFirmata } from 'mock-firmata';
import { ArduinoModel, type PinChange } from './arduino-model.ts';

export interface VirtualFirmataBoardOptions {
  /** Scheduler time for the pin history; default 0. */
  readonly now?: () => number;
  /** I2C address of the LCD backpack. Default 0x27. */
  readonly lcdAddress?: number;
}

export interface VirtualFirmataBoard {
  /** Pass as johnny-five's `io` (or as the Firmata clock's `io`). Connected and ready from the start. */
  readonly io: MockFirmata;
  readonly model: ArduinoModel;
  /** Pushes a button wired from `pin` to ground (pull-up on): LOW for `holdMs` of real time, then released. */
  press(pin: number, holdMs?: number): Promise<void>;
  /** Holds a button down until `release`. */
  hold(pin: number): void;
  release(pin: number): void;
  /** What the host last wrote to an output pin (LEDs, buzzer). */
  output(pin: number): 0 | 1;
  /** The LCD's visible rows. */
  lcdRows(): string[];
  readonly history: readonly PinChange[];
}

// johnny-five's Button debounces with a 7 ms (real-time) trailing timer: hold longer than that.
const DEBOUNCE_MARGIN_MS = 20;

// mock-firmata is CommonJS: its named exports are not visible to Node's ESM loader, so the default import.

class VirtualFirmata extends mockFirmata.Firmata {
  private readonly readers = new Map<number, Array<(value: number) => void>>();
  constructor(private readonly model: ArduinoModel) {
    // Each board gets its own copy of the UNO pin table (mock-firmata shares one module-level array).
    super({ pins: structuredClone(mockFirmata.Pins.UNO) });
    model.onInput((pin, level) => {
      for (const reader of this.readers.get(pin) ?? []) reader(level);
    });
  }
  override pinMode(pin: number, mode: number): void {
    const entry = this.pins[pin];
    if (entry) entry.mode = mode;
    this.model.setMode(pin, mode);
  }
  override digitalWrite(pin: number, value: number): void {
    const entry = this.pins[pin];
    if (entry) entry.value = value;
    this.model.write(pin, value);
  }
  override analogWrite(pin: number, value: number): void {
    const entry = this.pins[pin];
    if (entry) entry.value = value;
    this.model.writePwm(pin, value);
  }
  override digitalRead(pin: number, callback: (value: number) => void): void {
    this.readers.set(pin, [...(this.readers.get(pin) ?? []), callback]);
    // As StandardFirmata, which reports the pin's port as soon as its reporting is switched on.
    const level = this.model.read(pin);
    queueMicrotask(() => callback(level));
  }
  override i2cConfig(): void {}
  override i2cWrite(address: number, registerOrBytes: number | number[], bytes?: number | number[]): void {
    const flat = (value: number | number[] | undefined): number[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
    this.model.i2cWrite(address, [...flat(registerOrBytes), ...flat(bytes)]);
  }
}

export function createVirtualFirmataBoard(options: VirtualFirmataBoardOptions = {}): VirtualFirmataBoard {
  const model = new ArduinoModel({ lcdAddress: options.lcdAddress ?? 0x27, now: options.now ?? (() => 0) });
  const io = new VirtualFirmata(model);
  io.emit('connect');
  io.emit('ready');
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    io,
    model,
    async press(pin, holdMs = DEBOUNCE_MARGIN_MS) {
      model.drive(pin, 0);
      await wait(holdMs);
      model.drive(pin, undefined);
      await wait(DEBOUNCE_MARGIN_MS);
    },
    hold: (pin) => model.drive(pin, 0),
    release: (pin) => model.drive(pin, undefined),
    output: (pin) => model.output(pin),
    lcdRows: () => model.lcd.rows(),
    history: model.history,
  };
}
