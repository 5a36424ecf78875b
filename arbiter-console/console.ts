// The whole console in one process: an event's journal, playing hall, section desks, devices, simulated
// players, server. The console runs events only (a round of its own is a one-section event).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCredentials, readCredentialsFile, TOKEN_FILE, type Credentials } from './team/index.ts';
import type { DeviceSpec, OpenedDevice } from './devices/index.ts';
import { startDevices } from './devices/index.ts';
import type { ConsoleBusOptions, ConsoleOnBus, LagWindow } from './on-bus/index.ts';
import type { ArbiterCommand, TournamentCommand } from './contract/index.ts';
import { PlayingHall, type CommandBy, type CommandOutcome } from './hall/index.ts';
import { Journal, type Durability } from './journal/index.ts';
import type { LateArrival } from './simulation/index.ts';
import { logLine, prepareDataDir, StartFailure, Teardown } from './start/index.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server/index.ts';
import { Team } from './team/index.ts';
import { TournamentDesk } from './desk/index.ts';
import { eventSummary } from './desk/index.ts';
import { seatFor } from './desk/index.ts';
import { playoffSeatFor, workerPairer, type SwissPairer } from './desk/index.ts';
import { hallBoardNumbers, type ZeitnotEvent } from '../tournament/index.ts';
import type { ClockDevice } from '../device-bridge/index.ts';
import { startAutopilot } from './simulation/index.ts';
import { entryRatings, simulateEvent } from './simulation/index.ts';
import { realClock, resumeAt, type HallClock } from './hall/index.ts';
import { builtPage, startPgnFolder, type PgnFolder } from './server/index.ts';

/** A Swiss event's pairing worker is made ready this long after the console starts. */
export const PAIRER_WARM_UP_MS = 5_000;

export interface ConsoleOptions {
  readonly dataDir: string;
  /** What an appended journal entry survives (journal.ts); default 'process'. */
  readonly durability?: Durability;
  /** Monotonic ms per real ms (demo acceleration); fixed when the journal is created. */
  readonly scale?: number;
  readonly port?: number;
  readonly host?: string;
  readonly devices?: readonly DeviceSpec[];
  /** `seed`: default the event's id, so a restart replays the same games. */
  readonly simulate?: { readonly boards: number | 'all'; readonly seed?: string; readonly late?: readonly LateArrival[]; readonly hardware?: 'dgt' | 'none' };
  /**
   * The simulated arbiter (autopilot.ts) pairs and publishes each round as soon as it may and starts
   * its clocks; with `confirm` it also confirms every clock result (a simulated event).
   */
  readonly autopilot?: { readonly confirm: boolean; readonly playoff: boolean };
  /** Start every clock at the scheduled start without waiting for the arbiter (simulated rounds). */
  readonly autoStart?: boolean;
  /** Injected time (tests); default a real clock continuing the journal's. */
  readonly source?: HallClock;
  /** Who pairs a Swiss round the arbiter asks for (default the pairing worker, desk/swiss-pairer.ts); stopped with the console. */
  readonly pairer?: SwissPairer;
  /** How long after the start a Swiss event's pairing worker is made ready (default PAIRER_WARM_UP_MS). */
  readonly pairerWarmUpMs?: number;
  readonly server?: Partial<
    Pick<
      ConsoleServerOptions,
      | 'deltasPerSecond'
      | 'deltaWindowMs'
      | 'rateLimit'
      | 'httpRate'
      | 'maxMessageBytes'
      | 'allowedOrigins'
      | 'allowedHosts'
      | 'limits'
      | 'login'
      | 'tls'
      | 'tournamentIntervalMs'
      | 'tournamentBytesPerSecond'
      | 'tournamentMsPerTurn'
      | 'tournamentBuilder'
      | 'spectatorHandOutMs'
      | 'spectatorTickMs'
    >
  >;
  /**
   * The whole event, every section and round in this one process and journal: each section's desk
   * pairs, publishes (seating the round on its hall boards) and confirms round after round. Required
   * for a new journal; a journal holds the event it was started with.
   */
  readonly event?: ZeitnotEvent;
  /** On a new journal: pair and publish each section's round 1 at start (the demo). */
  readonly firstRound?: boolean;
  /** A round whose scheduled start has passed when it is seated starts this many round-time ms later (default 0: now). */
  readonly lateStartMs?: number;
  /**
   * A folder the event's PGN is kept in as files (`<section>/round-N.pgn`, `games.pgn`), each replaced
   * atomically at most once a second as its games change (server/pgn-folder.ts).
   */
  readonly pgnDir?: string;
  /** Serve no page (API-only tests and benchmarks). */
  readonly noPage?: boolean;
  /**
   * A console of a hall on the bus (docs/hall.md): the event is built from the stream, the hall hosts
   * keep the boards' time, board commands go to them. No devices and no virtual players here.
   */
  readonly bus?: ConsoleBusOptions;
}

export interface RunningConsole {
  /** The event the journal holds. */
  readonly event: ZeitnotEvent;
  readonly hall: PlayingHall;
  /** The first section's desk. */
  readonly desk: TournamentDesk;
  /** Every section's desk, by section id. */
  readonly desks: ReadonlyMap<string, TournamentDesk>;
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
  /** The `--device` clocks opened so far (one whose port failed joins when a retry opens it). */
  readonly devices: readonly ClockDevice[];
  /** On the bus: the hall hosts heard and the stream. */
  readonly onBus?: ConsoleOnBus;
  /** The `--pgn-dir` folder's writer. */
  readonly pgnFolder?: PgnFolder;
  stop(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const teardown = new Teardown();
  let credentials: Credentials | undefined;
  try {
    return await openConsole(options, teardown, (c) => (credentials = c));
  } catch (err) {
    // A token nobody was shown is no token: the next start makes (and prints) a new one.
    if (credentials?.newToken) rmSync(join(options.dataDir, TOKEN_FILE), { force: true });
    return await teardown.abandon(err);
  }
}

/** Opens the console's parts in order, each on `teardown` as it opens; its stop unwinds them. */
async function openConsole(options: ConsoleOptions, teardown: Teardown, opened: (credentials: Credentials) => void): Promise<RunningConsole> {
  prepareDataDir(options.dataDir);
  const journal = new Journal(join(options.dataDir, 'journal.sqlite'), options.durability ?? 'process', options.bus?.consoleId ?? 'console');
  teardown.defer('the journal', () => journal.close());
  // The hall stops after the bus has stopped feeding it entries (the bus is joined before the hall is
  // built: the hall is built from what the bus brought).
  const built: { hall?: PlayingHall } = {};
  teardown.defer('the playing hall', () => built.hall?.stop());
  let onBus: ConsoleOnBus | undefined;
  const found = journal.meta();
  // Journals of the single-round console of earlier versions (their meta holds a round, no event).
  if (found && !found.event)
    throw new StartFailure(
      'round-journal',
      `${options.dataDir} holds the journal of a single round (an earlier zeitnot's), not of an event: start a new data directory with --event`,
    );
  const resumed = found !== undefined;
  if (!options.event && !resumed) throw new StartFailure('no-event', `${options.dataDir} holds no event yet: give an event (--event FILE|PRESET)`);
  if (options.bus) {
    if ((options.devices ?? []).length > 0) throw new Error('devices belong on the hall hosts on the bus (zeitnot hall-host --device ...), not on the console');
    // Loaded only for a console on the bus: the NATS client is not loaded by a console off it.
    const { joinAsConsole } = await import('./on-bus/index.ts');
    const joined = await joinAsConsole(options.bus, journal, { ...(options.event ? { event: options.event } : {}), scale: options.scale ?? 1 }, (m) =>
      logLine(process.stderr, 'zeitnot serve', `bus: ${m}`),
    );
    onBus = joined;
    teardown.defer('the bus connection', () => joined.stop());
  }
  // On the bus a console that starts on an empty journal may join an event that is well under way.
  const fresh = !resumed && journal.count() === 0;
  let meta = journal.meta();
  if (!meta) {
    meta = { event: options.event!, epochWallMs: Date.now(), scale: options.scale ?? 1 };
    journal.setMeta(meta);
  }
  const { epochWallMs, scale } = meta;
  const event = meta.event!;
  const source = options.source ?? realClock(resumeAt(epochWallMs, Date.now(), scale, journal.lastAt()), scale);
  const hall = new PlayingHall(
    journal,
    source,
    event.sections.map((s) => s.id),
    onBus ? { owns: () => false } : {},
  );
  built.hall = hall;
  const warnings: string[] = [];
  const toMonotonic = (wallMs: number): number => Math.floor((wallMs - epochWallMs) * scale);
  const desks = new Map<string, TournamentDesk>();
  // One pairing worker for every section, started by the warm-up below or by the first pairing.
  const pairer = options.pairer ?? workerPairer();
  teardown.defer('the pairing worker', () => pairer.stop());
  // Ready long before a round ends (loading the engine is most of a first pairing's CPU), but not
  // during the start, which is to serve within 2 s.
  if (event.sections.some((s) => s.format.kind === 'swiss')) {
    const warmUp = setTimeout(() => void pairer.prepare(), options.pairerWarmUpMs ?? PAIRER_WARM_UP_MS);
    warmUp.unref();
    teardown.defer('the pairing worker warm-up', () => clearTimeout(warmUp));
  }
  for (const section of event.sections) {
    const seat = seatFor(event, section.id, {
      toMonotonic,
      now: () => source.now(),
      lateStartMs: options.lateStartMs ?? 0,
      devices: options.devices ?? [],
      wallNow: () => epochWallMs + source.now() / scale,
      scale,
    });
    const seatPlayoff = playoffSeatFor(event, section.id, {
      now: () => source.now(),
      wallNow: () => epochWallMs + source.now() / scale,
      devices: options.devices ?? [],
    });
    desks.set(section.id, TournamentDesk.forSection(hall, event, section.id, seat, seatPlayoff, pairer));
  }
  const credentials = openCredentials(options.dataDir);
  opened(credentials);
  const hallBoards = new Set(event.sections.flatMap((s) => hallBoardNumbers(event, s.id).map(String)));
  const team = new Team(hall, credentials, {
    sections: () => [...desks.keys()],
    layout: () => ({ hallBoards, sectionBoards: (section: string) => (desks.has(section) ? hallBoardNumbers(event, section) : undefined) }),
  });
  // Entries read from the bus go to the hall, the desks and the team from here on (nothing came between: no await since the hall was built).
  onBus?.attach(hall, desks, team);
  // Named credentials kept in DIR/arbiters.json by earlier versions move into the journal once (on the bus, to every console).
  const movedFile = readCredentialsFile(options.dataDir);
  if (movedFile) {
    team.adoptHashes(movedFile.hashes);
    movedFile.retire();
  }
  if (options.firstRound && fresh) {
    for (const d of desks.values()) {
      for (const command of [{ type: 'pairNextRound' }, { type: 'publishRound' }] as const) {
        const done = d.command({ ...command, section: d.section.id }, 'console start');
        if (!done.ok) warnings.push(`section ${d.section.id}: round 1 not ${command.type === 'pairNextRound' ? 'paired' : 'published'}: ${done.reason}`);
      }
    }
  }
  const desk = desks.get(event.sections[0]!.id)!;
  const pageDir = options.noPage ? undefined : builtPage();
  hall.layout = hallBoards;
  for (const spec of options.devices ?? []) {
    if (!hallBoards.has(spec.board))
      throw new StartFailure('unknown-board', `--device ${spec.board}=...: the hall has no board '${spec.board}' (boards: ${[...hallBoards].join(', ')})`);
  }
  // A device that fails to open is its board's trouble (retried, told in `warnings`), not the start's.
  const devices: OpenedDevice[] = [];
  teardown.defer('the devices', () => Promise.all(devices.map((d) => d.close())).then(() => {}));
  const stopDevices = await startDevices(hall, options.devices ?? [], source, { warnings, opened: devices });
  teardown.defer('the device retries and clock comparison', stopDevices);
  // Simulated DGT boards connect once the console answers, as real boards do (1,000 of them at a restart).
  let answering = (): void => {};
  const up = new Promise<void>((resolve) => (answering = resolve));
  if (options.simulate && options.simulate.boards !== 0) {
    const eventSimulation = simulateEvent(hall, {
      connectAfter: up,
      seed: options.simulate.seed ?? event.id,
      boards: options.simulate.boards,
      hardware: options.simulate.hardware ?? 'none',
      ratingOf: entryRatings(event),
      // A board given a --device is the device's, connected or not: virtual players on it would play a game its real board does not show.
      withDevice: new Set((options.devices ?? []).map((spec) => spec.board)),
      ...(options.simulate.late ? { late: options.simulate.late } : {}),
    });
    teardown.defer('the simulated players', () => eventSimulation.stop());
    await eventSimulation.ready;
  }
  if (options.autopilot || options.autoStart) {
    const autopilot = startAutopilot(hall, desks, {
      confirm: options.autopilot?.confirm ?? false,
      playoff: options.autopilot?.playoff ?? false,
      start: options.autoStart ?? false,
      publish: options.autopilot !== undefined,
      ...(onBus ? { deskCommand: (d: TournamentDesk, command: TournamentCommand, by: string) => onBus!.deskCommand(d, command, by) } : {}),
      warn: (message) => logLine(process.stderr, 'zeitnot serve', `simulated arbiter: ${message}`),
    });
    teardown.defer('the simulated arbiter', () => autopilot.stop());
  }
  const pgnFolder = options.pgnDir !== undefined ? openPgnFolder(options.pgnDir, hall, desks) : undefined;
  if (pgnFolder) teardown.defer('the PGN folder', () => pgnFolder.stop());
  const server = await startConsoleServer({
    hall,
    credentials,
    team,
    desk,
    desks,
    event: () => eventSummary(desks),
    ...(onBus
      ? {
          routeCommand: (command: ArbiterCommand, arbiter: CommandBy, resolved?: (outcome: CommandOutcome) => void) => onBus!.route(command, arbiter, resolved),
          routeDeskCommand: (d: TournamentDesk, command: TournamentCommand, arbiter: CommandBy) => onBus!.deskCommand(d, command, arbiter),
          busHealth: (window: LagWindow) => onBus!.health(window),
        }
      : {}),
    port: options.port ?? 8080,
    ...(options.host ? { host: options.host } : {}),
    ...(pageDir ? { pageDir } : {}),
    ...options.server,
  });
  teardown.defer('the server', () => server.close());
  answering();
  return {
    event,
    hall,
    desk,
    desks,
    journal,
    team,
    server,
    url: server.url,
    ...(credentials.newToken ? { newToken: credentials.newToken } : {}),
    resumed,
    warnings,
    get devices() {
      return devices.map((d) => d.device);
    },
    ...(onBus ? { onBus } : {}),
    ...(pgnFolder ? { pgnFolder } : {}),
    stop: () => teardown.stop('the console'),
  };
}

/** `--pgn-dir`: the folder must be one this process can create and write; a write that fails later is logged and tried again. */
function openPgnFolder(dir: string, hall: PlayingHall, desks: ReadonlyMap<string, TournamentDesk>): PgnFolder {
  try {
    return startPgnFolder({
      dir,
      hall,
      desks,
      onError: (file, err) => logLine(process.stderr, 'zeitnot serve', `--pgn-dir: ${join(dir, file)} not written: ${err.message}`),
    });
  } catch (err) {
    throw new Error(`--pgn-dir ${dir}: ${(err as Error).message}; give a folder this user can create and write`);
  }
}
