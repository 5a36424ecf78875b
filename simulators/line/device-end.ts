// The device's end of a serial link, for simulated hardware. Two ways to reach a host:
// - `mockSerialDevice`: through @serialport/binding-mock. The host opens the path with the returned
//   binding; the device sees every byte the host writes and answers through the mock port.
// - `ptySerialDevice`: the other end of a real pseudo-terminal pair (socat), opened with serialport's
//   native binding, so the host's side exercises the real driver code.
import { SerialPortStream } from '@serialport/stream';
import { SerialPortMock } from 'serialport';
import { nativeBinding, type SerialBinding } from '../../device-bridge/index.ts';

export interface DeviceEnd {
  /** Bytes to the host; dropped while no host is connected, as on an unplugged cable. */
  write(data: string | Buffer): void;
  /** Bytes from the host. Returns an unsubscribe function. */
  onData(listener: (chunk: Buffer) => void): () => void;
  readonly hostConnected: boolean;
  close(): Promise<void>;
}

interface MockPortBinding {
  isOpen: boolean;
  emitData(data: Buffer | string): void;
  write(buffer: Buffer): Promise<void>;
  close(): Promise<void>;
}

interface MockBindingObject {
  createPort(path: string, options?: Record<string, unknown>): void;
  list(): Promise<unknown[]>;
  open(options: { path: string; baudRate: number }): Promise<MockPortBinding>;
}

/**
 * Creates `path` in serialport's mock registry (the one `SerialPortMock` uses) and returns a binding for
 * the host plus the device's end.
 */
export function mockSerialDevice(path: string): { binding: SerialBinding; end: DeviceEnd } {
  const mock = SerialPortMock.binding as unknown as MockBindingObject;
  mock.createPort(path);
  const listeners = new Set<(chunk: Buffer) => void>();
  let hostPort: MockPortBinding | undefined;

  const binding = {
    list: () => mock.list(),
    async open(options: { path: string; baudRate: number }) {
      const port = await mock.open(options);
      if (options.path !== path) return port;
      const write = port.write.bind(port);
      const close = port.close.bind(port);
      port.write = async (buffer: Buffer) => {
        await write(buffer);
        const copy = Buffer.from(buffer);
        for (const listener of listeners) listener(copy);
      };
      port.close = async () => {
        if (hostPort === port) hostPort = undefined;
        await close();
      };
      hostPort = port;
      return port;
    },
  };

  return {
    binding: binding as unknown as SerialBinding,
    end: {
      write(data) {
        if (hostPort?.isOpen) hostPort.emitData(data);
      },
      onData(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      get hostConnected() {
        return hostPort?.isOpen === true;
      },
      async close() {
        listeners.clear();
      },
    },
  };
}

/** Opens the device's side of a pseudo-terminal pair. */
export async function ptySerialDevice(path: string, baudRate = 9600): Promise<DeviceEnd> {
  const port = new SerialPortStream({ binding: nativeBinding, path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  port.on('error', () => {}); // the host side going away is a normal event for a device
  const listeners = new Set<(chunk: Buffer) => void>();
  port.on('data', (chunk: Buffer) => {
    for (const listener of listeners) listener(chunk);
  });
  return {
    write(data) {
      if (port.isOpen) port.write(data);
    },
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get hostConnected() {
      return port.isOpen;
    },
    async close() {
      listeners.clear();
      if (!port.isOpen) return;
      await new Promise<void>((resolve) => port.drain(() => port.close(() => resolve())));
    },
  };
}
