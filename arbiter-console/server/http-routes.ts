// The console's HTTP side: a table of read-only routes (page, boards, PGN, tournament, health), the
// headers every answer carries, and the checks before any route: the Host header must name this
// console (DNS rebinding), the URL must parse (a 400, never a 500), only GET and HEAD (the TRF
// import's POST is import-http.ts's).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { boardHistory } from '../hall/index.ts';
import type { PlayingHall } from '../hall/index.ts';
import { boardPgnForTheSecond } from '../hall/index.ts';
import type { ClockReference } from '../contract/index.ts';
import type { TournamentDesk } from '../desk/index.ts';
import { tournamentApi } from '../desk/index.ts';
import { deskAsked, eventApi, LCC_PREFIX, lccApi, TOURNAMENT_PATHS } from '../desk/index.ts';
import type { AddressBuckets } from './address-rate.ts';
import { chooseCoding, codedEtag, compressible, type FeedCache, rendered, stillCurrent } from './feed-cache.ts';
import { clockRuns, firstScreenBoards, firstScreenIds, pageWithFirstScreen } from './first-screen-html.ts';

export interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteContext {
  readonly hall: PlayingHall;
  readonly desk: TournamentDesk | undefined;
  /** Every section's desk (an event console), by section id; `desk` is the first. */
  readonly desks?: ReadonlyMap<string, TournamentDesk>;
  /** The event's summary (`/api/event`), on an event console. */
  readonly event?: () => unknown;
  /** The bundled page, read into memory once (no file read per request). */
  readonly page: PageFiles | undefined;
  /** /health; on the bus `?lagFrom=&lagTo=` (wall ms) narrow the lag to the clock events hosts journaled then. */
  readonly health: (params: URLSearchParams) => Record<string, unknown>;
  readonly reference: () => ClockReference;
  /** Changes the hall has told its listeners of since start (what a feed of the hall depends on besides its journal). */
  readonly hallChanges?: () => number;
}

export interface PageFiles {
  readonly 'index.html': Buffer;
  readonly 'app.js': Buffer;
  readonly 'style.css': Buffer;
  readonly 'favicon.svg': Buffer;
}

interface Route {
  readonly path: string | RegExp;
  answer(ctx: RouteContext, url: URL, match: RegExpExecArray | null): Answer;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const PGN_TYPE = 'application/x-chess-pgn; charset=utf-8';
const SVG_TYPE = 'image/svg+xml';

/** The one route that takes a POST: the arbiter's TRF import, answered by import-http.ts before the table. */
export const IMPORT_PATH = '/api/import-trf';

export const json = (status: number, body: unknown): Answer => ({ status, type: JSON_TYPE, body: JSON.stringify(body) });
const text = (status: number, body: string): Answer => ({ status, type: 'text/plain; charset=utf-8', body: `${body}\n` });

const pageFile =
  (file: keyof PageFiles, type: string) =>
  (ctx: RouteContext): Answer =>
    ctx.page ? { status: 200, type, body: ctx.page[file] } : text(404, 'the page is not bundled in this server');

/** The first screen's size, read once per style sheet (its bytes are fixed for the server's life). */
const firstScreenSize = new WeakMap<Buffer, number>();
const firstScreenOf = (page: PageFiles): number =>
  firstScreenSize.get(page['style.css']) ??
  firstScreenSize.set(page['style.css'], firstScreenBoards(page['style.css'].toString('utf8'))).get(page['style.css'])!;

/** The page: index.html with the hall's first screen in it (first-screen-html.ts), the arbiter's and the spectator's alike. */
const pageHtml = (ctx: RouteContext): Answer => {
  if (!ctx.page) return text(404, 'the page is not bundled in this server');
  const ids = firstScreenIds(ctx.hall, firstScreenOf(ctx.page));
  const html = ctx.page['index.html'];
  return {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: ids.length > 0 ? pageWithFirstScreen(html.toString('utf8'), ctx.hall, ids, ctx.hall.source.now()) : html,
  };
};

/**
 * The hall's second at `now` (its clock's ms): a whole-hall feed is kept for it (feedDepends) and each
 * board's live PGN with it (boardPgnForTheSecond), so their clocks read the same.
 */
const hallSecond = (now: number): number => Math.floor(now / 1000);

const routes: readonly Route[] = [
  {
    path: '/health',
    // A monitor that reads only the status sees a failing journal (503) as well as one that reads `ok`.
    answer: (ctx, url) => {
      const health = ctx.health(url.searchParams);
      return json(health.ok === false ? 503 : 200, health);
    },
  },
  {
    path: '/api/boards',
    answer: ({ hall, reference }) => {
      const clock = reference();
      const round = hall.roundView();
      const attention = hall.attention();
      const boards = hall.views().map((v) => ({
        ...v,
        timeControl: round.timeControl,
        remainingNowMs: hall.boards.get(v.id)!.remainingAt(clock.at),
        alerts: attention.filter((a) => a.board === v.id),
      }));
      return json(200, { clock, version: hall.version, round, boards, attention });
    },
  },
  {
    path: '/api/pgn',
    answer: ({ hall }) => {
      const [now, wallMs] = [hall.source.now(), Date.now()];
      const second = hallSecond(now);
      return {
        status: 200,
        type: PGN_TYPE,
        body: [...hall.boards.values()].map((b) => boardPgnForTheSecond(b, hall.versionOf(b.id)!, second, now, wallMs)).join('\n'),
      };
    },
  },
  {
    path: /^\/api\/pgn\/([^/]+)$/,
    answer: ({ hall }, _url, match) => {
      const id = decodeURIComponent(match![1]!);
      const board = hall.boards.get(id);
      if (!board) return json(404, { error: `unknown board '${id}'`, boards: [...hall.boards.keys()] });
      const now = hall.source.now();
      return { status: 200, type: PGN_TYPE, body: boardPgnForTheSecond(board, hall.versionOf(id)!, hallSecond(now), now, Date.now()) };
    },
  },
  {
    path: /^\/api\/history\/([^/]+)$/,
    answer: ({ hall }, url, match) => {
      const id = decodeURIComponent(match![1]!);
      const board = hall.boards.get(id);
      if (!board) return json(404, { error: `unknown board '${id}'`, boards: [...hall.boards.keys()] });
      // `?round=N` (and `section=ID`): an earlier game on this hall board, whose items left the queue with its round.
      const round = url.searchParams.get('round');
      if (round === null) return json(200, { board: id, items: boardHistory(hall.journal, id, board.round) });
      if (!/^[1-9]\d{0,3}$/.test(round)) return json(400, { error: `round must be a round number, got '${round}'` });
      const section = url.searchParams.get('section') ?? board.round.section;
      return json(200, { board: id, items: boardHistory(hall.journal, id, { round: Number(round), ...(section !== undefined ? { section } : {}) }) });
    },
  },
  { path: '/', answer: pageHtml },
  { path: '/spectator', answer: pageHtml },
  { path: '/index.html', answer: pageHtml },
  { path: '/app.js', answer: pageFile('app.js', 'text/javascript; charset=utf-8') },
  { path: '/style.css', answer: pageFile('style.css', 'text/css; charset=utf-8') },
  { path: '/favicon.svg', answer: pageFile('favicon.svg', SVG_TYPE) },
  // Browsers ask for /favicon.ico before (or without) reading the page's <link rel="icon">.
  { path: '/favicon.ico', answer: pageFile('favicon.svg', SVG_TYPE) },
];

/**
 * The page runs only its own script and style, talks only to its own origin, and is never framed.
 * (Styles set from script through the CSSOM are allowed by style-src 'self'; style attributes are not.)
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** A request refused before any route (host, method, a malformed URL), or the URL a route answers. */
function admit(req: IncomingMessage, hostAllowed: (host: string | undefined) => boolean): Answer | URL {
  if (!hostAllowed(req.headers.host)) return text(421, `this console does not answer to the host '${req.headers.host ?? ''}'`);
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return { ...text(405, 'method not allowed'), headers: { allow: (req.url ?? '').split('?')[0] === IMPORT_PATH ? 'POST' : 'GET, HEAD' } };
  try {
    const url = new URL(req.url ?? '/', 'http://console');
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return text(400, 'malformed URL');
  }
}

/** The route's answer to a URL; never throws for anything the client sent. */
function routeAnswer(ctx: RouteContext, url: URL): Answer {
  const path = url.pathname;
  const lcc = lccApi({ hall: ctx.hall, desks: sectionDesks(ctx) }, path);
  if (lcc) return json(lcc.status, lcc.body);
  const event = eventApi(ctx, path, url.searchParams);
  if (event.answer)
    return event.answer.type
      ? { status: event.answer.status, type: event.answer.type, body: String(event.answer.body) }
      : json(event.answer.status, event.answer.body);
  const tournament = tournamentApi(event.desk, path, url.searchParams);
  if (tournament)
    return tournament.type ? { status: tournament.status, type: tournament.type, body: String(tournament.body) } : json(tournament.status, tournament.body);
  for (const route of routes) {
    if (typeof route.path === 'string') {
      if (route.path === path) return route.answer(ctx, url, null);
      continue;
    }
    const match = route.path.exec(path);
    if (match) return route.answer(ctx, url, match);
  }
  if (path.startsWith('/api/')) return json(404, { error: `no such API: ${path}` });
  return text(404, `no page ${path}`);
}

const sectionDesks = (ctx: RouteContext): ReadonlyMap<string, TournamentDesk> => ctx.desks ?? new Map(ctx.desk ? [[ctx.desk.section.id, ctx.desk]] : []);

export function writeAnswer(res: ServerResponse, answer: Answer, head: boolean): void {
  res.writeHead(answer.status, { ...SECURITY_HEADERS, 'content-type': answer.type, ...answer.headers });
  res.end(head ? undefined : answer.body);
}

const PAGE_PATHS = new Set(routes.flatMap((r) => (typeof r.path === 'string' && !r.path.startsWith('/api/') && r.path !== '/health' ? [r.path] : [])));
const HALL_FEED = /^\/api\/(?:boards|pgn(?:\/[^/]+)?)$/;
/** The page's HTML, one feed whatever path it is asked by (its first screen is the hall's). */
const PAGE_HTML = new Set(['/', '/spectator', '/index.html']);
/** A running clock on the page's first screen moves its HTML this often: a page loaded then shows it within this. */
const PAGE_CLOCK_MS = 250;

/**
 * What a feed's body is made of, as values that change when it must be rendered again: the hall's
 * journal position and its changes told (device connections and hosts too), and the second of the
 * hall's clock (a running clock's display moves every second); a section's desk and its changes; the
 * event's desks; the page's HTML, its first screen's boards (the hall's changes, and the quarter second
 * while one of their clocks runs). Undefined: rendered per request (/health, a refusal), or a page file (fixed bytes).
 */
function feedDepends(ctx: RouteContext, url: URL): readonly unknown[] | undefined {
  const path = url.pathname;
  const hall = (): readonly unknown[] => [ctx.hall.version, ctx.hallChanges?.() ?? 0, hallSecond(ctx.hall.source.now())];
  if (PAGE_HTML.has(path) && ctx.page) {
    const ids = firstScreenIds(ctx.hall, firstScreenOf(ctx.page));
    if (ids.length === 0) return ['page', 'no first screen', ctx.hall.boards.size];
    const now = ctx.hall.source.now();
    return ['page', ctx.hall.version, ctx.hallChanges?.() ?? 0, clockRuns(ctx.hall, ids) ? Math.floor(now / PAGE_CLOCK_MS) : 'still'];
  }
  if (path === '/api/event') return ['event', ...[...(ctx.desks?.values() ?? [])].map((d) => d.changes)];
  if (HALL_FEED.test(path)) return hall();
  // The LiveChessCloud files hold no time as of now (a running clock is given as of its last event), so they change only with the journal.
  if (path.startsWith(LCC_PREFIX)) return ['lcc', ctx.hall.version, ctx.hallChanges?.() ?? 0];
  if (path.startsWith('/api/history/')) return [ctx.hall.version, ctx.hallChanges?.() ?? 0];
  if (TOURNAMENT_PATHS.includes(path)) {
    const desk = deskAsked(ctx, url.searchParams);
    return desk ? [desk, desk.changes] : undefined;
  }
  return undefined;
}

/** The query parameters a feed reads: any other is the client's own (a cache buster) and names the same feed. */
const FEED_PARAMS = ['section', 'round', 'tiebreaks', 'teams'] as const;

/**
 * Which feed a URL asks for: its path and the parameters the routes read, in one order. A cached feed
 * is rendered from this URL, not the one asked, so a route that reads a parameter missing here sees
 * none (and its test fails) instead of being served another request's body.
 */
function feedUrl(url: URL): URL {
  const params = FEED_PARAMS.flatMap((name) => url.searchParams.getAll(name).map((value) => `${name}=${encodeURIComponent(value)}`));
  return new URL(params.length > 0 ? `${url.pathname}?${params.join('&')}` : url.pathname, url.origin);
}

/** The limits and the cache of one server's HTTP side. */
export interface HttpServing {
  readonly feeds: FeedCache;
  /** The bucket per address of the HTTP API (`/api/*`): the page's own files and /health are not counted. */
  readonly buckets: AddressBuckets;
}

/**
 * Answers one GET or HEAD (or its refusal): the address's token first (429 with Retry-After past its
 * rate), then the feed from the cache, a 304 when the client's ETag is current, else the body in the
 * coding the client accepts. Every answer says it may be kept but must be revalidated (no-cache).
 */
export function serveRequest(
  ctx: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  hostAllowed: (host: string | undefined) => boolean,
  http: HttpServing,
): void {
  const url = admit(req, hostAllowed);
  if (!(url instanceof URL)) return writeAnswer(res, url, req.method === 'HEAD');
  const path = url.pathname;
  const page = PAGE_PATHS.has(path);
  // Only the API is counted: the page's own files load at once, and /health is what monitors poll (cheap, never cached).
  if (path.startsWith('/api/')) {
    const retryAfter = http.buckets.take(req.socket.remoteAddress ?? '');
    if (retryAfter !== undefined) {
      const refusal = json(429, { error: `more than ${http.buckets.rate.perSecond} requests per second from this address; try again in ${retryAfter} s` });
      return writeAnswer(res, { ...refusal, headers: { 'retry-after': String(retryAfter) } }, req.method === 'HEAD');
    }
  }
  const depends = feedDepends(ctx, url);
  const asked = depends ? (PAGE_HTML.has(path) ? new URL('/', url.origin) : feedUrl(url)) : url;
  const render = (): Answer => routeAnswer(ctx, asked);
  const feed = depends ? http.feeds.feed(asked.pathname + asked.search, depends, render) : page ? http.feeds.fixed(render()) : rendered(render());
  http.feeds.counters.served += 1;
  if (feed.status !== 200) return writeAnswer(res, { status: feed.status, type: feed.type, body: feed.body, headers: feed.headers }, req.method === 'HEAD');
  const coding = compressible(feed) ? chooseCoding(req.headers['accept-encoding']) : 'identity';
  const validators = { etag: codedEtag(feed, coding), vary: 'Accept-Encoding' };
  if (stillCurrent(req.headers['if-none-match'], feed)) {
    http.feeds.counters.notModified += 1;
    res.writeHead(304, { ...SECURITY_HEADERS, ...feed.headers, ...validators });
    return void res.end();
  }
  const body = http.feeds.coded(feed, coding);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': feed.type,
    ...feed.headers,
    ...validators,
    ...(coding !== 'identity' ? { 'content-encoding': coding } : {}),
    'content-length': String(body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
