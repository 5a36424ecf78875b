// The arbiter's page over a hall of 1,000 boards, in Chromium at 1366x768: from the navigation to the
// first hall rows painted (the Element Timing API's render time of the first row's name), and to every
// row drawn. The hall is scripts/sections-hall.ts (the SA Open's two sections at scale, twenty minutes
// into round 1, a third of the boards waiting for a late player). The first load is the console's
// first arbiter (its views still being built); the target is on the loads after it, as a chief who
// opens or reloads the page during the round meets them. BENCH_PAGE_BOARDS makes it smaller.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startSectionsHall } from '../scripts/sections-hall.ts';
import type { BenchRow } from './table.ts';

const BOARDS = Number(process.env.BENCH_PAGE_BOARDS ?? 1000);
const LOADS = 4;
const TARGET_MS = 300;

/** Marks the first hall row's name for the Element Timing API as soon as it is in the document, and keeps its paint time. */
const MARK_FIRST_ROW = `
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'first-row') window.__firstRowPainted = e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  new MutationObserver((_, observer) => {
    const name = document.querySelector('.hall-row .name');
    if (!name) return;
    name.setAttribute('elementtiming', 'first-row');
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
`;

interface Load {
  readonly firstRowsMs: number;
  readonly everyRowMs: number;
}

async function load(browser: Browser, url: string): Promise<Load> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await page.addInitScript(MARK_FIRST_ROW);
    await page.goto(url);
    await page.waitForFunction(() => (window as { __firstRowPainted?: number }).__firstRowPainted !== undefined, undefined, { timeout: 120_000 });
    const firstRowsMs = await page.evaluate(() => (window as { __firstRowPainted?: number }).__firstRowPainted!);
    await page.waitForFunction((n) => document.querySelectorAll('.hall-row').length >= n, BOARDS, { timeout: 120_000, polling: 50 });
    const everyRowMs = await page.evaluate(() => performance.now());
    return { firstRowsMs, everyRowMs };
  } finally {
    await page.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-page-'));
  const open = Math.round(BOARDS * 0.8);
  const hall = await startSectionsHall(dir, open, BOARDS - open);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const url = `${hall.run.url}/#token=${hall.run.newToken}`;
    const loadBefore = loadavg()[0]!;
    const loads: Load[] = [];
    for (let i = 0; i < LOADS; i++) loads.push(await load(browser, url));
    const [cold, ...warm] = loads as [Load, ...Load[]];
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const firstRows = median(warm.map((l) => l.firstRowsMs));
    const load1 = `load ${loadBefore.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`;
    const boards = `${BOARDS.toLocaleString('en')} boards, 1366x768`;
    return [
      {
        part: 'arbiter page',
        measure: `first hall rows painted, ${boards} (median of ${warm.length} loads; ${load1})`,
        value: `${Math.round(firstRows)} ms`,
        target: `<= ${TARGET_MS} ms`,
        ok: firstRows <= TARGET_MS,
      },
      { part: 'arbiter page', measure: `first hall rows painted, the console's first arbiter (${boards})`, value: `${Math.round(cold.firstRowsMs)} ms` },
      { part: 'arbiter page', measure: `every hall row drawn (${boards}, median)`, value: `${Math.round(median(warm.map((l) => l.everyRowMs)))} ms` },
    ];
  } finally {
    await browser.close();
    await hall.run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
