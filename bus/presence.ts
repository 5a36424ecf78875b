// A hall host's heartbeat: who it is, which boards it runs, how far it has journaled and published.
// The console hears every host's; a host it has not heard for a while is unreachable (its boards are
// marked so on the page) until it is heard again. Plain NATS messages, never stored: only the present
// matters. Times here are real milliseconds, whatever the event's time scale.
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { z } from 'zod';

export interface HostPresence {
  readonly host: string;
  readonly boards: readonly string[];
  readonly journaled: number;
  readonly published: number;
  /** The host's wall clock when it sent this (a skewed clock shows here). */
  readonly wallMs: number;
}

const presenceSchema = z.strictObject({
  host: z.string().min(1).max(64),
  boards: z.array(z.string().min(1).max(32)).max(10_000),
  journaled: z.number().int().min(0),
  published: z.number().int().min(0),
  wallMs: z.number().int(),
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Sends `presence()` on `subject` now and every `everyMs`; returns the stop. */
export function announce(nc: NatsConnection, subject: string, presence: () => HostPresence, everyMs: number): () => void {
  const send = (): void => {
    if (nc.isClosed()) return;
    try {
      nc.publish(subject, encoder.encode(JSON.stringify(presence())));
    } catch {
      // A closed or draining connection: the next beat tries again.
    }
  };
  send();
  const timer = setInterval(send, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface HostSeen {
  readonly presence: HostPresence;
  /** Real ms (this process's clock) when last heard. */
  readonly heardAt: number;
  readonly reachable: boolean;
}

/** Every host heard on `subject` (a wildcard); `onChange` when one appears, goes quiet or is back. */
export class PresenceWatch {
  readonly #hosts = new Map<string, { presence: HostPresence; heardAt: number; reachable: boolean }>();
  readonly #sub: Subscription;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    nc: NatsConnection,
    subject: string,
    readonly unreachableAfterMs: number,
    onChange: (host: string, seen: HostSeen) => void,
    now: () => number = () => Date.now(),
  ) {
    const sub = nc.subscribe(subject);
    this.#sub = sub;
    void (async () => {
      for await (const m of sub) {
        let parsed;
        try {
          parsed = presenceSchema.safeParse(JSON.parse(decoder.decode(m.data)));
        } catch {
          continue;
        }
        if (!parsed.success) continue;
        const presence = parsed.data;
        const was = this.#hosts.get(presence.host);
        const seen = { presence, heardAt: now(), reachable: true };
        this.#hosts.set(presence.host, seen);
        if (!was || !was.reachable || was.presence.boards.join() !== presence.boards.join()) onChange(presence.host, seen);
      }
    })();
    this.#timer = setInterval(
      () => {
        const t = now();
        for (const [host, seen] of this.#hosts) {
          if (!seen.reachable || t - seen.heardAt <= unreachableAfterMs) continue;
          seen.reachable = false;
          onChange(host, { ...seen });
        }
      },
      Math.max(50, Math.floor(unreachableAfterMs / 4)),
    );
    this.#timer.unref();
  }

  hosts(): ReadonlyMap<string, HostSeen> {
    return this.#hosts;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#sub.unsubscribe();
  }
}
