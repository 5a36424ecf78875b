// `zeitnot hall-host`: the boards of one machine of a hall on the bus (docs/hall.md).
import { resolve } from 'node:path';
import { logLine, parseBoardRanges, parseDeviceSpec, startHallHost } from '../arbiter-console/index.ts';
import { checkToken } from '../bus/index.ts';
import { presetNames } from '../tournament/index.ts';
import { busHelp, busOptionSpecs, busOptionsFrom } from './bus-options.ts';
import { failed, parseOptions, runUntilStopped, UsageError, type Command } from './command.ts';
import { eventFrom } from './inputs.ts';

const help = `zeitnot hall-host: the boards of one machine of the hall, on the bus (docs/hall.md).

usage: zeitnot hall-host --bus nats://HOST:PORT --event FILE|PRESET --boards 1-40 [options]

Runs the devices and the game clocks of its boards with its own journal, and keeps time whether or
not the bus is there: every event is journaled first, then published to the event's stream (a backlog
goes out by itself when the bus is back). Rounds are seated and started by the console
(zeitnot serve --bus); its arbiters' commands for these boards come here and are answered once
journaled. Waits for a console to open the event on the bus.

  --event FILE|PRESET    the event (the console's, the same file): ${presetNames.join(', ')}
  --boards RANGES        the hall boards this host runs: 1-40, or 1-10,21-30
  --host-id ID           its name on the bus (default h + its first board: h1, h21, ...)
  --device BOARD=dgt:PATH|line:PATH|firmata:PATH  a device on one of its boards (as zeitnot serve)
  --simulate N|all       virtual players on its first N boards without a device (every round)
  --simulate-hardware dgt|none  through virtual DGT boards (default) or journaled directly
  --data DIR             its journal (default ./data-host)
  --durability process|power  as zeitnot serve
${busHelp}
  --help                 this text`;

export const command: Command = {
  name: 'hall-host',
  help,
  async run(args) {
    try {
      return await hallHost(args);
    } catch (err) {
      // A failed start has stopped what it opened (startHallHost's teardown): one line, and the process ends.
      if (!(err instanceof Error)) throw err;
      return failed('hall-host', err);
    }
  },
};

function boardSet(text: string | undefined): Set<string> {
  if (text === undefined) throw new UsageError('give the boards this host runs: --boards 1-40');
  const parsed = parseBoardRanges(text);
  if (!parsed.ok) throw new UsageError(`--boards: ${parsed.reason}`);
  const boards = new Set<string>();
  for (const [from, to] of parsed.ranges) for (let b = from; b <= to; b++) boards.add(String(b));
  return boards;
}

async function hallHost(args: string[]): Promise<number> {
  const { values } = parseOptions(args, {
    event: { type: 'string' },
    boards: { type: 'string' },
    'host-id': { type: 'string' },
    device: { type: 'string', multiple: true },
    simulate: { type: 'string' },
    'simulate-hardware': { type: 'string' },
    data: { type: 'string' },
    durability: { type: 'string' },
    help: { type: 'boolean' },
    ...busOptionSpecs,
  });
  if (!values.event) throw new UsageError('give the event: --event FILE|PRESET');
  const boards = boardSet(values.boards);
  const hostId = values['host-id'] ?? `h${[...boards][0]}`;
  try {
    checkToken('--host-id', hostId);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const bus = busOptionsFrom(values, `zeitnot hall host ${hostId}`);
  if (!bus) throw new UsageError('give the bus: --bus nats://HOST:PORT (a hall host always runs on the bus)');
  const devices = (values.device ?? []).map((d) => {
    try {
      return parseDeviceSpec(d);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  });
  const outside = devices.filter((d) => !boards.has(d.board));
  if (outside.length > 0) throw new UsageError(`--device ${outside[0]!.board}=...: board ${outside[0]!.board} is not one of --boards`);
  const simulate = values.simulate === undefined ? 0 : values.simulate === 'all' ? 'all' : Number(values.simulate);
  if (simulate !== 'all' && (!Number.isInteger(simulate) || simulate < 0))
    throw new UsageError(`--simulate '${values.simulate}': expected a number of boards or all`);
  const hardware = values['simulate-hardware'] ?? 'dgt';
  if (hardware !== 'dgt' && hardware !== 'none') throw new UsageError(`--simulate-hardware '${hardware}': expected dgt or none`);
  const durability = values.durability ?? 'process';
  if (durability !== 'process' && durability !== 'power') throw new UsageError(`--durability '${durability}': expected process or power`);
  const event = eventFrom(values.event);
  const dataDir = resolve(values.data ?? './data-host');
  let lost = false;
  const running = await startHallHost({
    bus,
    hostId,
    event,
    boards,
    dataDir,
    durability,
    devices,
    ...(simulate !== 0 ? { simulate: { boards: simulate, hardware } } : {}),
    warn: (m) => logLine(process.stderr, 'zeitnot hall-host', m),
    waiting: (what) => logLine(process.stdout, `zeitnot hall host ${hostId}`, `waiting for ${what} on the bus`),
    // Its boards are another host's now: it stops as on Ctrl-C, and exits 1 with the reason.
    leaseLost: (m) => {
      logLine(process.stderr, 'zeitnot hall-host', m);
      lost = true;
      process.kill(process.pid, 'SIGTERM');
    },
  });
  // Stopped by SIGINT or SIGTERM from here on, before the lines a caller may signal on are printed.
  const stopped = runUntilStopped('zeitnot hall-host', running);
  for (const w of running.warnings) process.stderr.write(`zeitnot hall-host: warning: ${w}\n`);
  process.stdout.write(
    `zeitnot hall host ${hostId}: ${event.name}, boards ${values.boards} (${boards.size}), on ${bus.servers.join(',')}\n  journal: ${running.journal.file}\n`,
  );
  const code = await stopped;
  return lost ? 1 : code;
}
