// A Firmata IO object for johnny-five over our own serialport 13 stream. johnny-five's own connect path
// would load serialport 8, whose native binding is not built here (and is not needed): firmata-io is
// the protocol without any transport, and serialport 13 is the transport.
import bindTransport, { type FirmataBoard } from 'firmata-io';
import { closePort, openPort, serialPortFor, type SerialPath } from '../line/serial-link.ts';

export interface FirmataLink {
  /** Pass as the Firmata clock's `io`; it has finished the Firmata handshake. */
  readonly io: FirmataBoard;
  /** What the board's firmware called itself. */
  readonly firmware: string | undefined;
  close(): Promise<void>;
}

// Only used if a path string were given to the Board; we always hand it an open stream.
class NoDefaultTransport {
  constructor() {
    throw new Error('firmata-io needs an open serial stream here');
  }
}
const FirmataBoardClass = bindTransport(NoDefaultTransport);

/**
 * Opens `path` (57600 baud, StandardFirmata's rate, unless told otherwise) and waits for the Firmata
 * handshake. An UNO resets when the port opens and announces itself after its boot loader (~2 s); the
 * version is also asked for at once, for boards that do not reset.
 */
export async function openFirmataLink(target: SerialPath & { readonly readyTimeoutMs?: number }): Promise<FirmataLink> {
  const port = serialPortFor({ ...target, baudRate: target.baudRate ?? 57_600 });
  const io = new FirmataBoardClass(port, { reportVersionTimeout: 3_000 });
  port.on('error', () => {}); // a failed open is reported below; later errors close the port
  await openPort(port);
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no Firmata handshake on ${target.path}`)), target.readyTimeoutMs ?? 10_000);
    io.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  io.reportVersion(() => {});
  io.queryFirmware(() => {});
  try {
    await ready;
  } catch (error) {
    await closePort(port);
    throw error;
  }
  return { io, firmware: io.firmware.name, close: () => closePort(port) };
}

/** The firmware name of a Firmata board on `path`, or undefined if nothing completes the handshake. */
export async function probeFirmata(target: SerialPath & { readonly timeoutMs?: number }): Promise<string | undefined> {
  try {
    const link = await openFirmataLink({ ...target, readyTimeoutMs: target.timeoutMs ?? 3_000 });
    await link.close();
    return link.firmware ?? 'Firmata';
  } catch (error) {
    if ((error as Error).message.startsWith('no Firmata handshake')) return undefined;
    throw error;
  }
}
