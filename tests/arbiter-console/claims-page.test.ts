// The players' claims and offers from the board panel in a real Chromium, on the SA Open 2009's B
// section (Laws 2009, Article 10.2): a 10.2 claim recorded, refused for the player not having the move
// (the code and the article shown in the panel), admitted for the one having it, postponed with two
// minutes to the opponent and then upheld; a draw offer recorded, declined, offered again and accepted.
// The console runs on an injected clock: White's clock stands at 1:40 on the claim's board.
import { describe, expect, it } from 'vitest';
import type { ClockEvent } from '../../clock-engine/index.ts';
import { manualSource } from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';

const event = presetEvent('sa-open-2009');
const [claimBoard, offerBoard] = hallBoardNumbers(event, 'b').map(String) as [string, string];

const rig = consoleInChromium(
  'claims-page',
  () => ({ event, firstRound: true, source: manualSource(0) }),
  ({ hall }) => {
    const source = hall.source as ReturnType<typeof manualSource>;
    expect(hall.command({ type: 'arriveAll' }, 'chief')).toMatchObject({ ok: true });
    expect(hall.command({ type: 'startAll', section: 'b' }, 'chief')).toMatchObject({ ok: true });
    for (const [side, at] of [
      ['white', 1_000],
      ['black', 2_000],
    ] as const) {
      source.set(at);
      hall.record({ kind: 'clock', board: claimBoard, event: { type: 'press', side, at, by: { kind: 'device', deviceId: 'test' } } });
    }
    // 7200: White's 7 199 000 from 2 000 runs down to 1:40.
    source.set(7_101_000);
  },
);

const events = (board: string, type: ClockEvent['type']): ClockEvent[] =>
  [...rig.run.journal.entries()].flatMap((e) =>
    e.record.kind === 'clock' && e.record.board === board && e.record.event.type === type ? [e.record.event] : [],
  );

async function openPanel(board: string) {
  const page = await rig.browser.newPage();
  await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
  await page.waitForSelector(`.board[data-board="${board}"]`);
  await page.focus(`.board[data-board="${board}"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`dialog[open][data-board="${board}"]`);
  return page;
}

describe('claims and offers from the board panel', () => {
  it('an Article 10.2 claim: refused with its code and article, admitted, postponed +2 min, upheld', async () => {
    const page = await openPanel(claimBoard);
    const claim = 'dialog[open] form[data-action="quickplayClaim"]';
    await page.selectOption(`${claim} select[name="side"]`, 'black');
    await page.click(`${claim} button[data-command="quickplayClaim"]`);
    const refused = await page.waitForSelector('dialog[open] p.answer.refused:has-text("claim-not-admitted")', { timeout: 5_000 });
    expect(await refused.textContent()).toContain('only the player having the move may claim (Laws 2009 Art. 10.2) [claim-not-admitted]');

    await page.selectOption(`${claim} select[name="side"]`, 'white');
    await page.click(`${claim} button[data-command="quickplayClaim"]`);
    const decision = 'dialog[open] form[data-action="quickplayDecision"]';
    await page.waitForSelector(decision, { timeout: 5_000 });
    expect(await page.textContent(`${decision} legend`)).toBe("White's draw claim: your decision");
    expect(rig.run.hall.view(claimBoard)).toMatchObject({ status: 'paused', quickplay: { side: 'white', status: 'pending' } });
    const black = rig.run.hall.boards.get(claimBoard)!.state.remainingMs.black;

    await page.selectOption(`${decision} select[name="decision"]`, 'postpone+2');
    await page.click(`${decision} button[data-command="quickplayDecision"]`);
    await page.waitForSelector(`${decision} legend:has-text("(postponed)")`, { timeout: 5_000 });
    expect(rig.run.hall.boards.get(claimBoard)!.state.remainingMs.black).toBe(black + 120_000);
    expect(rig.run.hall.view(claimBoard)!.status).toBe('running');

    await page.selectOption(`${decision} select[name="decision"]`, 'draw');
    await page.click(`${decision} button[data-command="quickplayDecision"]`);
    await page.click('dialog.ask button.danger');
    await page.waitForSelector('dialog[open] .panel-state .status:has-text("finished 1/2-1/2")', { timeout: 5_000 });
    expect(rig.run.hall.view(claimBoard)!.result).toEqual({ result: '1/2-1/2', termination: 'Laws 2009 Art. 10.2 claim upheld' });
    expect(events(claimBoard, 'quickplayDecision')).toMatchObject([
      { decision: 'postpone', extraTime: true, by: { kind: 'arbiter', credential: 'chief' } },
      { decision: 'draw', by: { kind: 'arbiter', credential: 'chief' } },
    ]);
    await page.close();
  });

  it('a draw offer: recorded, declined, offered again and accepted', async () => {
    const page = await openPanel(offerBoard);
    const offer = 'dialog[open] form[data-action="drawOffer"]';
    await page.selectOption(`${offer} select[name="side"]`, 'white');
    await page.click(`${offer} button[data-command="drawOffer"]`);
    const decline = 'dialog[open] form[data-action="drawDecline"]';
    await page.waitForSelector(decline, { timeout: 5_000 });
    expect(await page.textContent('dialog[open] form[data-action="drawAccept"] legend')).toBe('White offers a draw: Black…');
    await page.click(`${decline} button[data-command="drawDecline"]`);
    await page.waitForSelector(decline, { state: 'detached', timeout: 5_000 });
    expect(events(offerBoard, 'drawDecline')).toMatchObject([{ side: 'black' }]);

    await page.click(`${offer} button[data-command="drawOffer"]`);
    await page.click('dialog[open] form[data-action="drawAccept"] button[data-command="drawAccept"]');
    await page.waitForSelector('dialog[open] .panel-state .status:has-text("finished 1/2-1/2")', { timeout: 5_000 });
    expect(rig.run.hall.view(offerBoard)!.result).toEqual({ result: '1/2-1/2', termination: 'agreement' });
    await page.close();
  });
});
