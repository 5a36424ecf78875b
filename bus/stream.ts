// The event's stream: every journal subject of the event, kept on disk, on three servers of a cluster
// (R3: one server can die and nothing stops, nothing is lost) or on one (a single `nats-server -js`).
// Whoever comes first makes it; a role without the right to make it (a hall host with its own
// credentials) waits until the console has.
import { DiscardPolicy, JetStreamApiError, RetentionPolicy, StorageType, type StreamInfo } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { isPermissionViolation, type BusConnection } from './connect.ts';
import type { EventSubjects } from './subjects.ts';

export interface StreamPlan {
  /** 1 on a single server, 3 on a cluster of three (default: as many as the cluster has, at most 3). */
  readonly replicas?: number;
}

const STREAM_PREFIX = 'ZEITNOT_';

/** How long JetStream remembers a message id to drop a republished entry (a host's retry). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** Makes the event's stream if it is missing; returns what the servers have. */
export async function ensureEventStream(bus: BusConnection, subjects: EventSubjects, plan: StreamPlan = {}): Promise<StreamInfo> {
  try {
    return await bus.jsm.streams.info(subjects.stream);
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== 10059) throw err;
  }
  const replicas = plan.replicas ?? clusterSize(bus);
  try {
    return await bus.jsm.streams.add({
      name: subjects.stream,
      subjects: [subjects.journal],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.New,
      num_replicas: replicas,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      max_msg_size: 1 << 20,
      // An event's record is never aged out: it is removed by hand after the event (docs/hall.md).
      max_age: 0,
    });
  } catch (err) {
    // Two roles starting at once: the other one made it.
    if (err instanceof JetStreamApiError && err.code === 10058) return bus.jsm.streams.info(subjects.stream);
    throw err;
  }
}

/** Waits for the event's stream (a role that may not make it); `signal` ends the wait. */
export async function awaitEventStream(bus: BusConnection, subjects: EventSubjects, signal: AbortSignal, everyMs = 500): Promise<StreamInfo | undefined> {
  while (!signal.aborted) {
    try {
      return await bus.jsm.streams.info(subjects.stream);
    } catch (err) {
      // Refused credentials do not become right by asking again (a missing stream or no leader yet may).
      if (isPermissionViolation(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
  return undefined;
}

/** The events the bus holds other than this one: the event tokens of the other zeitnot streams. */
export async function otherEvents(bus: BusConnection, subjects: EventSubjects): Promise<string[]> {
  const others: string[] = [];
  for await (const name of bus.jsm.streams.names())
    if (name.startsWith(STREAM_PREFIX) && name !== subjects.stream) others.push(name.slice(STREAM_PREFIX.length));
  return others.sort();
}

/** Servers the client has heard of (itself and the cluster's others), at most 3. */
function clusterSize(bus: BusConnection): number {
  const urls = new Set(bus.nc.info?.connect_urls ?? []);
  return Math.min(3, Math.max(1, urls.size));
}
