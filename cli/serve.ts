// `zeitnot serve`: the arbiter console (docs/console.md).
import { existsSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoLateArrivals, parseDeviceSpec, roundFromEvent, startConsole, swissRoundPairing, type LivePairing } from '../arbiter-console/index.ts';
import { findSection, presetNames } from '../tournament/index.ts';
import { UsageError, type Command } from './command.ts';
import { eventFrom, readInput } from './inputs.ts';

const help = `zeitnot serve: the arbiter console (web page, WebSocket, journal) for one round.

usage: zeitnot serve --event FILE|PRESET [options]
       zeitnot serve --demo

  --event FILE|PRESET    event file (docs/event-file.md) or a preset: ${presetNames.join(', ')}
  --section ID           section of the event (default: the first)
  --round N              round to run (default 1)
  --results FILE.trf     results of the earlier rounds (TRF-16, e.g. the previous round's
                         /api/trf), read into a new journal's tournament pages; a Swiss
                         round N is paired from it by the Dutch engine, as a draft to publish
                         before the clocks start
  --pairings FILE.json   Swiss: round N as the previous console published it (its
                         /api/pairings?round=N), put on the clocks as it is
  --start-in MINUTES     schedule the start MINUTES (of round time) from now, not at the event's time
  --device BOARD=dgt:PATH      a DGT board + clock on a serial port (mirrored: the clock keeps time)
  --device BOARD=dgt:serial=NNNNN  the DGT board with that serial number, on whatever port it is
                         (found again after a replug); a device that fails to open leaves its
                         board disconnected and is retried, the console comes up for the others
  --device BOARD=line:PATH     a line-protocol clock (host-driven: the console keeps time)
  --device BOARD=firmata:PATH  an Arduino/Firmata clock (host-driven)
  --simulate N           virtual players on the first N boards without a device, each on a
                         virtual DGT board + clock reached through the real DGT bridge (host role)
  --simulate-hardware none  virtual players journal their moves directly (no simulated hardware)
  --time-scale X         run the round X times faster than real time (simulations only)
  --auto-start           start the clocks by themselves at the scheduled start
  --port PORT            HTTP/WebSocket port (default 8080)
  --host HOST            interface to listen on (default 127.0.0.1; 0.0.0.0 for tablets on the LAN:
                         the addresses they can use are printed)
  --tls-cert FILE, --tls-key FILE  serve HTTPS and WSS with this certificate and key (PEM):
                         without them the tokens cross the hall's network in clear text
  --data DIR             journal and token directory (default ./data)
  --durability process|power  journal survives a crashed console (default), or power loss too
                         (an fsync per event)
  --demo                 the npm start round: Cairns Cup 2019 round 1, 5 simulated boards, 40x,
                         a fresh journal on every start in the system's temporary directory
                         (zeitnot-demo-USER), so the demo runs from a read-only checkout
  --help                 this text

On the first start in a data directory the chief arbiter's token is printed once; only its scrypt
hash is stored. With it the chief issues named tokens for deputies and sector arbiters on the page. A restart on the same directory rebuilds every board from the journal.`;

const readResults = (path: string): string => readInput('--results', path);

function hardwareOf(text: string | undefined): 'dgt' | 'none' {
  if (text === undefined || text === 'dgt') return 'dgt';
  if (text === 'none') return 'none';
  throw new UsageError(`--simulate-hardware '${text}': expected dgt or none`);
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
      if (!(err instanceof UsageError) && !(err instanceof TypeError) && !(err instanceof Error)) throw err;
      process.stderr.write(`zeitnot serve: ${err.message}\n`);
      return err instanceof UsageError ? err.exitCode : 1;
    }
  },
};

async function serve(args: string[]): Promise<number> {
  {
    const { values } = parseArgs({
      args,
      options: {
        event: { type: 'string' },
        section: { type: 'string' },
        round: { type: 'string' },
        results: { type: 'string' },
        pairings: { type: 'string' },
        'start-in': { type: 'string' },
        device: { type: 'string', multiple: true },
        simulate: { type: 'string' },
        'simulate-hardware': { type: 'string' },
        'time-scale': { type: 'string' },
        'auto-start': { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        data: { type: 'string' },
        durability: { type: 'string' },
        demo: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    });
    const demo = values.demo ?? false;
    const dataDir = resolve(values.data ?? (demo ? join(tmpdir(), `zeitnot-demo-${userInfo().username}`) : './data'));
    if (demo && existsSync(join(dataDir, 'journal.sqlite'))) {
      // The demo always starts a fresh round (and prints a fresh token); only its own directory is wiped.
      for (const f of ['journal.sqlite', 'journal.sqlite-wal', 'journal.sqlite-shm', 'arbiter-token.scrypt']) rmSync(join(dataDir, f), { force: true });
    }
    const eventArg = values.event ?? (demo ? 'cairns-cup-2019' : undefined);
    const port = positive('--port', values.port, 8080);
    const scale = positive('--time-scale', values['time-scale'], demo ? 40 : 1);
    if (scale <= 0) throw new UsageError('--time-scale must be above 0');
    const simulate = positive('--simulate', values.simulate, demo ? 5 : 0);
    const devices = (values.device ?? []).map((d) => {
      try {
        return parseDeviceSpec(d);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    });
    const startIn = values['start-in'] !== undefined ? positive('--start-in', values['start-in'], 0) : demo ? 2 : undefined;
    const event = eventArg ? eventFrom(eventArg) : undefined;
    const round = Number(values.round ?? 1);
    const section = event ? findSection(event, values.section ?? event.sections[0]!.id) : undefined;
    if (values.pairings && section?.format.kind !== 'swiss') throw new UsageError('--pairings: only a Swiss section is served from pairings');
    // A Swiss round's pairing, made (or read) once, and only when the journal is new.
    let live: LivePairing | undefined;
    const livePairing =
      event && section?.format.kind === 'swiss'
        ? (): LivePairing =>
            (live ??= swissRoundPairing(event, section.id, round, {
              ...(values.results ? { previous: { from: values.results, trf: readResults(values.results) } } : {}),
              ...(values.pairings ? { published: { from: values.pairings, json: readInput('--pairings', values.pairings) } } : {}),
            }))
        : undefined;
    if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw new UsageError('--tls-cert and --tls-key go together');
    const tls = values['tls-cert'] && values['tls-key'] ? { cert: readInput('--tls-cert', values['tls-cert']), key: readInput('--tls-key', values['tls-key']) } : undefined;
    const durability = values.durability ?? 'process';
    if (durability !== 'process' && durability !== 'power') throw new UsageError(`--durability '${durability}': expected process or power`);
    const running = await startConsole({
      dataDir,
      durability,
      scale,
      port,
      ...(values.host ? { host: values.host } : {}),
      ...(tls ? { server: { tls } } : {}),
      devices,
      autoStart: values['auto-start'] ?? demo,
      ...(event
        ? {
            tournament: {
              event,
              ...(values.section ? { section: values.section } : {}),
              ...(values.results ? { previous: { from: values.results, trf: readResults(values.results) } } : {}),
              ...(livePairing ? { livePairing } : {}),
            },
          }
        : {}),
      ...(simulate > 0
        ? {
            simulate: {
              boards: simulate,
              hardware: hardwareOf(values['simulate-hardware']),
              ...(demo ? { late: demoLateArrivals } : {}),
            },
          }
        : {}),
      ...(event
        ? {
            round: (toMonotonic: (wallMs: number) => number) =>
              roundFromEvent(
                event,
                {
                  ...(values.section ? { section: values.section } : {}),
                  round,
                  ...(livePairing ? { pairings: livePairing() } : {}),
                  ...(startIn !== undefined ? { startWallMs: Date.now() + Math.round((startIn * 60_000) / scale) } : {}),
                },
                toMonotonic,
              ),
          }
        : {}),
    });
    const r = running.hall.round;
    const out = process.stdout;
    const lateBy = Date.now() - Date.parse(r.scheduledStart);
    if (!running.resumed && lateBy > r.game.defaultTimeMs / scale) {
      process.stderr.write(`zeitnot serve: warning: the scheduled start ${r.scheduledStart} is past the default time already; use --start-in to reschedule\n`);
    }
    for (const warning of running.warnings) process.stderr.write(`zeitnot serve: warning: ${warning}\n`);
    out.write(`zeitnot console: ${r.event}, round ${r.round}, ${r.boards.length} boards${scale !== 1 ? `, time x${scale}` : ''}\n`);
    out.write(`  journal: ${running.journal.file}${running.resumed ? ' (resumed: boards rebuilt from the journal)' : ''}\n`);
    const pairing = running.desk?.view('arbiter');
    const bye = pairing?.rounds.find((p) => p.round === r.round)?.bye;
    if (bye) out.write(`  bye (pairing-allocated, scored, no board): ${bye.name}\n`);
    if (pairing?.draft?.round === r.round) {
      out.write(`  pairing: round ${r.round} paired at start by the Dutch engine, a draft: publish it on the Pairings page before the clocks start\n`);
    }
    if (running.newToken) {
      out.write(`  arbiter token (shown once, stored only as a hash): ${running.newToken}\n`);
      out.write(`  arbiter page: ${running.url}/#token=${running.newToken}\n`);
    } else {
      out.write(`  arbiter page: ${running.url}/ (token as printed when ${dataDir} was created)\n`);
    }
    out.write(`  spectators:   ${running.url}/spectator\n  live PGN:     ${running.url}/api/pgn\n`);
    if (running.server.lanUrls.length > 0) out.write(`  on the hall's network: ${running.server.lanUrls.join(', ')} (add /spectator for spectators)\n`);
    else if (values.host === '0.0.0.0' || values.host === '::') out.write(`  on the hall's network: this machine has no network address yet\n`);
    if (!tls && values.host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(values.host)) {
      process.stderr.write('zeitnot serve: warning: plain HTTP: the arbiters\' tokens cross the network readable by anyone on it; use --tls-cert/--tls-key on an open network\n');
    }
    // A host-driven clock stops when this process stops, so a bug anywhere is logged, not fatal; the
    // journal keeps what happened either way.
    process.on('uncaughtException', (err) => process.stderr.write(`zeitnot serve: unexpected error (still running): ${err.stack ?? String(err)}\n`));
    await new Promise<void>((resolveStop) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void running.stop().then(resolveStop, resolveStop);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  }
}
