// Connecting to the bus: NATS servers (a cluster: several URLs), with a user and password or an nkey
// seed, over TLS when asked. The connection never gives up: a hall host keeps timing while the bus is
// away and catches up when it is back (docs/hall.md, "Faults").
import { connect, errors, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { untilAnswered } from './retry.ts';
import { BusUsageError, type BusOptions } from './url.ts';

export interface BusConnection {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  /** Resolves on each reconnect; `connected()` tells whether the link is up now. */
  connected(): boolean;
  /** Called with true when the link comes back, false when it is lost. */
  onLink(listener: (up: boolean) => void): () => void;
  close(): Promise<void>;
}

export class BusRefusedError extends Error {
  override readonly name = 'BusRefusedError';
}

/** Whether the servers refused a publish or a subscription (the client hands it on as it is, or as the cause of a request's error). */
export function isPermissionViolation(error: unknown): error is Error {
  return error instanceof Error && (error.name === 'PermissionViolationError' || /^permissions violation/i.test(error.message));
}

/** A role's own subjects refused it: its credentials are another role's (docs/hall.md, "Credentials"). */
export function permissionHint(error: unknown, role: string): unknown {
  if (!isPermissionViolation(error)) return error;
  return new BusRefusedError(
    `the bus refuses ${role} its own subjects (${error.message}): these credentials are another role's (zeitnot bus users makes one per role)`,
    { cause: error },
  );
}

/**
 * Connects to the first server that answers. Credentials the servers refuse end it at once (a wrong key
 * does not become right by asking again): a `BusRefusedError` that says whose and where to look.
 */
export async function connectBus(options: BusOptions): Promise<BusConnection> {
  const who = options.name ?? 'zeitnot';
  const seed = options.nkeySeed === undefined ? undefined : new TextEncoder().encode(options.nkeySeed.trim());
  if (seed) {
    try {
      nkeys.fromSeed(seed);
    } catch {
      throw new BusUsageError(`${who}: the nkey seed given is not one (expected a line starting SU..., as zeitnot bus users writes it)`);
    }
  }
  let nc: NatsConnection;
  try {
    // A first connection that times out (a TLS handshake on a loaded machine, a server still starting)
    // is tried again; refused credentials or certificates are not.
    nc = await untilAnswered(
      'the first connection',
      () =>
        connect({
          servers: [...options.servers],
          name: who,
          ...(options.inboxPrefix ? { inboxPrefix: options.inboxPrefix } : {}),
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
          reconnectJitter: 100,
          pingInterval: options.pingIntervalMs ?? 2_000,
          maxPingOut: 2,
          timeout: 5_000,
          // No stack captured ahead at every request (a publish's acknowledgement, a pull) in case it
          // fails: two Error objects per entry published. Its errors keep their types and messages.
          noAsyncTraces: true,
          ...(options.user !== undefined ? { user: options.user, pass: options.pass ?? '' } : {}),
          ...(seed ? { authenticator: nkeyAuthenticator(seed) } : {}),
          ...(options.tls
            ? {
                tls: {
                  ...(options.tls.ca ? { ca: options.tls.ca } : {}),
                  ...(options.tls.cert ? { cert: options.tls.cert } : {}),
                  ...(options.tls.key ? { key: options.tls.key } : {}),
                },
              }
            : {}),
        }),
      options.onRetry,
    );
  } catch (err) {
    if (err instanceof errors.AuthorizationError || (err instanceof Error && /authorization violation/i.test(err.message))) {
      throw new BusRefusedError(`the NATS servers refused the credentials of ${who} (${err.message}): check the user and password in --bus, or --bus-nkey`, {
        cause: err,
      });
    }
    if (err instanceof Error && /certificate|self.signed/i.test(err.message)) {
      throw new BusRefusedError(`${who} does not trust the NATS servers' TLS certificate (${err.message}): give the CA that signed it with --bus-ca`, {
        cause: err,
      });
    }
    throw err;
  }
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const js = jetstream(nc);
  let up = true;
  const listeners = new Set<(up: boolean) => void>();
  void (async () => {
    for await (const s of nc.status()) {
      const now: boolean = s.type === 'reconnect' ? true : s.type === 'disconnect' || s.type === 'staleConnection' ? false : up;
      if (now === up) continue;
      up = now;
      // An operator reading a role's log sees the link come and go (and which server it went to).
      const server = 'server' in s && typeof s.server === 'string' ? s.server : undefined;
      options.onLink?.(up ? `the bus link is back${server ? ` (${server})` : ''}` : `the bus link is lost${server ? ` (${server})` : ''}: reconnecting`);
      for (const l of listeners) l(up);
    }
  })();
  return {
    nc,
    js,
    jsm,
    connected: () => up && !nc.isClosed(),
    onLink(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (!nc.isClosed()) await nc.close();
    },
  };
}
