// The whole console in one process: journal, playing hall, devices, simulated players, server.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { arbiterAuth, TOKEN_FILE, type ArbiterAuth } from './auth.ts';
import { openDevice, type DeviceSpec, type OpenedDevice } from './devices.ts';
import { PlayingHall } from './hall.ts';
import { Journal, type Durability } from './journal.ts';
import type { Round } from './round.ts';
import { simulateRound, type LateArrival, type Simulation } from './simulation.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server.ts';
import { TournamentDesk, type TournamentContext } from './tournament-desk.ts';
import { resumeAt, scaledSource, schedulerOf, type MonotonicSource } from './time.ts';
import { bundlePage } from './web/bundle.ts';

export interface ConsoleOptions {
  readonly dataDir: string;
  /** What an appended journal entry survives (journal.ts); default 'process'. */
  readonly durability?: Durability;
  /** Builds the round for a new journal; `toMonotonic` maps wall ms to the console's time. */
  readonly round?: (toMonotonic: (wallMs: number) => number) => Round;
  /** Monotonic ms per real ms (demo acceleration); fixed when the journal is created. */
  readonly scale?: number;
  readonly port?: number;
  readonly host?: string;
  readonly devices?: readonly DeviceSpec[];
  readonly simulate?: { readonly boards: number; readonly seed: string; readonly late?: readonly LateArrival[]; readonly hardware?: 'dgt' | 'none' };
  /** Start every clock at the scheduled start without waiting for the arbiter (simulated rounds). */
  readonly autoStart?: boolean;
  /** Injected time (tests); default a real monotonic source continuing the journal's. */
  readonly source?: MonotonicSource;
  readonly server?: Partial<Pick<ConsoleServerOptions, 'deltasPerSecond' | 'deltaWindowMs' | 'rateLimit' | 'maxMessageBytes' | 'tickMs' | 'allowedOrigins'>>;
  /** The event and section of the round: the tournament desk (results, pairings, crosstable, playoffs). */
  readonly tournament?: TournamentContext;
  /** Skip bundling the page (API-only tests and benchmarks). */
  readonly noPage?: boolean;
}

export interface RunningConsole {
  readonly hall: PlayingHall;
  /** Present when the console runs an event's section (given now or found in the journal). */
  readonly desk: TournamentDesk | undefined;
  readonly journal: Journal;
  readonly server: ConsoleServer;
  readonly url: string;
  /** The arbiter token, only on the start that created it. */
  readonly newToken?: string;
  readonly resumed: boolean;
  stop(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  mkdirSync(options.dataDir, { recursive: true });
  const journal = new Journal(join(options.dataDir, 'journal.sqlite'), options.durability ?? 'process');
  let auth: ArbiterAuth | undefined;
  const devices: OpenedDevice[] = [];
  const detach: (() => void)[] = [];
  let simulation: Simulation | undefined;
  try {
    let meta = journal.meta();
    const resumed = meta !== undefined;
    if (!meta) {
      if (!options.round) throw new Error(`${options.dataDir} holds no round yet: give an event (--event FILE)`);
      const epochWallMs = Date.now();
      const scale = options.scale ?? 1;
      const round = options.round((wallMs) => Math.floor((wallMs - epochWallMs) * scale));
      meta = { round, epochWallMs, scale };
      journal.setMeta(meta);
    }
    const source = options.source ?? scaledSource(resumeAt(meta.epochWallMs, Date.now(), meta.scale, journal.lastAt()), meta.scale);
    const hall = new PlayingHall(meta.round, journal, source);
    const desk = TournamentDesk.open(hall, options.tournament);
    auth = await arbiterAuth(options.dataDir);
    const pageDir = options.noPage ? undefined : await bundlePage();
    for (const spec of options.devices ?? []) {
      if (!hall.boards.has(spec.board)) throw new Error(`--device ${spec.board}=...: the round has no board '${spec.board}' (boards: ${[...hall.boards.keys()].join(', ')})`);
      const opened = await openDevice(spec, schedulerOf(source));
      devices.push(opened);
      detach.push(hall.attachDevice(opened.device));
      await opened.open();
    }
    if (options.simulate && options.simulate.boards > 0) {
      const withDevice = new Set(devices.map((d) => d.device.boardId));
      const boards = [...hall.boards.keys()].filter((id) => !withDevice.has(id)).slice(0, options.simulate.boards);
      simulation = await simulateRound(hall, {
        seed: options.simulate.seed,
        boards,
        hardware: options.simulate.hardware ?? 'none',
        ...(options.simulate.late ? { late: options.simulate.late } : {}),
      });
    }
    if (options.autoStart && hall.startAt === undefined) hall.command({ type: 'startAll' }, 'system');
    const server = await startConsoleServer({
      hall,
      auth,
      ...(desk ? { desk } : {}),
      port: options.port ?? 8080,
      ...(options.host ? { host: options.host } : {}),
      ...(pageDir ? { pageDir } : {}),
      ...options.server,
    });
    return {
      hall,
      desk,
      journal,
      server,
      url: server.url,
      ...(auth.newToken ? { newToken: auth.newToken } : {}),
      resumed,
      async stop() {
        await simulation?.stop();
        await server.close();
        for (const d of detach) d();
        await Promise.all(devices.map((d) => d.close()));
        journal.close();
      },
    };
  } catch (err) {
    await simulation?.stop();
    for (const d of detach) d();
    await Promise.all(devices.map((d) => d.close().catch(() => {})));
    journal.close();
    // A token nobody was shown is no token: the next start makes (and prints) a new one.
    if (auth?.newToken) rmSync(join(options.dataDir, TOKEN_FILE), { force: true });
    throw err;
  }
}
