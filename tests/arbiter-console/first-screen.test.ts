// A page's first screen first, over the WebSocket: a hello with `firstBoards` gets a snapshot of those
// boards only (in the page's order, a sector arbiter's own sector first) and how many are still to come;
// nothing large follows until the page asks with `rest`, then the rest comes as one delta and the
// tournament view after it. A client that does not ask gets every board at once, as before. And the
// arbiter's page in Chromium: it asks for the rows its window shows (at 1366x768 and 1920x1080) and
// draws them before it asks for the rest, then every row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type BoardView, type ConsoleCommand, type RunningConsole } from '../../arbiter-console/internal.ts';
import { launchChromium } from './browser.ts';
import { oneSectionConsole } from './fixtures.ts';
import { helloClient, sendCommand, type Message, type TestClient } from '../support/ws-client.ts';

let run: RunningConsole;
let browser: Browser | undefined;
let dir: string;
const open: TestClient[] = [];

const ids = (m: Message) => (m.boards as BoardView[]).map((b) => b.id);
const command = (c: TestClient, cmd: ConsoleCommand) => sendCommand(c, cmd);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

async function hello(message: object): Promise<TestClient> {
  const c = await helloClient(run.url, message);
  open.push(c);
  return c;
}

/** Every message the server sent before this answer is in: a pong comes after them on one socket. */
async function settled(c: TestClient): Promise<void> {
  const at = c.messages.length;
  c.send({ type: 'ping', id: 'settled' });
  await c.next((m) => m.type === 'pong' && m.id === 'settled', 'the pong', at);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-first-screen-'));
  run = await startConsole({ dataDir: dir, port: 0, ...oneSectionConsole({ boards: 200 }) });
  // The tournament view is built before the first-screen clients come: what they do not get is held back, not late.
  const whole = await hello({ type: 'hello', role: 'spectator' });
  await whole.next((m) => m.type === 'tournament', 'the tournament view');
});

afterAll(async () => {
  await browser?.close();
  for (const c of open) c.ws.terminate();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a page's first screen", () => {
  it('gets the first boards and how many are to come; the rest as one delta and the tournament view when it asks', async () => {
    const c = await hello({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Chief', firstBoards: 10 });
    const snapshot = c.messages.find((m) => m.type === 'snapshot')!;
    expect(ids(snapshot)).toEqual(range(1, 10));
    expect(snapshot.toCome).toBe(190);
    await settled(c);
    expect(c.messages.filter((m) => m.type === 'tournament')).toEqual([]);

    const at = c.messages.length;
    c.send({ type: 'rest' });
    const rest = await c.next((m) => m.type === 'delta', 'the rest', at);
    expect(rest.seq).toBe(2);
    expect(ids(rest)).toEqual(range(11, 200));
    const tournament = await c.next((m) => m.type === 'tournament', 'the tournament view', at);
    expect(c.messages.indexOf(tournament)).toBeGreaterThan(c.messages.indexOf(rest));

    // Asked again, there is nothing more to send.
    const after = c.messages.length;
    c.send({ type: 'rest' });
    await settled(c);
    expect(c.messages.slice(after).filter((m) => m.type !== 'pong')).toEqual([]);
  });

  it('gets every board, the tournament view with them, when the hall is no bigger than its first screen or it does not ask', async () => {
    for (const extra of [{ firstBoards: 200 }, {}]) {
      const c = await hello({ type: 'hello', role: 'spectator', ...extra });
      const snapshot = c.messages.find((m) => m.type === 'snapshot')!;
      expect(ids(snapshot)).toEqual(range(1, 200));
      expect(snapshot).not.toHaveProperty('toCome');
      await c.next((m) => m.type === 'tournament', 'the tournament view');
    }
  });

  it("gives a sector arbiter his own sector's boards first", async () => {
    const chief = await hello({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Chief' });
    expect(await command(chief, { type: 'defineSector', sector: 'S', name: 'South', boards: '21-25' })).toMatchObject({ type: 'ack' });
    const issued = await command(chief, { type: 'issueCredential', name: 'FA South', role: 'sector', sector: 'S' });
    const c = await hello({ type: 'hello', role: 'arbiter', token: issued.token, firstBoards: 8 });
    const snapshot = c.messages.find((m) => m.type === 'snapshot')!;
    expect(ids(snapshot)).toEqual([...range(21, 25), ...range(1, 3)]);
    expect(snapshot.toCome).toBe(192);
    const at = c.messages.length;
    c.send({ type: 'rest' });
    const rest = await c.next((m) => m.type === 'delta' && (m.boards as BoardView[]).length > 1, 'the rest', at);
    expect(ids(rest)).toEqual([...range(4, 20), ...range(26, 200)]);
  });

  it('refuses a first screen of no boards, and a rest before hello', async () => {
    const c = await hello({ type: 'hello', role: 'spectator', firstBoards: 0 });
    expect(c.messages.find((m) => m.type === 'error')).toMatchObject({ code: 'malformed' });
    c.send({ type: 'rest' });
    await c.next((m) => m.type === 'error' && m.code === 'unauthenticated', 'the refusal of rest before hello');
  });
});

/** What the page had sent and drawn when it asked for the rest: its hello's first screen, the rows drawn (boards in order) and the count. */
interface AskedRest {
  readonly firstBoards: number | undefined;
  readonly rows: readonly string[];
  readonly count: string | undefined;
}

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  browser ??= await launchChromium();
  const page = await browser.newPage({ viewport });
  await page.addInitScript(() => {
    const send = WebSocket.prototype.send;
    let firstBoards: number | undefined;
    WebSocket.prototype.send = function (data) {
      const message = JSON.parse(String(data)) as { type: string; firstBoards?: number };
      if (message.type === 'hello') firstBoards = message.firstBoards;
      if (message.type === 'rest')
        (window as { askedRest?: AskedRest }).askedRest = {
          firstBoards,
          rows: [...document.querySelectorAll<HTMLElement>('.hall-row')].map((r) => r.dataset.board!),
          count: document.getElementById('hall-count')?.textContent ?? undefined,
        };
      send.call(this, data);
    };
  });
  await page.goto(`${run.url}/#token=${run.newToken}`);
  return page;
}

const askedRest = async (page: Page): Promise<AskedRest> => {
  await page.waitForFunction(() => (window as { askedRest?: unknown }).askedRest !== undefined, undefined, { timeout: 30_000 });
  return page.evaluate(() => (window as { askedRest?: AskedRest }).askedRest!);
};

/** Every hall row drawn, in the order shown, and how many of them are in the window (scrolled to the top). */
async function everyRow(page: Page): Promise<{ boards: string[]; inView: number }> {
  await page.waitForSelector('.hall-row[data-board="200"]', { timeout: 30_000 });
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('.hall-row')];
    return { boards: rows.map((r) => r.dataset.board!), inView: rows.filter((r) => r.getBoundingClientRect().top < innerHeight).length };
  });
}

describe("the arbiter's page", () => {
  it('asks for the rows its window shows at 1366x768 and 1920x1080, draws them, then asks for the rest and draws every row', async () => {
    const asked: number[] = [];
    for (const viewport of [
      { width: 1366, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      const page = await openPage(viewport);
      const first = await askedRest(page);
      const n = first.firstBoards!;
      asked.push(n);
      expect(first).toEqual({ firstBoards: n, rows: range(1, n), count: `${n} of 200 boards` });
      const all = await everyRow(page);
      expect(all.boards).toEqual(range(1, 200));
      expect(await page.textContent('#hall-count')).toBe('200 of 200 boards');
      // Sized to the window: every row in view came first, and the first screen is not much more than them.
      expect(n).toBeGreaterThanOrEqual(all.inView);
      expect(n).toBeLessThanOrEqual(all.inView * 1.5);
      await page.waitForSelector('#pages [data-page="pairings"]', { timeout: 30_000 });
      await page.close();
    }
    expect(asked[1]).toBeGreaterThan(asked[0]!);
  }, 90_000);

  it('opens a big hall in the hall view from a window that shows fewer boards than the cards would', async () => {
    const page = await openPage({ width: 800, height: 300 });
    const first = await askedRest(page);
    expect(first.firstBoards).toBeLessThan(24);
    expect(first.rows).toEqual(range(1, first.firstBoards!));
    expect((await everyRow(page)).boards).toEqual(range(1, 200));
    await page.close();
  }, 60_000);
});
