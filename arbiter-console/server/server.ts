// The console's one server: HTTP(S) routes (http-routes.ts) and the WebSocket (one ClientSession per
// connection, fed by Broadcast) over one PlayingHall. Here: listening, the upgrade checks (path, Host,
// Origin, connection caps), logins through the LoginGate, who may give which command, heartbeats.
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { Broadcast } from './broadcast.ts';
import { ClientSession, type SessionHost, type SessionLimits } from './client-session.ts';
import type { Arbiter, ClientMessage } from '../contract/index.ts';
import type { Credentials } from '../team/index.ts';
import type { CommandBy, CommandOutcome, PlayingHall } from '../hall/index.ts';
import { IMPORT_PATH, serveRequest, writeAnswer, type PageFiles } from './http-routes.ts';
import { AddressBuckets, type AddressRate } from './address-rate.ts';
import { FeedCache } from './feed-cache.ts';
import { answerImport } from './import-http.ts';
import { journalHealthOf, journalRefusal, refusalOfError } from './journal-health.ts';
import { LoginGate, arbiterOfToken, type LoginGateOptions } from './login-gate.ts';
import {
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  isStaffCommand,
  isTournamentCommand,
  type ArbiterCommand,
  type ConsoleCommand,
  type TournamentCommand,
} from '../contract/index.ts';
import { refusalFor } from '../contract/index.ts';
import type { Team } from '../team/index.ts';
import type { TournamentDesk } from '../desk/index.ts';
import { refusal, type Refusal, type RefusalCode } from '../contract/index.ts';
import type { BuilderSetup, TournamentBuilder } from './tournament-builder.ts';
import { listenFailure, Teardown } from '../start/index.ts';

export interface ConsoleServerOptions {
  readonly hall: PlayingHall;
  readonly credentials: Credentials;
  /** The first section's results, pairings, playoffs (tournament pages). */
  readonly desk?: TournamentDesk;
  /** Every section's desk (an event console), by section id, in the event's order; `desk` is then the first. */
  readonly desks?: ReadonlyMap<string, TournamentDesk>;
  /** The event's summary for /api/event (an event console). */
  readonly event?: () => unknown;
  /** Sectors and named credentials; without it only the chief's token is known. */
  readonly team?: Team;
  /** On the bus: the hall hosts heard and the bus's lag (of the clock events hosts journaled in `lag`, wall ms), in /health. */
  readonly busHealth?: (lag: { from?: number; to?: number }) => unknown;
  /** On the bus: a board command carried to the hall host that runs the board (undefined: carried out here). */
  /** `resolved`: a command whose outcome was unknown (`outcome-unknown`), told again once it is known. */
  readonly routeCommand?: (command: ArbiterCommand, arbiter: CommandBy, resolved?: (outcome: CommandOutcome) => void) => Promise<CommandOutcome> | undefined;
  /** On the bus: a desk command carried out through the stream, ordered with the other consoles' (bus-desk.ts). */
  readonly routeDeskCommand?: (desk: TournamentDesk, command: TournamentCommand, arbiter: CommandBy) => Promise<CommandOutcome>;
  readonly port: number;
  readonly host?: string;
  /** HTTPS and WSS with this certificate and key (PEM). */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** Directory holding the bundled page (index.html, app.js, style.css, favicon.svg), read once at start. */
  readonly pageDir?: string;
  /** Origins allowed besides the server's own (http://host:port). */
  readonly allowedOrigins?: readonly string[];
  /** Host names the console answers to besides localhost, its own name and addresses, and `host`. */
  readonly allowedHosts?: readonly string[];
  /**
   * Ordinary deltas per client in any `deltaWindowMs` (key events are not counted): default 2 in any
   * 100 ms, so a change waits at most 100 ms for its delta and a client gets at most 20 a second.
   */
  readonly deltasPerSecond?: number;
  /** Default 100. */
  readonly deltaWindowMs?: number;
  /**
   * The spectators' one stream sends at most one delta per this many ms, key events included (default
   * 250): a change reaches them within a tick, and 5,000 spectators cost 4 writes a second each
   * however busy the hall (an arbiter's session keeps `deltasPerSecond`, key events at once).
   */
  readonly spectatorTickMs?: number;
  /**
   * Each of their deltas is handed to the spectators' sockets in parts, one a turn of the event loop:
   * this many ms (at least one socket; default 15), or as long as the rest of the loop took since the
   * last part, up to 4 times this and 25 ms; so the team's deltas are never behind thousands of writes.
   */
  readonly spectatorHandOutMs?: number;
  readonly maxMessageBytes?: number;
  /** Token bucket per connection. */
  readonly rateLimit?: { readonly perSecond: number; readonly burst: number };
  /** Token bucket per remote address for the HTTP API, `/api/*` (default 10/s, bursts of 60). */
  readonly httpRate?: AddressRate;
  readonly limits?: Partial<ServerLimits>;
  readonly login?: LoginGateOptions;
  readonly tournamentIntervalMs?: number;
  /** The tournament messages' share of the sockets, in bytes a second (broadcast.ts; default 8 MiB/s). */
  readonly tournamentBytesPerSecond?: number;
  /** A build's tournament messages are written this many ms a turn of the event loop (at least one session; default 10). */
  readonly tournamentMsPerTurn?: number;
  /** Who builds the tournament messages (default a worker thread; tests inject one to hold a build). */
  readonly tournamentBuilder?: (setup: BuilderSetup) => TournamentBuilder;
}

export interface ServerLimits {
  /** Unsent bytes per client past which it is behind (default 1 MiB). */
  readonly sendBufferBytes: number;
  /** Answers kept for a client that is behind (default 64). */
  readonly queuedAnswers: number;
  /** How long a client may stay behind before it is cut off (default 20 s). */
  readonly behindMs: number;
  /** A connection that has not said hello by then is closed (default 10 s). */
  readonly helloWithinMs: number;
  /** A WebSocket ping this often; no pong by the next one and the connection is cut (default 15 s). */
  readonly heartbeatMs: number;
  /** Connections other than the team's: spectators and connections not logged in yet (default 1,000). */
  readonly maxConnections: number;
  /**
   * Slots kept for the team on top of `maxConnections` (default 200): a connection that finds the
   * others full gets one and must log in as an arbiter; spectators never hold one.
   */
  readonly teamConnections: number;
  /** Spectators and connections not logged in yet from one address (default 300); arbiters are not counted. */
  readonly maxConnectionsPerAddress: number;
  /**
   * A spectator that has sent nothing this long (the page pings every 3 s) gives way to a new
   * connection when `maxConnections` is full, the longest idle first (default 30 s).
   */
  readonly spectatorIdleMs: number;
}

const DEFAULT_LIMITS: ServerLimits = {
  sendBufferBytes: 1 << 20,
  queuedAnswers: 64,
  behindMs: 20_000,
  helloWithinMs: 10_000,
  heartbeatMs: 15_000,
  maxConnections: 1000,
  teamConnections: 200,
  maxConnectionsPerAddress: 300,
  spectatorIdleMs: 30_000,
};

export interface ConsoleServer {
  readonly port: number;
  readonly url: string;
  /** Where tablets on the hall's network reach the console (listening on every interface). */
  readonly lanUrls: readonly string[];
  readonly gate: LoginGate;
  clientCount(): number;
  /** Every connection now: who, and how far behind (tests, and what /health counts). */
  sessions(): SessionInfo[];
  close(): Promise<void>;
}

export interface SessionInfo {
  readonly address: string;
  readonly role: 'pending' | 'spectator' | 'arbiter';
  readonly arbiter?: string;
  readonly behind: boolean;
  readonly bufferedBytes: number;
}

const MAX_BAD_TOKENS = 3;

/**
 * The HTTP API per address: a relay polling every second uses a tenth of it, a page's history
 * lookups a few tokens, ten relays behind one NAT still fit; a loop on a feed is held to 10 a second
 * (each served from the feeds' cache). The page's own files and /health are not counted (docs/console.md).
 */
const DEFAULT_HTTP_RATE: AddressRate = { perSecond: 10, burst: 60 };

const realTimers = {
  now: () => performance.now(),
  schedule: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

/** The IPv4 addresses of this machine's network interfaces (not loopback). */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((i) => i.family === 'IPv4' && !i.internal)
    .map((i) => i.address);
}

const everyInterface = (host: string | undefined): boolean => host === '0.0.0.0' || host === '::';

function readPage(dir: string | undefined): PageFiles | undefined {
  if (!dir) return undefined;
  try {
    const file = (name: keyof PageFiles): Buffer => readFileSync(join(dir, name));
    return { 'index.html': file('index.html'), 'app.js': file('app.js'), 'style.css': file('style.css'), 'favicon.svg': file('favicon.svg') };
  } catch {
    return undefined;
  }
}

/** "host:port", "[::1]:port", "host" -> the name alone, lower case. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/** With TLS a browser that once reached the console over HTTPS never falls back to plain HTTP (a year). */
const HSTS = 'max-age=31536000';
/**
 * HSTS binds a host name on every port: sent for `localhost` it would turn every plain
 * http://localhost server in that browser to HTTPS for a year, so the console's own machine is left out.
 */
const sendsHsts = (host: string | undefined): boolean => host !== undefined && !/(^|\.)localhost$/.test(hostName(host));

export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const teardown = new Teardown();
  try {
    return await serve(options, teardown);
  } catch (err) {
    return await teardown.abandon(err);
  }
}

/** Listens, then starts what answers; each thing started is on `teardown`, which `close` unwinds. */
async function serve(options: ConsoleServerOptions, teardown: Teardown): Promise<ConsoleServer> {
  const { hall, credentials, team } = options;
  const desks: ReadonlyMap<string, TournamentDesk> = options.desks ?? (options.desk ? new Map([[options.desk.section.id, options.desk]]) : new Map());
  const desk = options.desk ?? desks.values().next().value;
  /** The desk a tournament command is for: its section's (default the first). */
  const deskFor = (section: string | undefined): TournamentDesk | undefined => (section === undefined ? desk : desks.get(section));
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const sessionLimits: SessionLimits = {
    maxMessageBytes: options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    rate: options.rateLimit ?? { perSecond: 20, burst: 40 },
    sendBufferBytes: limits.sendBufferBytes,
    queuedAnswers: limits.queuedAnswers,
    behindMs: limits.behindMs,
    deltasPerSecond: options.deltasPerSecond ?? 2,
    deltaWindowMs: options.deltaWindowMs ?? 100,
  };
  const gate = new LoginGate(options.login);
  // Nothing that keeps the process up (the view worker, the heartbeat, subscriptions) starts before
  // the port is ours: a port in use fails the start with nothing to undo but what `teardown` holds.
  const http: Server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }) : createHttpServer();
  const listenHost = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', (err) => reject(listenFailure(err, options.port, listenHost)));
    http.listen(options.port, listenHost, () => resolve());
  });
  teardown.defer(
    'the listening socket',
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  const broadcast = new Broadcast({
    hall,
    desk,
    desks,
    team,
    spectatorStream: {
      timers: realTimers,
      tickMs: options.spectatorTickMs ?? 250,
      ...(options.spectatorHandOutMs !== undefined ? { handOutMs: options.spectatorHandOutMs } : {}),
    },
    ...(options.tournamentIntervalMs !== undefined ? { tournamentIntervalMs: options.tournamentIntervalMs } : {}),
    ...(options.tournamentBytesPerSecond !== undefined ? { tournamentBytesPerSecond: options.tournamentBytesPerSecond } : {}),
    ...(options.tournamentMsPerTurn !== undefined ? { tournamentMsPerTurn: options.tournamentMsPerTurn } : {}),
    ...(options.tournamentBuilder ? { tournamentBuilder: options.tournamentBuilder } : {}),
  });
  teardown.defer('the broadcast (and its view worker)', () => broadcast.stop());
  broadcast.start();
  const sessions = broadcast.sessions;
  const page = readPage(options.pageDir);

  const names = new Set(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase(), ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())]);
  if (options.host && !everyInterface(options.host))
    names.add(options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host.toLowerCase());
  if (everyInterface(options.host)) for (const a of lanAddresses()) names.add(a);
  const hostAllowed = (header: string | undefined): boolean => header !== undefined && names.has(hostName(header));

  const boardOf = (command: ConsoleCommand): string | undefined => {
    if (command.type === 'dismiss') return hall.attention().find((a) => a.id === command.alertId)?.board;
    const forDesk = isTournamentCommand(command) ? deskFor(command.section) : undefined;
    if (
      (command.type === 'enterResult' || command.type === 'confirmResult' || command.type === 'resolveResultConflict') &&
      forDesk &&
      command.round === forDesk.liveRound
    ) {
      return forDesk.hallBoardOf(command.round, command.white, command.black);
    }
    return 'board' in command && typeof command.board === 'string' ? command.board : undefined;
  };

  const admit = (session: ClientSession, arbiter: Arbiter, hello: Extract<ClientMessage, { type: 'hello' }>): void => {
    // The printed token has no name of its own: the chief says who he is in hello (credentials.actingAs).
    const acting = credentials.actingAs(arbiter, hello.name);
    if (!acting.ok)
      return session.error(
        'forbidden',
        `'${hello.name}' is the name of credential ${acting.holder.id} (${acting.holder.role}): the chief arbiter's token cannot act under it; say who you are by a name of your own`,
      );
    const who = acting.arbiter;
    session.welcome({ kind: 'arbiter', arbiter: who });
    session.answer({ type: 'welcome', protocol: PROTOCOL_VERSION, role: 'arbiter', arbiter: who, heartbeatMs: limits.heartbeatMs });
    broadcast.afterWelcome(session, hello.firstBoards);
  };

  const host: SessionHost = {
    hello(session, message) {
      if (message.role === 'spectator') {
        if (session.teamSlot) {
          session.error('full', `the console has ${limits.maxConnections} spectators and connections already; the slots left are kept for the team`);
          return session.close(1013, 'full for spectators');
        }
        session.welcome({ kind: 'spectator' });
        session.answer({ type: 'welcome', protocol: PROTOCOL_VERSION, role: 'spectator', heartbeatMs: limits.heartbeatMs });
        return broadcast.afterWelcome(session, message.firstBoards);
      }
      const checked = arbiterOfToken(credentials, gate, session.address, message.token ?? '');
      if (!(checked instanceof Promise)) return 'code' in checked ? session.error(checked.code, checked.reason) : admit(session, checked, message);
      session.verifying = true;
      checked.then(
        (arbiter) => {
          session.verifying = false;
          if (!session.open) return;
          if (arbiter) return admit(session, arbiter, message);
          session.badTokens += 1;
          session.error('bad-token', 'the arbiter token is not valid (or was revoked); connect as a spectator or ask the chief arbiter for a token');
          // Guessing costs a new connection (and a wait for the gate) every few tries.
          if (session.badTokens >= MAX_BAD_TOKENS) session.close(1008, 'too many bad tokens');
        },
        () => {
          session.verifying = false;
          session.error('bad-token', 'the token could not be checked');
        },
      );
    },
    command(session, message) {
      const answerRefusal = (refused: Refusal) =>
        session.answer({
          type: 'refused',
          id: message.id,
          code: refused.code,
          reason: refused.reason,
          ...(refused.article !== undefined ? { article: refused.article } : {}),
          ...(refused.hosts !== undefined ? { hosts: refused.hosts } : {}),
        });
      const refuse = (code: RefusalCode, reason: string) => answerRefusal(refusal(code, reason));
      if (session.role.kind === 'pending') return refuse('unauthenticated', 'send hello with the arbiter token first');
      const arbiter = session.arbiter;
      if (!arbiter) return refuse('forbidden', 'spectators cannot give commands');
      const command = message.command;
      const denied = refusalFor(arbiter, command, { boardOf, members: (s) => team?.members(s) }) ?? journalRefusal(hall.journal.health);
      if (denied) return answerRefusal(denied);
      if (isStaffCommand(command)) {
        if (!team) return refuse('no-team', 'this console keeps no team (named credentials and sectors)');
        void team.command(command, arbiter).then(
          (outcome) => {
            if (!outcome.ok) return answerRefusal(outcome);
            if (outcome.credentials) return session.answer({ type: 'credentials', id: message.id, credentials: outcome.credentials });
            session.answer({ type: 'ack', id: message.id, journalSeq: outcome.journalSeq, ...(outcome.token ? { token: outcome.token } : {}) });
          },
          (err: unknown) => answerRefusal(refusalOfError(err)),
        );
        return;
      }
      const deskOfCommand = isTournamentCommand(command) ? deskFor(command.section) : undefined;
      // The journal keeps the credential's id with the action; the name is what pages and PGN show.
      const by: CommandBy = { name: arbiter.name, credential: arbiter.id };
      const answerOutcome = (outcome: CommandOutcome): void =>
        outcome.ok
          ? session.answer({ type: 'ack', id: message.id, journalSeq: outcome.journalSeq, ...(outcome.hosts !== undefined ? { hosts: outcome.hosts } : {}) })
          : answerRefusal(outcome);
      // A second answer to the same id, after an `outcome-unknown` one (docs/protocol.md), if the page is still there.
      const resolved = (outcome: CommandOutcome): void => {
        if (session.open) answerOutcome(outcome);
      };
      // A Swiss round is paired off the event loop (the pairing worker): answered when it is journaled.
      const routed = isTournamentCommand(command)
        ? deskOfCommand &&
          (options.routeDeskCommand?.(deskOfCommand, command, by) ?? (command.type === 'pairNextRound' ? deskOfCommand.pairNextRound(command, by) : undefined))
        : options.routeCommand?.(command, by, resolved);
      if (routed) {
        void routed.then(
          (outcome) => answerOutcome(outcome),
          (err: unknown) => answerRefusal(refusalOfError(err)),
        );
        return;
      }
      let outcome: CommandOutcome;
      try {
        outcome = isTournamentCommand(command)
          ? (deskOfCommand?.command(command, by) ??
            refusal(
              'no-section',
              command.section !== undefined && desk
                ? `no section '${command.section}' (sections: ${[...desks.keys()].join(', ')})`
                : 'this console runs no tournament section (start it with --event)',
            ))
          : hall.command(command, by);
      } catch (err) {
        // Never left unanswered: a journal that failed under the command, or the console's own error.
        outcome = refusalOfError(err);
      }
      if (outcome.ok) session.answer({ type: 'ack', id: message.id, journalSeq: outcome.journalSeq });
      else answerRefusal(outcome);
    },
    snapshot: (session) => broadcast.snapshot(session),
    rest: (session) => broadcast.askRest(session),
    delta: (session, pending) => broadcast.delta(session, pending),
    pong: (session, id) => session.answer({ type: 'pong', ...(id !== undefined ? { id } : {}), clock: broadcast.reference() }),
    closed: (session) => sessions.delete(session),
  };

  const unsubscribeTeam = team?.subscribe((change) => {
    if (change.type !== 'revokeCredential') return;
    for (const s of sessions) if (s.arbiter?.id === change.credential) s.close(4003, 'credential revoked');
  });
  if (unsubscribeTeam) teardown.defer('the revocation watch', unsubscribeTeam);

  const heartbeat = setInterval(() => {
    for (const s of sessions) s.heartbeat();
  }, limits.heartbeatMs);
  teardown.defer('the heartbeat', () => clearInterval(heartbeat));

  // The feeds are cached by what they are made of (http-routes.ts, feedDepends); the hall's changes told are part of it.
  let hallChanges = 0;
  teardown.defer(
    'the hall-change count of the feeds',
    hall.subscribe(() => (hallChanges += 1)),
  );
  const serving = { feeds: new FeedCache(), buckets: new AddressBuckets(options.httpRate ?? DEFAULT_HTTP_RATE, realTimers.now) };
  const onRequest = (req: IncomingMessage, res: import('node:http').ServerResponse): void => {
    if (options.tls && sendsHsts(req.headers.host)) res.setHeader('strict-transport-security', HSTS);
    if (req.method === 'POST' && hostAllowed(req.headers.host) && (req.url ?? '').split('?')[0] === IMPORT_PATH) {
      answerImport(req, { credentials, gate, deskFor, sections: () => [...desks.keys()] }).then(
        (answer) => writeAnswer(res, answer, false),
        (err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`internal error: ${String(err)}\n`);
        },
      );
      return;
    }
    try {
      serveRequest(
        {
          hall,
          desk,
          desks,
          ...(options.event ? { event: options.event } : {}),
          page,
          health,
          reference: () => broadcast.reference(),
          hallChanges: () => hallChanges,
        },
        req,
        res,
        hostAllowed,
        serving,
      );
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`internal error: ${String(err)}\n`);
    }
  };
  const health = (params: URLSearchParams) => {
    const wall = (name: string): number | undefined => (params.has(name) && Number.isFinite(Number(params.get(name))) ? Number(params.get(name)) : undefined);
    const lagFrom = wall('lagFrom');
    const lagTo = wall('lagTo');
    let behind = 0;
    for (const s of sessions) if (s.backpressure.state === 'behind') behind += 1;
    return {
      ok: hall.journal.health.state === 'ok',
      boards: hall.boards.size,
      clients: sessions.size,
      behind,
      version: hall.version,
      journal: journalHealthOf(hall),
      logins: { running: gate.running, waiting: gate.waiting },
      http: { ...serving.feeds.counters },
      ...(options.busHealth
        ? { bus: options.busHealth({ ...(lagFrom !== undefined ? { from: lagFrom } : {}), ...(lagTo !== undefined ? { to: lagTo } : {}) }) }
        : {}),
    };
  };

  const originAllowed = (req: IncomingMessage): boolean => {
    const origin = req.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; tools without one cannot be cross-site.
    if (origin === undefined) return true;
    const h = req.headers.host;
    return (h !== undefined && (origin === `http://${h}` || origin === `https://${h}`)) || (options.allowedOrigins ?? []).includes(origin);
  };

  const wss = new WebSocketServer({
    noServer: true,
    // Frames this large are cut off by ws itself (close 1009) before they are buffered.
    maxPayload: 64 * 1024,
  });
  teardown.defer('the WebSocket connections', () => {
    for (const s of sessions) {
      s.coalescer.stop();
      s.ws.terminate();
    }
    wss.close();
  });
  let upgrading = 0;
  /** Gives up a connection's slot to a newcomer: gone from the count at once, closed as it can. */
  const giveWay = (session: ClientSession, why: string): void => {
    sessions.delete(session);
    session.close(1013, why);
  };
  /**
   * Where a new connection from `address` goes, or why it is refused (a 503). The team always gets
   * in: past `maxConnections` a connection takes a slot kept for the team, and must log in as an
   * arbiter. A spectator that went silent gives way first; when the team's slots are all taken by
   * connections still to log in, the oldest of them gives way (an arbiter says hello at once).
   */
  const slotFor = (address: string): { readonly team: boolean } | string => {
    let others = upgrading;
    let fromAddress = 0;
    let idlest: ClientSession | undefined;
    let oldestWaiting: ClientSession | undefined;
    for (const s of sessions) {
      if (s.role.kind === 'arbiter') continue;
      if (s.address === address) fromAddress += 1;
      if (!s.teamSlot) others += 1;
      if (s.role.kind === 'spectator' && (!idlest || s.heardAt < idlest.heardAt)) idlest = s;
      if (s.teamSlot && s.role.kind === 'pending' && !s.verifying && (!oldestWaiting || s.heardAt < oldestWaiting.heardAt)) oldestWaiting = s;
    }
    if (fromAddress >= limits.maxConnectionsPerAddress) return `${limits.maxConnectionsPerAddress} spectators and connections from ${address} already`;
    if (others < limits.maxConnections) return { team: false };
    if (idlest && realTimers.now() - idlest.heardAt >= limits.spectatorIdleMs) {
      giveWay(idlest, 'idle spectator: its place went to a new connection');
      return { team: false };
    }
    if (sessions.size + upgrading < limits.maxConnections + limits.teamConnections) return { team: true };
    if (oldestWaiting) {
      giveWay(oldestWaiting, 'no login in time on a slot kept for the team');
      return { team: true };
    }
    return `the console has ${limits.maxConnections} spectators and connections, and its ${limits.teamConnections} slots kept for the team are taken`;
  };
  const refuseUpgrade = (socket: Duplex, status: string, why: string): void => {
    socket.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${why}\n`);
  };
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://console').pathname;
    } catch {
      return refuseUpgrade(socket, '400 Bad Request', 'malformed URL');
    }
    if (path !== '/ws') return refuseUpgrade(socket, '404 Not Found', 'the WebSocket is at /ws');
    if (!hostAllowed(req.headers.host)) return refuseUpgrade(socket, '421 Misdirected Request', 'this console does not answer to that host');
    if (!originAllowed(req)) return refuseUpgrade(socket, '403 Forbidden', 'origin not allowed');
    const address = req.socket.remoteAddress ?? '?';
    const slot = slotFor(address);
    if (typeof slot !== 'object') return refuseUpgrade(socket, '503 Service Unavailable', slot);
    upgrading += 1;
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      upgrading -= 1;
      const session = new ClientSession(ws, address, sessionLimits, host, realTimers, limits.helloWithinMs);
      session.teamSlot = slot.team;
      sessions.add(session);
    });
  });

  // Handlers last: the first request finds everything it needs (no I/O has run since the listen).
  http.on('request', onRequest);
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const scheme = options.tls ? 'https' : 'http';
  const shownHost = options.host && !everyInterface(options.host) ? (options.host.includes(':') ? `[${options.host}]` : options.host) : 'localhost';
  return {
    port,
    url: `${scheme}://${shownHost}:${port}`,
    lanUrls: everyInterface(options.host) ? lanAddresses().map((a) => `${scheme}://${a}:${port}`) : [],
    gate,
    clientCount: () => sessions.size,
    sessions: () =>
      [...sessions].map((s) => ({
        address: s.address,
        role: s.role.kind,
        ...(s.arbiter ? { arbiter: s.arbiter.name } : {}),
        behind: s.backpressure.state === 'behind',
        bufferedBytes: s.ws.bufferedAmount,
      })),
    close: () => teardown.stop('the console server'),
  };
}
