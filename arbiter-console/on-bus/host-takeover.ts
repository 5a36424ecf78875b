// Replacing a hall host (docs/hall.md, "Replacing a hall host"): the chief arbiter's takeOverHost hands
// every board a silent host holds to another host id. Refused while the old host's lease is renewed.
// Its renewal key is marked handed over first, naming the revision read (a renewal that comes
// meanwhile wins, and the takeover is refused: the host lives); then each board's lease gets its next
// holder, naming the board's last lease entry. The new host, started after, finds its boards handed to
// it and goes on with their games from the stream (board-leases.ts, `continueHandedGames`).
import { writeKey, type BusConnection, type EventSubjects } from '../../bus/index.ts';
import { refusal } from '../contract/index.ts';
import type { CommandOutcome } from '../hall/index.ts';
import { holderLives, LEASE_MS, leaseOf, leaseSource, writeLease, type Renewal } from './board-leases.ts';
import type { BoardOwners } from './board-owners.ts';

export interface TakeoverContext {
  readonly bus: BusConnection;
  readonly subjects: EventSubjects;
  readonly owners: BoardOwners;
  readonly warn: (message: string) => void;
  /** Resolves once this console has read (source, sourceSeq) back from the stream. */
  readonly whenRead: (source: string, sourceSeq: number) => Promise<boolean>;
  readonly journalSeq: () => number;
}

const utc = (wallMs: number): string => new Date(wallMs).toISOString().slice(11, 19);

export async function takeOverHost(context: TakeoverContext, command: { readonly host: string; readonly to: string }, by: string): Promise<CommandOutcome> {
  const { bus, subjects, owners, warn } = context;
  const { host, to } = command;
  if (host === to) return refusal('holds-no-board', `hall host ${host} cannot take over its own boards: name the new host's id`);
  const boards = owners.boardsOf(host);
  if (boards.length === 0) return refusal('holds-no-board', `hall host ${host} holds no board's lease on this event: nothing to take over`);
  const { live, key } = await holderLives(bus, subjects, host, warn);
  if (live)
    return refusal(
      'lease-live',
      `hall host ${host} is running: its lease is renewed until ${utc(key!.value.expiresWallMs)} UTC. A running host's boards are not taken over: stop it, or wait until its lease runs out (${LEASE_MS / 1000} s after it was last heard)`,
    );
  const mark = await writeKey(bus, subjects.alive(host), { host, expiresWallMs: 0, handedTo: to, by } satisfies Renewal, key?.revision ?? 0);
  if (!mark.ok)
    return mark.stale
      ? refusal('lease-live', `hall host ${host} renewed its lease just now: it lives, its boards stay its own`)
      : refusal('bus-away', `the lease bucket did not take the takeover (${mark.reason}): not carried out`);
  const moved: string[] = [];
  const missed: string[] = [];
  let last: { source: string; sourceSeq: number } | undefined;
  for (const board of boards) {
    const lease = await leaseOf(bus, subjects, board, warn);
    if (!lease || lease.record.host !== host) continue; // handed elsewhere meanwhile
    const record = { kind: 'lease' as const, board, host: to, holders: [...(lease.record.holders ?? []), host], by, at: 0 };
    const written = await writeLease(bus, subjects, record, lease);
    if (written.ok) {
      moved.push(board);
      last = { source: leaseSource(board), sourceSeq: lease.generation + 1 };
    } else missed.push(board);
  }
  if (last) await context.whenRead(last.source, last.sourceSeq);
  if (missed.length > 0)
    return refusal(
      'partly-carried-out',
      `boards ${moved.join(', ') || 'none'} handed to ${to}; boards ${missed.join(', ')} not (their lease moved meanwhile, or the bus did not take it): give the command again`,
    );
  return { ok: true, journalSeq: context.journalSeq() };
}
