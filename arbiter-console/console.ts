// The whole console in one process: journal, playing hall, devices, simulated players, server.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCredentials, TOKEN_FILE, type Credentials } from './credentials.ts';
import { timekeeperMismatches, withDeviceTimekeepers, type DeviceSpec, type OpenedDevice } from './devices.ts';
import { startDevices } from './hall-devices.ts';
import { joinAsConsole, type ConsoleBusOptions, type ConsoleOnBus, type LagWindow } from './bus-console.ts';
import type { ArbiterCommand, TournamentCommand } from './protocol.ts';
import { PlayingHall, type CommandBy } from './hall.ts';
import { Journal, type Durability } from './journal.ts';
import type { Round } from './round.ts';
import { simulateRound, type LateArrival, type Simulation } from './simulation.ts';
import { startConsoleServer, type ConsoleServer, type ConsoleServerOptions } from './server.ts';
import { Team } from './team.ts';
import { TournamentDesk, type TournamentContext } from './tournament-desk.ts';
import { eventSummary } from './event-http.ts';
import { seatFor } from './event-round.ts';
import { playoffSeatFor } from './playoff-boards.ts';
import { hallBoardNumbers, type ZeitnotEvent } from '../tournament/index.ts';
import { startAutopilot } from './autopilot.ts';
import { simulateEvent } from './event-simulation.ts';
import { realClock, resumeAt, type HallClock } from './time.ts';
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
  readonly simulate?: { readonly boards: number | 'all'; readonly seed?: string; readonly late?: readonly LateArrival[]; readonly hardware?: 'dgt' | 'none' };
  /**
   * Event consoles: the simulated arbiter (autopilot.ts) pairs and publishes each round as soon as it
   * may and starts its clocks; with `confirm` it also confirms every clock result (a simulated event).
   */
  readonly autopilot?: { readonly confirm: boolean; readonly playoff: boolean };
  /** Start every clock at the scheduled start without waiting for the arbiter (simulated rounds). */
  readonly autoStart?: boolean;
  /** Injected time (tests); default a real clock continuing the journal's. */
  readonly source?: HallClock;
  readonly server?: Partial<
    Pick<ConsoleServerOptions, 'deltasPerSecond' | 'deltaWindowMs' | 'rateLimit' | 'maxMessageBytes' | 'allowedOrigins' | 'allowedHosts' | 'limits' | 'login' | 'tls' | 'tournamentIntervalMs' | 'tournamentBuilder'>
  >;
  /** The event and section of the round: the tournament desk (results, pairings, crosstable, playoffs). */
  readonly tournament?: TournamentContext;
  /**
   * The whole event, every section and round in this one process and journal: each section's desk
   * pairs, publishes (seating the round on its hall boards) and confirms round after round.
   */
  readonly event?: ZeitnotEvent;
  /** Event consoles, on a new journal: pair and publish each section's round 1 at start (the demo). */
  readonly firstRound?: boolean;
  /** Event consoles: a round whose scheduled start has passed when it is seated starts this many round-time ms later (default 0: now). */
  readonly lateStartMs?: number;
  /** Serve no page (API-only tests and benchmarks). */
  readonly noPage?: boolean;
  /**
   * A console of a hall on the bus (docs/hall.md): the event is built from the stream, the hall hosts
   * keep the boards' time, board commands go to them. No devices and no virtual players here.
   */
  readonly bus?: ConsoleBusOptions;
}

export interface RunningConsole {
  readonly hall: PlayingHall;
  /** Present when the console runs an event's section (given now or found in the journal). */
  readonly desk: TournamentDesk | undefined;
  /** Every section's desk, by section id (an event console; a round's console: its one desk). */
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
  /** On the bus: the hall hosts heard and the stream. */
  readonly onBus?: ConsoleOnBus;
  stop(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  mkdirSync(options.dataDir, { recursive: true });
  const journal = new Journal(join(options.dataDir, 'journal.sqlite'), options.durability ?? 'process', options.bus?.consoleId ?? 'console');
  let onBus: ConsoleOnBus | undefined;
  let credentials: Credentials | undefined;
  const devices: OpenedDevice[] = [];
  const detach: (() => void)[] = [];
  let simulation: Simulation | undefined;
  let eventSimulation: { readonly ready: Promise<void>; stop(): Promise<void> } | undefined;
  let autopilot: { stop(): void } | undefined;
  try {
    const resumed = journal.meta() !== undefined;
    if (options.bus) {
      if ((options.devices ?? []).length > 0) throw new Error('devices belong on the hall hosts on the bus (zeitnot hall-host --device ...), not on the console');
      if (!options.event && !resumed) throw new Error(`${options.dataDir} holds no event yet: give an event (--event FILE)`);
      onBus = await joinAsConsole(options.bus, journal, { ...(options.event ? { event: options.event } : {}), scale: options.scale ?? 1 }, (m) => process.stderr.write(`zeitnot serve: bus: ${m}\n`));
    }
    // On the bus a console that starts on an empty journal may join an event that is well under way.
    const fresh = !resumed && journal.count() === 0;
    let meta = journal.meta();
    if (!meta) {
      const epochWallMs = Date.now();
      const scale = options.scale ?? 1;
      if (options.event) meta = { event: options.event, epochWallMs, scale };
      else {
        if (!options.round) throw new Error(`${options.dataDir} holds no round yet: give an event (--event FILE)`);
        // Boards with a mirrored clock run with `timekeeper: 'device'`, fixed here in the journal's round.
        const round = withDeviceTimekeepers(options.round((wallMs) => Math.floor((wallMs - epochWallMs) * scale)), options.devices ?? []);
        meta = { round, epochWallMs, scale };
      }
      journal.setMeta(meta);
    }
    const source = options.source ?? realClock(resumeAt(meta.epochWallMs, Date.now(), meta.scale, journal.lastAt()), meta.scale);
    const event = meta.event;
    const hall = new PlayingHall(meta.round, journal, source, event?.sections.map((s) => s.id) ?? [], onBus ? { owns: () => false } : {});
    const warnings: string[] = resumed && meta.round ? [...timekeeperMismatches(meta.round, options.devices ?? [])] : [];
    const toMonotonic = (wallMs: number): number => Math.floor((wallMs - meta.epochWallMs) * meta.scale);
    const desks = new Map<string, TournamentDesk>();
    if (event) {
      for (const section of event.sections) {
        const seat = seatFor(event, section.id, {
          toMonotonic,
          now: () => source.now(),
          lateStartMs: options.lateStartMs ?? 0,
          devices: options.devices ?? [],
          wallNow: () => meta.epochWallMs + source.now() / meta.scale,
          scale: meta.scale,
        });
        const seatPlayoff = playoffSeatFor(event, section.id, { now: () => source.now(), wallNow: () => meta.epochWallMs + source.now() / meta.scale, devices: options.devices ?? [] });
        desks.set(section.id, TournamentDesk.forSection(hall, event, section.id, seat, seatPlayoff));
      }
    } else {
      const one = TournamentDesk.open(hall, options.tournament);
      if (one) desks.set(one.section.id, one);
    }
    // Entries read from the bus go to the hall and the desks from here on (nothing came between: no await since the hall was built).
    onBus?.attach(hall, desks);
    if (event && options.firstRound && fresh) {
      for (const d of desks.values()) {
        for (const command of [{ type: 'pairNextRound' }, { type: 'publishRound' }] as const) {
          const done = d.command({ ...command, section: d.section.id }, 'console start');
          if (!done.ok) warnings.push(`section ${d.section.id}: round 1 not ${command.type === 'pairNextRound' ? 'paired' : 'published'}: ${done.reason}`);
        }
      }
    }
    const desk = desks.values().next().value;
    credentials = await openCredentials(options.dataDir);
    const hallBoards = event ? new Set(event.sections.flatMap((s) => hallBoardNumbers(event, s.id).map(String))) : new Set(hall.boards.keys());
    const team = new Team(hall, credentials, {
      sections: () => [...desks.keys()],
      ...(event ? { layout: () => ({ hallBoards, sectionBoards: (section: string) => (desks.has(section) ? hallBoardNumbers(event, section) : undefined) }) } : {}),
    });
    const pageDir = options.noPage ? undefined : builtPage();
    hall.layout = hallBoards;
    for (const spec of options.devices ?? []) {
      if (!hallBoards.has(spec.board)) throw new Error(`--device ${spec.board}=...: the hall has no board '${spec.board}' (boards: ${[...hallBoards].join(', ')})`);
    }
    detach.push(await startDevices(hall, options.devices ?? [], source, { warnings, opened: devices }));
    if (event && options.simulate && options.simulate.boards !== 0) {
      eventSimulation = simulateEvent(hall, {
        seed: options.simulate.seed ?? event.id,
        boards: options.simulate.boards,
        hardware: options.simulate.hardware ?? 'none',
        withDevice: new Set(devices.map((d) => d.device.boardId)),
        ...(options.simulate.late ? { late: options.simulate.late } : {}),
      });
      await eventSimulation.ready;
    } else if (options.simulate && options.simulate.boards !== 0) {
      const withDevice = new Set(devices.map((d) => d.device.boardId));
      const boards = [...hall.boards.keys()].filter((id) => !withDevice.has(id)).slice(0, options.simulate.boards === 'all' ? undefined : options.simulate.boards);
      simulation = await simulateRound(hall, {
        seed: options.simulate.seed ?? `${hall.round.event}/${hall.round.round}`,
        boards,
        hardware: options.simulate.hardware ?? 'none',
        ...(options.simulate.late ? { late: options.simulate.late } : {}),
      });
    }
    if (event && (options.autopilot || options.autoStart)) {
      autopilot = startAutopilot(hall, desks, {
        confirm: options.autopilot?.confirm ?? false,
        playoff: options.autopilot?.playoff ?? false,
        start: options.autoStart ?? false,
        publish: options.autopilot !== undefined,
        ...(onBus ? { deskCommand: (d: TournamentDesk, command: TournamentCommand, by: string) => onBus!.deskCommand(d, command, by) } : {}),
        warn: (message) => process.stderr.write(`zeitnot serve: simulated arbiter: ${message}\n`),
      });
    }
    if (!event && options.autoStart && hall.seated.size > 0 && hall.startAt === undefined) {
      const started = hall.command({ type: 'startAll' }, 'system');
      if (!started.ok) warnings.push(`not started by itself: ${started.reason}`);
    }
    const server = await startConsoleServer({
      hall,
      credentials,
      team,
      ...(desk ? { desk } : {}),
      desks,
      ...(event ? { event: () => eventSummary(desks) } : {}),
      ...(onBus
        ? {
            routeCommand: (command: ArbiterCommand, arbiter: CommandBy) => onBus!.route(command, arbiter),
            routeDeskCommand: (d: TournamentDesk, command: TournamentCommand, arbiter: CommandBy) => onBus!.deskCommand(d, command, arbiter),
            busHealth: (window: LagWindow) => onBus!.health(window),
          }
        : {}),
      port: options.port ?? 8080,
      ...(options.host ? { host: options.host } : {}),
      ...(pageDir ? { pageDir } : {}),
      ...options.server,
    });
    return {
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
      ...(onBus ? { onBus } : {}),
      async stop() {
        autopilot?.stop();
        await eventSimulation?.stop();
        await simulation?.stop();
        await server.close();
        await onBus?.stop();
        hall.stop();
        for (const d of detach) d();
        await Promise.all(devices.map((d) => d.close()));
        journal.close();
      },
    };
  } catch (err) {
    autopilot?.stop();
    await eventSimulation?.stop();
    await simulation?.stop();
    for (const d of detach) d();
    await Promise.all(devices.map((d) => d.close().catch(() => {})));
    await onBus?.stop().catch(() => {});
    journal.close();
    // A token nobody was shown is no token: the next start makes (and prints) a new one.
    if (credentials?.newToken) rmSync(join(options.dataDir, TOKEN_FILE), { force: true });
    throw err;
  }
}
