// A Swiss round drafted in an event console, in a real Chromium: the page shows the draft, the clocks
// cannot start while nothing is published, Publish seats it on the boards, then the clocks start.
import { describe, expect, it } from 'vitest';
import { pairSwissRound, emptyRecord } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';
import { smallSwiss } from './tournament-fixtures.ts';

const event = smallSwiss(5);
const live = pairSwissRound(event, 'main', emptyRecord, 1);

const rig = consoleInChromium(
  'swiss-page',
  () => ({ event }),
  (run) => {
    expect(run.desk!.command({ type: 'pairNextRound', section: 'main' }, 'IA')).toMatchObject({ ok: true });
  },
);

describe('a Swiss round drafted, on the page', () => {
  it('shows the draft, refuses to start the clocks until it is published, then starts them', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    expect(rig.run.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: false });
    expect(rig.run.hall.startAt).toBeUndefined();

    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector(`.t-draft tr[data-draft-board="${live.games.length}"]`, { timeout: 10_000 });
    expect(await page.textContent('.t-draft')).toContain(`Bye: Cairns player 0${live.bye}`);

    await page.click('button[data-t="publish"]');
    await page.waitForFunction(() => document.querySelector('.t-draft') === null, undefined, { timeout: 10_000 });
    expect(await page.textContent('tr[data-round="1"][data-board="1"]')).toContain(`Cairns player 0${live.games[0]!.white}`);
    expect(rig.run.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
    await page.close();
  });
});
