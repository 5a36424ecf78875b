// The native serialport binding, with a hung-up line treated as the unplug it is. When a USB serial
// adapter is pulled (or the other end of a pseudo-terminal goes away), Linux hangs the tty up: read()
// returns 0 bytes from then on. bindings-cpp reads again at once on 0 bytes (serialport/bindings-cpp
// #162), so the port spins in a read loop for ever and never reports the disconnect: a Firmata clock,
// which sends nothing unasked, would never notice its cable had gone. The port opens with VMIN=1, so a
// read that returns 0 bytes after the poller said "readable" is a hang-up, never "no data yet".
import { read } from 'node:fs';
import { promisify } from 'node:util';
import { SerialPort } from 'serialport';
import type { SerialPortStream } from '@serialport/stream';

type Binding = ConstructorParameters<typeof SerialPortStream>[0]['binding'];
type Port = Awaited<ReturnType<Binding['open']>>;
/** What a unix port of bindings-cpp has besides the interface: its descriptor and its poller. */
interface UnixPort {
  readonly fd: number | null;
  readonly poller?: { once(event: 'readable', listener: (error: Error | null) => void): unknown };
}

const readAsync = promisify(read);
const retryCodes = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

function canceled(): Error {
  return Object.assign(new Error('Port is not open'), { canceled: true });
}

/** bindings-cpp's unix read, except that 0 bytes ends the connection instead of reading again. */
async function readOrHangUp(port: Port & UnixPort, buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
  for (;;) {
    if (!port.isOpen || port.fd === null) throw canceled();
    try {
      const { bytesRead } = await readAsync(port.fd, buffer, offset, length, null);
      if (bytesRead === 0) throw Object.assign(new Error('the line hung up (device unplugged)'), { code: 'EHANGUP', disconnect: true });
      return { buffer, bytesRead };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!retryCodes.has(code)) throw error;
      if (!port.isOpen) throw canceled();
      await new Promise<void>((resolve, reject) => port.poller?.once('readable', (err) => (err ? reject(err) : resolve())));
    }
  }
}

/** A port whose reads end on a hang-up; every other call goes to the native port. */
export function hangUpAware(port: Port): Port {
  const unix = port as Port & UnixPort;
  if (typeof unix.fd !== 'number' || !unix.poller) return port; // not a unix port (Windows): as it is
  return new Proxy(port, {
    get(target, key, receiver) {
      if (key === 'read') return (buffer: Buffer, offset: number, length: number) => readOrHangUp(unix, buffer, offset, length);
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const native = SerialPort.binding as unknown as Binding;

/** The platform's native binding, with hang-ups reported as disconnects. The default for every device. */
export const nativeBinding: Binding = {
  list: () => native.list(),
  open: async (options) => hangUpAware(await native.open(options)),
};
