// "What answers on this port?" for `zeitnot devices`: a line-protocol clock answers QUERY with HELLO.
import { formatLine, parseLine } from './codec.ts';
import { BoundedReadlineParser } from './line-reader.ts';
import { closePort, openPort, serialPortFor, type SerialPath } from './serial-link.ts';

export interface LineClockIdentity {
  readonly version: number;
  readonly name: string;
  readonly bootId: string;
}

/** The HELLO of a line-protocol clock on `path`, or undefined if nothing answers in time. Open errors throw. */
export async function probeLineClock(target: SerialPath & { readonly timeoutMs?: number }): Promise<LineClockIdentity | undefined> {
  const port = serialPortFor(target);
  const parser = new BoundedReadlineParser();
  port.on('error', () => {});
  port.pipe(parser);
  await openPort(port);
  try {
    return await new Promise<LineClockIdentity | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), target.timeoutMs ?? 1_500);
      parser.on('data', (line: string) => {
        const parsed = parseLine(line);
        if (parsed.ok && parsed.message.type === 'hello') {
          clearTimeout(timer);
          const { version, name, bootId } = parsed.message;
          resolve({ version, name, bootId });
        }
      });
      // A newline first ends whatever partial line an earlier probe (a DGT request, say) left in the device.
      port.write('\n' + formatLine({ type: 'query' }));
    });
  } finally {
    await closePort(port);
  }
}
