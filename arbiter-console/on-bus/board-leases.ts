// Boards owned by lease (docs/hall.md, "Who owns a board"). A board's lease is its subject in the event's
// stream, `journal.lease.<board>`: each message names the hall host that holds the board from there on,
// and is written only by a create (the subject has no message yet) or by naming the subject's last
// message (JetStream's expected last subject sequence): of two hosts claiming one board, one is stored
// and the other refused. Its holder changes only when a host first claims it or when the chief hands a
// silent host's boards to another (takeOverHost): the stream then says, in its own order, who owned a
// board at each of its entries (board-owners.ts). Whether a holder lives is its renewal key in the lease
// bucket (bus/lease-bucket.ts), written every RENEW_MS with an expiry LEASE_MS ahead.
import {
  checkToken,
  decodeEntry,
  handoverConsumerName,
  readKey,
  startReader,
  untilAnswered,
  writeKey,
  type BusConnection,
  type BusEntry,
  type EventSubjects,
} from '../../bus/index.ts';
import type { Journal, JournalRecord } from '../journal/index.ts';
import { parseRecord } from './hall-bus.ts';
import { StartFailure } from '../start/index.ts';

/** A holder silent this long has lost the right to be waited for: the chief may hand its boards over. */
export const LEASE_MS = 6_000;
/** How often a host renews: three renewals fit in a lease, so one lost write does not let it lapse. */
export const RENEW_MS = 2_000;

export type LeaseRecord = Extract<JournalRecord, { kind: 'lease' }>;

/** A host's renewal key: its boards, until when it is live; `handedTo`: its boards were handed over. */
export interface Renewal {
  readonly host: string;
  readonly expiresWallMs: number;
  readonly handedTo?: string;
  readonly by?: string;
}

/** The source of a board's lease entries: its changes of holder, numbered 1, 2, 3, ... */
export const leaseSource = (board: string): string => `lease/${board}`;

export interface BoardLease {
  readonly record: LeaseRecord;
  /** Its place among the board's lease entries (the entry's sourceSeq). */
  readonly generation: number;
  /** Its stream sequence: what the next holder's write names. */
  readonly revision: number;
}

const parseLease = (record: unknown): { ok: true; record: LeaseRecord } | { ok: false; reason: string } => {
  const parsed = parseRecord(record);
  if (parsed.ok && parsed.record.kind === 'lease') return { ok: true, record: parsed.record as LeaseRecord };
  return { ok: false, reason: 'not a lease' };
};

/** The board's lease as the stream has it (undefined: nobody ever claimed it). */
export async function leaseOf(bus: BusConnection, subjects: EventSubjects, board: string, warn: (m: string) => void): Promise<BoardLease | undefined> {
  const stored = await untilAnswered(
    `the lease of board ${board}`,
    () => bus.jsm.streams.getMessage(subjects.stream, { last_by_subj: subjects.lease(board) }),
    warn,
  );
  if (!stored) return undefined;
  const decoded = decodeEntry(stored.data, parseLease);
  if (!decoded.ok) throw new Error(`the lease of board ${board} on the bus is damaged: ${decoded.reason}`);
  return { record: decoded.entry.record, generation: decoded.entry.sourceSeq, revision: stored.seq };
}

/** Writes the board's next lease entry if `after` is still its last (none: a create). */
export function writeLease(bus: BusConnection, subjects: EventSubjects, record: LeaseRecord, after: BoardLease | undefined) {
  const entry: BusEntry = { source: leaseSource(record.board), sourceSeq: (after?.generation ?? 0) + 1, wallMs: Date.now(), record };
  // No message id: two writers' entries would share it, and the stream would take the second as the first's duplicate.
  return writeKey(bus, subjects.lease(record.board), entry, after?.revision ?? 0);
}

/** Whether the holder's renewal key says it lives (and when it was last heard of). */
export async function holderLives(bus: BusConnection, subjects: EventSubjects, host: string, warn: (m: string) => void, nowMs = Date.now()) {
  const key = await readKey<Renewal>(bus, subjects.leaseBucket, subjects.alive(host), warn);
  return { live: key !== undefined && key.value.handedTo === undefined && key.value.expiresWallMs > nowMs, key };
}

const byNumber = (a: string, b: string): number => Number(a) - Number(b) || a.localeCompare(b);
const utc = (wallMs: number): string => new Date(wallMs).toISOString().slice(11, 19);

/**
 * Claims each of the host's boards, in ascending order (two hosts started with overlapping boards at
 * once meet first on the lowest they share, and the one refused there goes no further). Returns the
 * boards handed to this host by a takeover, each with the hosts that held it before. A board another
 * host holds ends the start: live or silent, its games are that host's until the chief hands them over.
 */
export async function claimBoards(
  bus: BusConnection,
  subjects: EventSubjects,
  hostId: string,
  boards: ReadonlySet<string>,
  warn: (m: string) => void,
): Promise<Map<string, readonly string[]>> {
  const handed = new Map<string, readonly string[]>();
  for (const board of [...boards].sort(byNumber)) {
    checkToken('board', board);
    for (;;) {
      const lease = await leaseOf(bus, subjects, board, warn);
      if (lease?.record.host === hostId) {
        if (lease.record.holders && lease.record.holders.length > 0) handed.set(board, lease.record.holders);
        break;
      }
      if (lease) {
        const holder = lease.record.host;
        const { live, key } = await holderLives(bus, subjects, holder, warn);
        throw new StartFailure(
          'board-owned',
          live
            ? `board ${board} is owned by hall host ${holder}, which is running (its lease renewed until ${utc(key!.value.expiresWallMs)} UTC): start this host with other --boards`
            : `board ${board} is owned by hall host ${holder}, silent ${key ? `since ${utc(key.value.expiresWallMs - LEASE_MS)} UTC` : 'since it claimed it'}: to replace it, the chief arbiter hands its boards to this host (takeOverHost ${holder} to ${hostId}), then start this host`,
        );
      }
      const written = await writeLease(bus, subjects, { kind: 'lease', board, host: hostId, at: 0 }, undefined);
      if (written.ok) break;
      // Another host claimed it meanwhile: read it again and decide on what it wrote.
      if (!written.stale) throw new Error(`the lease of board ${board} could not be written: ${written.reason}`);
    }
  }
  return handed;
}

export interface Renewals {
  stop(): void;
}

/**
 * Renews the host's leases every RENEW_MS, naming the key's last revision. A write refused because
 * the key moved on is read back: handed over (the chief gave this host's boards to another while it
 * was silent) calls `lost`; another process renewing as this host is told once and followed.
 */
export async function renewLeases(
  bus: BusConnection,
  subjects: EventSubjects,
  hostId: string,
  warn: (m: string) => void,
  lost: (m: string) => void,
): Promise<Renewals> {
  const key = subjects.alive(hostId);
  let revision = (await readKey<Renewal>(bus, subjects.leaseBucket, key, warn))?.revision ?? 0;
  let stopped = false;
  let told = false;
  const renew = async (): Promise<void> => {
    const written = await writeKey(bus, key, { host: hostId, expiresWallMs: Date.now() + LEASE_MS } satisfies Renewal, revision, RENEW_MS);
    if (written.ok) {
      revision = written.revision;
      return;
    }
    if (!written.stale) return; // the bus is away: the next renewal tries again
    const now = await readKey<Renewal>(bus, subjects.leaseBucket, key, warn).catch(() => undefined);
    if (!now) return;
    revision = now.revision;
    if (now.value.handedTo !== undefined) {
      stopped = true;
      lost(
        `hall host ${hostId}'s boards were handed to ${now.value.handedTo}${now.value.by ? ` by ${now.value.by}` : ''} while it was silent: this host stops (its entries since are not applied by the consoles)`,
      );
    } else if (!told) {
      told = true;
      warn(`another process renews hall host ${hostId}'s leases: two hosts run with --host-id ${hostId}`);
    }
  };
  await renew();
  const timer = setInterval(() => {
    if (!stopped) void renew().catch(() => {});
  }, RENEW_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * A host handed boards by a takeover goes on with their games: it copies into its journal, once, the
 * earlier holders' entries of those boards in the round each board has now (what the stream has of
 * them), before its hall is built, so the hall folds them as its own boards' states: no new start, no
 * new arrival. `seatedRound`: the round seated on each board by the journal's seats.
 */
export async function continueHandedGames(
  bus: BusConnection,
  subjects: EventSubjects,
  journal: Journal,
  hostId: string,
  handed: ReadonlyMap<string, readonly string[]>,
  warn: (m: string) => void,
): Promise<number> {
  const seatedRound = new Map<string, number>();
  for (const e of journal.entries(0, 'seat')) if (e.record.kind === 'seat') for (const b of e.record.round.boards) seatedRound.set(b.id, e.record.round.round);
  const holders = [...new Set([...handed.values()].flat())];
  const had = journal.lastBySource();
  const name = handoverConsumerName({ kind: 'host', id: hostId });
  let copied = 0;
  for (const holder of holders.filter((h) => !had.has(h))) {
    const reader = await startReader<JournalRecord>(bus, subjects, {
      name,
      filter: subjects.host(holder),
      after: 0,
      parse: parseRecord,
      onBatch: (apply) => journal.transaction(apply),
      onEntry: (entry) => {
        const r = entry.record;
        if ((r.kind !== 'clock' && r.kind !== 'note') || !handed.get(r.board)?.includes(holder)) return;
        if (entry.round === undefined || seatedRound.get(r.board) !== entry.round) return;
        journal.copy({ ...entry, record: r });
        copied += 1;
      },
      onRetry: warn,
    });
    await reader.caughtUp;
    await reader.stop();
    await bus.jsm.consumers.delete(subjects.stream, name).catch(() => {});
  }
  return copied;
}
