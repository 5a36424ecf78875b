// The Fines page in a real Chromium against a real console (Cairns Cup rules): incidents under their
// round with who recorded them; the chief waives a fine from the page with his reason, journaled, and
// every page shows who waived it and why; a spectator sees it all without the forms.
import { describe, expect, it } from 'vitest';
import { consoleInChromium } from './browser.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';

const rig = consoleInChromium(
  'fines-page',
  () => ({ event: smallRoundRobin(), firstRound: true }),
  (run) => {
    const recorded = run.desks
      .get('main')!
      .command({ type: 'recordIncident', round: 1, player: 1, offence: 'electronic-device', note: 'phone in the jacket' }, 'IA Deputy');
    if (!recorded.ok) throw new Error(recorded.reason);
  },
);

const row = 'div.t-fines-round[data-round="1"] tr[data-incident="r1-p1-electronic-device"]';

describe('the Fines page', () => {
  it('lists the incident under its round; the chief waives its fine with a reason; a spectator sees who waived it and why', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="fines"]');
    await page.click('nav a[data-page="fines"]');
    await page.waitForSelector(row);
    expect(await page.$$eval(`${row} td`, (tds) => tds.map((td) => td.textContent))).toEqual([
      'Cairns player 01 (#1)',
      'electronic-device',
      '1,000 USD',
      'none',
      'IA Deputy',
      'phone in the jacket',
      '',
    ]);
    await page.selectOption('fieldset[aria-label="Waive a fine"] select[name="incident"]', 'r1-p1-electronic-device');
    await page.fill('fieldset[aria-label="Waive a fine"] input[name="reason"]', 'phone switched off, handed in at once');
    await page.click('button[data-t="waive"]');
    await page.waitForFunction((sel) => document.querySelector(`${sel} td.t-waived`)?.textContent !== '', row, { timeout: 10_000 });
    const waiver = [...rig.run.journal.entries(0, 'tournament')].map((e) => e.record).at(-1);
    expect(waiver).toMatchObject({
      kind: 'tournament',
      section: 'main',
      action: { type: 'waiver', incident: 'r1-p1-electronic-device', reason: 'phone switched off, handed in at once' },
    });
    const chief = (waiver as { action: { by: string } }).action.by;
    expect(await page.textContent(`${row} td.t-waived`)).toBe(`by ${chief}: phone switched off, handed in at once`);
    expect(await page.$(`${row} td s`)).not.toBeNull();
    // Nothing is left to waive: the form is gone.
    expect(await page.$('fieldset[aria-label="Waive a fine"]')).toBeNull();
    await page.close();

    const spectator = await rig.browser.newPage();
    await spectator.goto(`${rig.run.url}/spectator#fines`);
    await spectator.waitForSelector(row);
    expect(await spectator.textContent(`${row} td.t-waived`)).toBe(`by ${chief}: phone switched off, handed in at once`);
    expect(await spectator.$('fieldset')).toBeNull();
    await spectator.close();
  });
});
