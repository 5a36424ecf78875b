// The hall's first screen in the page's HTML (server/first-screen-html.ts), over a hall of two sections
// (scripts/sections-hall.ts, 200 boards, a manual clock): in Chromium at 1366x768 with JavaScript off,
// the arbiter's page and the spectator's show the first boards' names and clocks as the hall's
// projection gave them when the HTML was rendered, and fill a 1920x1080 window; the live page, its
// app.js held back, shows them, then replaces them with its own rows, drawn alike, the same boards in
// order, in one frame (no frame without rows, none with both). Over HTTP: the HTML is rendered once per change, one
// body for both pages, a new ETag after an arbiter's time bonus and as a running clock's time moves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockText } from '../../arbiter-console/internal.ts';
import { startSectionsHall, type SectionsHall } from '../../scripts/sections-hall.ts';
import { helloClient, sendCommand } from '../support/ws-client.ts';
import { launchChromium } from './browser.ts';

let browser: Browser;
let hall: SectionsHall;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-first-screen-html-'));
  hall = await startSectionsHall(dir, 160, 40);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await hall?.run.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface ShownRow {
  readonly board: string;
  readonly white: string;
  readonly black: string;
  readonly whiteClock: string;
  readonly blackClock: string;
}

/** A board as the hall's own views and its projection of the clocks give it at `at` (the hall clock's ms). */
function hallRow(id: string, at: number): ShownRow {
  const view = hall.run.hall.view(id)!;
  const left = hall.run.hall.boards.get(id)!.remainingAt(at);
  return { board: id, white: view.white, black: view.black, whiteClock: clockText(Math.round(left.white)), blackClock: clockText(Math.round(left.black)) };
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** The server's rows in the page (and when they were rendered), the ones in the window, and whether they fill it. */
async function firstScreen(page: Page): Promise<{ renderedAt: number; rows: ShownRow[]; inView: number; fills: boolean }> {
  return page.evaluate(() => {
    const screen = document.getElementById('first-screen')!;
    const rows = [...screen.querySelectorAll<HTMLElement>('.hall-row')];
    const text = (r: HTMLElement, sel: string) => r.querySelector(sel)!.textContent!;
    return {
      renderedAt: Number(screen.dataset.renderedAt),
      rows: rows.map((r) => ({
        board: r.dataset.firstBoard!,
        white: text(r, '.name.white'),
        black: text(r, '.name.black'),
        whiteClock: text(r, '.clock.white'),
        blackClock: text(r, '.clock.black'),
      })),
      inView: rows.filter((r) => r.getBoundingClientRect().top < innerHeight).length,
      fills: rows.at(-1)!.getBoundingClientRect().bottom >= innerHeight,
    };
  });
}

describe("the page's HTML at 1,000 boards' scale (200 here)", () => {
  it('shows the first boards with their names and clocks before any script, on the arbiter page and the spectator page', async () => {
    for (const path of ['/', '/spectator']) {
      for (const viewport of [
        { width: 1366, height: 768 },
        { width: 1920, height: 1080 },
      ]) {
        const context = await browser.newContext({ viewport, javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(`${hall.run.url}${path}`);
        const shown = await firstScreen(page);
        expect(shown.renderedAt).toBe(hall.source.now());
        expect(shown.rows).toEqual(range(1, shown.rows.length).map((id) => hallRow(id, shown.renderedAt)));
        // The window is full of rows (the server renders a 1920x1080 window's worth).
        expect(shown.fills).toBe(true);
        expect(shown.inView).toBeGreaterThan(40);
        // Public fields only: no device, no alert, and nothing a board is opened by.
        expect(await page.$$eval('#first-screen .device, #first-screen .alert', (els) => els.map((e) => e.textContent).join(''))).toBe('');
        expect(await page.$$('#first-screen [data-board], #first-screen [tabindex]')).toHaveLength(0);
        await context.close();
      }
    }
  }, 90_000);

  it("is shown until the page's own rows come, which are the same boards in order, drawn in the frame that drops it", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    // Every frame from the first with a row: whether it had the server's rows, the page's own, or none.
    await page.addInitScript(() => {
      const frames: string[] = [];
      (window as { frames_?: string[] }).frames_ = frames;
      const look = (): void => {
        const server = document.querySelector('#first-screen .hall-row') !== null;
        const own = document.querySelector('.hall-row[data-board]') !== null;
        const seen = server && own ? 'both' : server ? 'server' : own ? 'own' : 'none';
        if (frames.length > 0 || seen !== 'none') frames.push(seen);
        if (seen !== 'own') requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/app.js', async (route: Route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${hall.run.url}/#token=${hall.run.newToken}`, { waitUntil: 'commit' });
    await page.waitForSelector('#first-screen .hall-row');
    await page.waitForFunction(() => ((window as { frames_?: string[] }).frames_ ?? []).length > 2);
    const server = await firstScreen(page);
    // Every element of a row, by tag and class: the server's first row is drawn as the page draws its own.
    const shape = (row: string) =>
      page.$eval(row, (r) => [r, ...r.querySelectorAll('*')].map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].sort().join('.')}`));
    const serverShape = await shape('#first-screen .hall-row');
    release();
    await page.waitForFunction(() => document.getElementById('first-screen') === null && document.querySelector('.hall-row[data-board]') !== null, undefined, {
      timeout: 30_000,
    });
    const own = await page.$$eval('.hall-row[data-board]', (rows) =>
      rows.map((r) => ({
        board: (r as HTMLElement).dataset.board!,
        white: r.querySelector('.name.white')!.textContent!,
        black: r.querySelector('.name.black')!.textContent!,
      })),
    );
    expect(await shape('.hall-row[data-board="1"]')).toEqual(serverShape);
    const frames = await page.evaluate(() => (window as { frames_?: string[] }).frames_!);
    expect(frames[0]).toBe('server');
    expect(frames.at(-1)).toBe('own');
    expect(frames.filter((f) => f === 'none' || f === 'both')).toEqual([]);
    // The page's first screen (its window's) is the server's first boards, in order.
    expect(own.length).toBeGreaterThanOrEqual(server.inView);
    const shared = Math.min(own.length, server.rows.length);
    expect(own.slice(0, shared)).toEqual(server.rows.slice(0, shared).map(({ board, white, black }) => ({ board, white, black })));
    await page.waitForSelector('.hall-row[data-board="200"]', { timeout: 30_000 });
    expect(await page.$$('.hall-row:not([data-board])')).toHaveLength(0);
    await page.close();
  }, 90_000);
});

/** The page as a browser gets it, with the validators. */
async function getPage(path: string, etag?: string): Promise<{ status: number; etag: string; body: string }> {
  const res = await fetch(`${hall.run.url}${path}`, {
    headers: etag ? { 'if-none-match': etag, 'accept-encoding': 'identity' } : { 'accept-encoding': 'identity' },
  });
  return { status: res.status, etag: res.headers.get('etag') ?? '', body: await res.text() };
}

const renders = async (): Promise<number> => ((await (await fetch(`${hall.run.url}/health`)).json()) as { http: { renders: number } }).http.renders;

/** A board's clocks as the HTML shows them. */
function clocksIn(html: string, board: string): { white: string; black: string } {
  const row = new RegExp(`data-first-board="${board}"[^]*?clock white[^>]*>([^<]*)<[^]*?clock black[^>]*>([^<]*)<`).exec(html);
  if (!row) throw new Error(`board ${board} is not in the HTML`);
  return { white: row[1]!, black: row[2]! };
}

describe("the page's HTML over HTTP", () => {
  it('is rendered once per change, the same for the arbiter and the spectator, and again after a time bonus and as a running clock moves', async () => {
    const first = await getPage('/');
    const before = await renders();
    const again = await getPage('/');
    const spectator = await getPage('/spectator');
    expect(await renders()).toBe(before);
    expect([again.etag, spectator.etag]).toEqual([first.etag, first.etag]);
    expect(spectator.body).toBe(first.body);
    expect((await getPage('/', first.etag)).status).toBe(304);

    // Board 2: both players at the board (sections-hall.ts), White's clock running.
    const now = hall.source.now();
    expect(clocksIn(first.body, '2')).toEqual({ white: hallRow('2', now).whiteClock, black: hallRow('2', now).blackClock });
    const arbiter = await helloClient(hall.run.url, { role: 'arbiter', token: hall.run.newToken });
    const timeBonus = { type: 'addTime', board: '2', side: 'black', ms: 60_000, reason: 'phone rang' };
    expect(await sendCommand(arbiter, timeBonus)).toMatchObject({ type: 'ack' });
    arbiter.ws.close();
    const bonus = await getPage('/');
    expect(bonus.etag).not.toBe(first.etag);
    expect(clocksIn(bonus.body, '2')).toEqual({ white: hallRow('2', now).whiteClock, black: clockText(hall.run.hall.boards.get('2')!.remainingAt(now).black) });
    expect(clocksIn(bonus.body, '2').black).not.toBe(clocksIn(first.body, '2').black);
    expect((await getPage('/spectator', first.etag)).status).toBe(200);
    expect((await getPage('/spectator', bonus.etag)).status).toBe(304);

    // A second later on the hall's clock: the running clock's time in the HTML is a second less.
    hall.source.set(now + 1000);
    const later = await getPage('/spectator');
    expect(later.etag).not.toBe(bonus.etag);
    expect(clocksIn(later.body, '2')).toEqual({ white: hallRow('2', now + 1000).whiteClock, black: clocksIn(bonus.body, '2').black });
    expect(clocksIn(later.body, '2').white).not.toBe(clocksIn(bonus.body, '2').white);
  }, 60_000);
});
