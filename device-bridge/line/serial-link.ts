// Opening a serial port: the real native binding by default (hang-ups reported, ../serial-binding.ts), or any other binding (tests pass
// `SerialPortMock.binding` from serialport, the same registry that `SerialPortMock` uses).
import { SerialPortStream, type OpenOptions } from '@serialport/stream';
import { nativeBinding } from '../serial-binding.ts';

export type SerialBinding = OpenOptions['binding'];

export interface SerialPath {
  readonly path: string;
  /** Default 9600. */
  readonly baudRate?: number;
  readonly binding?: SerialBinding;
}

/** A port object, not yet open. */
export function serialPortFor(target: SerialPath): SerialPortStream {
  const baudRate = target.baudRate ?? 9600;
  return new SerialPortStream({ binding: target.binding ?? nativeBinding, path: target.path, baudRate, autoOpen: false });
}

export function openPort(port: SerialPortStream): Promise<void> {
  return new Promise((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
}

export function closePort(port: SerialPortStream): Promise<void> {
  if (!port.isOpen) return Promise.resolve();
  return new Promise((resolve) => port.close(() => resolve()));
}
