// The tournament pages in a real Chromium against a real console: a result entered on the pairings
// page reaches the journal and the crosstable; a spectator sees the crosstable and no controls.
import { describe, expect, it } from 'vitest';
import { consoleInChromium } from './browser.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';

const rig = consoleInChromium('tournament-page', () => {
  const event = smallRoundRobin();
  return { event, firstRound: true };
});

const pointsOf = (player: number) => `.crosstable tr[data-player="${player}"] td.points`;

describe('tournament pages', () => {
  it('lets the arbiter enter a result on the pairings page (keyboard) and shows it in the crosstable', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="crosstable"]');
    await page.click('nav a[data-page="crosstable"]');
    await page.waitForSelector(pointsOf(1));
    expect(await page.textContent(pointsOf(1))).toBe('0');
    expect(await page.$$eval('.crosstable thead th', (ths) => ths.map((th) => th.textContent).slice(-5))).toEqual(['DE', 'BPG', 'KS', 'SB', 'WON']);

    await page.click('nav a[data-page="pairings"]');
    const row = 'tr[data-round="1"][data-board="1"]';
    await page.waitForSelector(`${row} select[name="result"]`);
    await page.fill('#t-reason', 'scoresheets signed by both players');
    await page.focus(`${row} select[name="result"]`);
    await page.selectOption(`${row} select[name="result"]`, '1-0');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.t)).toBe('enter');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#toasts div:has-text("done")', { timeout: 10_000 });
    await page.waitForSelector(`${row} .source.arbiter`, { timeout: 10_000 });
    expect(await page.textContent(`${row} .result`)).toBe('1-0');
    const journaled = [...rig.run.journal.entries(0, 'tournament')].map((e) => e.record).at(-1);
    expect(journaled).toMatchObject({
      kind: 'tournament',
      action: { type: 'result', round: 1, white: 1, black: 4, result: '1-0', source: 'arbiter', reason: 'scoresheets signed by both players' },
    });

    await page.click('nav a[data-page="crosstable"]');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1', pointsOf(1), { timeout: 10_000 });
    expect(await page.textContent(pointsOf(4))).toBe('0');
    expect(await page.textContent('.crosstable tbody tr:first-child td.name')).toBe('Cairns player 01');
    await page.close();
  });

  it('fills in a result from the clock by itself and lets the arbiter confirm it', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    await page.click('nav a[data-page="pairings"]');
    const row = 'tr[data-round="1"][data-board="2"]';
    await page.waitForSelector(row);
    expect(await page.$(`${row} .source`)).toBeNull();
    // White resigns on board 2: the result is signalled on the board (the clock engine ends the game).
    expect(rig.run.hall.command({ type: 'result', board: '2', result: '0-1', termination: 'White resigned' }, 'board')).toMatchObject({ ok: true });
    await page.waitForSelector(`${row} .source.clock`, { timeout: 10_000 });
    expect(await page.textContent(`${row} .result`)).toBe('0-1');
    expect(await page.textContent('nav a[data-page="pairings"] .badge.confirm')).toBe('1');
    await page.click(`${row} button[data-t="confirm"]`);
    await page.waitForSelector(`${row} .source.confirmed`, { timeout: 10_000 });
    expect(await page.$('nav a[data-page="pairings"] .badge.confirm')).toBeNull();
    await page.close();
  });

  it('shows a spectator the live crosstable without any result-entry control', async () => {
    const page = await rig.browser.newPage({ viewport: { width: 820, height: 1180 } });
    await page.goto(`${rig.run.url}/spectator#crosstable`);
    await page.waitForSelector(pointsOf(1));
    expect(await page.textContent('#role')).toBe('spectator');
    expect(await page.textContent(pointsOf(1))).toBe('1');
    // A result entered now appears on the spectator's crosstable without a reload.
    expect(rig.run.desk!.command({ type: 'enterResult', round: 1, white: 2, black: 3, result: '0-1', reason: 'scoresheets' }, 'IA')).toMatchObject({
      ok: true,
    });
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1', pointsOf(3), { timeout: 10_000 });
    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector('tr[data-round="1"][data-board="2"] .result');
    expect(await page.textContent('tr[data-round="1"][data-board="2"] .result')).toBe('0-1');
    // Printing and the CSV exports are for everyone; no control changes anything.
    expect(
      await page.$$eval('select[name="result"], button[data-t], #t-reason, [data-command]', (els) =>
        els.map((el) => (el as HTMLElement).dataset.t ?? el.tagName),
      ),
    ).toEqual(['print', 'print-slips']);
    await page.close();
  });

  it('marks a corrected result in the crosstable and shows its history there (old result, new, by whom, why), to a spectator too', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    await page.click('nav a[data-page="pairings"]');
    const row = 'tr[data-round="1"][data-board="1"]';
    await page.waitForSelector(`${row} select[name="result"]`);
    await page.fill('#t-reason', 'both scoresheets say draw agreed');
    await page.selectOption(`${row} select[name="result"]`, '1/2-1/2');
    await page.click(`${row} button[data-t="enter"]`);
    // A correction of the 1-0 entered before: asked first, in a dialog.
    await page.click('dialog.ask[open] button.danger');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '½-½', `${row} .result`, { timeout: 10_000 });
    const journaled = [...rig.run.journal.entries(0, 'tournament')].map((e) => e.record).at(-1)!;
    expect(journaled).toMatchObject({
      kind: 'tournament',
      action: { type: 'result', round: 1, white: 1, black: 4, result: '1/2-1/2', replaces: '1-0', reason: 'both scoresheets say draw agreed' },
    });
    const by = journaled.kind === 'tournament' && journaled.action.type === 'result' ? journaled.action.by : '';

    await page.click('nav a[data-page="crosstable"]');
    // Both players' cells of the game are marked; the other games are not.
    const marked = '.crosstable td.corrected button';
    await page.waitForSelector(marked, { timeout: 10_000 });
    expect(await page.$$eval(marked, (bs) => bs.map((b) => `${b.closest('tr')!.getAttribute('data-player')}:${b.textContent}`))).toEqual(
      expect.arrayContaining(['1:4w½✎', '4:1b½✎']),
    );
    expect(await page.$$eval(marked, (bs) => bs.length)).toBe(2);
    await page.click(`.crosstable tr[data-player="1"] ${marked.slice('.crosstable '.length)}`);
    await page.waitForSelector('.correction-history', { timeout: 10_000 });
    expect(await page.textContent('.correction-history h3')).toBe('Round 1: Cairns player 01 – Cairns player 04');
    expect(await page.$$eval('.correction-history tbody td', (tds) => tds.slice(1).map((td) => td.textContent))).toEqual([
      '1-0 → ½-½',
      by,
      'both scoresheets say draw agreed',
    ]);
    await page.close();

    const spectator = await rig.browser.newPage();
    await spectator.goto(`${rig.run.url}/spectator#crosstable`);
    await spectator.waitForSelector(marked, { timeout: 10_000 });
    await spectator.click(`.crosstable tr[data-player="4"] ${marked.slice('.crosstable '.length)}`);
    await spectator.waitForSelector('.correction-history', { timeout: 10_000 });
    expect(await spectator.textContent('.correction-history tbody td:nth-child(2)')).toBe('1-0 → ½-½');
    await spectator.close();
  });

  it('pairs the next round as a draft on the page, swaps colours with a reason, publishes it; spectators never see the draft', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    await page.click('nav a[data-page="pairings"]');
    const spectator = await rig.browser.newPage();
    await spectator.goto(`${rig.run.url}/spectator#pairings`);
    await spectator.waitForSelector('tr[data-round="1"]');

    await page.click('button[data-t="pair"]');
    await page.waitForSelector('.t-draft tr[data-draft-board="2"]', { timeout: 10_000 });
    const names = () => page.$$eval('.t-draft tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(1, 3).map((td) => td.textContent)));
    const drafted = await names();
    await page.fill('#t-reason', 'colours corrected by the chief arbiter');
    await page.click('.t-draft tr[data-draft-board="1"] button[data-t="swap"]');
    await page.waitForSelector('.t-draft li:has-text("board 1: colours swapped")', { timeout: 10_000 });
    expect(await names()).toEqual([[drafted[0]![1], drafted[0]![0]], drafted[1]]);
    expect(await spectator.$('.t-draft')).toBeNull();

    await page.click('button[data-t="publish"]');
    await page.waitForSelector('tr[data-round="2"][data-board="1"]', { timeout: 10_000 });
    expect(await page.$('.t-draft')).toBeNull();
    await spectator.waitForSelector('tr[data-round="2"][data-board="1"]', { timeout: 10_000 });
    expect(await spectator.$$eval('tr[data-round="2"] td:nth-child(2)', (tds) => tds.map((td) => td.textContent!.replace(/ \(\d+\)$/, '')))).toEqual([
      drafted[0]![1],
      drafted[1]![0],
    ]);
    const actions = [...rig.run.journal.entries(0, 'tournament')].flatMap((e) => (e.record.kind === 'tournament' ? [e.record.action] : []));
    expect(actions.slice(-3)).toMatchObject([
      { type: 'draft', round: 2 },
      { type: 'draftChange', change: 'swapColours', board: 1, reason: 'colours corrected by the chief arbiter' },
      { type: 'publish', round: 2 },
    ]);
    await spectator.close();
    await page.close();
  });
});
