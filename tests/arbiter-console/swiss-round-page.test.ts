// A Swiss round paired at start, in a real Chromium: the page shows the draft on the clocks with
// Publish only, "start all" is refused until it is published, then the clocks start.
import { describe, expect, it } from 'vitest';
import { roundFromEvent, swissRoundPairing } from '../../arbiter-console/internal.ts';
import { consoleInChromium } from './browser.ts';
import { smallSwiss } from './tournament-fixtures.ts';

const event = smallSwiss(5);
const live = swissRoundPairing(event, 'main', 1);

const rig = consoleInChromium('swiss-page', () => ({
  round: (toMonotonic) => roundFromEvent(event, { round: 1, pairings: live, startWallMs: Date.now() + 60_000 }, toMonotonic),
  tournament: { event, livePairing: () => live },
}));

describe('a Swiss round paired at start, on the page', () => {
  it('shows the draft with Publish only, refuses to start the clocks until it is published, then starts them', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    // The boards appear only after the snapshot, i.e. once the socket is connected as arbiter: a click
    // before that would send nothing.
    await page.waitForSelector('.board[data-board]');
    await page.click('[data-command="startAll"]');
    await page.waitForSelector('#toasts div:has-text("publish it on the Pairings page")', { timeout: 10_000 });
    expect(rig.run.hall.startAt).toBeUndefined();

    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector(`.t-draft tr[data-draft-board="${live.games.length}"]`, { timeout: 10_000 });
    expect(await page.textContent('.t-draft')).toContain('Paired at start and already on the boards');
    expect(await page.$('.t-draft button[data-t="swap"]')).toBeNull();
    expect(await page.$('.t-draft button[data-t="discard"]')).toBeNull();
    expect(await page.textContent('.t-draft')).toContain(`Bye: Cairns player 0${live.bye}`);

    await page.click('button[data-t="publish"]');
    await page.waitForFunction(() => document.querySelector('.t-draft') === null, undefined, { timeout: 10_000 });
    expect(await page.textContent('tr[data-round="1"][data-board="1"]')).toContain(`Cairns player 0${live.games[0]!.white}`);
    expect(rig.run.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
    await page.close();
  });
});
