// A hall host (docs/hall.md): the devices and the game clocks of its boards, its own SQLite journal, and
// the bus. It keeps time whether or not the bus is there: every entry is journaled first, then
// published in order (a backlog after a partition goes out by itself). It reads the console's records
// (seats, scheduled starts) from the stream, carries out the arbiter commands the consoles send it
// (each once, never after its deadline: host-commands.ts) and answers once they are journaled, and
// announces its boards every second.
import { join } from 'node:path';
import {
  announce,
  answer,
  awaitEventStream,
  inboxPrefix,
  isPermissionViolation,
  otherEvents,
  connectBus,
  decodeEntries,
  eventSubjects,
  permissionHint,
  untilAnswered,
  type BusConnection,
  type BusOptions,
  type EventSubjects,
  type Outbox,
} from '../../bus/index.ts';
import { hallBoardNumbers, type ZeitnotEvent } from '../../tournament/index.ts';
import type { DeviceSpec, OpenedDevice } from '../devices/index.ts';
import { entryRatings, simulateEvent } from '../simulation/index.ts';
import { publishJournal, readIntoJournal, readOpening, sameEvent } from './hall-bus.ts';
import { claimBoards, continueHandedGames, renewLeases } from './board-leases.ts';
import { hostCommands } from './host-commands.ts';
import { startDevices } from '../devices/index.ts';
import { PlayingHall } from '../hall/index.ts';
import { Journal, type Durability } from '../journal/index.ts';
import { prepareDataDir, StartFailure, Teardown } from '../start/index.ts';
import { realClock, resumeAt } from '../hall/index.ts';

export interface HallHostOptions {
  readonly bus: BusOptions;
  /** This host's id on the bus (its journal's source, its subjects). */
  readonly hostId: string;
  readonly event: ZeitnotEvent;
  /** The hall boards this host runs. */
  readonly boards: ReadonlySet<string>;
  readonly dataDir: string;
  readonly durability?: Durability;
  readonly devices?: readonly DeviceSpec[];
  /** Virtual players on this host's boards without a device (every round). */
  readonly simulate?: { readonly boards: number | 'all'; readonly hardware: 'dgt' | 'none'; readonly seed?: string };
  /** How often the host announces itself (default 1 s). */
  readonly heartbeatMs?: number;
  readonly warn?: (message: string) => void;
  /** Told once, while the host waits for a console to open the event on the bus. */
  readonly waiting?: (what: string) => void;
  /** How long the host waits for its event's stream before it asks whether the bus runs another event. */
  readonly otherEventAfterMs?: number;
  /** Its boards were handed to another host while it was silent (docs/hall.md, "Replacing a hall host"): it should stop. */
  readonly leaseLost?: (message: string) => void;
}

export interface RunningHallHost {
  readonly hall: PlayingHall;
  readonly journal: Journal;
  readonly bus: BusConnection;
  readonly outbox: Outbox;
  readonly warnings: readonly string[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startHallHost(options: HallHostOptions): Promise<RunningHallHost> {
  const teardown = new Teardown();
  try {
    return await openHallHost(options, teardown);
  } catch (err) {
    return await teardown.abandon(permissionHint(err, `hall host ${options.hostId}`));
  }
}

/** Opens the host's parts in order, each on `teardown` as it opens; its stop unwinds them. */
async function openHallHost(options: HallHostOptions, teardown: Teardown): Promise<RunningHallHost> {
  const { event, hostId, boards } = options;
  const layout = new Set(event.sections.flatMap((s) => hallBoardNumbers(event, s.id).map(String)));
  const foreign = [...boards].filter((b) => !layout.has(b));
  if (foreign.length > 0)
    throw new StartFailure('unknown-board', `--boards: the hall of '${event.id}' has no board ${foreign.join(', ')} (boards 1-${layout.size})`);
  prepareDataDir(options.dataDir);
  const journal = new Journal(join(options.dataDir, 'journal.sqlite'), options.durability ?? 'process', hostId);
  teardown.defer('the journal', () => journal.close());
  const warn = options.warn ?? (() => {});
  const warnings: string[] = [];
  const bus = await connectBus({
    ...options.bus,
    name: `zeitnot hall host ${hostId}`,
    inboxPrefix: inboxPrefix({ kind: 'host', id: hostId }),
    onRetry: warn,
    onLink: warn,
  });
  teardown.defer('the bus connection', () => bus.close());
  const subjects = eventSubjects(event.id);
  // The console makes the stream and opens the event: until then the host waits.
  const never = new AbortController();
  let told = false;
  const tell = (what: string): void => {
    if (!told) options.waiting?.(what);
    told = true;
  };
  // Asked once: only a missing stream is waited for (and told).
  const missing = await bus.jsm.streams.info(subjects.stream).then(
    () => false,
    (err: unknown) => {
      if (isPermissionViolation(err)) throw err;
      return true;
    },
  );
  if (missing) {
    tell(`the stream ${subjects.stream}`);
    await awaitOwnEvent(bus, subjects, never.signal, options.otherEventAfterMs ?? 5_000);
  }
  let opening = await readOpening(bus, subjects, warn);
  while (!opening) {
    tell('a console to open the event');
    await sleep(500);
    opening = await readOpening(bus, subjects, warn);
  }
  if (!sameEvent(opening.event, event))
    throw new Error(`the bus runs another version of event '${event.id}' (opened by console ${opening.console}): give the same event file`);
  const meta = journal.meta();
  if (meta && meta.epochWallMs !== opening.epochWallMs)
    throw new Error(`${journal.file} is of another run of event '${event.id}' (its time starts elsewhere): use a new data directory`);
  if (!meta) journal.setMeta({ event: opening.event, epochWallMs: opening.epochWallMs, scale: opening.scale });
  // A journal behind what the stream has of this host would number new entries the stream already has.
  const lastOnBus = await untilAnswered(
    `the last entry of ${hostId}`,
    () => bus.jsm.streams.getMessage(subjects.stream, { last_by_subj: subjects.host(hostId) }),
    warn,
  );
  // (A message holds one entry or a run of them: the last one counts.)
  const onBus = lastOnBus ? decodeEntries(lastOnBus.data, (r) => ({ ok: true, record: r })) : undefined;
  const lastSeqOnBus = onBus?.ok ? onBus.entries[onBus.entries.length - 1]!.sourceSeq : 0;
  if (lastSeqOnBus > journal.lastOwn()) {
    throw new Error(
      `the stream has ${lastSeqOnBus} entries of hall host ${hostId} and ${journal.file} only ${journal.lastOwn()}: start ${hostId} on its own data directory, or give this host a new --host-id`,
    );
  }
  // Its boards' leases before anything of it reaches the stream: a board another host holds ends the start here.
  const handed = await claimBoards(bus, subjects, hostId, boards, warn);
  const renewals = await renewLeases(bus, subjects, hostId, warn, options.leaseLost ?? warn);
  teardown.defer('the lease renewals', () => renewals.stop());
  const reading = await readIntoJournal(bus, subjects, journal, { kind: 'host', id: hostId }, subjects.forHosts, warn);
  teardown.defer('the stream reader', () => reading.reader.stop());
  await reading.reader.caughtUp;
  // Boards handed over by the chief: their games go on from what the stream has of them (once, on the first start).
  const firstTakeover = [...handed].filter(([, holders]) => holders.some((h) => !journal.lastBySource().has(h)));
  if (firstTakeover.length > 0) await continueHandedGames(bus, subjects, journal, hostId, new Map(firstTakeover), warn);

  const m = journal.meta()!;
  const source = realClock(resumeAt(m.epochWallMs, Date.now(), m.scale, journal.lastAt()), m.scale);
  const hall = new PlayingHall(
    journal,
    source,
    event.sections.map((s) => s.id),
    { owns: (b) => boards.has(b) },
  );
  hall.layout = layout;
  teardown.defer('the playing hall', () => hall.stop());
  // An alert on every board taken over, on every console (journaled as this host's first entries after the takeover).
  if (firstTakeover.length > 0)
    hall.recordBatch(
      firstTakeover.map(([board, holders]) => ({
        kind: 'note' as const,
        board,
        note: { type: 'handedOver' as const, at: hall.source.now(), from: holders.at(-1)!, to: hostId },
      })),
    );

  const outbox = publishJournal(bus, subjects.host(hostId), journal, warn, subjects.stream);
  teardown.defer('the outbox', () => outbox.stop());
  teardown.defer(
    "the outbox's hall subscription",
    hall.subscribe(() => outbox.notify()),
  );

  // Virtual players sit down before the console's records reach the hall (a round's start among them),
  // and from then on every entry read goes to the hall: nothing awaited in between.
  let simulation: { readonly ready: Promise<void>; stop(): Promise<void> } | undefined;
  if (options.simulate && options.simulate.boards !== 0) {
    const notHere = new Set([...layout].filter((b) => !boards.has(b)));
    const running = simulateEvent(hall, {
      seed: options.simulate.seed ?? event.id,
      boards: options.simulate.boards,
      hardware: options.simulate.hardware,
      ratingOf: entryRatings(event),
      withDevice: new Set([...(options.devices ?? []).map((d) => d.board), ...notHere]),
    });
    simulation = running;
    teardown.defer('the simulated players', () => running.stop());
  }
  reading.deliverTo(
    (entry) => hall.receive(entry),
    (work) => hall.batch(work),
  );
  await simulation?.ready;
  // A device that fails to open is its board's trouble (retried, told in `warnings`), not the start's.
  const opened: OpenedDevice[] = [];
  teardown.defer('the devices', () => Promise.all(opened.map((d) => d.close().catch(() => {}))).then(() => {}));
  teardown.defer('the device retries and clock comparison', await startDevices(hall, options.devices ?? [], source, { warnings, opened }));

  const commands = answer(bus.nc, subjects.command(hostId), hostCommands({ hostId, hall, journal, boards }));
  teardown.defer('the command subscription', () => commands.unsubscribe());
  teardown.defer(
    'the presence announcements',
    announce(
      bus.nc,
      subjects.presence(hostId),
      () => ({ host: hostId, boards: [...boards], journaled: journal.lastOwn(), published: outbox.state.published, wallMs: Date.now() }),
      options.heartbeatMs ?? 1_000,
    ),
  );

  return { hall, journal, bus, outbox, warnings, stop: () => teardown.stop(`hall host ${hostId}`) };
}

/**
 * Waits for the event's stream. A host started before its console waits as long as it takes; but when
 * the bus still lacks the event after `afterMs` and runs another one, the host was given the wrong event
 * file: it stops with a line that says which events the bus runs.
 */
async function awaitOwnEvent(bus: BusConnection, subjects: EventSubjects, signal: AbortSignal, afterMs: number): Promise<void> {
  const first = AbortSignal.any([signal, AbortSignal.timeout(afterMs)]);
  if (await awaitEventStream(bus, subjects, first)) return;
  const others = await otherEvents(bus, subjects).catch(() => []);
  if (others.length > 0)
    throw new StartFailure(
      'other-event',
      `the bus runs event ${others.map((o) => `'${o}'`).join(', ')}, not '${subjects.event}': start this host with the console's event (--event FILE|PRESET)`,
    );
  await awaitEventStream(bus, subjects, signal);
}
