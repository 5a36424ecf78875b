import { afterEach, describe, expect, it } from 'vitest';
import type { ClockDevice, DeviceListener, DeviceMessage } from '../../device-bridge/index.ts';
import { readPgnGames, type GameState } from '../../clock-engine/index.ts';
import { boardPgn } from '../../arbiter-console/internal.ts';
import { Chess } from 'chess.js';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { MIN, cairnsRound, press, startAll, testHall, type TestHall } from './fixtures.ts';

let t: TestHall;
afterEach(() => t?.cleanup());

describe('playing hall', () => {
  it('keeps exact clocks from journaled presses (Fischer 30 s credited for the next move at the press, as a DGT does)', () => {
    t = testHall();
    startAll(t, 10_000);
    expect(t.hall.view('1')!.remainingMs).toEqual({ white: 5_430_000, black: 5_430_000 });
    press(t, '1', 'white', 20_000, 'e4');
    expect(t.hall.view('1')!.remainingMs).toEqual({ white: 5_450_000, black: 5_430_000 });
    press(t, '1', 'black', 35_000, 'e5');
    const v = t.hall.view('1')!;
    expect(v.remainingMs).toEqual({ white: 5_450_000, black: 5_445_000 });
    expect(v.toMove).toBe('white');
    expect(v.moveNumber).toBe(2);
    expect(t.hall.boards.get('1')!.remainingAt(45_000)).toEqual({ white: 5_440_000, black: 5_445_000 });
  });

  it('journals an arbiter command before acknowledging it, and refuses unknown boards clearly', () => {
    t = testHall();
    startAll(t, 10_000);
    t.source.set(60_000);
    const before = t.journal.count();
    const ok = t.hall.command({ type: 'addTime', board: '2', side: 'black', ms: 2 * MIN, reason: 'external disturbance' }, 'IA Smith');
    expect(ok.ok).toBe(true);
    const last = [...t.journal.entries(before)].map((e) => e.record);
    expect(last).toEqual([
      {
        kind: 'clock',
        board: '2',
        event: { type: 'addTime', at: 60_000, by: { kind: 'arbiter', name: 'IA Smith' }, side: 'black', ms: 120_000, reason: 'external disturbance' },
      },
    ]);
    expect(ok.ok && ok.journalSeq).toBe(t.journal.count());
    expect(t.hall.view('2')!.remainingMs.black).toBe(5_550_000);
    const refused = t.hall.command({ type: 'pause', board: '99', reason: 'x' }, 'IA Smith');
    expect(refused).toEqual({ ok: false, code: 'unknown-board', reason: "unknown board '99' (boards: 1, 2, 3)" });
    expect(t.journal.count()).toBe(before + 1);
  });

  it('does not apply a command whose journal write fails', () => {
    t = testHall();
    startAll(t, 10_000);
    const state = t.hall.view('1');
    t.journal.close();
    expect(() => t.hall.command({ type: 'addTime', board: '1', side: 'white', ms: 60_000, reason: 'r' }, 'a')).toThrow();
    expect(t.hall.view('1')).toEqual(state);
  });

  it('starts every clock at the exact scheduled instant', () => {
    t = testHall(cairnsRound(2, 50_000));
    t.source.set(20_000);
    expect(t.hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
    expect(t.hall.startAt).toBe(50_000);
    t.source.set(49_999);
    for (const v of t.hall.views()) expect(v.status).toBe('waiting');
    t.source.set(50_040);
    for (const v of t.hall.views()) expect([v.status, v.asOf]).toEqual(['running', 50_000]);
    expect(t.hall.command({ type: 'startAll' }, 'chief')).toEqual({ ok: false, code: 'already-started', reason: 'the round start is already set' });
  });

  it('journals a flag fall at its exact deadline and puts it in the attention queue', () => {
    t = testHall(cairnsRound(1));
    startAll(t, 10_000);
    t.hall.command({ type: 'setTime', board: '1', side: 'white', ms: 5_000, reason: 'test' }, 'a');
    t.source.set(10_000 + 5_000 + 37);

    const flag = [...t.journal.entries()].map((e) => e.record).find((r) => r.kind === 'clock' && r.event.type === 'flag');
    expect(flag).toMatchObject({ event: { type: 'flag', side: 'white', at: 15_000 } });
    expect(t.hall.view('1')!.flag).toEqual({ side: 'white', at: 15_000 });
    expect(t.hall.attention().map((a) => [a.board, a.code, a.side])).toContainEqual(['1', 'flag-fall', 'white']);
  });

  it('shows a late player until they arrive', () => {
    t = testHall(cairnsRound(1));
    t.hall.record({ kind: 'clock', board: '1', event: { type: 'arrive', side: 'white', at: 0, by: { kind: 'player', side: 'white' } } });
    t.source.set(10_000);
    t.hall.record({ kind: 'clock', board: '1', event: { type: 'start', at: 10_000, by: { kind: 'system' } } });
    expect(t.hall.attention().map((a) => [a.code, a.side])).toEqual([['late-player', 'black']]);
    t.source.set(70_000);
    expect(t.hall.command({ type: 'arriveAll' }, 'a')).toMatchObject({ ok: true });
    expect(t.hall.attention()).toEqual([]);
    expect(t.hall.view('1')!.arrived).toEqual({ white: true, black: true });
    expect(t.hall.command({ type: 'arriveAll' }, 'a')).toEqual({ ok: false, code: 'nothing-to-do', reason: 'every player is already marked present' });
  });

  it('rebuilds every board from the journal; the running clock kept running while the host was down', () => {
    t = testHall();
    startAll(t, 10_000);
    press(t, '1', 'white', 20_000, 'd4');
    t.source.set(30_000);
    t.hall.command({ type: 'pause', board: '2', reason: 'toilet break dispute' }, 'a');
    t.hall.command({ type: 'penalty', board: '3', offender: 'white', offence: 'illegal-move', reason: 'Art. 7.5.5' }, 'a');
    const before = t.hall.views();
    const hall = t.reopen(90_000);
    const after = hall.views();
    for (const [i, view] of after.entries()) {
      const old = before[i]!;
      expect({ ...view, version: 0, asOf: 0, remainingMs: null }).toEqual({ ...old, version: 0, asOf: 0, remainingMs: null });
    }
    // Board 1: Black's clock ran through the downtime (since 20 000); paused board 2 lost nothing.
    expect(hall.boards.get('1')!.remainingAt(90_000)).toEqual({ white: 5_450_000, black: 5_430_000 - 70_000 });
    expect(hall.boards.get('2')!.remainingAt(90_000)).toEqual(before[1]!.remainingMs);
    const notes = [...t.journal.entries()].filter((e) => e.record.kind === 'note' && e.record.note.type === 'downtime');
    expect(notes.map((e) => e.record.kind === 'note' && e.record.board)).toEqual(['1', '3']);
  });

  it('writes live PGN with [%clk], [%emt], clock tags and arbiter corrections', () => {
    t = testHall(cairnsRound(1));
    startAll(t, 10_000);
    press(t, '1', 'white', 25_000, 'e4');
    press(t, '1', 'black', 40_000, 'c5');
    t.source.set(50_000);
    t.hall.command({ type: 'addTime', board: '1', side: 'black', ms: 120_000, reason: 'noise' }, 'IA Smith');
    const pgn = boardPgn(t.hall.round, t.hall.boards.get('1')!, 55_000);
    expect(pgn).toContain('[TimeControl "40/5400+30:1800+30"]');
    // White to move since 40 000: 1:30:45 - 15 s. Black: 1:30:45 + 2:00.
    expect(pgn).toContain('[WhiteClock "1:30:30"]');
    expect(pgn).toContain('[BlackClock "1:32:45"]');
    // One comment per ply: the clock, then the arbiter's notes.
    expect(pgn.replace(/\s+/g, ' ')).toContain(
      '1. e4 {[%clk 1:30:45] [%emt 0:00:15]} c5 {[%clk 1:30:45] [%emt 0:00:15]; Arbiter IA Smith: +0:02:00 to black (noise)}',
    );
    expect(pgn.trim().endsWith('*')).toBe(true);
    expect(chessJsRejects(pgn)).toBe('');
    expect(pgnExtractRejects(pgn)).toBe('');
  });

  it('escapes every free text in the live PGN: a reason cannot forge a tag, a comment or a [%clk]', () => {
    const forged = '\n[Result "0-1"]\n{x}';
    t = testHall(cairnsRound(1));
    startAll(t, 10_000);
    t.source.set(15_000);
    t.hall.command({ type: 'addTime', board: '1', side: 'white', ms: 60_000, reason: `before any move${forged}` }, 'IA Smith');
    press(t, '1', 'white', 25_000, 'e4');
    press(t, '1', 'black', 40_000, 'c5');
    t.source.set(50_000);
    t.hall.command({ type: 'addTime', board: '1', side: 'black', ms: 120_000, reason: `noise${forged} [%clk 0:00:01]\r\u2028[Result "1-0"]` }, 'IA Smith');
    const pgn = boardPgn(t.hall.round, t.hall.boards.get('1')!, 55_000);
    expect(
      pgn
        .split('\n\n')[1]!
        .split('\n')
        .filter((l) => l.startsWith('[')),
    ).toEqual([]);
    expect(pgn).toContain('{Arbiter IA Smith: +0:01:00 to white (before any move [Result "0-1"] x)}');
    expect(pgn.replace(/\s+/g, ' ')).toContain(
      'c5 {[%clk 1:30:45] [%emt 0:00:15]; Arbiter IA Smith: +0:02:00 to black (noise [Result "0-1"] x [ %clk 0:00:01] [Result "1-0"])} *',
    );
    expect(chessJsRejects(pgn)).toBe('');
    expect(pgnExtractRejects(pgn)).toBe('');
    const chess = new Chess();
    chess.loadPgn(pgn);
    expect(chess.history()).toEqual(['e4', 'c5']);
    expect(chess.getHeaders()).toMatchObject({ Result: '*', White: 'White 1' });
    const games = readPgnGames(pgn);
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({ result: '*', tags: { Result: '*', White: 'White 1' } });
    // The forged [%clk 0:00:01] is no clock: each ply keeps the console's own.
    expect(games[0]!.plies.map((p) => [p.san, p.clockMs])).toEqual([
      ['e4', 5_505_000],
      ['c5', 5_445_000],
    ]);
  });

  it('escapes the tag values: a line break in a name or the event cannot start a tag, quotes and backslashes are escaped', () => {
    const round = cairnsRound(1);
    t = testHall({ ...round, event: 'Cup "A" \\ B\r\n[Result "1-0"]', boards: [{ ...round.boards[0]!, white: 'White\n[Result "0-1"]\n{x}' }] });
    startAll(t, 10_000);
    press(t, '1', 'white', 25_000, 'e4');
    const pgn = boardPgn(t.hall.round, t.hall.boards.get('1')!, 30_000);
    const [header] = pgn.split('\n\n');
    expect(header!.split('\n').every((l) => /^\[\w+ "(?:[^"\\]|\\.)*"\]$/.test(l))).toBe(true);
    expect(header).toContain('[Event "Cup \\"A\\" \\\\ B  [Result \\"1-0\\"]"]');
    expect(header).toContain('[White "White [Result \\"0-1\\"] {x}"]');
    // chess.js 1.x reads no escaped quote in a tag value (the PGN standard's \"), so pgn-extract and ours judge these.
    expect(pgnExtractRejects(pgn)).toBe('');
    const games = readPgnGames(pgn);
    expect(games).toHaveLength(1);
    expect(games[0]).toMatchObject({ result: '*', tags: { Result: '*', Event: 'Cup "A" \\ B  [Result "1-0"]', White: 'White [Result "0-1"] {x}' } });
    expect(games[0]!.plies.map((p) => p.san)).toEqual(['e4']);
  });

  it('keeps the live PGN valid at every instant: presses before their moves, takebacks, re-reads, pauses', () => {
    t = testHall(cairnsRound(1));
    startAll(t, 10_000);
    const by = { kind: 'device', deviceId: 'dgt:1' } as const;
    const pgns: string[] = [];
    const at = (ms: number) => {
      t.source.set(ms);
      pgns.push(boardPgn(t.hall.round, t.hall.boards.get('1')!, ms, 1_700_000_000_000 + ms));
    };
    const chess = (san: string) => {
      const line = t.hall.boards.get('1')!.line;
      const c = new Chess(line.fen);
      for (const m of line.plies) c.move(m.san);
      c.move(san);
      return c.fen();
    };
    const record = (ms: number, event: Record<string, unknown>) => {
      t.source.set(ms);
      t.hall.record({ kind: 'clock', board: '1', event: { at: ms, by, ...event } as never });
      at(ms);
    };
    // A mirrored clock: the press comes before the board has read the move.
    record(20_000, { type: 'press', side: 'white' });
    expect(pgns.at(-1)!.split('\n\n')[1]!.trim()).toBe('*');
    expect(pgns.at(-1)).toMatch(/\[ReferenceTime "B\/2023-11-14T22:13:40\.000Z"\]/);
    record(20_500, { type: 'boardMove', side: 'white', san: 'e4', fen: chess('e4') });
    record(30_000, { type: 'boardMove', side: 'black', san: 'e5', fen: chess('e5') });
    record(30_100, { type: 'press', side: 'black' });
    record(40_000, { type: 'press', side: 'white' });
    record(40_300, { type: 'boardMove', side: 'white', san: 'Nf3', fen: chess('Nf3') });
    // The board took the knight back and played another move.
    record(41_000, { type: 'boardPosition', plies: -1, fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', detail: 'takeback' });
    record(41_500, { type: 'boardMove', side: 'white', san: 'Nc3', fen: chess('Nc3') });
    t.source.set(42_000);
    t.hall.command({ type: 'pause', board: '1', reason: 'noise' }, 'IA Smith');
    at(42_000);
    t.hall.command({ type: 'addTime', board: '1', side: 'black', ms: 60_000, reason: 'noise' }, 'IA Smith');
    t.hall.command({ type: 'resume', board: '1' }, 'IA Smith');
    at(43_000);
    // The board lost track; it was re-read and the game goes on from there.
    const reread = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 3 3';
    record(60_000, { type: 'boardPosition', plies: 2, fen: reread, detail: 'no legal moves lead there' });
    record(61_000, { type: 'boardMove', side: 'black', san: 'Nf6', fen: chess('Nf6') });
    record(61_100, { type: 'press', side: 'black' });
    for (const pgn of pgns) {
      expect(chessJsRejects(pgn)).toBe('');
      expect(pgnExtractRejects(pgn)).toBe('');
    }
    const last = pgns.at(-1)!.replace(/\s+/g, ' ');
    expect(last).toContain(`[FEN "${reread}"]`);
    expect(last).toContain('{moves read before: e4 e5 Nc3');
    expect(last).toContain('3... Nf6 {[%clk 1:31:58] [%emt 0:00:21]}');
    expect(pgns.find((p) => p.includes('Nc3'))!.replace(/\s+/g, ' ')).toContain('board: Nf3 taken back (takeback)');
    expect(pgns.at(-4)!.replace(/\s+/g, ' ')).toContain(
      'Arbiter IA Smith: clock paused (noise); Arbiter IA Smith: +0:01:00 to black (noise); Arbiter IA Smith: clock resumed',
    );
  });

  it('puts device notices in the attention queue: arbiter call, silent board, a disagreeing clock', () => {
    t = testHall(cairnsRound(2));
    const listeners = new Set<DeviceListener>();
    const shown: GameState[] = [];
    const device: ClockDevice = {
      boardId: '2',
      kind: 'dgt',
      role: 'mirror',
      subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
      show: (state) => void shown.push(state),
      notify: () => {},
      open: async () => {},
      close: async () => {},
    };
    const emit = (m: DeviceMessage) => listeners.forEach((l) => l(m));
    t.hall.attachDevice(device);
    expect(() => t.hall.attachDevice({ ...device, boardId: '9' })).toThrow("unknown board '9'");
    startAll(t, 10_000);
    t.source.set(20_000);
    emit({ type: 'arbiterCall', at: 20_000, detail: 'result signal on the board' });
    emit({ type: 'connection', state: 'silent', detail: 'no clock message for 3000 ms' });
    // A mirrored press whose reading is 5 s away from the console's time for Black.
    emit({
      type: 'clockEvent',
      event: { type: 'press', side: 'white', at: 21_000, by: { kind: 'device', deviceId: 'dgt:2' }, reading: { white: 5_419_000 + 30_000, black: 5_425_000 } },
    });
    const codes = t.hall.attention().map((a) => [a.board, a.code]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['2', 'arbiter-call'],
        ['2', 'silent-board'],
        ['2', 'clock-disagrees'],
      ]),
    );
    expect(t.hall.view('2')!.device).toEqual({ kind: 'dgt', connection: 'silent' });
    expect(shown.at(-1)?.presses.white).toBe(1);
    emit({ type: 'connection', state: 'connected' });
    expect(t.hall.attention().map((a) => a.code)).not.toContain('silent-board');
    const call = t.hall.attention().find((a) => a.code === 'arbiter-call')!;
    expect(t.hall.command({ type: 'dismiss', alertId: call.id }, 'chief')).toMatchObject({ ok: true });
    expect(t.hall.attention().map((a) => a.code)).not.toContain('arbiter-call');
    expect(t.hall.command({ type: 'dismiss', alertId: call.id }, 'chief')).toEqual({ ok: false, code: 'unknown-alert', reason: `no open alert '${call.id}'` });
    // Every one of those device messages is in the journal.
    const notes = [...t.journal.entries()].flatMap((e) => (e.record.kind === 'note' ? [e.record.note.type] : []));
    expect(notes).toEqual(['arbiterCall', 'connection', 'connection', 'dismiss']);
  });

  it("detaching a board's last device leaves the next one that took its place (a new round's, attached before the old one stops)", () => {
    t = testHall(cairnsRound(2));
    const shown: string[] = [];
    const device = (name: string): ClockDevice => ({
      boardId: '2',
      kind: 'dgt',
      role: 'host',
      subscribe: () => () => {},
      show: () => void shown.push(name),
      notify: () => {},
      open: async () => {},
      close: async () => {},
    });
    const detachOld = t.hall.attachDevice(device('old'));
    t.hall.attachDevice(device('new'));
    detachOld();
    startAll(t, 10_000);
    expect(shown).toContain('new');
    expect(shown).not.toContain('old');
  });

  it("applies another journal's entries read together (a batch from the bus) in order, and tells the listeners once, of every board", () => {
    t = testHall();
    const changes: { boards: readonly string[]; key: boolean }[] = [];
    t.hall.subscribe((c) => changes.push({ boards: c.boards, key: c.key }));
    const ids = [...t.hall.boards.keys()];
    const records = [
      ...ids.flatMap((board) =>
        (['white', 'black'] as const).map((side) => ({
          kind: 'clock' as const,
          board,
          event: { type: 'arrive' as const, side, at: 0, by: { kind: 'player' as const, side } },
        })),
      ),
      ...ids.map((board) => ({ kind: 'clock' as const, board, event: { type: 'start' as const, at: 10_000, by: { kind: 'system' as const } } })),
    ];
    t.source.set(10_000);
    t.hall.batch(() => records.forEach((record, i) => t.hall.receive({ source: 'h1', sourceSeq: i + 1, wallMs: 1_000 + i, record })));
    expect(changes).toHaveLength(1);
    expect([...changes[0]!.boards].sort()).toEqual([...ids].sort());
    expect(ids.map((id) => t.hall.view(id)!.status)).toEqual(ids.map(() => 'running'));
    const copied = [...t.journal.entries()].filter((e) => e.source === 'h1');
    expect(copied.map((e) => e.sourceSeq)).toEqual(records.map((_, i) => i + 1));
    // Outside a batch each entry is told on its own, as before.
    t.hall.receive({
      source: 'h1',
      sourceSeq: records.length + 1,
      wallMs: 9_000,
      record: { kind: 'clock', board: ids[0]!, event: { type: 'press', side: 'white', at: 12_000, by: { kind: 'device', deviceId: 'h1' } } },
    });
    expect(changes).toHaveLength(2);
    expect(changes[1]!.boards).toEqual([ids[0]]);
  });
});
