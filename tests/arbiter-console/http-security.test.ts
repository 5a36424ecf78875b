// The HTTP side as an attacker sees it: headers on every answer, the Host header checked (DNS
// rebinding), malformed URLs, methods; and the console over TLS.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { oneSectionConsole } from './fixtures.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, options: { host?: string; method?: string; tls?: { ca: Buffer } } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = options.tls ? httpsRequest : httpRequest;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `localhost:${port}` },
        ...(options.tls ? { ca: options.tls.ca, servername: 'localhost' } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const tlsDir = join(import.meta.dirname, '..', 'fixtures', 'tls');
const cert = readFileSync(join(tlsDir, 'localhost.crt'));
const key = readFileSync(join(tlsDir, 'localhost.key'));

let run: RunningConsole;
let secure: RunningConsole;
const dirs: string[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-http-'));
  const tlsData = mkdtempSync(join(tmpdir(), 'zeitnot-https-'));
  dirs.push(dir, tlsData);
  run = await startConsole({ dataDir: dir, port: 0, ...oneSectionConsole({ boards: 3 }), server: { allowedHosts: ['console.hall.lan'] } });
  secure = await startConsole({
    dataDir: tlsData,
    port: 0,
    noPage: true,
    ...oneSectionConsole({ boards: 3 }),
    server: { tls: { cert, key }, allowedHosts: ['console.hall.lan'] },
  });
});

afterAll(async () => {
  await run?.stop();
  await secure?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('HTTP', () => {
  it('sends CSP, X-Frame-Options and nosniff with the page, the script and the API', async () => {
    for (const path of ['/', '/app.js', '/style.css', '/api/boards', '/health', '/no-such-page']) {
      const reply = await get(run.server.port, path);
      expect(reply.headers['content-security-policy'], path).toContain("script-src 'self'");
      expect(reply.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(reply.headers['x-frame-options'], path).toBe('DENY');
      expect(reply.headers['x-content-type-options'], path).toBe('nosniff');
    }
    expect((await get(run.server.port, '/')).body).toContain('<script type="module" src="/app.js">');
  });

  it("serves the page's icon, linked from the page and at /favicon.ico where browsers look without a link", async () => {
    const page = (await get(run.server.port, '/')).body;
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const reply = await get(run.server.port, path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type'], path).toBe('image/svg+xml');
      expect(reply.body, path).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });

  it("answers only to its own names: a rebinding attacker's Host is refused, for pages and the WebSocket", async () => {
    const port = run.server.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'console.hall.lan']) expect((await get(port, '/health', { host })).status, host).toBe(200);
    const evil = await get(port, '/api/boards', { host: `evil.example:${port}` });
    expect(evil.status).toBe(421);
    expect(evil.body).not.toContain('White 1');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { host: `evil.example:${port}` } });
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!));
      ws.on('open', () => resolve(101));
      ws.on('error', () => {});
    });
    expect(status).toBe(421);
  });

  it('answers a malformed URL with 400, other methods with 405, never a 500', async () => {
    const port = run.server.port;
    for (const path of ['/%E0%A4%A', '/api/pgn/%E0', '/api/pgn/%']) {
      const reply = await get(port, path);
      expect(reply.status, path).toBe(400);
      expect(reply.body).toBe('malformed URL\n');
    }
    const post = await get(port, '/api/boards', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await get(port, '/api/pgn/99')).status).toBe(404);
  });
});

describe('TLS', () => {
  it('sends Strict-Transport-Security over HTTPS (not for localhost, whose every port it would bind), never over plain HTTP', async () => {
    for (const path of ['/health', '/api/boards', '/no-such-page', '/%E0']) {
      const reply = await get(secure.server.port, path, { tls: { ca: cert }, host: `console.hall.lan:${secure.server.port}` });
      expect(reply.headers['strict-transport-security'], path).toBe('max-age=31536000');
      if (path === '/health') expect(reply.status).toBe(200);
    }
    expect((await get(secure.server.port, '/health', { tls: { ca: cert } })).headers['strict-transport-security']).toBeUndefined();
    expect((await get(run.server.port, '/health', { host: 'console.hall.lan' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('serves HTTPS and WSS with --tls-cert/--tls-key', async () => {
    expect(secure.url).toMatch(/^https:\/\/localhost:\d+$/);
    const reply = await get(secure.server.port, '/health', { tls: { ca: cert } });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, boards: 3 });
    const ws = new WebSocket(`wss://localhost:${secure.server.port}/ws`, { ca: cert });
    const messages: { type: string }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d)) as { type: string }));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello', role: 'arbiter', token: secure.newToken }));
    await new Promise<void>((resolve) => {
      const check = setInterval(() => messages.some((m) => m.type === 'snapshot') && (clearInterval(check), resolve()), 5);
    });
    expect(messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
    ws.close();
    // Plain HTTP on the TLS port gets nothing useful.
    await expect(get(secure.server.port, '/health')).rejects.toThrow();
  });
});
