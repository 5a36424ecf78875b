// Takes the README screenshots: `node bin/run-ts.js tests/arbiter-console/take-screenshots.ts`.
// Runs the demo round on a temporary data directory, lets it play for a while, shoots the arbiter page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoLateArrivals, roundFromEvent, startConsole } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { launchChromium } from './browser.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-shots-'));
const scale = Number(process.env.SCALE ?? 60);
const playSeconds = Number(process.env.PLAY_SECONDS ?? 20);
const event = presetEvent('cairns-cup-2019');
const consoleRun = await startConsole({
  dataDir,
  scale,
  port: 0,
  autoStart: true,
  tournament: { event },
  simulate: { boards: 5, seed: 'cairns-cup-2019/1', late: demoLateArrivals, hardware: 'dgt' },
  round: (toMonotonic) => roundFromEvent(event, { round: 1, startWallMs: Date.now() + 1000 }, toMonotonic),
});
const browser = await launchChromium();
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
} finally {
  await browser.close();
  await consoleRun.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
