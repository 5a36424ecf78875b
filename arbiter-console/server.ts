// The console's one server: HTTP (page, API, PGN, health) and WebSocket (snapshot, deltas, commands)
// over one PlayingHall. Nothing a client sends can throw past `#onMessage`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { ArbiterAuth } from './auth.ts';
import { Coalescer, type Pending } from './coalescer.ts';
import type { HallChange, PlayingHall } from './hall.ts';
import { boardPgn } from './pgn.ts';
import { MAX_MESSAGE_BYTES, PROTOCOL_VERSION, isTournamentCommand, parseClientMessage, type ClockReference, type ErrorCode, type ServerMessage } from './protocol.ts';
import type { TournamentDesk } from './tournament-desk.ts';
import { tournamentApi } from './tournament-http.ts';

export interface ConsoleServerOptions {
  readonly hall: PlayingHall;
  readonly auth: ArbiterAuth;
  /** The section's results, pairings, playoffs (tournament pages); absent for a bare round. */
  readonly desk?: TournamentDesk;
  readonly port: number;
  readonly host?: string;
  /** Directory holding the bundled page (index.html, app.js, style.css). */
  readonly pageDir?: string;
  /** Origins allowed besides the server's own (http://host:port). */
  readonly allowedOrigins?: readonly string[];
  /** Ordinary deltas per client in any `deltaWindowMs` (key events are not counted); default 10. */
  readonly deltasPerSecond?: number;
  /** Default 1000. */
  readonly deltaWindowMs?: number;
  readonly maxMessageBytes?: number;
  /** Token bucket per connection. */
  readonly rateLimit?: { readonly perSecond: number; readonly burst: number };
  /** How often (real ms) the hall looks at the clock for flags and the scheduled start. */
  readonly tickMs?: number;
}

export interface ConsoleServer {
  readonly port: number;
  readonly url: string;
  clientCount(): number;
  close(): Promise<void>;
}

interface Client {
  readonly ws: WebSocket;
  role: 'none' | 'arbiter' | 'spectator';
  name: string;
  seq: number;
  verifying: boolean;
  badTokens: number;
  tokens: number;
  lastRefill: number;
  coalescer: Coalescer;
}

const realTimers = {
  now: () => performance.now(),
  schedule: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

const MAX_BAD_TOKENS = 3;
const TOURNAMENT_INTERVAL_MS = 500;

/** Past this much unsent data a client gets no deltas, and a fresh snapshot once it drains. */
const BACKPRESSURE_BYTES = 1 << 20;

export async function startConsoleServer(options: ConsoleServerOptions): Promise<ConsoleServer> {
  const { hall, auth } = options;
  const deltasPerSecond = options.deltasPerSecond ?? 10;
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const limit = options.rateLimit ?? { perSecond: 20, burst: 40 };
  const clients = new Set<Client>();
  const viewCache = new Map<string, { version: number; json: string }>();

  const reference = (): ClockReference => ({ at: hall.source.now(), scale: hall.source.scale });
  const boardJson = (id: string): string => {
    const view = hall.view(id)!;
    const cached = viewCache.get(id);
    if (cached && cached.version === view.version) return cached.json;
    const json = JSON.stringify(view);
    viewCache.set(id, { version: view.version, json });
    return json;
  };

  const send = (client: Client, message: ServerMessage | string): void => {
    if (client.ws.readyState !== client.ws.OPEN) return;
    client.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  };
  const error = (client: Client, code: ErrorCode, reason: string): void => send(client, { type: 'error', code, reason });

  const snapshot = (client: Client): void => {
    client.seq += 1;
    const boards = [...hall.boards.keys()].map(boardJson).join(',');
    const head = { type: 'snapshot', seq: client.seq, version: hall.version, clock: reference(), round: hall.roundView(), attention: hall.attention() };
    send(client, `${JSON.stringify(head).slice(0, -1)},"boards":[${boards}]}`);
    sendTournament(client);
  };

  const sendTournament = (client: Client): void => {
    if (!options.desk || client.role === 'none') return;
    try {
      send(client, { type: 'tournament', version: hall.version, view: options.desk.view(client.role) });
    } catch (err) {
      // The clocks go on whatever the tournament side thinks; the arbiter sees why its pages stopped.
      send(client, { type: 'error', code: 'malformed', reason: `the tournament pages could not be computed: ${String(err)}` });
    }
  };
  // The tournament view is large (the whole crosstable): a burst of results goes out as one message,
  // at most one every TOURNAMENT_INTERVAL_MS, always ending with the latest state.
  let tournamentSentAt = -Infinity;
  let tournamentTimer: NodeJS.Timeout | undefined;
  const broadcastTournament = (): void => {
    tournamentTimer = undefined;
    tournamentSentAt = performance.now();
    for (const client of clients) sendTournament(client);
  };
  const unsubscribeDesk = options.desk?.subscribe(() => {
    if (tournamentTimer) return;
    const wait = tournamentSentAt + TOURNAMENT_INTERVAL_MS - performance.now();
    if (wait <= 0) broadcastTournament();
    else tournamentTimer = setTimeout(broadcastTournament, wait);
  });

  const flush = (client: Client, pending: Pending): void => {
    if (client.ws.bufferedAmount > BACKPRESSURE_BYTES) {
      const retry = setInterval(() => {
        if (client.ws.readyState !== client.ws.OPEN) return clearInterval(retry);
        if (client.ws.bufferedAmount > BACKPRESSURE_BYTES) return;
        clearInterval(retry);
        snapshot(client);
      }, 100);
      return;
    }
    client.seq += 1;
    const head: Record<string, unknown> = { type: 'delta', seq: client.seq, version: hall.version, clock: reference() };
    if (pending.attention) head.attention = hall.attention();
    if (pending.round) head.round = hall.roundView();
    const boards = [...pending.boards].filter((id) => hall.boards.has(id)).map(boardJson).join(',');
    send(client, `${JSON.stringify(head).slice(0, -1)},"boards":[${boards}]}`);
  };

  const unsubscribe = hall.subscribe((change: HallChange) => {
    for (const client of clients) if (client.role !== 'none') client.coalescer.mark(change.boards, change);
  });

  const tick = setInterval(() => {
    try {
      hall.tick();
    } catch (err) {
      process.stderr.write(`console: tick failed: ${String(err)}\n`);
    }
  }, options.tickMs ?? 50);

  const page = async (res: ServerResponse, file: string, type: string): Promise<void> => {
    if (!options.pageDir) return notFound(res, 'the page is not bundled in this server');
    try {
      const body = await readFile(join(options.pageDir, file));
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).end(body);
    } catch {
      notFound(res, `no ${file}`);
    }
  };

  const http = createServer((req, res) => {
    void route(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${String(err)}\n`);
    });
  });

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://console');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    const path = url.pathname;
    if (path === '/health') return json(res, 200, { ok: true, boards: hall.boards.size, clients: clients.size, version: hall.version, journal: hall.journal.file });
    if (path === '/api/boards') {
      const clock = reference();
      const round = hall.roundView();
      const attention = hall.attention();
      const boards = hall.views().map((v) => ({
        ...v,
        timeControl: round.timeControl,
        remainingNowMs: hall.boards.get(v.id)!.remainingAt(clock.at),
        alerts: attention.filter((a) => a.board === v.id),
      }));
      return json(res, 200, { clock, version: hall.version, round, boards, attention });
    }
    const tournament = tournamentApi(options.desk, path, url.searchParams);
    if (tournament) {
      if (tournament.type) {
        res.writeHead(tournament.status, { 'content-type': tournament.type }).end(String(tournament.body));
        return;
      }
      return json(res, tournament.status, tournament.body);
    }
    if (path === '/api/pgn') {
      const now = hall.source.now();
      const text = [...hall.boards.values()].map((b) => boardPgn(hall.round, b, now, Date.now())).join('\n');
      res.writeHead(200, { 'content-type': 'application/x-chess-pgn; charset=utf-8' }).end(text);
      return;
    }
    const pgnMatch = /^\/api\/pgn\/([^/]+)$/.exec(path);
    if (pgnMatch) {
      const id = decodeURIComponent(pgnMatch[1]!);
      const board = hall.boards.get(id);
      if (!board) return json(res, 404, { error: `unknown board '${id}'`, boards: [...hall.boards.keys()] });
      res.writeHead(200, { 'content-type': 'application/x-chess-pgn; charset=utf-8' }).end(boardPgn(hall.round, board, hall.source.now(), Date.now()));
      return;
    }
    if (path === '/' || path === '/spectator' || path === '/index.html') return page(res, 'index.html', 'text/html; charset=utf-8');
    if (path === '/app.js') return page(res, 'app.js', 'text/javascript; charset=utf-8');
    if (path === '/style.css') return page(res, 'style.css', 'text/css; charset=utf-8');
    if (path.startsWith('/api/')) return json(res, 404, { error: `no such API: ${path}` });
    notFound(res, `no page ${path}`);
  };

  const originAllowed = (req: IncomingMessage): boolean => {
    const origin = req.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; tools without one cannot be cross-site.
    if (origin === undefined) return true;
    const host = req.headers.host;
    return (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) || (options.allowedOrigins ?? []).includes(origin);
  };

  const wss = new WebSocketServer({
    noServer: true,
    // Frames this large are cut off by ws itself (close 1009) before they are buffered.
    maxPayload: 64 * 1024,
  });
  http.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://console').pathname !== '/ws' || !originAllowed(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\norigin or path not allowed\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    const client: Client = {
      ws,
      role: 'none',
      name: 'arbiter',
      seq: 0,
      verifying: false,
      badTokens: 0,
      tokens: limit.burst,
      lastRefill: performance.now(),
      coalescer: new Coalescer(realTimers, (pending) => flush(client, pending), deltasPerSecond, options.deltaWindowMs ?? 1000),
    };
    clients.add(client);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        onMessage(client, data, isBinary);
      } catch (err) {
        error(client, 'malformed', `could not handle the message: ${String(err)}`);
      }
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      client.coalescer.stop();
      clients.delete(client);
    });
  });

  const allow = (client: Client): boolean => {
    const now = performance.now();
    client.tokens = Math.min(limit.burst, client.tokens + ((now - client.lastRefill) / 1000) * limit.perSecond);
    client.lastRefill = now;
    if (client.tokens < 1) return false;
    client.tokens -= 1;
    return true;
  };

  const onMessage = (client: Client, data: RawData, isBinary: boolean): void => {
    if (!allow(client)) return error(client, 'rate-limited', `more than ${limit.perSecond} messages per second`);
    if (isBinary) return error(client, 'malformed', 'binary frames are not part of the protocol');
    const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    const parsed = parseClientMessage(raw, maxBytes);
    if (!parsed.ok) return error(client, parsed.code, parsed.reason);
    const message = parsed.message;
    switch (message.type) {
      case 'hello':
        if (client.role !== 'none' || client.verifying) return error(client, 'malformed', 'hello was already sent on this connection');
        if (message.role === 'spectator') {
          client.role = 'spectator';
          send(client, { type: 'welcome', protocol: PROTOCOL_VERSION, role: 'spectator' });
          return snapshot(client);
        }
        client.verifying = true;
        void auth.verify(message.token ?? '').then(
          (ok) => {
            client.verifying = false;
            if (!ok) {
              client.badTokens += 1;
              error(client, 'bad-token', 'the arbiter token is not valid; connect as a spectator or use the printed token');
              // Guessing costs a new connection (and a new scrypt) every few tries.
              if (client.badTokens >= MAX_BAD_TOKENS) client.ws.close(1008, 'too many bad tokens');
              return;
            }
            client.role = 'arbiter';
            client.name = message.name ?? 'arbiter';
            send(client, { type: 'welcome', protocol: PROTOCOL_VERSION, role: 'arbiter' });
            snapshot(client);
          },
          () => {
            client.verifying = false;
            error(client, 'bad-token', 'the token could not be checked');
          },
        );
        return;
      case 'resync':
        if (client.role === 'none') return error(client, 'unauthenticated', 'send hello first');
        return snapshot(client);
      case 'ping':
        return send(client, { type: 'pong', ...(message.id !== undefined ? { id: message.id } : {}), clock: reference() });
      case 'command': {
        if (client.role === 'none') return send(client, { type: 'refused', id: message.id, reason: 'send hello with the arbiter token first' });
        if (client.role !== 'arbiter') return send(client, { type: 'refused', id: message.id, reason: 'spectators cannot give commands' });
        const command = message.command;
        const outcome = isTournamentCommand(command)
          ? (options.desk?.command(command, client.name) ?? { ok: false, reason: 'this console runs no tournament section (start it with --event)' })
          : hall.command(command, client.name);
        return send(client, outcome.ok ? { type: 'ack', id: message.id, journalSeq: outcome.journalSeq } : { type: 'refused', id: message.id, reason: outcome.reason });
      }
    }
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    port,
    url: `http://${options.host && options.host !== '0.0.0.0' ? options.host : 'localhost'}:${port}`,
    clientCount: () => clients.size,
    async close() {
      clearInterval(tick);
      unsubscribe();
      unsubscribeDesk?.();
      clearTimeout(tournamentTimer);
      for (const c of clients) {
        c.coalescer.stop();
        c.ws.terminate();
      }
      wss.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' }).end(JSON.stringify(body));
}

function notFound(res: ServerResponse, text: string): void {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}
