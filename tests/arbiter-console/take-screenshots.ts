// Takes the README's and docs' screenshots: `node bin/run-ts.js tests/arbiter-console/take-screenshots.ts`.
// Runs the demo round on a temporary data directory, lets it play for a while, shoots the arbiter page;
// then a 400-board hall with sectors, the 1,000-board hall of two sections at 1366x768, and the SA Open's
// printed pages after 11 rounds. SHOTS=demo,hall,hall-1000,print takes only the groups named.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoLateArrivals, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { startSectionsHall } from '../../scripts/sections-hall.ts';
import { launchChromium } from './browser.ts';
import { MIN, oneSectionConsole } from './fixtures.ts';

const scale = Number(process.env.SCALE ?? 60);
const playSeconds = Number(process.env.PLAY_SECONDS ?? 20);
const shots = new Set((process.env.SHOTS ?? 'demo,hall,hall-1000,print').split(','));
const browser = await launchChromium();
try {
  if (shots.has('demo')) await demoScreenshots();
  if (shots.has('hall')) await hallScreenshots();
  if (shots.has('hall-1000')) await bigHallScreenshot();
  if (shots.has('print')) await printedPages();
} finally {
  await browser.close();
}

/** The demo round: the cards, a board's actions, a spectator's tablet, the pairings and the crosstable. */
async function demoScreenshots(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-shots-'));
  const event = presetEvent('cairns-cup-2019');
  const consoleRun = await startConsole({
    dataDir,
    scale,
    port: 0,
    autoStart: true,
    event,
    firstRound: true,
    // The round's clocks start a second (of real time) after it is seated.
    lateStartMs: 1000 * scale,
    simulate: { boards: 5, seed: 'cairns-cup-2019', late: demoLateArrivals, hardware: 'dgt' },
  });
  try {
    await new Promise((r) => setTimeout(r, playSeconds * 1000));
    const arbiter = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await arbiter.goto(`${consoleRun.url}/#token=${consoleRun.newToken}`);
    await arbiter.waitForSelector('.board');
    await arbiter.waitForTimeout(800);
    await arbiter.screenshot({ path: 'docs/screenshots/arbiter-console.png' });
    await arbiter.click('.board[data-board="2"]');
    await arbiter.waitForSelector('dialog[open]');
    await arbiter.screenshot({ path: 'docs/screenshots/board-actions.png' });
    const tablet = await browser.newPage({ viewport: { width: 820, height: 1180 } });
    await tablet.goto(`${consoleRun.url}/spectator`);
    await tablet.waitForSelector('.board');
    await tablet.waitForTimeout(500);
    await tablet.screenshot({ path: 'docs/screenshots/spectator-tablet.png' });
    // The tournament pages: the arbiter (this script) records two boards' results by hand so the
    // crosstable has something to show; the other boards' games go on.
    const desk = consoleRun.desk!;
    const boards = desk.view('arbiter').rounds[0]!.games;
    for (const [i, result] of (['1-0', '1/2-1/2'] as const).entries()) {
      const g = boards[i]!;
      desk.command({ type: 'enterResult', round: 1, white: g.white.id, black: g.black.id, result, reason: 'screenshot: illustrative result' }, 'IA Screenshot');
    }
    await arbiter.keyboard.press('Escape');
    await arbiter.click('nav a[data-page="pairings"]');
    await arbiter.waitForSelector('tr[data-round="1"] .result');
    await arbiter.screenshot({ path: 'docs/screenshots/pairings.png' });
    await arbiter.click('nav a[data-page="crosstable"]');
    await arbiter.waitForSelector('.crosstable td.points');
    await arbiter.screenshot({ path: 'docs/screenshots/crosstable.png' });
    await arbiter.click('nav a[data-page="pairings"]');
    await arbiter.waitForSelector('tr[data-round="1"] .result');
    await arbiter.emulateMedia({ media: 'print' });
    await arbiter.setViewportSize({ width: 794, height: 1123 }); // A4 at 96 dpi
    await arbiter.screenshot({ path: 'docs/screenshots/print-pairings.png' });
  } finally {
    await consoleRun.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A 400-board hall with sectors: the compact hall view, a sector arbiter's panel, the team page. */
async function hallScreenshots(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-shots-hall-'));
  const hall: RunningConsole = await startConsole({
    dataDir: dir,
    port: 0,
    scale,
    ...oneSectionConsole({ boards: 400 }),
    simulate: { boards: 24, seed: 'hall', hardware: 'none' },
  });
  try {
    const h = hall.hall;
    for (const id of h.boards.keys()) {
      for (const side of ['white', 'black'] as const) {
        if ((id === '37' || id === '212') && side === 'black') continue;
        h.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: h.source.now(), by: { kind: 'player', side } } });
      }
    }
    h.command({ type: 'startAll' }, 'IA Chief');
    h.command({ type: 'setTime', board: '7', side: 'white', ms: 4 * MIN, reason: 'time trouble' }, 'IA Chief');
    h.command({ type: 'result', board: '5', result: '1-0', termination: 'resignation' }, 'IA Chief');
    h.command({ type: 'pause', board: '88', reason: 'illegal move claimed' }, 'IA Chief');
    const team = hall.team;
    const chiefArbiter = { id: 'chief', name: 'IA Chief', role: 'chief' as const };
    await team.command({ type: 'defineSector', sector: 'A', name: 'North wing', boards: '1-200' }, chiefArbiter);
    await team.command({ type: 'defineSector', sector: 'B', name: 'South wing', boards: '201-400' }, chiefArbiter);
    const north = await team.command({ type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'A' }, chiefArbiter);
    await new Promise((r) => setTimeout(r, 3000));
    const wide = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await wide.goto(`${hall.url}/#token=${hall.newToken}`);
    await wide.waitForSelector('.hall-row[data-board="400"]');
    await wide.waitForTimeout(800);
    await wide.screenshot({ path: 'docs/screenshots/hall-1080p.png' });
    await wide.click('nav a[data-page="team"]');
    await wide.click('#list-credentials');
    await wide.waitForSelector('#credentials tr[data-credential]');
    await wide.setViewportSize({ width: 1280, height: 720 });
    await wide.screenshot({ path: 'docs/screenshots/team.png' });
    const laptop = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await laptop.goto(`${hall.url}/#token=${north.ok ? north.token : ''}`);
    await laptop.waitForSelector('.hall-row[data-board="200"]');
    await laptop.waitForTimeout(500);
    await laptop.screenshot({ path: 'docs/screenshots/hall-sector-laptop.png' });
    await laptop.click('.hall-row[data-board="37"]');
    await laptop.waitForSelector('dialog[open] .history li');
    await laptop.screenshot({ path: 'docs/screenshots/board-panel.png' });
  } finally {
    await hall.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The hall of 1,000 boards (scripts/sections-hall.ts) on a 1366x768 laptop, the chief's page, every row drawn. */
async function bigHallScreenshot(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-shots-1000-'));
  const { run } = await startSectionsHall(dir, 800, 200);
  try {
    const laptop = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await laptop.goto(`${run.url}/#token=${run.newToken}`);
    await laptop.waitForFunction(() => document.querySelectorAll('.hall-row').length === 1000, undefined, { timeout: 60_000 });
    await laptop.waitForTimeout(800);
    await laptop.screenshot({ path: 'docs/screenshots/hall-1000-laptop.png' });
  } finally {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SA Open's Open section after its 11 rounds (results entered at the desk), printed: the crosstable
 * as Chromium lays it out on A4 landscape and round 11's pairings on A4 portrait (print media, the
 * page's printable width at 12 mm margins).
 */
async function printedPages(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-shots-print-'));
  const run = await startConsole({ dataDir: dir, port: 0, event: presetEvent('sa-open-2009'), firstRound: true });
  const MM = 96 / 25.4;
  try {
    const desk = run.desks.get('open')!;
    for (let round = 1; round <= 11; round += 1) {
      if (round > 1) {
        desk.command({ type: 'pairNextRound', section: 'open' }, 'IA Screenshot');
        desk.command({ type: 'publishRound', section: 'open' }, 'IA Screenshot');
      }
      for (const g of desk.view('arbiter').rounds.find((r) => r.round === round)!.games) {
        const result: GameResult = (['1-0', '1/2-1/2', '0-1'] as const)[(g.white.id + g.black.id + round) % 3]!;
        if (round < 11)
          desk.command({ type: 'enterResult', section: 'open', round, white: g.white.id, black: g.black.id, result, reason: 'scoresheets' }, 'IA Screenshot');
      }
    }
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.goto(`${run.url}/#token=${run.newToken}`);
    await page.waitForSelector('nav a[data-page="crosstable"]');
    await page.click('nav a[data-page="crosstable"]');
    await page.waitForSelector('.crosstable td.points');
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: Math.floor((297 - 24) * MM), height: Math.floor((210 - 24) * MM) });
    await page.screenshot({ path: 'docs/screenshots/print-crosstable.png' });
    await page.emulateMedia({ media: 'screen' });
    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector('tr[data-round="11"][data-board="1"]');
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: Math.floor((210 - 24) * MM), height: Math.floor((297 - 24) * MM) });
    await page.screenshot({ path: 'docs/screenshots/print-pairings-swiss.png' });
  } finally {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
