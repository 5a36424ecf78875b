// StandardFirmata 2.5 as far as a clock needs it, running on a virtual Arduino behind a serial link:
// the handshake (version, firmware, capabilities, analog mapping), pin modes, digital and PWM writes,
// digital reporting of inputs, and I2C writes (the LCD backpack). Unknown commands are skipped whole.
import type { DeviceEnd } from '../line/device-end.ts';
import type { ArduinoModel } from './arduino-model.ts';

const DIGITAL_MESSAGE = 0x90;
const ANALOG_MESSAGE = 0xe0;
const REPORT_ANALOG = 0xc0;
const REPORT_DIGITAL = 0xd0;
const SET_PIN_MODE = 0xf4;
const SET_DIGITAL_PIN_VALUE = 0xf5;
const REPORT_VERSION = 0xf9;
const SYSTEM_RESET = 0xff;
const START_SYSEX = 0xf0;
const END_SYSEX = 0xf7;
const QUERY_FIRMWARE = 0x79;
const CAPABILITY_QUERY = 0x6b;
const CAPABILITY_RESPONSE = 0x6c;
const ANALOG_MAPPING_QUERY = 0x69;
const ANALOG_MAPPING_RESPONSE = 0x6a;
const EXTENDED_ANALOG = 0x6f;
const I2C_REQUEST = 0x76;

const MODE = { INPUT: 0, OUTPUT: 1, ANALOG: 2, PWM: 3, I2C: 6, PULLUP: 0x0b } as const;
/** An Arduino UNO: 20 pins, PWM on 3, 5, 6, 9, 10, 11, analog inputs A0–A5 = 14–19, I2C on A4/A5. */
const PIN_COUNT = 20;
const PWM_PINS = new Set([3, 5, 6, 9, 10, 11]);

export interface FirmataFirmware {
  /** Boots: announces the protocol version and the firmware, as StandardFirmata does at reset. */
  powerOn(): void;
  powerOff(): void;
  /** Bytes received that were not part of any command. */
  readonly skippedBytes: number;
}

export function createFirmataFirmware(end: DeviceEnd, model: ArduinoModel, name = 'ZeitnotFirmata.ino'): FirmataFirmware {
  let powered = false;
  let skippedBytes = 0;
  let command: number[] = [];
  const reportedPorts = new Set<number>();
  const send = (bytes: number[]): void => {
    if (powered) end.write(Buffer.from(bytes));
  };

  const inputBits = (port: number): number => {
    let value = 0;
    for (let bit = 0; bit < 8; bit++) {
      const pin = port * 8 + bit;
      const mode = model.mode(pin);
      if ((mode === MODE.INPUT || mode === MODE.PULLUP) && model.read(pin)) value |= 1 << bit;
    }
    return value;
  };
  const reportPort = (port: number): void => {
    const value = inputBits(port);
    send([DIGITAL_MESSAGE | port, value & 0x7f, (value >> 7) & 0x7f]);
  };
  // Listened to while powered, so a firmware left behind by a replug reports nothing.
  let stopInput: (() => void) | undefined;
  const listenToInputs = () =>
    model.onInput((pin) => {
      const port = pin >> 3;
      if (reportedPorts.has(port)) reportPort(port);
    });

  const sevenBit = (bytes: readonly number[]): number[] => bytes.flatMap((byte) => [byte & 0x7f, (byte >> 7) & 0x7f]);

  const sysex = (data: number[]): void => {
    switch (data[0]) {
      case QUERY_FIRMWARE:
        send([START_SYSEX, QUERY_FIRMWARE, 2, 5, ...sevenBit([...Buffer.from(name)]), END_SYSEX]);
        return;
      case CAPABILITY_QUERY: {
        const pins: number[] = [];
        for (let pin = 0; pin < PIN_COUNT; pin++) {
          if (pin >= 2) pins.push(MODE.INPUT, 1, MODE.OUTPUT, 1, MODE.PULLUP, 1);
          if (PWM_PINS.has(pin)) pins.push(MODE.PWM, 8);
          if (pin >= 14) pins.push(MODE.ANALOG, 10);
          if (pin === 18 || pin === 19) pins.push(MODE.I2C, 1);
          pins.push(0x7f);
        }
        send([START_SYSEX, CAPABILITY_RESPONSE, ...pins, END_SYSEX]);
        return;
      }
      case ANALOG_MAPPING_QUERY:
        send([START_SYSEX, ANALOG_MAPPING_RESPONSE, ...Array.from({ length: PIN_COUNT }, (_, pin) => (pin >= 14 ? pin - 14 : 0x7f)), END_SYSEX]);
        return;
      case EXTENDED_ANALOG: {
        const [, pin = 0, ...value] = data;
        model.writePwm(
          pin,
          value.reduce((sum, part, index) => sum | (part << (7 * index)), 0),
        );
        return;
      }
      case I2C_REQUEST: {
        const [, addressLow = 0, modeByte = 0, ...payload] = data;
        // Bit 5 of the mode byte marks a 10-bit address (its high bits in bits 0..2).
        const address = modeByte & 0x20 ? addressLow | ((modeByte & 0x07) << 7) : addressLow;
        const isWrite = ((modeByte >> 3) & 0x03) === 0;
        if (!isWrite) return;
        const bytes: number[] = [];
        for (let i = 0; i + 1 < payload.length; i += 2) bytes.push((payload[i] as number) | ((payload[i + 1] as number) << 7));
        model.i2cWrite(address, bytes);
        return;
      }
      default:
        // I2C_CONFIG, SAMPLING_INTERVAL and the rest: nothing for a clock to do.
        return;
    }
  };

  const execute = (bytes: number[]): void => {
    const [status = 0, a = 0, b = 0] = bytes;
    const kind = status < 0xf0 ? status & 0xf0 : status;
    switch (kind) {
      case REPORT_VERSION:
        send([REPORT_VERSION, 2, 5]);
        return;
      case SYSTEM_RESET:
        reportedPorts.clear();
        return;
      case SET_PIN_MODE:
        model.setMode(a, b);
        return;
      case SET_DIGITAL_PIN_VALUE:
        model.write(a, b);
        return;
      case DIGITAL_MESSAGE: {
        const port = status & 0x0f;
        const value = a | (b << 7);
        for (let bit = 0; bit < 8; bit++) {
          const pin = port * 8 + bit;
          const level = (value >> bit) & 1;
          const mode = model.mode(pin);
          // Only pins whose level changes: a port write carries all eight pins. A 1 on an input pin
          // switches its pull-up on (StandardFirmata keeps this for old hosts); a 0 leaves it alone.
          if (mode === MODE.OUTPUT && level !== model.output(pin)) model.write(pin, level);
          else if (mode === MODE.INPUT && level) model.write(pin, 1);
        }
        return;
      }
      case ANALOG_MESSAGE:
        model.writePwm(status & 0x0f, a | (b << 7));
        return;
      case REPORT_DIGITAL:
        if (a) {
          reportedPorts.add(status & 0x0f);
          reportPort(status & 0x0f);
        } else reportedPorts.delete(status & 0x0f);
        return;
      case REPORT_ANALOG:
        return;
    }
  };

  const lengthOf = (status: number): number | undefined => {
    const kind = status < 0xf0 ? status & 0xf0 : status;
    if (kind === DIGITAL_MESSAGE || kind === ANALOG_MESSAGE || kind === SET_PIN_MODE || kind === SET_DIGITAL_PIN_VALUE) return 3;
    if (kind === REPORT_ANALOG || kind === REPORT_DIGITAL) return 2;
    if (kind === REPORT_VERSION || kind === SYSTEM_RESET) return 1;
    return undefined;
  };

  end.onData((chunk) => {
    if (!powered) return;
    for (const byte of chunk) {
      if (byte & 0x80 && byte !== END_SYSEX) {
        // A status byte starts a new command; an unfinished one is dropped.
        skippedBytes += command.length;
        command = [byte];
      } else if (command.length === 0) {
        skippedBytes++;
        continue;
      } else {
        command.push(byte);
      }
      const first = command[0] as number;
      if (first === START_SYSEX) {
        if (byte === END_SYSEX) {
          sysex(command.slice(1, -1));
          command = [];
        }
        continue;
      }
      const length = lengthOf(first);
      if (length === undefined) {
        skippedBytes += command.length;
        command = [];
      } else if (command.length === length) {
        execute(command);
        command = [];
      }
    }
  });

  return {
    powerOn() {
      powered = true;
      stopInput ??= listenToInputs();
      send([REPORT_VERSION, 2, 5]);
      sysex([QUERY_FIRMWARE]);
    },
    powerOff() {
      powered = false;
      stopInput?.();
      stopInput = undefined;
      reportedPorts.clear();
    },
    get skippedBytes() {
      return skippedBytes;
    },
  };
}
