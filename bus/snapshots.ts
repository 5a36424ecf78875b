// Snapshots beside the event's stream (docs/hall.md, "Rebuild"): a reader's projection as of a stream
// sequence, so that a reader on a new machine reads the latest snapshot and the stream after it instead
// of the whole event. What a snapshot holds is its owner's business: here it is named blobs and a
// manifest. A snapshot is a cache, never a fact: the stream stays the record, and the reader checks a
// snapshot (its format, the stream message it says it stands at, each blob's digest) before it trusts it.
//
// The installed nats.js has no KV or object store client (@nats-io/kv, @nats-io/obj), so the store is
// a plain JetStream stream, `SNAPSHOTS_<event>`, one message per subject (`max_msgs_per_subject: 1`):
//   zeitnot.<event>.snapshot.<reader>.manifest     the latest manifest of a reader (JSON)
//   zeitnot.<event>.snapshot.<reader>.<blob>.<n>   part n of a blob (at most PART_BYTES each)
// A blob's parts are read by subject (`last_by_subj`); a blob overwritten while it is read fails its
// digest and the snapshot is not used.
import { createHash } from 'node:crypto';
import { JetStreamApiError, RetentionPolicy, StorageType, DiscardPolicy } from '@nats-io/jetstream';
import type { BusConnection } from './connect.ts';
import { untilAnswered } from './retry.ts';
import { checkToken, type EventSubjects } from './subjects.ts';

/** A part of a blob: well under the servers' default 1 MB payload. */
const PART_BYTES = 768 * 1024;

/** How many parts are asked for at once when a blob is read. */
const PARTS_IN_FLIGHT = 8;

/** The stream of an event's snapshots (not `ZEITNOT_`: that prefix names events, stream.ts). */
export function snapshotStream(subjects: EventSubjects): string {
  return `SNAPSHOTS_${subjects.event}`;
}

/** Every snapshot subject of the event (`reader`: one reader's). */
export function snapshotSubjects(subjects: EventSubjects, reader?: string): string {
  return `zeitnot.${subjects.event}.snapshot.${reader === undefined ? '*' : checkToken('reader id', reader)}.>`;
}

/** A stored blob: where its parts are and what they must add up to. */
export interface BlobRef {
  /** One subject token: `[A-Za-z0-9_-]`. */
  readonly name: string;
  readonly parts: number;
  readonly bytes: number;
  /** SHA-256 of the whole blob, hex. */
  readonly sha256: string;
}

export class SnapshotStore {
  readonly stream: string;
  readonly #root: string;

  constructor(
    readonly bus: BusConnection,
    readonly subjects: EventSubjects,
  ) {
    this.stream = snapshotStream(subjects);
    this.#root = `zeitnot.${subjects.event}.snapshot`;
  }

  /** Makes the snapshots' stream if it is missing (replicated as the event's stream is). */
  async ensure(replicas: number, onRetry?: (message: string) => void): Promise<void> {
    await untilAnswered(
      `the stream ${this.stream}`,
      async () => {
        try {
          await this.bus.jsm.streams.info(this.stream);
          return;
        } catch (err) {
          if (!(err instanceof JetStreamApiError) || err.code !== 10059) throw err;
        }
        try {
          await this.bus.jsm.streams.add({
            name: this.stream,
            subjects: [snapshotSubjects(this.subjects)],
            storage: StorageType.File,
            retention: RetentionPolicy.Limits,
            discard: DiscardPolicy.Old,
            max_msgs_per_subject: 1,
            num_replicas: replicas,
            max_msg_size: PART_BYTES + 4096,
          });
        } catch (err) {
          if (!(err instanceof JetStreamApiError) || err.code !== 10058) throw err;
        }
      },
      onRetry,
    );
  }

  /** Stores `bytes` as `reader`'s blob `name` (replacing the blob of that name). */
  async putBlob(reader: string, name: string, bytes: Uint8Array): Promise<BlobRef> {
    checkToken('blob name', name);
    const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
    for (let i = 0; i < parts; i++) {
      await this.bus.js.publish(this.#part(reader, name, i), bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES), { timeout: 10_000 });
    }
    return { name, parts, bytes: bytes.length, sha256: digest(bytes) };
  }

  /** The blob as stored, or undefined when a part is missing or it is not what `ref` says (overwritten, damaged). */
  async getBlob(reader: string, ref: BlobRef): Promise<Uint8Array | undefined> {
    const parts: (Uint8Array | undefined)[] = new Array(ref.parts);
    let next = 0;
    const fetchSome = async (): Promise<void> => {
      for (let i = next++; i < ref.parts; i = next++) {
        const m = await this.bus.jsm.streams.getMessage(this.stream, { last_by_subj: this.#part(reader, ref.name, i) });
        parts[i] = m?.data;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, ref.parts) }, fetchSome));
    if (parts.some((p) => p === undefined)) return undefined;
    const whole = Buffer.concat(parts as Uint8Array[]);
    return whole.length === ref.bytes && digest(whole) === ref.sha256 ? whole : undefined;
  }

  /** Stores `reader`'s manifest (last: the blobs it names are stored before it). */
  async putManifest(reader: string, manifest: unknown): Promise<void> {
    await this.bus.js.publish(this.#manifest(reader), new TextEncoder().encode(JSON.stringify(manifest)), { timeout: 10_000 });
  }

  /** `reader`'s latest manifest as JSON (undefined: none, or not JSON); the caller checks its shape. */
  async getManifest(reader: string): Promise<unknown> {
    try {
      const m = await this.bus.jsm.streams.getMessage(this.stream, { last_by_subj: this.#manifest(reader) });
      return m ? (JSON.parse(new TextDecoder().decode(m.data)) as unknown) : undefined;
    } catch (err) {
      // No snapshots' stream yet: no snapshot.
      if (err instanceof JetStreamApiError && err.code === 10059) return undefined;
      if (err instanceof SyntaxError) return undefined;
      throw err;
    }
  }

  #manifest(reader: string): string {
    return `${this.#root}.${checkToken('reader id', reader)}.manifest`;
  }

  #part(reader: string, name: string, i: number): string {
    return `${this.#root}.${checkToken('reader id', reader)}.${name}.${i}`;
  }
}

export function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
