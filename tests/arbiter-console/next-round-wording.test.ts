// The Pairings page of `npm start` (the demo: Cairns Cup 2019, round 1 paired and published at start)
// while round 1 is played: it must not say round 1 is complete, since publishing round 2 is refused
// until round 1's results are confirmed. In a real Chromium against an event console.
import { describe, expect, it } from 'vitest';
import { presetEvent } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';

const rig = consoleInChromium('next-round-wording', () => ({ event: presetEvent('cairns-cup-2019'), firstRound: true }));

describe('the next round while the live round is played', () => {
  it('says round 2 may be drafted and published only once round 1 is finished and confirmed, not that round 1 is complete', async () => {
    const desk = rig.run.desks.get('main') ?? [...rig.run.desks.values()][0]!;
    expect(desk.liveRound).toBe(1);
    expect(desk.view('arbiter').nextRound).toEqual({ round: 2, possible: true, publishAfter: 'round 1 is finished and its results confirmed' });

    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('nav a[data-page="pairings"]');
    await page.click('nav a[data-page="pairings"]');
    await page.waitForSelector('#t-next-round');
    const hint = await page.textContent('#t-next-round');
    expect(hint).toBe('Round 1 is still being played. Pair round 2 drafts it now, to check; Publish it once round 1 is finished and its results confirmed.');
    expect(hint).not.toContain('is complete');

    // As the page says: the draft is made, its publication refused while round 1 is on the boards.
    const section = desk.section.id;
    expect(desk.command({ type: 'pairNextRound', section }, 'IA')).toMatchObject({ ok: true });
    expect(desk.command({ type: 'publishRound', section }, 'IA')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('round 1 is still on the boards'),
    });
    await page.close();
  }, 60_000);
});
