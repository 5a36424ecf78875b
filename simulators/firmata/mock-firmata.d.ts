// mock-firmata 0.2.0 ships no types; only what the virtual board uses.
declare module 'mock-firmata' {
  import { EventEmitter } from 'node:events';

  export interface MockPin {
    supportedModes: number[];
    mode: number;
    value: number;
    report: number;
    analogChannel: number;
    [key: string]: unknown;
  }

  export class Firmata extends EventEmitter {
    constructor(options?: { pins?: MockPin[]; [key: string]: unknown });
    readonly pins: MockPin[];
    readonly isReady: boolean;
    readonly MODES: Record<string, number>;
    readonly HIGH: number;
    readonly LOW: number;
    readonly SERIAL_PORT_IDs: Record<string, number>;
    name: string;
    pinMode(pin: number, mode: number): void;
    digitalWrite(pin: number, value: number): void;
    digitalRead(pin: number, callback: (value: number) => void): void;
    analogWrite(pin: number, value: number): void;
    i2cConfig(options?: unknown): void;
    i2cWrite(address: number, registerOrBytes: number | number[], bytes?: number | number[]): void;
  }

  export const Pins: { UNO: MockPin[]; UNOANALOG: number[] };

  // A CommonJS module: under Node's ESM loader only the default import is reliable.
  const mockFirmata: { Firmata: typeof Firmata; Pins: typeof Pins };
  export default mockFirmata;
}
