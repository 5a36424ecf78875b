// The feeds as pollers read them (docs/protocol.md, "Polling the feeds"): a strong ETag and a 304 for
// a client whose copy is current, gzip and br that decode to the plain body, one render per change
// served to every poller (counted in /health's `http.renders`), and the HTTP rate limit per address.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { manualSource, startConsole, type ManualSource, type RunningConsole } from '../../arbiter-console/internal.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';
import { until } from '../support/wait.ts';

let run: RunningConsole;
let dataDir: string;

interface Got {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** One GET as a relay sends it: its own headers, from `from` (a loopback address of its own), the body as sent. */
function get(path: string, headers: Record<string, string> = {}, from = '127.0.0.1'): Promise<Got> {
  const { port } = new URL(run.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, localAddress: from }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Feeds rendered since the console started, as /health counts them (from an address of its own). */
const renders = async (): Promise<number> => (JSON.parse(String((await get('/health', {}, '127.0.0.9')).body)) as { http: { renders: number } }).http.renders;

async function arbiter(): Promise<{ ws: WebSocket; answers: Map<string, { type: string }> }> {
  const ws = new WebSocket(`${run.url.replace('http', 'ws')}/ws`);
  const answers = new Map<string, { type: string }>();
  let welcome = false;
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as { type: string; id?: string };
    if (m.id !== undefined) answers.set(m.id, m);
    welcome ||= m.type === 'welcome';
  });
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'hello', role: 'arbiter', token: run.newToken }));
  await until(() => welcome, 'the welcome', 10_000, 5);
  return { ws, answers };
}

async function command(a: { ws: WebSocket; answers: Map<string, { type: string }> }, id: string, command: object): Promise<void> {
  a.ws.send(JSON.stringify({ type: 'command', id, command }));
  await until(() => a.answers.has(id), `the answer to ${id}`, 10_000, 5);
  expect(a.answers.get(id)).toEqual({ type: 'ack', id, journalSeq: expect.any(Number) });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-http-feeds-'));
  // The hall's clock stands still, so a feed changes only when something happens on it. A rate of one
  // request per 1,000 s after a burst of 30 makes the burst's end exact.
  run = await startConsole({
    dataDir,
    port: 0,
    noPage: true,
    event: smallRoundRobin(),
    firstRound: true,
    source: manualSource(0),
    server: { httpRate: { perSecond: 0.001, burst: 30 } },
  });
});

afterAll(async () => {
  await run?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the feeds over HTTP', () => {
  it('answers /api/pgn with a strong ETag and no-cache, a 304 without a body to a current copy, and renders it once per change', async () => {
    const first = await get('/api/pgn');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary).toBe('Accept-Encoding');
    expect(String(first.body)).toMatch(/^\[Event /);
    const rendered = await renders();
    // Another poller, nothing changed: the same bytes, not rendered again.
    const second = await get('/api/pgn', {}, '127.0.0.4');
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    // A parameter no route reads (a cache buster) names the same feed.
    expect((await get('/api/pgn?nocache=1733363000', {}, '127.0.0.4')).body.equals(first.body)).toBe(true);
    const current = await get('/api/pgn', { 'if-none-match': first.headers.etag as string });
    expect(current.status).toBe(304);
    expect(current.body.length).toBe(0);
    expect(current.headers.etag).toBe(first.headers.etag);
    // A list of tags, one of them current (weak comparison as RFC 9110 asks for If-None-Match).
    expect((await get('/api/pgn', { 'if-none-match': `"old", W/${first.headers.etag as string}` })).status).toBe(304);
    expect((await get('/api/pgn', { 'if-none-match': '"old"' })).status).toBe(200);
    expect(await renders()).toBe(rendered);

    // An arbiter's time bonus is a change: a new body, a new ETag, the old copy is not current.
    const a = await arbiter();
    await command(a, 'add', { type: 'addTime', board: '1', side: 'black', ms: 60_000, reason: 'phone rang' });
    const changed = await get('/api/pgn', { 'if-none-match': first.headers.etag as string });
    expect(changed.status).toBe(200);
    expect(String(changed.body)).toContain('phone rang');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(await renders()).toBe(rendered + 1);
    expect((await get('/api/pgn', {}, '127.0.0.4')).body.equals(changed.body)).toBe(true);
    expect(await renders()).toBe(rendered + 1);
    a.ws.close();
  });

  it('serves a tournament feed compressed (gzip, br) that decodes to the plain body, and a new ETag after a result', async () => {
    const plain = await get('/api/tournament');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzip = await get('/api/tournament', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(gzip.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-gzip"`);
    const br = await get('/api/tournament', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // gzip refused by q=0: the plain body.
    expect((await get('/api/tournament', { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    // The compressed copy's tag names the same body: current.
    expect((await get('/api/tournament', { 'if-none-match': gzip.headers.etag as string })).status).toBe(304);

    const rendered = await renders();
    const a = await arbiter();
    await command(a, 'result', { type: 'enterResult', round: 1, white: 2, black: 3, result: '0-1', reason: 'scoresheets signed' });
    const after = await get('/api/tournament', { 'if-none-match': plain.headers.etag as string });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(plain.headers.etag);
    expect(await renders()).toBe(rendered + 1);
    const csv = await get('/api/standings.csv');
    expect(csv.status).toBe(200);
    expect((await get('/api/standings.csv', { 'if-none-match': csv.headers.etag as string })).status).toBe(304);
    a.ws.close();
  });

  it('answers a burst from one address with 429 and Retry-After past its bucket, while another address is served', async () => {
    const burst: Got[] = [];
    for (let i = 0; i < 31; i++) burst.push(await get('/api/pgn', {}, '127.0.0.2'));
    expect(burst.slice(0, 30).map((g) => g.status)).toEqual(Array(30).fill(200));
    const refused = burst[30]!;
    expect(refused.status).toBe(429);
    // One token a 1,000 s: the next comes in (almost) 1,000 s.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(990);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(1000);
    expect(JSON.parse(String(refused.body))).toEqual({
      error: `more than 0.001 requests per second from this address; try again in ${refused.headers['retry-after'] as string} s`,
    });
    expect((await get('/api/pgn', {}, '127.0.0.3')).status).toBe(200);
    expect((await get('/api/pgn', {}, '127.0.0.2')).status).toBe(429);
  });

  it("makes the whole hall's PGN again for the board that changed, the others' games as made in the same second", async () => {
    const games = async (): Promise<string[]> => String((await get('/api/pgn', {}, '127.0.0.5')).body).split(/\n(?=\[Event )/);
    const referenceTime = (game: string | undefined): string | undefined => /\[ReferenceTime "([^"]+)"\]/.exec(game ?? '')?.[1];
    const before = await games();
    expect(before.length).toBeGreaterThan(1);
    // The wall clock moves on: a game made again says so in its ReferenceTime.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const a = await arbiter();
    await command(a, 'add-1', { type: 'addTime', board: '1', side: 'white', ms: 30_000, reason: 'a noisy neighbour' });
    const after = await games();
    const changed = after.findIndex((g) => g.includes('[Board "1"]'));
    expect(after[changed]).toContain('a noisy neighbour');
    expect(referenceTime(after[changed])).not.toBe(referenceTime(before[changed]));
    expect(after.filter((_, i) => i !== changed)).toEqual(before.filter((_, i) => i !== changed));
    // The hall's second turns: every game is made again, as of then.
    (run.hall.source as ManualSource).advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await games();
    expect(later.map(referenceTime).filter((t, i) => t === referenceTime(after[i]))).toEqual([]);
    a.ws.close();
  });
});
