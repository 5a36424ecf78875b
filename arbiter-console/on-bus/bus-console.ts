// A console on the bus (docs/hall.md): it opens the event on the stream (or finds it opened), rebuilds
// the event from the stream into its journal, publishes its own records (seats, starts, the desk, the
// team), hears every hall host's heartbeat, and carries an arbiter's board command to the host that
// runs the board (command-courier.ts), telling the arbiter what became of it: carried out once that
// host has journaled it, refused, not carried out, or unknown until the host answers.
import {
  connectBus,
  ensureEventStream,
  ensureLeaseBucket,
  eventSubjects,
  permissionHint,
  PresenceWatch,
  untilAnswered,
  type BusConnection,
  type BusOptions,
  type HostSeen,
  type Outbox,
  inboxPrefix,
} from '../../bus/index.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { BoardOwners } from './board-owners.ts';
import { DeskGate, type DeskStats } from './bus-desk.ts';
import { takeOverHost } from './host-takeover.ts';
import { CommandCourier, type Delivery, type Settled } from './command-courier.ts';
import { restoreFromSnapshot, SnapshotWriter, type Restored, type SnapshotWritten } from './console-snapshots.ts';
import { openEvent, publishJournal, readIntoJournal, sameEvent, type HallReader, type Opening } from './hall-bus.ts';
import { actingAs, type CommandBy, type CommandOutcome, type PlayingHall } from '../hall/index.ts';
import type { Journal, JournalMeta } from '../journal/index.ts';
import type { ArbiterCommand, TournamentCommand } from '../contract/index.ts';
import type { TournamentDesk } from '../desk/index.ts';
import type { Team } from '../team/index.ts';
import type { TournamentRecord } from '../contract/index.ts';
import { refusal, type HostCommandOutcome, type Refusal } from '../contract/index.ts';

export interface ConsoleBusOptions {
  readonly bus: BusOptions;
  /** This console's id on the bus (its journal's source, its consumer): `c1` unless told. */
  readonly consoleId: string;
  /** A host not heard for this long is "unreachable" (default 3 s; heartbeats come every second). */
  readonly unreachableAfterMs?: number;
  /** From sending a command to its deadline (default 5 s): a host never carries it out later. */
  readonly commandTimeoutMs?: number;
  /** A snapshot of this console on the bus after this many entries read (console-snapshots.ts; default 20,000; 0: none). */
  readonly snapshotEveryEntries?: number;
  /** An empty journal starts from the latest matching snapshot (default); false: it reads the whole stream. */
  readonly rebuildFromSnapshot?: boolean;
}

export interface ConsoleOnBus {
  readonly bus: BusConnection;
  readonly opening: Opening;
  /** The snapshot this console's empty journal was rebuilt from (then only the stream after it was read). */
  readonly restored?: Restored;
  /** Writes a snapshot of this console now (undefined: not now; it is written by itself every so many entries). */
  writeSnapshot(): Promise<SnapshotWritten | undefined>;
  /** The hall is built: entries go to it (the desks' and the team's records to them) from now on, own records are published, hosts are watched. */
  attach(hall: PlayingHall, desks: ReadonlyMap<string, TournamentDesk>, team: Team): void;
  /** Carries out a desk command through the stream, ordered with every other console's (bus-desk.ts). */
  deskCommand(desk: TournamentDesk, command: TournamentCommand, arbiter: CommandBy): Promise<CommandOutcome>;
  /**
   * Carries a board command (or one for every board) to the hosts; undefined: not theirs (startAll).
   * An answer `outcome-unknown` (a host silent past the deadline) is followed by `resolved` with the
   * outcome once the host answers (docs/hall.md, "What a command's answer means").
   */
  route(command: ArbiterCommand, arbiter: CommandBy, resolved?: (outcome: CommandOutcome) => void): Promise<CommandOutcome> | undefined;
  /** Every host heard, with its boards and whether it is heard now. */
  hosts(): ReadonlyMap<string, HostSeen>;
  /**
   * For /health: each host heard, and how long its recent entries took from its journal to this one
   * (those a host journaled in `window`, wall ms from inclusive to exclusive; default all).
   */
  health(window?: LagWindow): BusHealth;
  stop(): Promise<void>;
}

export interface LagWindow {
  readonly from?: number;
  readonly to?: number;
}

export interface BusHealth {
  readonly hosts: readonly {
    readonly id: string;
    readonly reachable: boolean;
    readonly boards: number;
    readonly journaled: number;
    readonly published: number;
  }[];
  /** Host journal to console journal (the batch journaled and applied), in wall ms, over the last clock events read (up to 100,000). */
  readonly lagMs: { readonly count: number; readonly p50: number; readonly p99: number; readonly max: number };
  /** The desk's commands through the stream (bus-desk.ts). */
  readonly desk: DeskStats;
}

/** A host's clock this far ahead of the console's is told (commands' deadlines are wall-clock times). */
const CLOCK_AHEAD_WARN_MS = 1_000;

/** How many recent host clock events the lag is measured over (a round of 1,000 boards has some 60,000). */
const LAG_WINDOW = 100_000;

/**
 * Joins the bus: the stream is made if missing, the opening published (first console wins) or read,
 * the journal given its meta from the opening, and every entry of the stream read into the journal.
 * Resolves when the journal has what the stream had.
 */
export async function joinAsConsole(
  options: ConsoleBusOptions,
  journal: Journal,
  given: { event?: ZeitnotEvent; scale: number },
  warn: (message: string) => void,
): Promise<ConsoleOnBus> {
  const bus = await connectBus({
    ...options.bus,
    name: `zeitnot console ${options.consoleId}`,
    inboxPrefix: inboxPrefix({ kind: 'console', id: options.consoleId }),
    onRetry: warn,
    onLink: warn,
  });
  try {
    const meta = journal.meta();
    const event = meta?.event ?? given.event;
    if (!event) throw new Error('give the event (--event FILE|PRESET): the journal holds none yet');
    const subjects = eventSubjects(event.id);
    const stream = await untilAnswered(`the stream ${subjects.stream}`, () => ensureEventStream(bus, subjects), warn);
    await untilAnswered(`the lease bucket ${subjects.leaseBucket}`, () => ensureLeaseBucket(bus, subjects, stream.config.num_replicas), warn);
    const opening = await openEvent(
      bus,
      subjects,
      { event, epochWallMs: meta?.epochWallMs ?? Date.now(), scale: meta?.scale ?? given.scale, console: options.consoleId },
      warn,
    );
    if (!sameEvent(opening.event, event))
      throw new Error(`the bus runs another version of event '${event.id}' (opened by console ${opening.console}): give the same event file`);
    if (meta && meta.epochWallMs !== opening.epochWallMs)
      throw new Error(`${journal.file} is of another run of event '${event.id}' on this bus (its time starts elsewhere): use a new data directory`);
    if (!meta) journal.setMeta({ event: opening.event, epochWallMs: opening.epochWallMs, scale: opening.scale } satisfies JournalMeta);
    // An empty journal (a console on a new machine) starts from the latest snapshot that matches, if any: its own, else the opening console's.
    const restored =
      journal.count() === 0 && options.rebuildFromSnapshot !== false
        ? await restoreFromSnapshot(bus, subjects, journal, opening, [options.consoleId, opening.console], warn)
        : undefined;
    if (restored)
      warn(
        `rebuilt from console ${restored.from}'s snapshot (${restored.rows} entries, ${restored.archived} of them kept archived, ${restored.boards} board snapshots): reading the stream after ${restored.resumeAfter}`,
      );
    // Who owns each board, decided at each entry in the stream's order (board-owners.ts).
    const owners = new BoardOwners(journal);
    const reading = await readIntoJournal(bus, subjects, journal, { kind: 'console', id: options.consoleId }, subjects.journal, warn, (e) => owners.admit(e));
    await reading.reader.caughtUp;
    const snapshots = new SnapshotWriter({
      bus,
      subjects,
      journal,
      opening,
      consoleId: options.consoleId,
      replicas: stream.config.num_replicas,
      ...(options.snapshotEveryEntries !== undefined ? { everyEntries: options.snapshotEveryEntries } : {}),
      warn,
    });
    return consoleOnBus(options, bus, subjects, journal, opening, reading, owners, snapshots, restored, warn);
  } catch (err) {
    await bus.close();
    throw permissionHint(err, `console ${options.consoleId}`);
  }
}

function consoleOnBus(
  options: ConsoleBusOptions,
  bus: BusConnection,
  subjects: ReturnType<typeof eventSubjects>,
  journal: Journal,
  opening: Opening,
  reading: HallReader,
  owners: BoardOwners,
  snapshots: SnapshotWriter,
  restored: Restored | undefined,
  warn: (message: string) => void,
): ConsoleOnBus {
  let outbox: Outbox | undefined;
  let watch: PresenceWatch | undefined;
  let unsubscribe: (() => void) | undefined;
  let hallRef: PlayingHall | undefined;
  let gate: DeskGate | undefined;
  /** Which host announces each board, from the heartbeats. */
  const announced = new Map<string, string>();
  /** Which host runs each board: its lease's holder, else (a stream from before leases) the host announcing it. */
  const owner = { get: (board: string): string | undefined => owners.ownerOf(board) ?? announced.get(board) };
  const timeoutMs = options.commandTimeoutMs ?? 5_000;
  const lags: { readonly wallMs: number; readonly lag: number }[] = [];
  let lagNext = 0;

  let courier: CommandCourier | undefined;
  /** A host's answer as the arbiter's: carried out once this console has read the host's entries back (so the arbiter sees it at once). */
  const outcomeOf = async (d: Settled): Promise<CommandOutcome> => {
    if (d.kind !== 'carried-out') return d.refusal;
    await reading.whenHas(d.host, d.sourceSeq, timeoutMs);
    return { ok: true, journalSeq: hallRef?.version ?? 0 };
  };

  const boardOf = (command: ArbiterCommand): string | undefined => {
    if ('board' in command) return command.board;
    if (command.type === 'dismiss') return hallRef?.attention().find((a) => a.id === command.alertId)?.board;
    return undefined;
  };

  const unknownRefusal = (d: { host: string; deadline: number }): Refusal =>
    refusal(
      'outcome-unknown',
      `hall host ${d.host} did not answer by the command's deadline (${new Date(d.deadline).toISOString().slice(11, 19)} UTC): whether it is carried out is not known yet; this console asks ${d.host} and answers again when it knows (the queue shows the command meanwhile)`,
    );

  /** A round-wide command's answer from each host's: carried out where some host carried it out and every other had nothing to do. */
  const acrossHosts = async (all: readonly (Delivery | Settled)[]): Promise<CommandOutcome> => {
    const hosts = all.map((d): HostCommandOutcome => {
      if (d.kind === 'carried-out') return { host: d.host, outcome: 'carried-out' };
      if (d.kind === 'unknown') return { host: d.host, outcome: 'unknown', code: 'outcome-unknown', reason: unknownRefusal(d).reason };
      return { host: d.host, outcome: d.kind === 'still-unknown' ? 'unknown' : 'not-carried-out', code: d.refusal.code, reason: d.refusal.reason };
    });
    for (const d of all) if (d.kind === 'carried-out') await reading.whenHas(d.host, d.sourceSeq, timeoutMs);
    const carried = hosts.filter((h) => h.outcome === 'carried-out');
    const unknown = hosts.filter((h) => h.outcome === 'unknown');
    const not = hosts.filter((h) => h.outcome === 'not-carried-out');
    const said = hosts
      .map((h) =>
        h.outcome === 'carried-out' ? `carried out on ${h.host}` : `${h.host}: ${h.outcome === 'unknown' ? 'not known yet' : 'not carried out'} (${h.reason})`,
      )
      .join('; ');
    // "No clock is running" on one host is no failure when another carried it out.
    if (unknown.length === 0 && carried.length > 0 && not.every((h) => h.code === 'nothing-to-do'))
      return { ok: true, journalSeq: hallRef?.version ?? 0, hosts };
    if (unknown.length > 0) return { ...refusal('outcome-unknown', said), hosts };
    if (carried.length > 0) return { ...refusal('partly-carried-out', said), hosts };
    const first = not.find((h) => h.code !== 'nothing-to-do') ?? not[0]!;
    return { ...refusal(first.code!, not.map((h) => `${h.host}: ${h.reason}`).join('; ')), hosts };
  };

  return {
    bus,
    opening,
    ...(restored ? { restored } : {}),
    writeSnapshot: () => snapshots.write(),
    attach(hall, desks, team) {
      hallRef = hall;
      // A host's entry reached this console once its batch is journaled and applied (the hall's
      // listeners told): the lag is taken then, for each clock event of the batch.
      const batchWall: number[] = [];
      let batchEntries = 0;
      // One lookup for the gate and the records read: a record without a section goes to the first desk.
      const deskOf = (section: string | undefined): TournamentDesk | undefined => (section !== undefined ? desks.get(section) : desks.values().next().value);
      gate = new DeskGate({
        bus,
        subjects,
        journal,
        reading,
        consoleId: options.consoleId,
        outbox: () => outbox,
        deskOf,
      });
      const heard = gate;
      reading.deliverTo(
        (entry) => {
          heard.heard(entry);
          hall.receive(entry);
          batchEntries += 1;
          if (entry.source !== journal.source && entry.record.kind === 'clock') batchWall.push(entry.wallMs);
          const record = entry.record;
          if (record.kind === 'tournament') deskOf(record.section)?.receive(record.action as TournamentRecord, record.at);
          // Another console's credentials and sectors: the journal is the team's one owner, on every console.
          if (record.kind === 'staff' && entry.source !== journal.source) team.receive(entry);
        },
        (work) => {
          hall.batch(work);
          const now = Date.now();
          for (const wallMs of batchWall) {
            lags[lagNext] = { wallMs, lag: now - wallMs };
            lagNext = (lagNext + 1) % LAG_WINDOW;
          }
          batchWall.length = 0;
          // After the batch is journaled and applied: a snapshot taken now holds it.
          const read = batchEntries;
          batchEntries = 0;
          snapshots.read(read);
        },
      );
      outbox = publishJournal(bus, subjects.desk, journal, warn);
      unsubscribe = hall.subscribe(() => outbox?.notify());
      const carrier = new CommandCourier({
        bus,
        subjects,
        consoleId: options.consoleId,
        timeoutMs,
        hallNow: () => hall.source.now(),
        changed: (boards) => hall.touch(boards.filter((b) => hall.boards.has(b))),
        warn,
      });
      courier = carrier;
      hall.pendingOn = (board) => carrier.alertsOn(board);
      hall.hostOf = (board) => {
        const host = owner.get(board);
        const seen = host === undefined ? undefined : watch?.hosts().get(host);
        return host === undefined ? undefined : { id: host, reachable: seen?.reachable ?? false };
      };
      watch = new PresenceWatch(bus.nc, subjects.anyPresence, options.unreachableAfterMs ?? 3_000, (host, seen) => {
        // A heartbeat's wall time can only fall behind on its way: one ahead of this console's clock is
        // the host's clock ahead, and the host would refuse commands as past their deadline.
        const ahead = seen.presence.wallMs - seen.heardAt;
        if (ahead > CLOCK_AHEAD_WARN_MS)
          warn(
            `hall host ${host}'s clock is ${ahead} ms ahead of this console's: it refuses commands as past their deadline; give every machine the same time (NTP)`,
          );
        const boards = new Set(seen.presence.boards);
        for (const [board, h] of announced) if (h === host && !boards.has(board)) announced.delete(board);
        for (const board of boards) announced.set(board, host);
        hall.touch([...boards].filter((b) => hall.boards.has(b)));
      });
    },
    deskCommand(desk, command, arbiter) {
      if (!gate) return Promise.resolve(refusal('still-reading', 'the console is still reading the event from the bus'));
      return gate.command(desk, command, arbiter);
    },
    route(command, arbiter, resolved) {
      if (command.type === 'startAll') return undefined;
      if (!hallRef || !courier) return Promise.resolve(refusal('still-reading', 'the console is still reading the event from the bus'));
      const hall = hallRef;
      if (command.type === 'takeOverHost')
        return takeOverHost(
          {
            bus,
            subjects,
            owners,
            warn,
            whenRead: (source, sourceSeq) => reading.whenHas(source, sourceSeq, timeoutMs),
            journalSeq: () => hall.version,
          },
          command,
          actingAs(arbiter).name,
        );
      const carrier = courier;
      if (command.type === 'pauseAll' || command.type === 'resumeAll' || command.type === 'arriveAll' || command.type === 'dismissKind') {
        const byHost = new Map<string, string[]>();
        for (const b of hall.boards.keys()) {
          const h = owner.get(b);
          if (h !== undefined) byHost.set(h, [...(byHost.get(h) ?? []), b]);
        }
        if (byHost.size === 0) return Promise.resolve(refusal('no-host', 'no hall host runs a board of the round'));
        return Promise.all(
          [...byHost].map(([h, boards]): Promise<Delivery> => {
            const held = carrier.pendingFor(h);
            return held ? Promise.resolve({ kind: 'not-carried-out', host: h, refusal: carrier.heldBack(held) }) : carrier.send(h, command, arbiter, boards);
          }),
        ).then(async (all) => {
          if (all.some((d) => d.kind === 'unknown'))
            void Promise.all(all.map((d) => (d.kind === 'unknown' ? d.settled : d))).then(async (settled) => resolved?.(await acrossHosts(settled)));
          return acrossHosts(all);
        });
      }
      if (command.type === 'dismiss') {
        const held = carrier.byAlert(command.alertId);
        if (held) return Promise.resolve(refusal('outcome-pending', `${held.alert.message}: it leaves the queue when ${held.host} answers`));
      }
      const board = boardOf(command);
      if (board === undefined)
        return Promise.resolve(
          command.type === 'dismiss' ? refusal('unknown-alert', `no open alert '${command.alertId}'`) : refusal('unknown-board', 'the command names no board'),
        );
      const host = owner.get(board);
      if (host === undefined) return Promise.resolve(refusal('no-host', `no hall host has announced board ${board}: not carried out`));
      const held = carrier.pendingFor(host, board);
      if (held) return Promise.resolve(carrier.heldBack(held));
      return carrier.send(host, command, arbiter, [board]).then((d) => {
        if (d.kind !== 'unknown') return outcomeOf(d);
        void d.settled.then(async (s) => resolved?.(await outcomeOf(s)));
        return unknownRefusal(d);
      });
    },
    hosts: () => watch?.hosts() ?? new Map(),
    health(window = {}) {
      const from = window.from ?? -Infinity;
      const to = window.to ?? Infinity;
      const sorted = lags.flatMap((l) => (l.wallMs >= from && l.wallMs < to ? [l.lag] : [])).sort((a, b) => a - b);
      const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
      const hosts = [...(watch?.hosts() ?? new Map<string, HostSeen>()).values()].map((h) => ({
        id: h.presence.host,
        reachable: h.reachable,
        boards: h.presence.boards.length,
        journaled: h.presence.journaled,
        published: h.presence.published,
      }));
      return {
        hosts,
        lagMs: { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 },
        desk: gate?.stats() ?? { inFlight: 0, carriedOut: 0, refused: 0, stale: 0 },
      };
    },
    async stop() {
      courier?.stop();
      unsubscribe?.();
      watch?.stop();
      outbox?.stop();
      await snapshots.stop();
      await reading.reader.stop();
      await bus.close();
    },
  };
}
