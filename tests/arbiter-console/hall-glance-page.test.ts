// The hall of 1,000 boards at a glance, in Chromium at 1366x768 (scripts/sections-hall.ts: the SA
// Open's two sections at scale, FIDE-style names up to 40 characters, a third of the boards waiting for
// a late player): no name is cut, each row has its hall number and its section's board number, at
// least 12 lines of the queue are in view, in groups by kind with counts; a kind dismissed at once from
// the page (each item journaled as a single Dismiss journals it) and over the WebSocket (a sector
// arbiter refused); a finished game's items leave the queue.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSectionsHall, type SectionsHall } from '../../scripts/sections-hall.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { launchChromium } from './browser.ts';

const OPEN = 800;
const B = 200;
let browser: Browser;
let hall: SectionsHall;
let dir: string;
const clients: TestClient[] = [];
const chief = { id: 'chief', name: 'IA Chief', role: 'chief' as const };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-hall-glance-'));
  hall = await startSectionsHall(dir, OPEN, B);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.ws.close();
  await browser?.close();
  await hall?.run.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function chiefPage(): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.goto(`${hall.run.url}/#token=${hall.run.newToken}`);
  // Every row: the first screen is drawn first, the rest in the frames after it.
  await page.waitForFunction((n) => document.querySelectorAll('.hall-row').length === n, OPEN + B, { timeout: 60_000 });
  return page;
}

const queueItems = () => hall.run.hall.attention();
/** The kinds these tests dismiss, written out apart from the contract's table. */
const KINDS: Record<string, readonly string[]> = {
  late: ['late-player', 'default-time-expired'],
  calls: ['arbiter-call', 'quickplay-claim', 'draw-offer-refused'],
};
const kindOf = (a: { code: string }) => Object.keys(KINDS).find((k) => KINDS[k]!.includes(a.code));
const dismissNotes = () => [...hall.run.journal.entries(0, 'note')].filter((e) => e.record.kind === 'note' && e.record.note.type === 'dismiss').length;

describe('the hall of 1,000 boards at 1366x768', () => {
  it('cuts no name, shows each board by its hall number and its section board number, and at least 12 queue lines', async () => {
    const page = await chiefPage();
    const cells = await page.$$eval('.hall-row .name, .hall-row .section-id, .hall-row .section-board', (els) =>
      els.map((e) => ({ text: e.textContent ?? '', cut: e.scrollWidth > e.clientWidth })),
    );
    // Two names, a section and its board number in each of the 1,000 rows; the longest names are 40 characters.
    expect(cells).toHaveLength(4 * (OPEN + B));
    expect(Math.max(...cells.map((c) => c.text.length))).toBeGreaterThanOrEqual(38);
    expect(cells.filter((c) => c.cut).map((c) => c.text)).toEqual([]);
    const views = hall.run.hall.views();
    for (const id of ['1', '10', '123', '800', '801', '810', '1000']) {
      const v = views.find((b) => b.id === id)!;
      const row = await page.$eval(`.hall-row[data-board="${id}"]`, (r) => ({
        no: r.querySelector('.no')!.textContent,
        section: r.querySelector('.section-id')!.textContent,
        board: r.querySelector('.section-board')!.textContent,
        white: r.querySelector('.name.white')!.textContent,
      }));
      expect(row).toEqual({ no: id, section: v.section, board: String(v.sectionBoard), white: v.white });
    }
    // The B section's first board is its board 1 on hall board 801.
    expect(views.find((b) => b.id === '801')).toMatchObject({ section: 'b', sectionBoard: 1 });
    const inView = await page.$$eval('.queue li', (lines) => {
      const box = document.querySelector('#queue')!.getBoundingClientRect();
      return lines.filter((l) => {
        const r = l.getBoundingClientRect();
        return r.top >= box.top && r.bottom <= Math.min(box.bottom, innerHeight) && r.left >= 0 && r.right <= innerWidth;
      }).length;
    });
    expect(inView).toBeGreaterThanOrEqual(12);
    // Grouped per kind with counts: the late players' group counts every item, a line per board.
    const late = queueItems().filter((a) => kindOf(a) === 'late');
    const lateBoards = new Set(late.map((a) => a.board));
    expect(late.length).toBeGreaterThan(lateBoards.size);
    expect(await page.textContent('[data-group="late"] h3 span')).toBe(`Late players (${late.length} on ${lateBoards.size} boards)`);
    expect(await page.textContent('[data-kind="late"] .count')).toBe(` ${late.length}`);
    await page.context().close();
  }, 120_000);

  it("takes a finished game's items out of the queue: a late player's board forfeited", async () => {
    const h = hall.run.hall;
    const board = hall.late.find((id) => h.view(id)!.status === 'running' && h.attention().some((a) => a.board === id && a.code === 'late-player'))!;
    const page = await chiefPage();
    await page.waitForSelector(`.queue li[data-queue-board="${board}"]`);
    const c = await helloClient(hall.run.url, { role: 'arbiter', token: hall.run.newToken, name: 'IA Chief' });
    clients.push(c);
    expect(await sendCommand(c, { type: 'result', board, result: '1-0', termination: 'forfeit: Black absent' } as { type: string })).toMatchObject({
      type: 'ack',
    });
    await page.waitForSelector(`.queue li[data-queue-board="${board}"]`, { state: 'detached', timeout: 30_000 });
    expect(h.attention().filter((a) => a.board === board)).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("dismisses a kind from the page: every late player's item, each journaled", async () => {
    const page = await chiefPage();
    const late = queueItems().filter((a) => kindOf(a) === 'late').length;
    const others = queueItems().length - late;
    const before = dismissNotes();
    expect(late).toBeGreaterThan(300);
    await page.click('[data-dismiss-kind="late"]');
    await page.click('dialog.ask button.danger');
    await page.waitForSelector('[data-group="late"]', { state: 'detached', timeout: 30_000 });
    expect(queueItems().filter((a) => kindOf(a) === 'late')).toEqual([]);
    expect(queueItems()).toHaveLength(others);
    expect(dismissNotes() - before).toBe(late);
    expect(await page.textContent('#queue-count')).toBe(String(others));
    await page.context().close();
  }, 120_000);

  it('dismisses a kind over the WebSocket: the chief and a deputy may, a sector arbiter is refused, nothing left is refused with a code', async () => {
    const team = hall.run.team;
    await team.command({ type: 'defineSector', sector: 'A', name: 'North', boards: '1-500' }, chief);
    const sector = await team.command({ type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'A' }, chief);
    const deputy = await team.command({ type: 'issueCredential', name: 'IA Deputy', role: 'deputy' }, chief);
    if (!sector.ok || !deputy.ok || !sector.token || !deputy.token) throw new Error('credentials');
    const north = await helloClient(hall.run.url, { role: 'arbiter', token: sector.token });
    const dep = await helloClient(hall.run.url, { role: 'arbiter', token: deputy.token });
    clients.push(north, dep);
    const calls = queueItems().filter((a) => kindOf(a) === 'calls').length;
    expect(calls).toBeGreaterThan(0);
    expect(await sendCommand(north, { type: 'dismissKind', kind: 'calls' } as { type: string })).toMatchObject({ type: 'refused', code: 'forbidden' });
    expect(queueItems().filter((a) => kindOf(a) === 'calls')).toHaveLength(calls);
    expect(await sendCommand(dep, { type: 'dismissKind', kind: 'calls' } as { type: string })).toMatchObject({ type: 'ack' });
    expect(queueItems().filter((a) => kindOf(a) === 'calls')).toEqual([]);
    expect(await sendCommand(dep, { type: 'dismissKind', kind: 'calls' } as { type: string })).toMatchObject({ type: 'refused', code: 'nothing-to-do' });
  }, 60_000);
});
