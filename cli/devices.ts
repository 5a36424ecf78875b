// `zeitnot devices`: which serial ports this machine has and what answers on them.
import { explainPortError, listSerialPorts, probeDgtPort, probeFirmata, probeLineClock, type ProbeResult } from '../device-bridge/index.ts';
import { failed, parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot devices: list serial ports and what answers on them.

  zeitnot devices [--path PATH ...] [--timeout MS] [--json]
      Lists the serial ports the system reports (SerialPort.list(); on Linux this needs udevadm) and
      asks each whether it is a DGT board (version and serial number requests, 9600 baud), then a
      line-protocol clock (its hello line, docs/line-protocol.md), then a Firmata board (57600 baud). Ports the
      system does not list (pseudo-terminals, Bluetooth rfcomm links) can be given with --path.
      A port in use by another program cannot be opened and says so.

options:
  --path PATH    also probe this port (repeatable)
  --timeout MS   how long to wait for an answer per port (default 500)
  --json         one JSON object per port instead of a table
  --help         this text`;

function parse(args: string[]): { paths: string[]; timeoutMs: number; json: boolean } {
  const { values } = parseOptions(args, { path: { type: 'string', multiple: true }, timeout: { type: 'string' }, json: { type: 'boolean' } });
  const timeoutMs = values.timeout === undefined ? 500 : Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout wants a positive whole number of ms, got '${values.timeout}'`);
  return { paths: values.path ?? [], timeoutMs, json: values.json ?? false };
}

interface PortReport extends ProbeResult {
  readonly line?: { readonly name: string; readonly version: number };
  readonly firmata?: string;
}

/** Asks one port, in turn, whether it is a DGT board, a line-protocol clock or a Firmata board. */
async function probePort(path: string, timeoutMs: number): Promise<Partial<PortReport>> {
  const dgt = await probeDgtPort(path, { timeoutMs });
  if (dgt.dgt || dgt.error) return dgt;
  try {
    const line = await probeLineClock({ path, timeoutMs });
    if (line) return { line: { name: line.name, version: line.version } };
    const firmata = await probeFirmata({ path, baudRate: 57_600, timeoutMs });
    return firmata ? { firmata } : {};
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function describePort(p: PortReport): string {
  const hardware = [p.manufacturer, p.vendorId && p.productId ? `${p.vendorId}:${p.productId}` : undefined].filter(Boolean).join(' ');
  const what = p.dgt
    ? `DGT board, version ${p.dgt.version}${p.dgt.serial ? `, serial ${p.dgt.serial}` : ''}`
    : p.line
      ? `line-protocol clock '${p.line.name}', protocol version ${p.line.version}`
      : p.firmata
        ? `Firmata board (${p.firmata})`
        : p.error
          ? `cannot open: ${p.error}`
          : 'no answer';
  return `${p.path.padEnd(24)} ${what}${hardware ? `  (${hardware})` : ''}`;
}

export const command: Command = {
  name: 'devices',
  help,
  async run(args) {
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parse(args);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return failed('devices', error);
    }
    const { paths, timeoutMs, json } = parsed;
    let listed: ProbeResult[] = [];
    try {
      listed = await listSerialPorts();
    } catch (error) {
      process.stderr.write(`zeitnot devices: the system did not list serial ports (${(error as Error).message}); probing --path ports only\n`);
    }
    const all = [...listed.filter((p) => !paths.includes(p.path)), ...paths.map((path) => ({ path }))];
    const results: PortReport[] = [];
    for (const port of all) {
      const probed = await probePort(port.path, timeoutMs);
      // The OS's words with the fix (dialout group, unplugged board, the program holding the port).
      results.push({ ...port, ...probed, ...(probed.error === undefined ? {} : { error: explainPortError(port.path, probed.error) }) });
    }
    if (json) for (const r of results) process.stdout.write(JSON.stringify(r) + '\n');
    else if (results.length === 0) process.stdout.write('no serial ports found\n');
    else for (const r of results) process.stdout.write(describePort(r) + '\n');
    return 0;
  },
};
