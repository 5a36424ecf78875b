// Desk and clock agree: a clock result that contradicts the result entered on the desk raises an
// alert (journaled once), and the arbiter keeps one of the two: the
// entered result (a correction on the board: the PGN's result) or the clock's (the desk's result
// corrected, in the crosstable's history). Where it arises: a journal replayed with the clock's result
// after a different entered one, and a console on the bus whose hall host's clock ends the game after
// the desk's entry (the host's entry received as the bus delivers it, hall.receive).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boardHistory, boardPgn, Journal, PlayingHall, startConsole, type JournalRecord } from '../../arbiter-console/internal.ts';
import { launchChromium } from './browser.ts';
import { smallRoundRobin, testDesk, type TestDesk } from './tournament-fixtures.ts';

let t: TestDesk | undefined;
const cleanups: (() => void)[] = [];
afterEach(() => {
  t?.cleanup();
  t = undefined;
  for (const c of cleanups.splice(0)) c();
});

const event = smallRoundRobin();
const notes = (journal: Journal, type: string) =>
  [...journal.entries(0, 'note')].filter((e) => e.record.kind === 'note' && e.record.note.type === type).map((e) => e.record);
const conflicts = (hall: PlayingHall) => hall.attention().filter((a) => a.code === 'result-contradicts');

describe('a clock result that contradicts the entered one', () => {
  it('replayed from a journal: alerted once (a journaled note), kept as entered by the arbiter (the PGN follows the desk)', () => {
    t = testDesk(event);
    t.source.set(60_000);
    // Board 2's clock ends the game 0-1; the journal also holds a desk result of 1-0 for it that no
    // correction note went with (as a journal merged from two machines can have it).
    expect(t.hall.command({ type: 'result', board: '2', result: '0-1', termination: 'White resigned' }, 'board')).toMatchObject({ ok: true });
    t.hall.record({
      kind: 'tournament',
      section: 'main',
      at: 61_000,
      action: {
        type: 'result',
        round: 1,
        white: 2,
        black: 3,
        result: '1-0',
        source: 'arbiter',
        termination: 'arbiter',
        reason: 'scoresheets: Black resigned',
        by: 'IA Smith',
      },
    });
    expect(conflicts(t.hall)).toEqual([]);

    t.reopen(70_000);
    let desk = t.desk;
    const alert = {
      board: '2',
      code: 'result-contradicts',
      at: 70_000,
      message: 'the clock ended the game 0-1, the desk has 1-0 (entered by IA Smith): keep one of them',
    };
    expect(conflicts(t.hall)).toEqual([{ id: '2:result-contradicts:-:70000', ...alert }]);
    expect(notes(t.journal, 'resultConflict')).toEqual([
      { kind: 'note', board: '2', note: { type: 'resultConflict', at: 70_000, clock: '0-1', entered: '1-0', by: 'IA Smith' } },
    ]);
    // The desk counts its entered result meanwhile; a restart raises nothing twice.
    expect(desk.view('spectator').rounds[0]!.games[1]).toMatchObject({ result: '1-0', source: 'arbiter' });
    t.reopen(80_000);
    desk = t.desk;
    expect(notes(t.journal, 'resultConflict')).toHaveLength(1);
    expect(conflicts(t.hall)).toHaveLength(1);

    expect(desk.command({ type: 'resolveResultConflict', round: 1, white: 1, black: 4, keep: 'entered', reason: 'r' }, 'IA Jones')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no contradiction'),
    });
    expect(
      desk.command({ type: 'resolveResultConflict', round: 1, white: 2, black: 3, keep: 'entered', reason: 'both scoresheets signed 1-0' }, 'IA Jones'),
    ).toMatchObject({ ok: true });
    expect(conflicts(t.hall)).toEqual([]);
    const board = t.hall.boards.get('2')!;
    expect(board.state.result?.result).toBe('0-1'); // the clock's record is never rewritten
    const pgn = boardPgn(t.hall.round, board, t.source.now()).replace(/\s+/g, ' ');
    expect(pgn).toContain('[Result "1-0"]');
    expect(pgn).toContain("result corrected to 1-0 by IA Jones: the desk's 1-0 kept over the clock's 0-1: both scoresheets signed 1-0 (the clock had 0-1)");
    expect(boardHistory(t.journal, '2').at(-1)).toMatchObject({ by: 'IA Jones', what: 'result corrected to 1-0' });
    // Settled for good: a restart raises it no more.
    t.reopen(90_000);
    expect(conflicts(t.hall)).toEqual([]);
    expect(notes(t.journal, 'resultConflict')).toHaveLength(1);
  });

  it("on the bus: the hall host's clock result after the console's desk entry is alerted at once; taking the clock's result corrects the desk's", async () => {
    // A console on the bus owns no board: its hall hosts run the clocks.
    t = testDesk(event, { hall: { owns: () => false } });
    const { source, hall, journal, desk } = t;
    source.set(30_000);
    expect(
      desk.command({ type: 'enterResult', round: 1, white: 2, black: 3, result: '1-0', reason: 'the players reported Black resigned' }, 'IA Smith'),
    ).toMatchObject({ ok: true });
    expect(hall.boards.get('2')!.state.status).not.toBe('finished'); // not this console's clock to end

    // The host's clock ends the game the other way round.
    source.set(31_000);
    const fromHost: JournalRecord = {
      kind: 'clock',
      board: '2',
      event: { type: 'result', result: '0-1', termination: 'White resigned on the board', at: 30_500, by: { kind: 'device', deviceId: 'host-a:2' } },
    };
    hall.receive({ source: 'host-a', sourceSeq: 1, wallMs: 0, record: fromHost });
    await new Promise((r) => setImmediate(r));
    expect(conflicts(hall)).toEqual([
      {
        id: '2:result-contradicts:-:31000',
        board: '2',
        code: 'result-contradicts',
        at: 31_000,
        message: 'the clock ended the game 0-1, the desk has 1-0 (entered by IA Smith): keep one of them',
      },
    ]);
    expect(notes(journal, 'resultConflict')).toHaveLength(1);

    source.set(32_000);
    expect(
      desk.command({ type: 'resolveResultConflict', round: 1, white: 2, black: 3, keep: 'clock', reason: 'White did resign: the board shows it' }, 'IA Jones'),
    ).toMatchObject({ ok: true });
    await new Promise((r) => setImmediate(r));
    expect(conflicts(hall)).toEqual([]);
    expect(desk.view('spectator').rounds[0]!.games[1]).toMatchObject({ result: '0-1', source: 'arbiter' });
    expect(desk.view('spectator').corrections).toEqual([
      {
        round: 1,
        white: { id: 2, name: 'Cairns player 02' },
        black: { id: 3, name: 'Cairns player 03' },
        from: '1-0',
        to: '0-1',
        by: 'IA Jones',
        reason: 'White did resign: the board shows it',
        at: 32_000,
      },
    ]);
    expect(notes(journal, 'resultConflict')).toHaveLength(1);
    expect(notes(journal, 'dismiss')).toEqual([{ kind: 'note', board: '2', note: { type: 'dismiss', at: 32_000, alertId: '2:result-contradicts:-:31000' } }]);
  });

  it('on the Pairings page (Chromium): the contradiction is shown with both results, and the arbiter keeps the entered one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-conflict-page-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startConsole({ dataDir, port: 0, noPage: true, event, firstRound: true });
    const token = first.newToken!;
    expect(first.hall.command({ type: 'result', board: '2', result: '0-1', termination: 'White resigned' }, 'board')).toMatchObject({ ok: true });
    first.hall.record({
      kind: 'tournament',
      section: 'main',
      at: first.hall.source.now(),
      action: { type: 'result', round: 1, white: 2, black: 3, result: '1-0', source: 'arbiter', termination: 'arbiter', reason: 'scoresheets', by: 'IA Smith' },
    });
    await first.stop();
    const run = await startConsole({ dataDir, port: 0 });
    const browser = await launchChromium();
    try {
      expect(conflicts(run.hall)).toHaveLength(1);
      const page = await browser.newPage();
      await page.goto(`${run.url}/#token=${token}`);
      await page.waitForSelector('nav a[data-page="pairings"]');
      await page.click('nav a[data-page="pairings"]');
      const row = 'tr[data-round="1"][data-board="2"]';
      await page.waitForSelector(`${row} .conflict`, { timeout: 10_000 });
      expect((await page.textContent(`${row} .conflict`))!.replace(/\s+/g, ' ').trim()).toBe("the clock ended it 0-1 Keep 1-0 Take the clock's 0-1");
      await page.fill('#t-reason', 'both scoresheets signed 1-0');
      await page.click(`${row} button[data-t="keep-entered"]`);
      await page.waitForSelector(`${row} .conflict`, { state: 'detached', timeout: 10_000 });
      expect(conflicts(run.hall)).toEqual([]);
      expect(run.hall.boards.get('2')!.correctedResult).toBe('1-0');
      expect(notes(run.journal, 'correction').at(-1)).toMatchObject({
        note: { result: '1-0', reason: "the desk's 1-0 kept over the clock's 0-1: both scoresheets signed 1-0" },
      });
    } finally {
      await browser.close();
      await run.stop();
    }
  }, 60_000);
});
