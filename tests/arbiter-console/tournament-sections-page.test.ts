// The tournament pages of an event console (SA Open 2009: the Open and section B in one hall), in a
// real Chromium: the section selector shows each section and sends its commands to it, a correction
// asks first (in a dialog, the clocks never stop), a value picked and not sent survives a delta, and
// a result patches the crosstable in place: the same table and row elements, and no row touched
// whose text did not change.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TournamentDesk } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';

// Both sections' round 1 paired and published at start, on the hall's boards.
const rig = consoleInChromium('tournament-sections', () => ({ event: presetEvent('sa-open-2009'), firstRound: true }));

const desk = (section: string): TournamentDesk => rig.run.desks.get(section)!;
const roundOne = (section: string) =>
  desk(section)
    .view('arbiter')
    .rounds.find((r) => r.round === 1)!.games;
const lastAction = () => [...rig.run.journal.entries(0, 'tournament')].at(-1)?.record;

async function arbiterOn(hash: string): Promise<Page> {
  const page = await (await rig.browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
  await page.waitForSelector(`nav a[data-page="${hash}"]`);
  await page.click(`nav a[data-page="${hash}"]`);
  return page;
}

describe('the tournament pages of an event console', () => {
  it('show the section picked, send its commands to it, ask before a correction and keep a value picked while deltas come', async () => {
    const page = await arbiterOn('pairings');
    await page.waitForSelector('#t-content[data-section="open"] tr[data-round="1"][data-board="1"]');
    expect(await page.$$eval('#t-section option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['open', 'b']);
    const [open1] = roundOne('open');
    const [b1, b2, b3] = roundOne('b');
    expect(await page.textContent('tr[data-round="1"][data-board="1"] td:nth-child(2)')).toBe(`${open1!.white.name} (${open1!.white.id})`);

    await page.selectOption('#t-section', 'b');
    const row = (board: number) => `#t-content[data-section="b"] tr[data-round="1"][data-board="${board}"]`;
    await page.waitForSelector(row(1));
    expect(await page.textContent(`${row(1)} td:nth-child(2)`)).toBe(`${b1!.white.name} (${b1!.white.id})`);

    // An entry goes to section B, with the reason typed at the top.
    await page.fill('#t-reason', 'scoresheets of section B');
    await page.selectOption(`${row(1)} select[name="result"]`, '1-0');
    await page.click(`${row(1)} button[data-t="enter"]`);
    await page.waitForSelector(`${row(1)} .source.arbiter`, { timeout: 10_000 });
    expect(lastAction()).toMatchObject({
      kind: 'tournament',
      section: 'b',
      action: { type: 'result', round: 1, white: b1!.white.id, black: b1!.black.id, result: '1-0', reason: 'scoresheets of section B' },
    });

    // A different result for that game is a correction: asked first; Cancel sends nothing.
    const before = rig.run.journal.count();
    await page.selectOption(`${row(1)} select[name="result"]`, '0-1');
    await page.click(`${row(1)} button[data-t="enter"]`);
    await page.waitForSelector('dialog.ask[open]');
    expect(await page.textContent('dialog.ask[open] p')).toContain('change 1-0 to 0-1');
    await page.click('dialog.ask[open] button:has-text("Cancel")');
    expect(await page.$('dialog.ask[open]')).toBeNull();
    expect(rig.run.journal.count()).toBe(before);
    await page.click(`${row(1)} button[data-t="enter"]`);
    await page.click('dialog.ask[open] button.danger');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '0-1', `${row(1)} .result`, { timeout: 10_000 });
    expect(lastAction()).toMatchObject({ section: 'b', action: { type: 'result', white: b1!.white.id, result: '0-1', source: 'arbiter' } });

    // A result picked on board 2 and not sent stays picked while another result redraws the page.
    await page.selectOption(`${row(2)} select[name="result"]`, '1/2-1/2');
    expect(
      desk('b').command({ type: 'enterResult', round: 1, white: b3!.white.id, black: b3!.black.id, result: '1-0', reason: 'scoresheets' }, 'IA Deputy'),
    ).toMatchObject({ ok: true });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1-0', `${row(3)} .result`, { timeout: 10_000 });
    expect(await page.$eval(`${row(2)} select[name="result"]`, (s) => (s as HTMLSelectElement).value)).toBe('1/2-1/2');
    expect(await page.textContent(`${row(2)} .result`)).toBe(b2!.result ?? '');

    // The crosstable page keeps the section.
    await page.click('nav a[data-page="crosstable"]');
    await page.waitForSelector(`#t-content[data-section="b"] .crosstable tr[data-player="${b1!.black.id}"]`);
    expect(await page.textContent(`.crosstable tr[data-player="${b1!.black.id}"] td.points`)).toBe('1');
    expect(await page.textContent('.crosstable')).not.toContain(open1!.white.name);
    await page.context().close();
  }, 60_000);

  it('patches the crosstable in place when a result comes: same table and rows, no unchanged row touched', async () => {
    const games = roundOne('open');
    const [last, ...others] = [...games].reverse();
    for (const g of others.filter((g) => g.result === null)) {
      expect(
        desk('open').command({ type: 'enterResult', round: 1, white: g.white.id, black: g.black.id, result: '1-0', reason: 'scoresheets' }, 'IA Deputy'),
      ).toMatchObject({ ok: true });
    }
    const page = await arbiterOn('crosstable');
    const points = (id: number) => `.crosstable tr[data-player="${id}"] td.points`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1', points(others[0]!.white.id), { timeout: 10_000 });
    await page.evaluate(() => {
      const w = window as unknown as { probe: { table: Element; rows: Map<string, Element>; text: Map<string, string>; touched: Set<string> } };
      const rows = new Map([...document.querySelectorAll<HTMLElement>('.crosstable tbody tr')].map((tr) => [tr.dataset.player!, tr as Element]));
      const probe = {
        table: document.querySelector('.crosstable')!,
        rows,
        text: new Map([...rows].map(([id, tr]) => [id, tr.textContent!])),
        touched: new Set<string>(),
      };
      w.probe = probe;
      // Changes inside a row (its cells, their text); rows moved by a new order are not counted here.
      new MutationObserver((records) => {
        for (const r of records) {
          const target = r.target.nodeType === Node.ELEMENT_NODE ? (r.target as Element) : r.target.parentElement;
          const tr = target?.closest<HTMLElement>('tr[data-player]');
          if (tr) probe.touched.add(tr.dataset.player!);
        }
      }).observe(probe.table.querySelector('tbody')!, { subtree: true, childList: true, characterData: true, attributes: true });
    });

    expect(
      desk('open').command(
        { type: 'enterResult', round: 1, white: last!.white.id, black: last!.black.id, result: '1/2-1/2', reason: 'scoresheets' },
        'IA Deputy',
      ),
    ).toMatchObject({ ok: true });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '0.5', points(last!.black.id), { timeout: 10_000 });

    const seen = await page.evaluate(() => {
      const { probe } = window as unknown as { probe: { table: Element; rows: Map<string, Element>; text: Map<string, string>; touched: Set<string> } };
      const now = new Map([...document.querySelectorAll<HTMLElement>('.crosstable tbody tr')].map((tr) => [tr.dataset.player!, tr as Element]));
      return {
        sameTable: document.querySelector('.crosstable') === probe.table,
        sameRows: [...probe.rows].every(([id, tr]) => now.get(id) === tr) && now.size === probe.rows.size,
        changed: [...now].filter(([id, tr]) => tr.textContent !== probe.text.get(id)).map(([id]) => id),
        touched: [...probe.touched],
      };
    });
    expect(seen.sameTable).toBe(true);
    expect(seen.sameRows).toBe(true);
    expect(seen.touched).toEqual(expect.arrayContaining([String(last!.white.id), String(last!.black.id)]));
    // Only rows whose text changed were touched, and the rows that did not change (rank, points and
    // tie-breaks as they were) not at all.
    expect(seen.touched.filter((id) => !seen.changed.includes(id))).toEqual([]);
    expect(games.length * 2 - seen.changed.length).toBeGreaterThanOrEqual(5);
    await page.context().close();
  }, 60_000);

  it("corrects a player's name from the Pairings page: journaled by number, shown in the crosstable", async () => {
    const page = await arbiterOn('pairings');
    await page.selectOption('#t-section', 'b');
    await page.waitForSelector('#t-content[data-section="b"] tr[data-round="1"][data-board="1"]');
    await page.fill('#t-reason', 'misspelt on the entry form');
    const form = 'fieldset:has(legend:text-is("Correct a name"))';
    await page.selectOption(`${form} select[name="player"]`, '7');
    await page.fill(`${form} input[name="name"]`, 'Thandi Mokoena');
    await page.click(`${form} button[data-t="rename"]`);
    await page.waitForFunction(() => document.body.textContent?.includes('Thandi Mokoena') ?? false, undefined, { timeout: 10_000 });
    expect(lastAction()).toMatchObject({
      section: 'b',
      action: { type: 'rename', player: 7, name: 'Thandi Mokoena', reason: 'misspelt on the entry form', credential: 'chief' },
    });
    expect(
      desk('b')
        .view('spectator')
        .crosstable.rows.find((r) => r.id === 7)?.name,
    ).toBe('Thandi Mokoena');
    await page.context().close();
  }, 60_000);
});
