// `zeitnot serve`: the arbiter console of a whole event, every section and round (docs/console.md).
import { existsSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { demoLateArrivals, parseDeviceSpec, startConsole } from '../arbiter-console/index.ts';
import { checkToken } from '../bus/options/index.ts';
import { presetNames } from '../tournament/index.ts';
import { failed, parseOptions, runUntilStopped, UsageError, type Command } from './command.ts';
import { busHelp, busOptionSpecs, busOptionsFrom } from './bus-options.ts';
import { claimDataDir } from './data-dir-lock.ts';
import { eventFrom, readInput } from './inputs.ts';

const help = `zeitnot serve: the arbiter console for a whole event (web page, WebSocket, journal).

usage: zeitnot serve --event FILE|PRESET [options]
       zeitnot serve --demo

Every section and every round of the event run in this one process and one journal: the arbiter
pairs each round on the Pairings page (Dutch engine or Berger table), publishes it (its boards go
on the hall's tables), starts the clocks, confirms the results, and pairs the next. A section begun
in another program comes in as a TRF before its first round here (Import a TRF on the Pairings page,
or zeitnot import-trf --console URL FILE): its registration list and the rounds played there.

  --event FILE|PRESET    event file (docs/event-file.md) or a preset: ${presetNames.join(', ')}
  --start-in MINUTES     a round published after its scheduled start starts MINUTES (of round time)
                         after it is published (default 0: at once)
  --device BOARD=dgt:PATH      a DGT board + clock on a serial port (mirrored: the clock keeps time)
  --device BOARD=dgt:serial=NNNNN  the DGT board with that serial number, on whatever port it is
                         (found again after a replug); a device that fails to open leaves its
                         board disconnected and is retried, the console comes up for the others
  --device BOARD=line:PATH     a line-protocol clock (host-driven: the console keeps time)
  --device BOARD=firmata:PATH  an Arduino/Firmata clock (host-driven)
  --simulate N|all       virtual players on the first N hall boards without a device (every round),
                         each on a virtual DGT board + clock reached through the real DGT bridge
  --simulate-hardware none  virtual players journal their moves directly (no simulated hardware)
  --auto-publish         a simulated arbiter pairs and publishes each round as soon as it may
  --simulate-event       the whole event plays by itself: --simulate all, --auto-publish,
                         --auto-start, every clock result confirmed, playoffs started
  --time-scale X         run X times faster than real time (simulations only)
  --auto-start           start each published round's clocks by themselves at its scheduled start
  --port PORT            HTTP/WebSocket port (default 8080)
  --host HOST            interface to listen on (default 127.0.0.1; 0.0.0.0 for tablets on the LAN:
                         the addresses they can use are printed)
  --tls-cert FILE, --tls-key FILE  serve HTTPS and WSS with this certificate and key (PEM):
                         without them the tokens cross the hall's network in clear text
  --data DIR             journal and token directory (default ./data)
  --pgn-dir DIR          keep the event's PGN in DIR as files, for a broadcaster's uploader:
                         DIR/<section>/round-N.pgn per round and DIR/games.pgn, each replaced
                         atomically (never seen half-written) at most once a second as games change
  --durability process|power  journal survives a crashed console (default), or power loss too
                         (an fsync per event)
  --demo                 the npm start event: Cairns Cup 2019, round 1 paired and started by
                         itself on 5 simulated boards, 40x; a fresh journal on every start in the
                         temporary directory (zeitnot-demo-USER), so the demo runs from a read-only checkout
  --help                 this text

A hall on many machines (docs/hall.md): the console reads the event from the bus, hall hosts
(zeitnot hall-host) run the boards, board commands go to the host that runs the board.
${busHelp}
  --console-id ID        this console's name on the bus (default c1; a second console: c2)
  --snapshot-every N     with --bus: a snapshot of the console on the bus after every N entries read
                         (default 20000; 0: none); a console on an empty data directory starts
                         from the latest one and reads the stream after it (docs/hall.md, "Rebuild")
  --simulate-event with --bus: the simulated arbiter only (the hosts simulate their boards)

On the first start in a data directory the chief arbiter's token is printed once; only its hash is
stored. With it the chief issues named tokens for deputies and sector arbiters on the page. A
restart on the same directory rebuilds the whole event from the journal.`;

function hardwareOf(text: string | undefined): 'dgt' | 'none' {
  if (text === undefined || text === 'dgt') return 'dgt';
  if (text === 'none') return 'none';
  throw new UsageError(`--simulate-hardware '${text}': expected dgt or none`);
}

function consoleId(text: string): string {
  try {
    return checkToken('--console-id', text);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${name} '${text}': expected a non-negative number`);
  return n;
}

export const command: Command = {
  name: 'serve',
  help,
  async run(args) {
    try {
      return await serve(args);
    } catch (err) {
      // A failed start has stopped what it opened (startConsole's teardown): one line, and the process ends.
      if (!(err instanceof Error)) throw err;
      return failed('serve', err);
    }
  },
};

async function serve(args: string[]): Promise<number> {
  {
    const { values } = parseOptions(args, {
      event: { type: 'string' },
      'start-in': { type: 'string' },
      device: { type: 'string', multiple: true },
      simulate: { type: 'string' },
      'simulate-hardware': { type: 'string' },
      'simulate-event': { type: 'boolean' },
      'auto-publish': { type: 'boolean' },
      'time-scale': { type: 'string' },
      'auto-start': { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      data: { type: 'string' },
      durability: { type: 'string' },
      'pgn-dir': { type: 'string' },
      demo: { type: 'boolean' },
      help: { type: 'boolean' },
      ...busOptionSpecs,
      'console-id': { type: 'string' },
      'snapshot-every': { type: 'string' },
    });
    const demo = values.demo ?? false;
    const simulateEvent = values['simulate-event'] ?? false;
    const dataDir = resolve(values.data ?? (demo ? join(tmpdir(), `zeitnot-demo-${userInfo().username}`) : './data'));
    const claim = claimDataDir(dataDir);
    if (!claim.ok) {
      const held = `${dataDir} is in use by a running console (pid ${claim.pid})`;
      throw new UsageError(
        demo ? `the demo is already running: ${held}; open the page it printed, or stop it first` : `${held}: stop it first, or give another --data`,
        1,
      );
    }
    if (demo && existsSync(join(dataDir, 'journal.sqlite'))) {
      // The demo always starts a fresh event (and prints a fresh token); only its own directory is wiped.
      for (const f of ['journal.sqlite', 'journal.sqlite-wal', 'journal.sqlite-shm', 'arbiter-token.hash', 'arbiter-token.scrypt'])
        rmSync(join(dataDir, f), { force: true });
    }
    const eventArg = values.event ?? (demo ? 'cairns-cup-2019' : undefined);
    if (!eventArg && !existsSync(join(dataDir, 'journal.sqlite')))
      throw new UsageError(`give an event: --event FILE|PRESET (or --demo); ${dataDir} holds no journal yet`);
    const port = positive('--port', values.port, 8080);
    const scale = positive('--time-scale', values['time-scale'], demo ? 40 : 1);
    if (scale <= 0) throw new UsageError('--time-scale must be above 0');
    const bus = busOptionsFrom(values, `zeitnot console ${values['console-id'] ?? 'c1'}`);
    if (values['console-id'] !== undefined && !bus) throw new UsageError('--console-id needs --bus');
    if (values['snapshot-every'] !== undefined && !bus) throw new UsageError('--snapshot-every needs --bus');
    const snapshotEvery = values['snapshot-every'] !== undefined ? positive('--snapshot-every', values['snapshot-every'], 0) : undefined;
    if (bus && (values.simulate !== undefined || values.device !== undefined || demo))
      throw new UsageError(
        '--bus: boards and their devices or virtual players are on the hall hosts (zeitnot hall-host --simulate/--device); the console has none',
      );
    // On the bus the hall hosts simulate their boards: --simulate-event is the simulated arbiter here.
    const simulate = bus ? 0 : values.simulate === 'all' || simulateEvent ? 'all' : positive('--simulate', values.simulate, demo ? 5 : 0);
    const devices = (values.device ?? []).map((d) => {
      try {
        return parseDeviceSpec(d);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
    const startIn = positive('--start-in', values['start-in'], demo ? 2 : 0);
    // A restart needs no --event: the journal holds the event it runs.
    const given = eventArg ? eventFrom(eventArg) : undefined;
    if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
    const tls =
      values['tls-cert'] && values['tls-key']
        ? { cert: readInput('--tls-cert', values['tls-cert']), key: readInput('--tls-key', values['tls-key']) }
        : undefined;
    const durability = values.durability ?? 'process';
    if (durability !== 'process' && durability !== 'power') throw new UsageError(`--durability '${durability}': expected process or power`);
    const running = await startConsole({
      dataDir,
      ...(bus
        ? { bus: { bus, consoleId: consoleId(values['console-id'] ?? 'c1'), ...(snapshotEvery !== undefined ? { snapshotEveryEntries: snapshotEvery } : {}) } }
        : {}),
      durability,
      ...(values['pgn-dir'] !== undefined ? { pgnDir: resolve(values['pgn-dir']) } : {}),
      scale,
      port,
      ...(values.host ? { host: values.host } : {}),
      ...(tls ? { server: { tls } } : {}),
      devices,
      ...(given ? { event: given } : {}),
      lateStartMs: Math.round(startIn * 60_000),
      autoStart: values['auto-start'] ?? (demo || simulateEvent),
      ...(values['auto-publish'] || simulateEvent ? { autopilot: { confirm: simulateEvent, playoff: simulateEvent } } : {}),
      ...(demo ? { firstRound: true } : {}),
      ...(simulate !== 0
        ? {
            simulate: {
              boards: simulate,
              hardware: hardwareOf(values['simulate-hardware']),
              ...(demo ? { late: demoLateArrivals } : {}),
            },
          }
        : {}),
    });
    // Stopped by SIGINT or SIGTERM from here on: a caller that signals as soon as it reads the lines
    // below must not find the default handler (an exit without the stop).
    const stopped = runUntilStopped('zeitnot serve', running);
    const out = process.stdout;
    for (const warning of running.warnings) process.stderr.write(`zeitnot serve: warning: ${warning}\n`);
    const event = running.event;
    const sections = event.sections.map((sec) => {
      const desk = running.desks.get(sec.id);
      return `${sec.name} (${desk && desk.liveRound > 0 ? `round ${desk.liveRound} of ${desk.totalRounds}` : `${desk?.totalRounds ?? '?'} rounds, none paired yet`})`;
    });
    out.write(`zeitnot console: ${event.name}: ${sections.join('; ')}${scale !== 1 ? `, time x${scale}` : ''}\n`);
    out.write(`  journal: ${running.journal.file}${running.resumed ? ' (resumed: the event rebuilt from the journal)' : ''}\n`);
    if (running.newToken) {
      out.write(`  arbiter token (shown once, stored only as a hash): ${running.newToken}\n`);
      out.write(`  arbiter page: ${running.url}/#token=${running.newToken}\n`);
    } else {
      out.write(`  arbiter page: ${running.url}/ (token as printed when ${dataDir} was created)\n`);
    }
    out.write(`  spectators:   ${running.url}/spectator\n  live PGN:     ${running.url}/api/pgn\n  event:        ${running.url}/api/event\n`);
    if (values['pgn-dir'] !== undefined) out.write(`  PGN folder:   ${resolve(values['pgn-dir'])} (<section>/round-N.pgn, games.pgn)\n`);
    if (running.server.lanUrls.length > 0) out.write(`  on the hall's network: ${running.server.lanUrls.join(', ')} (add /spectator for spectators)\n`);
    else if (values.host === '0.0.0.0' || values.host === '::') out.write(`  on the hall's network: this machine has no network address yet\n`);
    if (!tls && values.host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(values.host)) {
      process.stderr.write(
        "zeitnot serve: warning: plain HTTP: the arbiters' tokens cross the network readable by anyone on it; use --tls-cert/--tls-key on an open network\n",
      );
    }
    return stopped;
  }
}
