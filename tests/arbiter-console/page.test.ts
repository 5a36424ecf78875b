// The page in a real Chromium against a real console (server, journal file, bundled page).
import { describe, expect, it } from 'vitest';
import { consoleInChromium } from './browser.ts';
import { oneSectionConsole } from './fixtures.ts';

const rig = consoleInChromium(
  'page',
  () => oneSectionConsole({ boards: 5 }),
  ({ hall }) => {
    for (const id of hall.boards.keys()) {
      for (const side of ['white', 'black'] as const)
        hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    }
    expect(hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
  },
);

const clockOf = (board: string, side: 'white' | 'black') => `.board[data-board="${board}"] [data-clock="${side}"]`;

describe('arbiter console page', () => {
  it('shows every board with a ticking clock', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="5"]');
    const read = () => page.$$eval('.board', (cards) => cards.map((c) => c.querySelector('[data-side="white"] .clock')!.textContent));
    const first = await read();
    expect(first).toHaveLength(5);
    await page.waitForFunction(
      (before) => [...document.querySelectorAll('.board')].every((c, i) => c.querySelector('[data-side="white"] .clock')!.textContent !== before[i]),
      first,
      { timeout: 5_000 },
    );
    expect(await page.$$eval('.side.running', (els) => els.length)).toBe(5);
    await page.close();
  });

  it('shows a simulated press: the move number and the running side change', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="2"] .side.white.running');
    const at = rig.run.hall.source.now();
    rig.run.hall.record({ kind: 'clock', board: '2', event: { type: 'press', side: 'white', at, by: { kind: 'device', deviceId: 'test-sim' } } });
    await page.waitForSelector('.board[data-board="2"] .side.black.running', { timeout: 5_000 });
    expect(await page.textContent('.board[data-board="2"] [data-move]')).toBe('move 1');
    expect(await page.getAttribute('.board[data-board="2"] .side.white', 'class')).not.toContain('running');
    await page.close();
  });

  it('lets the arbiter add time through the page; the journal holds it', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="3"]');
    await page.focus('.board[data-board="3"]');
    await page.keyboard.press('Enter');
    const form = 'dialog[open] form[data-action="addTime"]';
    await page.selectOption(`${form} select[name="side"]`, 'black');
    await page.fill(`${form} input[name="minutes"]`, '2');
    await page.fill(`${form} input[name="seconds"]`, '0');
    await page.fill(`${form} input[name="reason"]`, 'Art. 12.5 noise from the next hall');
    await page.click(`${form} button[data-command="addTime"]`);
    // The answer shows in the panel, where the arbiter looks, and the panel stays open on the board.
    await page.waitForSelector('dialog[open] p.answer:has-text("done")', { timeout: 5_000 });
    const entries = [...rig.run.journal.entries()].map((e) => e.record);
    const added = entries.find((r) => r.kind === 'clock' && r.board === '3' && r.event.type === 'addTime');
    expect(added).toMatchObject({
      event: { type: 'addTime', side: 'black', ms: 120_000, reason: 'Art. 12.5 noise from the next hall', by: { kind: 'arbiter' } },
    });
    // Black is not running: 1:30:30 + 2:00, exactly.
    await page.keyboard.press('Escape');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === '1:32:30', clockOf('3', 'black'), { timeout: 5_000 });
    await page.close();
  });

  it("lets the arbiter set the board's position (FEN) from the panel; the journal holds it and the history shows it", async () => {
    const fen = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="4"]');
    await page.focus('.board[data-board="4"]');
    await page.keyboard.press('Enter');
    const form = 'dialog[open] form[data-action="setPosition"]';
    // Not a legal position: the console's refusal shows in the panel, nothing is journaled.
    await page.fill(`${form} input[name="fen"]`, '4k3/8/8/8/8/8/8/K3K3 w - - 0 1');
    await page.fill(`${form} input[name="reason"]`, 'a try');
    await page.click(`${form} button[data-command="setPosition"]`);
    await page.waitForSelector('dialog[open] p.answer.refused:has-text("not a legal position")', { timeout: 5_000 });
    await page.fill(`${form} input[name="fen"]`, fen);
    await page.fill(`${form} input[name="reason"]`, 'pieces knocked over and set up again');
    await page.click(`${form} button[data-command="setPosition"]`);
    await page.waitForSelector('dialog[open] p.answer:not(.refused):has-text("done")', { timeout: 5_000 });
    const set = [...rig.run.journal.entries()].map((e) => e.record).filter((r) => r.kind === 'clock' && r.board === '4' && r.event.type === 'boardPosition');
    expect(set).toHaveLength(1);
    expect(set[0]).toMatchObject({ event: { fen, plies: 0, by: { kind: 'arbiter' }, detail: 'set by the arbiter: pieces knocked over and set up again' } });
    await page.waitForSelector(`dialog[open] section.history li:has-text("position ${fen}")`, { timeout: 5_000 });
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('gives spectators no command controls, and the server refuses their commands', async () => {
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/spectator`);
    await page.waitForSelector('.board[data-board="1"]');
    expect(await page.textContent('#role')).toBe('spectator');
    expect(await page.$$('[data-command]')).toHaveLength(0);
    expect(await page.$$('[data-dismiss]')).toHaveLength(0);
    await page.click('.board[data-board="1"]');
    expect(await page.$('dialog[open]')).toBeNull();
    const answer = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          ws.onopen = () => {
            ws.send(JSON.stringify({ type: 'hello', role: 'spectator' }));
            ws.send(JSON.stringify({ type: 'command', id: 'x1', command: { type: 'pause', board: '1', reason: 'I am not the arbiter' } }));
          };
          ws.onmessage = (e) => {
            const m = JSON.parse(String(e.data)) as { type: string };
            if (m.type === 'refused') resolve(String(e.data));
          };
        }),
    );
    expect(JSON.parse(answer)).toEqual({ type: 'refused', id: 'x1', code: 'forbidden', reason: 'spectators cannot give commands' });
    expect(rig.run.hall.view('1')!.status).toBe('running');
    await page.close();
  });
});
