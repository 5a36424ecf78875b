// A half-open connection (a tablet out of the Wi-Fi, a server that stopped answering) never closes by
// itself: the page pings, shows "stale" when nothing comes back, and connects again. Here the page is
// served by a WebSocket peer that welcomes it and then never says another word. The page's timers run
// on Playwright's clock, moved by the test: its pings every 3 s and its 9 s of silence are gone through
// at once, not waited out (the WebSocket itself is real).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { builtPage } from '../../arbiter-console/internal.ts';
import { until } from '../support/wait.ts';
import { launchChromium } from './browser.ts';

let browser: Browser;
let http: Server;
let wss: WebSocketServer;
let port: number;
const pings: number[] = [];
let connections = 0;

beforeAll(async () => {
  const dir = builtPage();
  const files: Record<string, [string, string]> = {
    '/spectator': ['index.html', 'text/html'],
    '/app.js': ['app.js', 'text/javascript'],
    '/style.css': ['style.css', 'text/css'],
  };
  http = createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[1] }).end(readFileSync(join(dir, file[0])));
  });
  wss = new WebSocketServer({ server: http, path: '/ws' });
  wss.on('connection', (ws) => {
    connections += 1;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string };
      if (m.type === 'ping') pings.push(Date.now());
      if (m.type !== 'hello') return;
      ws.send(JSON.stringify({ type: 'welcome', protocol: 1, role: 'spectator', heartbeatMs: 15_000 }));
      const round = {
        event: 'Silent Open',
        site: 'x',
        round: 1,
        date: '2026.01.01',
        timeControl: '5400',
        defaultTimeMs: 1_800_000,
        scheduledStart: '2026-01-01T10:00:00Z',
      };
      ws.send(JSON.stringify({ type: 'snapshot', seq: 1, version: 1, clock: { at: 0, scale: 1 }, round, boards: [], attention: [], sectors: [] }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as { port: number }).port;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  wss?.close();
  http?.close();
});

describe('a connection that stops answering', () => {
  it('is pinged, shown as stale, and replaced by a new one', async () => {
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto(`http://127.0.0.1:${port}/spectator`);
    await page.waitForFunction(() => document.getElementById('connection')!.textContent === 'connected');
    // Pings at 3, 6 and 9 s unanswered; at 12 s nothing has come for more than 9 s.
    await page.clock.runFor(12_000);
    await page.waitForFunction(() => document.getElementById('connection')!.textContent!.startsWith('stale'), undefined, { timeout: 20_000 });
    expect(await page.getAttribute('#connection', 'class')).toContain('bad');
    // (Sent before the page gave the link up; read by this peer a moment later.)
    await until(() => pings.length >= 2, 'the pings at the peer', 5_000).catch(() => {});
    expect(pings.length).toBeGreaterThanOrEqual(2);
    // The new connection half a second later.
    await page.clock.runFor(1_000);
    await page.waitForFunction(() => document.getElementById('connection')!.textContent === 'connected', undefined, { timeout: 10_000 });
    expect(connections).toBeGreaterThanOrEqual(2);
    await page.close();
  }, 40_000);
});
