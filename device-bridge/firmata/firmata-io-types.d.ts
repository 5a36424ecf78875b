// firmata-io 2.3.0 ships no types: the module is a function that binds a default transport class and
// returns the Firmata Board class (an IO object johnny-five accepts as `io`).
declare module 'firmata-io' {
  import { EventEmitter } from 'node:events';

  export interface FirmataBoardOptions {
    reportVersionTimeout?: number;
    samplingInterval?: number;
    skipCapabilities?: boolean;
  }
  export interface FirmataBoard extends EventEmitter {
    readonly isReady: boolean;
    readonly firmware: { name?: string; version?: { major: number; minor: number } };
    reportVersion(callback: () => void): void;
    queryFirmware(callback: () => void): void;
    digitalRead(pin: number, callback: (value: number) => void): void;
  }
  type FirmataBoardClass = new (transport: unknown, options?: FirmataBoardOptions) => FirmataBoard;
  const bindTransport: (transport: unknown) => FirmataBoardClass;
  export default bindTransport;
}
