// The hall at the scale of an open, in Chromium: a 400-board round (virtual players on 16 boards) run by a chief arbiter, a
// deputy and two sector arbiters from their own browsers; the compact hall view at 1366x768 (boards
// visible, sort, filter, search); a sector arbiter refused outside his sector; a deputy's correction
// signed in the PGN; the print preview of the pairings; and an event's hall of two sections (SA Open):
// the section column and filter, a sector of section B, its arbiter refused outside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { launchChromium } from './browser.ts';
import { MIN, oneSectionConsole } from './fixtures.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';

let browser: Browser;
let run: RunningConsole;
let event: RunningConsole;
let saOpen: RunningConsole;
const dirs: string[] = [];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-page-'));
  const eventDir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-print-'));
  const saOpenDir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-sections-'));
  dirs.push(dir, eventDir, saOpenDir);
  run = await startConsole({ dataDir: dir, port: 0, ...oneSectionConsole({ boards: 400 }), simulate: { boards: 16, seed: 'hall-page', hardware: 'none' } });
  run.hall.command({ type: 'arriveAll' }, 'IA Chief');
  run.hall.command({ type: 'startAll' }, 'IA Chief');
  // Board 7 short of time, board 5 finished, board 9 with a player who has not come.
  run.hall.command({ type: 'setTime', board: '7', side: 'white', ms: 3 * MIN, reason: 'test: time trouble' }, 'IA Chief');
  run.hall.command({ type: 'result', board: '5', result: '1-0', termination: 'resignation' }, 'IA Chief');
  const small = smallRoundRobin();
  event = await startConsole({ dataDir: eventDir, port: 0, event: small, firstRound: true });
  // Both sections' round 1 paired and published at start: the Open on hall boards 1-12, B after it.
  saOpen = await startConsole({ dataDir: saOpenDir, port: 0, event: presetEvent('sa-open-2009'), firstRound: true });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await run?.stop();
  await event?.stop();
  await saOpen?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function open(url: string, viewport = { width: 1366, height: 768 }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(url);
  return page;
}

const rowsInView = (page: Page) =>
  page.$$eval(
    '.hall-row',
    (rows) =>
      rows.filter((r) => {
        const box = r.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
      }).length,
  );
const shownBoards = (page: Page) => page.$$eval('.hall-row', (rows) => rows.map((r) => (r as HTMLElement).dataset.board));

describe('the hall view', () => {
  it('shows at least 40 boards on a 1366x768 laptop and 100 on a 1080p screen', async () => {
    const laptop = await open(`${run.url}/spectator`);
    await laptop.waitForSelector('.hall-row[data-board="400"]');
    expect(await rowsInView(laptop)).toBeGreaterThanOrEqual(40);
    const wide = await open(`${run.url}/spectator`, { width: 1920, height: 1080 });
    await wide.waitForSelector('.hall-row[data-board="400"]');
    expect(await rowsInView(wide)).toBeGreaterThanOrEqual(100);
    await laptop.context().close();
    await wide.context().close();
  }, 60_000);

  it('sorts by time left, filters finished games and alerts, searches by player and jumps to a board', async () => {
    const page = await open(`${run.url}/spectator`);
    await page.waitForSelector('.hall-row[data-board="400"]');
    await page.selectOption('#hall-sort', 'time');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.hall-row')?.dataset.board === '7');
    // Both of board 7's clocks are judged: White's (not running) is amber under five minutes.
    expect(await page.getAttribute('.hall-row[data-board="7"] .clock.white', 'class')).toContain('low');
    await page.click('[data-show="finished"]');
    await page.waitForFunction(() => document.querySelectorAll('.hall-row').length === 1);
    expect(await shownBoards(page)).toEqual(['5']);
    expect(await page.textContent('.hall-row[data-board="5"] .status')).toBe('1-0');
    await page.click('[data-show="all"]');
    await page.fill('#hall-search', 'Black 123');
    await page.waitForFunction(() => document.querySelectorAll('.hall-row').length === 1);
    expect(await shownBoards(page)).toEqual(['123']);
    await page.fill('#hall-search', '350');
    await page.press('#hall-search', 'Enter');
    await page.waitForSelector('.hall-row.jumped[data-board="350"]');
    // The row takes the focus two animation frames after it is drawn (scrolled to first): wait for it.
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-board') === '350', undefined, { timeout: 10_000 });
    await page.context().close();
  }, 60_000);
});

describe('a team of arbiters on a 400-board round, from their own browsers', () => {
  const tokens: Record<string, string> = {};

  it('the chief defines two sectors and issues tokens on the Team page', async () => {
    const chief = await open(`${run.url}/#token=${run.newToken}`);
    await chief.waitForSelector('.hall-row[data-board="1"]');
    await chief.click('nav a[data-page="team"]');
    for (const [id, name, boards] of [
      ['A', 'North', '1-200'],
      ['B', 'South', '201-400'],
    ] as const) {
      await chief.fill('#define-sector input[name="sector"]', id);
      await chief.fill('#define-sector input[name="name"]', name);
      await chief.fill('#define-sector input[name="boards"]', boards);
      await chief.click('#define-sector button');
      await chief.waitForSelector(`tr[data-sector="${id}"]`);
    }
    for (const [name, role, sector] of [
      ['FA North', 'sector', 'A'],
      ['FA South', 'sector', 'B'],
      ['IA Deputy', 'deputy', ''],
    ] as const) {
      await chief.fill('#issue-credential input[name="name"]', name);
      await chief.selectOption('#issue-credential select[name="role"]', role);
      if (sector) await chief.selectOption('#issue-credential select[name="sector"]', sector);
      await chief.click('#issue-credential button');
      await chief.waitForFunction((n) => document.querySelector('.issued p')?.textContent?.includes(n), name);
      tokens[name] = (await chief.textContent('#issued-token'))!;
    }
    await chief.click('#list-credentials');
    await chief.waitForSelector('#credentials tr[data-credential]');
    expect(await chief.$$eval('#credentials tbody tr', (rows) => rows.map((r) => r.children[0]!.textContent))).toEqual(['FA North', 'FA South', 'IA Deputy']);
    await chief.context().close();
  }, 90_000);

  it('each sector arbiter sees his sector first and acts there; outside it the console refuses, in his panel', async () => {
    const north = await open(`${run.url}/#token=${tokens['FA North']}`);
    const south = await open(`${run.url}/#token=${tokens['FA South']}`);
    await north.waitForSelector('.hall-row[data-board="200"]');
    await south.waitForSelector('.hall-row[data-board="400"]');
    expect(await north.textContent('#role')).toBe('FA North · sector A');
    expect((await shownBoards(north)).length).toBe(200);
    expect((await shownBoards(south))[0]).toBe('201');
    // North pauses his board 12: done, and the panel now offers Resume.
    await north.click('.hall-row[data-board="12"]');
    await north.fill('dialog[open] form[data-action="pause"] input[name="reason"]', 'noise at board 12');
    await north.click('dialog[open] button[data-command="pause"]');
    await north.waitForSelector('dialog[open] p.answer:has-text("done")');
    await north.waitForSelector('dialog[open] button[data-command="resume"]');
    await north.waitForSelector('dialog[open] .history li:has-text("paused")');
    expect(await north.textContent('dialog[open] .history')).toContain('Arbiter FA North');
    await north.keyboard.press('Escape');
    // Board 250 is South's: North may look, not act.
    await north.selectOption('#hall-sector', '');
    await north.fill('#hall-search', '250');
    await north.press('#hall-search', 'Enter');
    await north.click('.hall-row[data-board="250"]');
    expect(await north.textContent('dialog[open] p.warning')).toContain('not in your sector A');
    await north.fill('dialog[open] form[data-action="pause"] input[name="reason"]', 'not my board');
    await north.click('dialog[open] button[data-command="pause"]');
    await north.waitForSelector('dialog[open] p.answer.refused:has-text("board 250 is not in your sector A")');
    expect(run.hall.view('250')!.status).toBe('running');
    // South acts on it.
    await south.click('.hall-row[data-board="250"]');
    await south.fill('dialog[open] form[data-action="pause"] input[name="reason"]', 'phone rang');
    await south.click('dialog[open] button[data-command="pause"]');
    await south.waitForSelector('dialog[open] p.answer:has-text("done")');
    expect(run.hall.view('250')!.status).toBe('paused');
    await north.context().close();
    await south.context().close();
  }, 90_000);

  it("a named deputy's correction is signed with his name in the PGN, after a confirmation for the second time change", async () => {
    const deputy = await open(`${run.url}/#token=${tokens['IA Deputy']}`);
    await deputy.waitForSelector('.hall-row[data-board="3"]');
    await deputy.click('.hall-row[data-board="3"]');
    const form = 'dialog[open] form[data-action="addTime"]';
    for (const reason of ['Art. 12.5 disturbance', 'Art. 12.5 disturbance again']) {
      await deputy.selectOption(`${form} select[name="side"]`, 'black');
      await deputy.fill(`${form} input[name="reason"]`, reason);
      await deputy.click(`${form} button[data-command="addTime"]`);
      if (reason.endsWith('again')) {
        await deputy.waitForSelector('dialog.ask[open]');
        await deputy.click('dialog.ask[open] button.danger');
      }
      await deputy.waitForSelector(`dialog[open] .history li:has-text("${reason}")`);
    }
    const pgn = await (await fetch(`${run.url}/api/pgn/3`)).text();
    expect(pgn).toContain('Arbiter IA Deputy: +0:02:00 to black (Art. 12.5 disturbance)');
    expect(pgn).toContain('Arbiter IA Deputy: +0:02:00 to black (Art. 12.5 disturbance again)');
    await deputy.context().close();
  }, 60_000);
});

describe('printing', () => {
  it('prints the pairings on A4 without a single control, and the result slips on their own', async () => {
    const page = await open(`${event.url}/#token=${event.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector('tr[data-round="1"][data-board="1"]');
    await page.emulateMedia({ media: 'print' });
    const visible = (sel: string) =>
      page.$$eval(sel, (els) => els.filter((el) => getComputedStyle(el).display !== 'none' && (el as HTMLElement).offsetParent !== null).length);
    expect(await visible('tr[data-round="1"]')).toBe(2);
    expect(await visible('nav a, button, select, .exports a')).toBe(0);
    expect(await visible('.slip')).toBe(0);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.evaluate(() => document.body.classList.add('print-slips'));
    expect(await visible('.slip')).toBe(2);
    expect(await visible('tr[data-round="1"]')).toBe(0);
    const csv = await (await fetch(`${event.url}/api/pairings.csv?round=1`)).text();
    expect(csv.split('\r\n')[0]).toBe('round,board,hall board,white no,white,result,black no,black');
    expect(csv.split('\r\n')).toHaveLength(4);
    await page.context().close();
  });
});

describe("an event's hall of two sections (SA Open)", () => {
  const openBoards = hallBoardNumbers(presetEvent('sa-open-2009'), 'open').map(String);
  const b = hallBoardNumbers(presetEvent('sa-open-2009'), 'b').map(String);

  it("shows each board's section and its number there, filters by section; a sector of section B refuses its arbiter elsewhere", async () => {
    const chief = await open(`${saOpen.url}/#token=${saOpen.newToken}`);
    // 22 boards open as cards: the hall view is one click.
    await chief.click('[data-layout="hall"]');
    await chief.waitForSelector(`.hall-row[data-board="${b.at(-1)}"]`);
    expect(await chief.textContent(`.hall-row[data-board="${b[0]}"] .section`)).toBe('b 1');
    expect(await chief.textContent('.hall-row[data-board="1"] .section')).toBe('open 1');
    await chief.selectOption('#hall-section', 'b');
    await chief.waitForFunction((n) => document.querySelectorAll('.hall-row').length === n, b.length);
    expect(await shownBoards(chief)).toEqual(b);
    // The chief's sector of section B, by B's own board numbers 1-3.
    await chief.click('nav a[data-page="team"]');
    await chief.fill('#define-sector input[name="sector"]', 'B1');
    await chief.fill('#define-sector input[name="name"]', 'Juniors front');
    await chief.selectOption('#define-sector select[name="section"]', 'b');
    await chief.fill('#define-sector input[name="boards"]', '1-3');
    await chief.click('#define-sector button');
    await chief.waitForSelector('tr[data-sector="B1"]');
    expect(await chief.textContent('tr[data-sector="B1"]')).toContain('B Section');
    await chief.fill('#issue-credential input[name="name"]', 'FA Junior');
    await chief.selectOption('#issue-credential select[name="role"]', 'sector');
    await chief.selectOption('#issue-credential select[name="sector"]', 'B1');
    await chief.click('#issue-credential button');
    await chief.waitForFunction(() => document.querySelector('.issued p')?.textContent?.includes('FA Junior'));
    const token = (await chief.textContent('#issued-token'))!;
    await chief.context().close();

    const junior = await open(`${saOpen.url}/#token=${token}`);
    await junior.click('[data-layout="hall"]');
    await junior.waitForFunction((n) => document.querySelectorAll('.hall-row').length === n, 3);
    expect(await shownBoards(junior)).toEqual(b.slice(0, 3));
    // Section B's board 5: refused, in his panel; nothing changes on the board.
    await junior.selectOption('#hall-sector', '');
    await junior.selectOption('#hall-section', 'b');
    await junior.waitForFunction((n) => document.querySelectorAll('.hall-row').length === n, b.length);
    await junior.click(`.hall-row[data-board="${b[4]}"]`);
    expect(await junior.textContent('dialog[open] p.warning')).toContain('not in your sector B1');
    await junior.click('dialog[open] button[data-command="arrive"]');
    await junior.waitForSelector(`dialog[open] p.answer.refused:has-text("board ${b[4]} is not in your sector B1")`);
    expect(saOpen.hall.view(b[4]!)!.arrived.white).toBe(false);
    await junior.keyboard.press('Escape');
    // The Open's board 1 is not his either; B's board 2 is.
    await junior.selectOption('#hall-section', '');
    await junior.click('.hall-row[data-board="1"]');
    await junior.click('dialog[open] button[data-command="arrive"]');
    await junior.waitForSelector('dialog[open] p.answer.refused:has-text("board 1 is not in your sector B1")');
    await junior.keyboard.press('Escape');
    await junior.click(`.hall-row[data-board="${b[1]}"]`);
    await junior.click('dialog[open] button[data-command="arrive"]');
    await junior.waitForSelector('dialog[open] p.answer:has-text("done")');
    expect(saOpen.hall.view(b[1]!)!.arrived.white).toBe(true);
    expect(openBoards).toHaveLength(Number(b[0]) - 1);
    await junior.context().close();
  }, 90_000);
});
