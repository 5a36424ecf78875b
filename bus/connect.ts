// Connecting to the bus: NATS servers (a cluster: several URLs), with a user and password or an nkey
// seed, over TLS when asked. The connection never gives up: a hall host keeps timing while the bus is
// away and catches up when it is back (docs/hall.md, "Faults").
import { connect, errors, nkeyAuthenticator, nkeys, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { untilAnswered } from './retry.ts';

export interface BusTls {
  /** The CA that signed the servers' certificates (PEM text). */
  readonly ca?: string;
  /** A client certificate and key (PEM text), where the servers verify clients. */
  readonly cert?: string;
  readonly key?: string;
}

export interface BusOptions {
  /** `nats://host:port` (or `tls://`), one per server of the cluster. */
  readonly servers: readonly string[];
  readonly user?: string;
  readonly pass?: string;
  /** An nkey seed (`SU...`): the user is the seed's public key (docs/hall.md, "Credentials"). */
  readonly nkeySeed?: string;
  readonly tls?: BusTls;
  /** How the connection names itself on the servers' monitoring pages. */
  readonly name?: string;
  /** The subject prefix of the replies this connection receives: its role's own (permissions.ts). */
  readonly inboxPrefix?: string;
  /** How often the client pings the server; a connection that misses two is stale and is replaced. */
  readonly pingIntervalMs?: number;
  /** Told when the first connection went unanswered (a loaded or starting server): it is tried again. */
  readonly onRetry?: (message: string) => void;
  /** Told when the link to the servers is lost and when it is back (a line for the role's log). */
  readonly onLink?: (message: string) => void;
}

export class BusUsageError extends Error {
  override readonly name = 'BusUsageError';
}

/**
 * `nats://alice:secret@10.0.0.5:4222,10.0.0.6:4222` or several URLs separated by commas. A user and
 * password in the first URL apply to every server; `tls://` asks for TLS.
 */
export function parseBusUrl(text: string): BusOptions {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) throw new BusUsageError(`--bus '${text}': expected nats://HOST:PORT (several separated by commas)`);
  let user: string | undefined;
  let pass: string | undefined;
  let tls = false;
  const servers = parts.map((part, i) => {
    const withScheme = /^[a-z]+:\/\//.test(part) ? part : `nats://${part}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw new BusUsageError(`--bus '${part}': not a URL (expected nats://HOST:PORT)`);
    }
    if (url.protocol !== 'nats:' && url.protocol !== 'tls:') throw new BusUsageError(`--bus '${part}': the scheme must be nats:// or tls://`);
    if (url.protocol === 'tls:') tls = true;
    if (i === 0 && url.username) {
      user = decodeURIComponent(url.username);
      pass = decodeURIComponent(url.password);
    }
    return `${url.protocol}//${url.hostname}:${url.port || 4222}`;
  });
  return { servers, ...(user !== undefined ? { user, pass: pass ?? '' } : {}), ...(tls ? { tls: {} } : {}) };
}

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
