// Two ways to reach a virtual DGT board, so host code runs unchanged against it:
// - through @serialport/binding-mock (the binding serialport itself uses for SerialPortMock), and
// - through one end of a real pseudo-terminal pair (socat), exercising the native serialport binding.
import { SerialPortStream } from '@serialport/stream';
import { SerialPortMock } from 'serialport';
import { nativeBinding, type BindingInterface } from '../../device-bridge/index.ts';
import type { VirtualDgtBoard } from './virtual-board.ts';

export interface MockBoardLink {
  /** Pass to `DgtSession`/`createDgtDevice` as `binding`. */
  readonly binding: BindingInterface;
  readonly path: string;
  /** Pulls the cable: the host's read fails as a disconnect and opening fails until `replug`. */
  unplug(): void;
  replug(): void;
}

type MockOpen = Awaited<ReturnType<typeof SerialPortMock.binding.open>>;

let mockPorts = 0;

/**
 * Registers a port on serialport's own MockBinding (SerialPortMock.binding, not an ESM copy of
 * @serialport/binding-mock, which would be a separate registry) and routes it to `board`.
 */
export function mockBoardLink(board: VirtualDgtBoard, path = `/dev/ttyDGTMOCK${mockPorts++}`): MockBoardLink {
  const mock = SerialPortMock.binding;
  mock.createPort(path, { echo: false, record: true });
  let unplugged = false;
  let pull: ((error: Error) => void) | undefined;

  const open = async (options: Parameters<typeof mock.open>[0]): Promise<MockOpen> => {
    if (unplugged) throw new Error(`cannot open ${path}: no such device (unplugged)`);
    const port = await mock.open(options);
    const pulled = new Promise<never>((_, reject) => (pull = reject));
    pulled.catch(() => {});
    const read = port.read.bind(port);
    const write = port.write.bind(port);
    const close = port.close.bind(port);
    port.read = (buffer, offset, length) => Promise.race([read(buffer, offset, length), pulled]);
    port.write = async (buffer) => {
      await Promise.race([write(buffer), pulled]);
      board.receive(buffer);
    };
    port.close = async () => {
      board.disconnect();
      await close();
    };
    board.connect((bytes) => {
      if (port.isOpen) port.emitData(Buffer.from(bytes));
    });
    return port;
  };

  return {
    binding: { list: () => mock.list(), open } as BindingInterface,
    path,
    unplug() {
      unplugged = true;
      board.disconnect();
      pull?.(new Error(`${path} unplugged`));
    },
    replug() {
      unplugged = false;
    },
  };
}

export interface PtyBoardLink {
  readonly path: string;
  /** Opens the board's end again (after the pty pair was re-created). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/** Serves `board` on one end of a pty pair; the host opens the other end with the real binding. */
export async function ptyBoardLink(board: VirtualDgtBoard, path: string): Promise<PtyBoardLink> {
  let port: SerialPortStream | undefined;
  const open = async () => {
    const opened = new SerialPortStream({ binding: nativeBinding, path, baudRate: 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => opened.open((err) => (err ? reject(err) : resolve())));
    opened.on('data', (chunk: Buffer) => board.receive(chunk));
    opened.on('close', () => {
      if (port === opened) board.disconnect();
    });
    opened.on('error', () => board.disconnect());
    port = opened;
    board.connect((bytes) => {
      if (opened.isOpen) opened.write(Buffer.from(bytes));
    });
  };
  const close = async () => {
    const current = port;
    port = undefined;
    board.disconnect();
    if (current?.isOpen) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await open();
  return {
    path,
    async reopen() {
      await close();
      await open();
    },
    close,
  };
}
