// The DGT device as the console sees it (ClockDevice), over binding-mock on simulated time: faults the
// virtual board injects become the right device messages.
import { Chess } from 'chess.js';
import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { createDgtDevice, type DeviceMessage } from '../../device-bridge/index.ts';
import { gameConfig, replayGame, type ClockEvent } from '../../clock-engine/internal.ts';
import { createManualScheduler, createVirtualGame, mockBoardLink, playOnDgtBoard, VirtualDgtBoard } from '../../simulators/internal.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  SerialPortMock.binding.reset();
});

async function rig(role: 'mirror' | 'host' = 'mirror') {
  const scheduler = createManualScheduler(0);
  const board = new VirtualDgtBoard({ scheduler, leftMs: 60_000, rightMs: 60_000, ackDelayMs: 100 });
  const link = mockBoardLink(board);
  const device = createDgtDevice({ boardId: '7', role, path: link.path, binding: link.binding, scheduler, stableMs: 300 });
  const messages: DeviceMessage[] = [];
  device.subscribe((m) => messages.push(m));
  cleanups.push(
    () => device.close(),
    () => board.dispose(),
  );
  const sync = () => until(() => device.session.stats.bytesReceived === board.bytesSent && board.bytesReceived === device.session.stats.bytesSent, 'I/O');
  const advance = async (ms: number) => {
    await sync();
    for (let left = ms; left > 0; left -= 100) {
      scheduler.advanceBy(Math.min(100, left));
      await sync();
    }
  };
  await device.open();
  await advance(100);
  const summary = () =>
    messages.flatMap((m) => {
      if (m.type === 'clockEvent') {
        const e = m.event;
        return [`${e.at} ${e.type}${'side' in e ? ` ${e.side}` : ''}${e.type === 'boardMove' ? ` ${e.san}` : ''}`];
      }
      if (m.type === 'arbiterCall') return [`${m.at} call: ${m.detail}`];
      if (m.type === 'inputError') return [`${m.at} input error #${m.count}: ${m.detail}`];
      return [];
    });
  return { scheduler, board, device, messages, advance, summary };
}

describe('DGT device', () => {
  it('reports itself as a DGT ClockDevice and learns the board and clock', async () => {
    const { device } = await rig();
    expect({ kind: device.kind, role: device.role, boardId: device.boardId }).toEqual({ kind: 'dgt', role: 'mirror', boardId: '7' });
    expect(device.identity).toMatchObject({ version: '3.10', serial: '01025', clockVersion: { major: 2, minor: 0 } });
  });

  it("flag fall on the clock becomes a flag event for that player; the clock's stop is no pause", async () => {
    const { board, advance, summary } = await rig();
    board.clock.startStop();
    await advance(5_000);
    // The virtual clock drops to 0:00:00 at once, which no real clock does: a jump is not followed
    // until the next reading confirms it (then the flag is White's).
    board.flagFall('left');
    await advance(1_000);
    expect(summary()).toEqual([
      '100 start',
      '5100 call: DGT clock reading not followed: the left side jumped from 0:00:56 to 0:00:00 in 100 ms',
      '6000 flag white',
    ]);
  });

  it('a lever pressed during a pause is an arbiter call, and counts as a press when the clock resumes', async () => {
    const { board, advance, summary } = await rig();
    board.clock.startStop();
    await advance(2_000);
    board.clock.startStop();
    await advance(1_000);
    board.press('left');
    await advance(1_000);
    board.clock.startStop();
    await advance(500);
    expect(summary()).toEqual([
      '100 start',
      '2100 pause',
      '3100 call: lever pressed on the left side while the clock was stopped',
      '4100 resume',
      '4100 press white',
    ]);
  });

  it('kings on the centre squares: a result claim for the arbiter, never moves', async () => {
    const { board, advance, summary } = await rig();
    board.setPosition('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
    await advance(5_000);
    board.put('e1', '.');
    board.put('e8', '.');
    board.put('d4', 'K');
    board.put('e4', 'k');
    await advance(1_000);
    expect(summary().filter((s) => !s.includes('input error'))).toEqual(['5400 call: result signal on the board (kings on the centre squares): 1/2-1/2']);
  });

  it('garbage on the line becomes counted input errors, nothing else', async () => {
    const { board, advance, summary, messages } = await rig();
    board.sendGarbage([0x00, 0x11, 0x22]);
    board.sendGarbage([0x8d, 0x00, 0x99]);
    await advance(1_000); // the clock message of the next second cuts off the stray 0x99
    expect(summary()).toEqual([
      '100 input error #1: DGT garbage: 3 byte(s) outside any message [00 11 22]',
      '100 input error #2: DGT bad-header: message 0x8d without a size [8d]',
      '100 input error #3: DGT garbage: 1 byte(s) outside any message [00]',
      '1000 input error #4: DGT bad-header: message 0x99 without a size [99]',
    ]);
    expect(messages.filter((m) => m.type === 'connection').map((m) => m.type === 'connection' && m.state)).toEqual(['connecting', 'connected']);
  });

  it('a stretch of garbage read one byte at a time is one input error, not one per byte', async () => {
    const { board, advance, summary, device } = await rig();
    const received = device.session.stats.bytesReceived;
    for (let i = 0; i < 400; i++) {
      board.sendGarbage([i % 128]);
      await advance(0); // read before the next byte comes: one byte a read
    }
    await advance(1_000);
    expect(device.session.stats.bytesReceived - received).toBeGreaterThanOrEqual(400);
    expect(summary().filter((s) => s.includes('input error'))).toEqual(['100 input error #1: DGT garbage: 1 byte(s) outside any message [00]']);
    expect(device.session.decoder.stats.garbageBytes).toBe(400);
  });

  it("a mate on the board ends the game there: Black's flag falling before the press changes nothing (f3 e5 g4 Qh4#)", async () => {
    const { board, advance, messages, scheduler } = await rig();
    const chess = new Chess();
    const moves = ['f3', 'e5', 'g4'].map((san, ply) => {
      const fenBefore = chess.fen();
      const m = chess.move(san);
      return {
        ply,
        side: ply % 2 === 0 ? ('white' as const) : ('black' as const),
        san,
        from: m.from,
        to: m.to,
        thinkMs: 1_000,
        fenBefore,
        fenAfter: chess.fen(),
      };
    });
    board.clock.startStop();
    const run = playOnDgtBoard(board, { startFen: moves[0]!.fenBefore, moves, result: '*', termination: 'test', tags: {} }, { scheduler });
    for (const move of moves) await advance(move.thinkMs);
    await run.finished;
    board.move({ from: 'd8', to: 'h4' }); // mate, and Black forgets to press: his minute runs out
    await advance(65_000);
    const events = messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
    const mate = events.find((e) => e.type === 'boardMove' && e.san === 'Qh4#');
    const flag = events.find((e) => e.type === 'flag');
    expect(mate).toBeDefined();
    expect(flag).toMatchObject({ side: 'black' });
    expect(flag!.at).toBeGreaterThan(mate!.at);
    const arrive = (side: 'white' | 'black'): ClockEvent => ({ type: 'arrive', side, at: 0, by: { kind: 'system' } });
    const state = replayGame(gameConfig('60', { lateArrival: 'arbiter-decides', category: 'blitz' }), [arrive('white'), arrive('black'), ...events]);
    expect(state.result).toEqual({ result: '0-1', termination: 'checkmate (Laws 2023 Art. 5.1.1)' });
    expect(state.flags).toEqual({});
  });

  it('virtual players play a whole game on the board (binding-mock): presses and moves reach the engine exactly', async () => {
    const { board, advance, messages, scheduler } = await rig();
    const script = createVirtualGame({ seed: 'dgt-29', thinkMs: { kind: 'uniform', minMs: 1_000, maxMs: 3_000 } });
    board.clock.startStop();
    const run = playOnDgtBoard(board, script, { scheduler });
    // Simulated time stops at each scripted press so the bytes it causes are read at that instant.
    for (const move of script.moves) await advance(move.thinkMs);
    board.clock.startStop(); // checkmate: the arbiter stops the clock
    await advance(1_000);
    await run.finished;
    const events = messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
    const presses = events.flatMap((e) => (e.type === 'press' ? [e] : []));
    expect(presses.map((e) => e.side)).toEqual(script.moves.map((m) => m.side));
    // Each press arrives at the scripted instant: start (100) + the think times so far.
    let at = 100;
    expect(presses.map((e) => e.at)).toEqual(script.moves.map((m) => (at += m.thinkMs)));
    expect(events.flatMap((e) => (e.type === 'boardMove' ? [e.san] : []))).toEqual(script.moves.map((m) => m.san));
    const arrive = (side: 'white' | 'black'): ClockEvent => ({ type: 'arrive', side, at: 0, by: { kind: 'system' } });
    const config = gameConfig('60', { lateArrival: 'arbiter-decides', category: 'blitz' });
    const state = replayGame(config, [arrive('white'), arrive('black'), ...events]);
    expect(state.remainingMs).toEqual({ white: board.clock.side('left').ms, black: board.clock.side('right').ms });
    expect(state.fen).toBe(script.moves.at(-1)?.fenAfter);
  });
});
