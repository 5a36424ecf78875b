// The attention queue in the page's first frame, in Chromium at 1366x768 over a hall of two sections
// with a late player on a third of its boards (scripts/sections-hall.ts, 200 boards): the frame that
// draws the first rows draws the queue's first 24 lines (13 are in view) and no "Show more"; the frame
// after draws every group's lines, as many as the queue shows until the arbiter asks for more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindOf } from '../../arbiter-console/internal.ts';
import { startSectionsHall, type SectionsHall } from '../../scripts/sections-hall.ts';
import { launchChromium } from './browser.ts';

/** Lines of a queue group until the arbiter asks for more (web/ctrl.ts's QUEUE_LINES), and in the first frame over all groups. */
const GROUP_LINES = 40;
const FIRST_FRAME_LINES = 24;

let browser: Browser;
let hall: SectionsHall;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-first-screen-queue-'));
  hall = await startSectionsHall(dir, 160, 40);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await hall?.run.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The queue's lines per group as the console has them: a line per board, as many as a group shows. */
function expectedLines(): Record<string, number> {
  const boards = new Map<string, Set<string>>();
  for (const a of hall.run.hall.attention()) {
    const kind = kindOf(a);
    (boards.get(kind) ?? boards.set(kind, new Set()).get(kind)!).add(a.board);
  }
  return Object.fromEntries([...boards].map(([kind, on]) => [kind, Math.min(GROUP_LINES, on.size)]));
}

describe("the queue in the page's first frame", () => {
  it('holds its first 24 lines with the first rows and no "Show more", then every group\'s lines', async () => {
    const expected = expectedLines();
    expect(Object.values(expected).reduce((n, l) => n + l, 0)).toBeGreaterThan(FIRST_FRAME_LINES);
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    // What the queue held when the page asked for the rest: the first rows' frame.
    await page.addInitScript(() => {
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (String(data) === '{"type":"rest"}')
          (window as { firstFrame?: unknown }).firstFrame = {
            rows: document.querySelectorAll('.hall-row').length,
            lines: document.querySelectorAll('#queue li').length,
            more: document.querySelectorAll('#queue button.more').length,
          };
        send.call(this, data);
      };
    });
    await page.goto(`${hall.run.url}/#token=${hall.run.newToken}`);
    await page.waitForFunction(() => (window as { firstFrame?: unknown }).firstFrame !== undefined, undefined, { timeout: 30_000 });
    const first = (await page.evaluate(() => (window as { firstFrame?: unknown }).firstFrame)) as { rows: number; lines: number; more: number };
    expect(first.rows).toBeGreaterThan(0);
    expect(first).toMatchObject({ lines: FIRST_FRAME_LINES, more: 0 });

    const total = Object.values(expected).reduce((n, l) => n + l, 0);
    await page.waitForFunction((n) => document.querySelectorAll('#queue li').length === n, total, { timeout: 30_000 });
    const drawn = await page.$$eval('#queue .queue-group[data-group]', (groups) =>
      Object.fromEntries(groups.map((g) => [(g as HTMLElement).dataset.group!, g.querySelectorAll('li').length])),
    );
    expect(drawn).toEqual(expected);
    await page.close();
  }, 90_000);
});
