// What `--bus` names: the NATS servers and how to reach them, parsed without the NATS client (a command
// that only checks its options, or a console off the bus, never loads the client: docs/console.md#restart).
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
