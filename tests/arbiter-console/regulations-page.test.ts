// The Regulations page in a real Chromium, on the SA Open 2009 preset: a player the clock forfeited at
// the default time is withdrawn from the page (the arbiter's "no notification" journaled with his
// reason), and a written appeal is lodged and upheld from the page, the R200 fee shown returned.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { manualSource } from '../../arbiter-console/index.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';

const MIN = 60_000;
const event = presetEvent('sa-open-2009');
const source = manualSource(0);
// Both sections' round 1 paired and published at start, on the hall's boards.
const rig = consoleInChromium('regulations-page', () => ({ event, firstRound: true, source }));
const lastAction = () => [...rig.run.journal.entries(0, 'tournament')].at(-1)?.record;

async function arbiterOn(hash: string): Promise<Page> {
  const page = await (await rig.browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
  await page.waitForSelector(`nav a[data-page="${hash}"]`);
  await page.click(`nav a[data-page="${hash}"]`);
  return page;
}

describe('the Regulations page', () => {
  it('withdraws a no-show and keeps the appeals log from the page', async () => {
    const { hall } = rig.run;
    const desk = rig.run.desks.get('open')!;
    const games = desk.pairingOf(1)!.games;
    const boards = hallBoardNumbers(event, 'open').map(String);
    // Player 20 never comes: everyone else is at the board when the clocks start; the default time passes.
    for (const [k, g] of games.entries())
      for (const side of ['white', 'black'] as const)
        if (g[side] !== 20) expect(hall.command({ type: 'arrive', board: boards[k]!, side }, 'IA')).toMatchObject({ ok: true });
    expect(hall.command({ type: 'startAll', section: 'open' }, 'IA')).toMatchObject({ ok: true });
    source.advance(30 * MIN + 1);
    // A game ends (White wins); its loser will appeal.
    const game = games.find((g) => g.white !== 20 && g.black !== 20)!;
    expect(desk.command({ type: 'enterResult', round: 1, white: game.white, black: game.black, result: '1-0', reason: 'scoresheets' }, 'IA')).toMatchObject({
      ok: true,
    });

    const page = await arbiterOn('regulations');
    const row = '#t-content[data-section="open"] #t-no-shows tr[data-no-show="1:20"]';
    await page.waitForSelector(`${row} button[data-t="no-show-withdraw"]`);
    // The tab says a decision waits.
    expect(await page.textContent('nav a[data-page="regulations"] .badge')).toBe('1');
    await page.fill('#t-reason', 'no message at the desk or by phone');
    await page.click(`${row} button[data-t="no-show-withdraw"]`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('withdrawn from round 2 on'), `${row} td:nth-child(3)`, {
      timeout: 10_000,
    });
    await page.waitForSelector('nav a[data-page="regulations"] .badge', { state: 'detached', timeout: 10_000 });
    expect(lastAction()).toMatchObject({
      section: 'open',
      action: { type: 'noShow', round: 1, player: 20, noNotification: true, fromRound: 2, reason: 'no message at the desk or by phone' },
    });
    expect(await page.textContent('#t-ratings')).toContain('ratings are assigned once round 4 is complete');

    // The loser appeals 10 minutes after his game ended, with the R200 fee; the committee upholds it.
    source.advance(10 * MIN);
    const appeals = '#t-content[data-section="open"] #t-appeals';
    expect(await page.textContent(appeals)).toContain('In writing within 30 minutes of the end of the game, with a fee of 200 returned if upheld.');
    await page.selectOption(`${appeals} select[name="player"]`, String(game.black));
    await page.fill(`${appeals} input[name="against"]`, 'the arbiter refused his claim');
    await page.click(`${appeals} button[data-t="lodge-appeal"]`);
    const a1 = `${appeals} tr[data-appeal="A1"]`;
    await page.waitForSelector(`${a1} input[name="committee"]`, { timeout: 10_000 });
    expect(lastAction()).toMatchObject({
      section: 'open',
      action: { type: 'appeal', id: 'A1', round: 1, player: game.black, against: 'the arbiter refused his claim', fee: 200 },
    });
    await page.fill('#t-reason', 'the claim was correct');
    await page.fill(`${a1} input[name="committee"]`, 'IA Chair, FA Member, b:1');
    await page.click(`${a1} button[data-t="appeal-upheld"]`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('200 returned'), a1, { timeout: 10_000 });
    expect(await page.textContent(a1)).toContain('upheld by IA Chair, FA Member, B player 01 (B Section): the claim was correct');
    expect(lastAction()).toMatchObject({
      action: { type: 'appealDecision', appeal: 'A1', upheld: true, committee: ['IA Chair', 'FA Member', 'B player 01 (B Section)'] },
    });
  }, 60_000);
});
