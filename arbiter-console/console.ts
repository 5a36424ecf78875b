// The whole console in one process: journal, playing hall, devices, simulated players, server.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCredentials, TOKEN_FILE, type Credentials } from './credentials.ts';
import { explainPortError, openDevice, timekeeperMismatches, withDeviceTimekeepers, type DeviceSpec, type OpenedDevice } from './devices.ts';
import { PlayingHall } from './hall.ts';
import { Journal, type Durability } from './journal.ts';
import type { Round } from './round.ts';
import { simulateRound, type LateArrival, type Simulation } from './simulation.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server.ts';
import { Team } from './team.ts';
import { TournamentDesk, type TournamentContext } from './tournament-desk.ts';
import { realClock, resumeAt, schedulerOf, type HallClock } from './time.ts';
import { builtPage } from './web/built-page.ts';

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
  /** `seed`: default the journal's round (event and round number), so a restart replays the same games. */
  readonly simulate?: { readonly boards: number; readonly seed?: string; readonly late?: readonly LateArrival[]; readonly hardware?: 'dgt' | 'none' };
  /** Start every clock at the scheduled start without waiting for the arbiter (simulated rounds). */
  readonly autoStart?: boolean;
  /** Injected time (tests); default a real clock continuing the journal's. */
  readonly source?: HallClock;
  readonly server?: Partial<
    Pick<ConsoleServerOptions, 'deltasPerSecond' | 'deltaWindowMs' | 'rateLimit' | 'maxMessageBytes' | 'allowedOrigins' | 'allowedHosts' | 'limits' | 'login' | 'tls' | 'tournamentIntervalMs'>
  >;
  /** The event and section of the round: the tournament desk (results, pairings, crosstable, playoffs). */
  readonly tournament?: TournamentContext;
  /** Serve no page (API-only tests and benchmarks). */
  readonly noPage?: boolean;
}

export interface RunningConsole {
  readonly hall: PlayingHall;
  /** Present when the console runs an event's section (given now or found in the journal). */
  readonly desk: TournamentDesk | undefined;
  readonly journal: Journal;
  /** Sectors and named credentials. */
  readonly team: Team;
  readonly server: ConsoleServer;
  readonly url: string;
  /** The chief arbiter's token, only on the start that created it. */
  readonly newToken?: string;
  readonly resumed: boolean;
  /** Things the arbiter should know about this start (printed by `zeitnot serve`). */
  readonly warnings: readonly string[];
  stop(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  mkdirSync(options.dataDir, { recursive: true });
  const journal = new Journal(join(options.dataDir, 'journal.sqlite'), options.durability ?? 'process');
  let credentials: Credentials | undefined;
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
      // Boards with a mirrored clock run with `timekeeper: 'device'`, fixed here in the journal's round.
      const round = withDeviceTimekeepers(options.round((wallMs) => Math.floor((wallMs - epochWallMs) * scale)), options.devices ?? []);
      meta = { round, epochWallMs, scale };
      journal.setMeta(meta);
    }
    const source = options.source ?? realClock(resumeAt(meta.epochWallMs, Date.now(), meta.scale, journal.lastAt()), meta.scale);
    const hall = new PlayingHall(meta.round, journal, source);
    const warnings: string[] = resumed ? [...timekeeperMismatches(meta.round, options.devices ?? [])] : [];
    const desk = TournamentDesk.open(hall, options.tournament);
    credentials = await openCredentials(options.dataDir);
    const team = new Team(hall, credentials, {
      sections: () => (desk ? [desk.section.id] : []),
      ...(desk ? { sectionOf: (board: string) => (desk.hallPairs.has(board) ? desk.section.id : undefined) } : {}),
    });
    const pageDir = options.noPage ? undefined : builtPage();
    for (const spec of options.devices ?? []) {
      if (!hall.boards.has(spec.board)) throw new Error(`--device ${spec.board}=...: the round has no board '${spec.board}' (boards: ${[...hall.boards.keys()].join(', ')})`);
    }
    // One device's trouble is that board's trouble: a port that fails to open leaves its board
    // disconnected (journaled, with the cause and the fix) and is tried again; the others come up.
    const retries = new Map<string, ReturnType<typeof setTimeout>>();
    let stopping = false;
    const bringUp = async (spec: DeviceSpec, attempt: number): Promise<void> => {
      let opened: OpenedDevice | undefined;
      let detachDevice: (() => void) | undefined;
      try {
        opened = await openDevice(spec, schedulerOf(source), hall.boards.get(spec.board)!.state);
        detachDevice = hall.attachDevice(opened.device);
        // A resumed game: a mirrored clock learns whose move the journal says it is before its first reading.
        if (opened.device.role === 'mirror') opened.device.show(hall.boards.get(spec.board)!.state, source.now());
        await opened.open();
        devices.push(opened);
        detach.push(detachDevice);
      } catch (error) {
        detachDevice?.();
        await opened?.close().catch(() => {});
        if (stopping) return;
        const detail = explainPortError(spec.path, error);
        hall.record({ kind: 'note', board: spec.board, note: { type: 'connection', at: source.now(), state: 'disconnected', detail: `${detail}; trying again` } });
        if (attempt === 0) warnings.push(`board ${spec.board}: ${detail}; the console tries again every few seconds`);
        const timer = setTimeout(() => void bringUp(spec, attempt + 1), Math.min(30_000, 2_000 * 2 ** Math.min(attempt, 4)));
        timer.unref();
        retries.set(spec.board, timer);
      }
    };
    await Promise.all((options.devices ?? []).map((spec) => bringUp(spec, 0)));
    detach.push(() => {
      stopping = true;
      for (const t of retries.values()) clearTimeout(t);
    });
    const stopWatch = watchMirroredClocks(hall, devices);
    detach.push(stopWatch);
    if (options.simulate && options.simulate.boards > 0) {
      const withDevice = new Set(devices.map((d) => d.device.boardId));
      const boards = [...hall.boards.keys()].filter((id) => !withDevice.has(id)).slice(0, options.simulate.boards);
      simulation = await simulateRound(hall, {
        seed: options.simulate.seed ?? `${meta.round.event}/${meta.round.round}`,
        boards,
        hardware: options.simulate.hardware ?? 'none',
        ...(options.simulate.late ? { late: options.simulate.late } : {}),
      });
    }
    if (options.autoStart && hall.startAt === undefined) {
      const started = hall.command({ type: 'startAll' }, 'system');
      if (!started.ok) warnings.push(`not started by itself: ${started.reason}`);
    }
    const server = await startConsoleServer({
      hall,
      credentials,
      team,
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
      team,
      server,
      url: server.url,
      ...(credentials.newToken ? { newToken: credentials.newToken } : {}),
      resumed,
      warnings,
      async stop() {
        await simulation?.stop();
        await server.close();
        hall.stop();
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
    if (credentials?.newToken) rmSync(join(options.dataDir, TOKEN_FILE), { force: true });
    throw err;
  }
}

/**
 * Between presses a mirrored clock can still drift from the engine (adjusted by hand, or the console's
 * own correction that the clock never got): compare once a second and journal a disagreement when a
 * side starts to be more than 2 s apart (once per episode, not every second).
 */
function watchMirroredClocks(hall: PlayingHall, devices: readonly OpenedDevice[]): () => void {
  const apart = new Map<string, string>();
  const timer = setInterval(() => {
    // Read each time: a device whose port came up late (retried) joins the list.
    for (const d of devices.filter((x) => x.compare !== undefined)) {
      const board = hall.boards.get(d.device.boardId);
      if (!board || board.state.status === 'finished') continue;
      const alert = d.compare?.(board.state);
      const key = alert ? (alert.side ?? '-') : '';
      if (alert && key !== apart.get(board.id)) {
        hall.record({ kind: 'note', board: board.id, note: { type: 'disagreement', at: alert.at, detail: `between presses, ${alert.message}` } });
      }
      apart.set(board.id, key);
    }
  }, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
