// The arbiter's page over a hall of 1,000 boards, in Chromium at 1366x768: from the navigation to the
// first hall rows painted (the Element Timing API's render time of the first row's name), and to every
// row drawn: the rows the server puts in the page's HTML (its first screen), or the page's own if those
// were replaced before they were painted. The hall is scripts/sections-hall.ts (the SA Open's two sections at scale, twenty minutes
// into round 1, a third of the boards waiting for a late player). The first load is the console's
// first arbiter (its views still being built); the target is on the loads after it, as a chief who
// opens or reloads the page during the round meets them. Where the time goes is printed beside it: the
// first rows in the document (the HTML's) and painted, then the page's socket made and open, the
// snapshot in, its own rows in the document; and what the page is sent
// (the first screen's snapshot, the rest after its paint, the tournament view). And, from one more
// load traced by Chromium, the CPU time of the page's main thread on the way: from the navigation to
// the frame of the HTML's rows committed and to the socket made, and from the snapshot in to the page's
// own rows' frame committed (what a loaded machine adds to the wall times above, waiting, is not in it). BENCH_PAGE_BOARDS makes it smaller.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startSectionsHall } from '../scripts/sections-hall.ts';
import type { BenchRow } from './table.ts';

const BOARDS = Number(process.env.BENCH_PAGE_BOARDS ?? 1000);
const LOADS = 4;
const TARGET_MS = 300;

/**
 * Marks the first hall row's name for the Element Timing API as soon as it is in the document, and keeps
 * its paint time, the time it entered the document, and when the socket opened and the snapshot came.
 */
const MARK_FIRST_ROW = `
  window.__phases = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'first-row') window.__firstRowPainted ??= e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  // The first row's name in the HTML (the server's first screen) and, if that is replaced before it is
  // painted, the page's own: whichever is painted first.
  new MutationObserver((_, observer) => {
    const name = document.querySelector('.hall-row .name');
    if (!name) return;
    if (window.__phases.inDocument === undefined) {
      window.__phases.inDocument = performance.now();
      performance.mark('inDocument');
    }
    if (!name.hasAttribute('elementtiming')) name.setAttribute('elementtiming', 'first-row');
    if (!name.closest('.hall-row[data-board]')) return;
    window.__phases.pageRows = performance.now();
    performance.mark('pageRows');
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
  const PageSocket = window.WebSocket;
  window.WebSocket = class extends PageSocket {
    constructor(...args) {
      super(...args);
      window.__phases.created ??= performance.now();
      performance.mark('created');
      this.addEventListener('open', () => (window.__phases.open ??= performance.now()));
      this.addEventListener('message', (e) => {
        if (String(e.data).startsWith('{"type":"snapshot"') && window.__phases.snapshot === undefined) {
          window.__phases.snapshot = performance.now();
          performance.mark('snapshot');
        }
      });
    }
  };
`;

interface Phases {
  readonly created: number;
  readonly open: number;
  readonly snapshot: number;
  /** The first rows in the document: the server's first screen in the HTML, else the page's own. */
  readonly inDocument: number;
  /** The page's own first rows in the document (drawn from the snapshot). */
  readonly pageRows: number;
}

interface Load {
  readonly firstRowsMs: number;
  readonly everyRowMs: number;
  readonly phases: Phases;
  /** Bytes of the first snapshot, the delta after it (the rest of the hall, when the page asked for its first screen) and the tournament view. */
  readonly bytes: { readonly snapshot: number; readonly rest: number; readonly tournament: number };
}

async function load(browser: Browser, url: string, countBytes: boolean): Promise<Load> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    // What the page is sent, counted by the browser out of the page's way (on the first load only: the
    // frames' text goes through this process, which is the console's too).
    const bytes = { snapshot: 0, rest: 0, tournament: 0 };
    const cdp = countBytes ? await page.context().newCDPSession(page) : undefined;
    await cdp?.send('Network.enable');
    cdp?.on('Network.webSocketFrameReceived', ({ response }) => {
      const text = response.payloadData;
      const size = Buffer.byteLength(text);
      if (text.startsWith('{"type":"snapshot"')) bytes.snapshot ||= size;
      else if (text.startsWith('{"type":"delta"') && bytes.snapshot && !bytes.rest) bytes.rest = size;
      else if (text.startsWith('{"type":"tournament"')) bytes.tournament ||= size;
    });
    await page.addInitScript(MARK_FIRST_ROW);
    await page.goto(url);
    await page.waitForFunction(() => (window as { __firstRowPainted?: number }).__firstRowPainted !== undefined, undefined, { timeout: 120_000 });
    const firstRowsMs = await page.evaluate(() => (window as { __firstRowPainted?: number }).__firstRowPainted!);
    const phases = await page.evaluate(() => (window as unknown as { __phases: Phases }).__phases);
    await page.waitForFunction((n) => document.querySelectorAll('.hall-row').length >= n, BOARDS, { timeout: 120_000, polling: 50 });
    const everyRowMs = await page.evaluate(() => performance.now());
    await page.waitForFunction(() => document.querySelector('#pages [data-page="pairings"]') !== null, undefined, { timeout: 120_000 });
    return { firstRowsMs, everyRowMs, phases, bytes };
  } finally {
    await page.close();
  }
}

/** A Chromium trace event (the fields read here). */
interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  /** The thread's CPU time in the event, µs. */
  readonly tdur?: number;
}

/**
 * CPU time of the page's main thread, ms: from the navigation to the frame of the HTML's rows committed
 * and to the socket made, and from the snapshot in to the page's own rows' frame committed.
 */
interface MainThreadCpu {
  readonly htmlFrame: number;
  readonly start: number;
  readonly firstFrame: number;
}

async function tracedLoad(browser: Browser, url: string, dir: string): Promise<MainThreadCpu> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const path = join(dir, 'trace.json');
  try {
    await page.addInitScript(MARK_FIRST_ROW);
    await browser.startTracing(page, { path, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
    await page.goto(url);
    await page.waitForFunction(() => (window as { __firstRowPainted?: number }).__firstRowPainted !== undefined, undefined, { timeout: 120_000 });
    // The page's own rows' frame: committed within two frames of their entry into the document.
    await page.waitForFunction(() => (window as unknown as { __phases: Partial<Phases> }).__phases.pageRows !== undefined, undefined, { timeout: 120_000 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await browser.stopTracing();
  } finally {
    await page.close();
  }
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mark = (name: string): TraceEvent => {
    const found = events.find((e) => e.name === name && e.cat.includes('user_timing'));
    if (!found) throw new Error(`the trace has no mark '${name}'`);
    return found;
  };
  const [inDocument, created, snapshot, pageRows] = [mark('inDocument'), mark('created'), mark('snapshot'), mark('pageRows')];
  const main = events.filter((e) => e.pid === snapshot.pid && e.tid === snapshot.tid && e.ph === 'X');
  const navigation = events.find((e) => e.name === 'navigationStart' && e.pid === snapshot.pid);
  const commitAfter = (mark: TraceEvent) => main.filter((e) => e.name === 'Commit' && e.ts > mark.ts).sort((a, b) => a.ts - b.ts)[0];
  const [commit, htmlCommit] = [commitAfter(pageRows), commitAfter(inDocument)];
  if (!navigation || !commit || !htmlCommit) throw new Error('the trace has no navigation or no frame committed after the first rows');
  // The thread's tasks, each counted once (the events inside a task are in its time).
  const cpu = (from: number, to: number): number =>
    Math.round(main.filter((e) => e.name === 'RunTask' && e.ts >= from && e.ts < to).reduce((ms, e) => ms + (e.tdur ?? 0) / 1000, 0));
  return {
    htmlFrame: cpu(navigation.ts, htmlCommit.ts + (htmlCommit.dur ?? 0)),
    start: cpu(navigation.ts, created.ts),
    firstFrame: cpu(snapshot.ts, commit.ts + (commit.dur ?? 0)),
  };
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
    for (let i = 0; i < LOADS; i++) loads.push(await load(browser, url, i === 0));
    const cpu = await tracedLoad(browser, url, dir);
    const [cold, ...warm] = loads as [Load, ...Load[]];
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const firstRows = median(warm.map((l) => l.firstRowsMs));
    const load1 = `load ${loadBefore.toFixed(1)}-${loadavg()[0]!.toFixed(1)}`;
    const boards = `${BOARDS.toLocaleString('en')} boards, 1366x768`;
    const phase = (key: keyof Phases) => Math.round(median(warm.map((l) => l.phases[key])));
    const kib = (key: keyof Load['bytes']) => `${Math.round(cold.bytes[key] / 1024)} KiB`;
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
      {
        part: 'arbiter page',
        measure: `where the first rows' time goes (median): first rows in the document (the HTML's), painted; the page's socket made, open, snapshot in, its own rows in the document`,
        value: `${phase('inDocument')} / ${Math.round(firstRows)}; ${phase('created')} / ${phase('open')} / ${phase('snapshot')} / ${phase('pageRows')} ms`,
      },
      {
        part: 'arbiter page',
        measure: `the page's main thread, CPU (one more load, traced): navigation -> the HTML's rows' frame committed; navigation -> socket made; snapshot in -> the page's own rows' frame committed`,
        value: `${cpu.htmlFrame} / ${cpu.start} / ${cpu.firstFrame} ms`,
      },
      {
        part: 'arbiter page',
        measure: `sent to the page: the first snapshot (first screen and queue), the rest after its paint, the tournament view`,
        value: `${kib('snapshot')} / ${kib('rest')} / ${kib('tournament')}`,
      },
    ];
  } finally {
    await browser.close();
    await hall.run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
