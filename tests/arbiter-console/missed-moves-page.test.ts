// The page in a real Chromium: a board whose clock keeps the time and cannot be heard shows "clock
// unreachable" and its item in the queue; the board's panel enters the moves the board did not read
// (the Missed moves form, enterMissedMoves), refused with the console's answer where they do not fit,
// and the live PGN is then the whole game.
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { parseDeviceSpec } from '../../arbiter-console/internal.ts';
import { consoleInChromium } from './browser.ts';
import { oneSectionConsole } from './fixtures.ts';

// After 1. e4 e5 2. Nf3 Nc6: where the pieces stand when the board could not read 2. Nf3 Nc6.
const FEN = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

const rig = consoleInChromium(
  'missed-moves-page',
  // Board 2's DGT clock keeps the time (mirrored); its port does not exist, so the board stays unheard.
  () => ({ ...oneSectionConsole({ boards: 2 }), devices: [parseDeviceSpec('2=dgt:/nonexistent/zeitnot-test-tty')] }),
  ({ hall }) => {
    for (const id of hall.boards.keys()) {
      for (const side of ['white', 'black'] as const)
        hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    }
    expect(hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
  },
);

describe('the page: clock unreachable, and the missed moves entered from the panel', () => {
  it('shows "clock unreachable" on a board whose clock keeps the time and cannot be heard, with its queue item', async () => {
    const hall = rig.run.hall;
    expect(hall.boards.get('2')!.config.timekeeper).toBe('device');
    hall.record({ kind: 'clock', board: '2', event: { type: 'clockUnreachable', at: hall.source.now(), by: { kind: 'device', deviceId: 'dgt:2' } } });
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="2"] [data-clock-unreachable]', { timeout: 5_000 });
    expect(await page.textContent('.board[data-board="2"] [data-clock-unreachable]')).toBe('clock unreachable');
    expect(await page.$('.board[data-board="1"] [data-clock-unreachable]')).toBeNull();
    expect(
      hall
        .attention()
        .filter((a) => a.code === 'clock-unreachable')
        .map((a) => a.board),
    ).toEqual(['2']);
    await page.close();
  });

  it('enters the moves the board did not read: a list that does not reach the position is refused, the right one makes the PGN whole', async () => {
    const hall = rig.run.hall;
    const at = hall.source.now();
    const board = { kind: 'device', deviceId: 'dgt:1' } as const;
    hall.record({ kind: 'clock', board: '1', event: { type: 'boardMove', side: 'white', san: 'e4', at, by: board } });
    hall.record({ kind: 'clock', board: '1', event: { type: 'boardMove', side: 'black', san: 'e5', at, by: board } });
    expect(hall.command({ type: 'setPosition', board: '1', fen: FEN, reason: 'the board missed two moves' }, 'chief')).toMatchObject({ ok: true });
    const page = await rig.browser.newPage();
    await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
    await page.waitForSelector('.board[data-board="1"]');
    await page.focus('.board[data-board="1"]');
    await page.keyboard.press('Enter');
    const form = 'dialog[open] form[data-action="enterMissedMoves"]';
    await page.fill(`${form} input[name="moves"]`, '2. Nf3 Nf6');
    await page.click(`${form} button[data-command="enterMissedMoves"]`);
    await page.waitForSelector('dialog[open] p.answer.refused:has-text("not to the position the board re-read")', { timeout: 5_000 });
    await page.fill(`${form} input[name="moves"]`, '2. Nf3 Nc6');
    await page.click(`${form} button[data-command="enterMissedMoves"]`);
    await page.waitForSelector('dialog[open] p.answer:not(.refused):has-text("done")', { timeout: 5_000 });
    const notes = [...rig.run.journal.entries()].map((e) => e.record).filter((r) => r.kind === 'note' && r.note.type === 'missedMoves');
    expect(notes).toMatchObject([{ board: '1', note: { type: 'missedMoves', moves: ['Nf3', 'Nc6'], credential: 'chief' } }]);
    // The form leaves the panel with the stretch it filled.
    await page.waitForSelector(form, { state: 'detached', timeout: 5_000 });
    const pgn = await (await fetch(`${rig.run.url}/api/pgn`)).text();
    const game = pgn.split(/\n\n(?=\[Event )/).find((g) => g.includes('[Board "1"]'))!;
    expect(game).not.toContain('[FEN');
    const chess = new Chess();
    chess.loadPgn(game);
    expect(chess.history()).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);
    await page.keyboard.press('Escape');
    await page.close();
  });
});
