// A DGT board unplugged mid-game, end to end: a real console (`--device 1=dgt:PATH`) on one end of a socat
// pseudo-terminal, the virtual DGT board with its DGT 3000 (an independent emulator: its own move counter
// and second period) on the other, every timer of both on the console's one injected clock, so every
// reading is exact; the tests only wait for bytes to cross the pty.
// - Ten plies played and pressed while the cable is out: the presses are counted from the clock's first
//   reading after (journaled as unseen presses), the move-40 period comes at move 40 exactly, and the
//   arbiter's enterMissedMoves over the WebSocket (refused, then accepted) makes the live PGN whole.
// - The mirrored 40 s + 30 s board unplugged for four plies with White low: no flag from the
//   console's guess, "clock unreachable" on the board and in the attention queue, and after the
//   reconnect the console's times are the DGT clock's reading.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClockEvent } from '../../clock-engine/index.ts';
import type { DgtDevice } from '../../device-bridge/index.ts';
import { manualSource, parseDeviceSpec, startConsole, type JournalRecord, type ManualSource, type RunningConsole } from '../../arbiter-console/internal.ts';
import { createVirtualGame, ptyBoardLink, VirtualDgtBoard, type ClockSide, type PtyBoardLink, type ScriptedMove } from '../../simulators/internal.ts';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { oneSectionConsole } from './fixtures.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  readonly source: ManualSource;
  readonly vboard: VirtualDgtBoard;
  readonly pair: PtyPair;
  readonly link: PtyBoardLink;
  readonly run: RunningConsole;
  readonly device: DgtDevice;
  readonly arbiter: TestClient;
  /** Bytes that were in the pty when it was pulled: they never arrive. */
  readonly lost: { toHost: number; toBoard: number };
  sync(): Promise<void>;
  advance(ms: number): Promise<void>;
}

interface ClockSetting {
  readonly ms: number;
  readonly incrementMs: number;
  readonly nextPeriod?: { readonly moves: number; readonly addMs: number };
}

async function rig(timeControl: string, clock: ClockSetting): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-unplug-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const source = manualSource(0);
  const vboard = new VirtualDgtBoard({
    scheduler: source,
    leftMs: clock.ms,
    rightMs: clock.ms,
    incrementMs: clock.incrementMs,
    leverHigh: 'left',
    ackDelayMs: 150,
    ...(clock.nextPeriod ? { nextPeriod: clock.nextPeriod } : {}),
  });
  cleanups.push(() => vboard.dispose());
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  const link = await ptyBoardLink(vboard, pair.b);
  cleanups.push(() => link.close());
  const run = await startConsole({
    dataDir: join(dir, 'data'),
    port: 0,
    noPage: true,
    source,
    ...oneSectionConsole({ boards: 1, timeControl }),
    devices: [parseDeviceSpec(`1=dgt:${pair.a}`)],
  });
  cleanups.push(() => run.stop());
  const device = run.devices[0] as DgtDevice;
  const arbiter = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Jones' });
  cleanups.push(() => arbiter.ws.close());
  const lost = { toHost: 0, toBoard: 0 };
  const sync = () =>
    until(
      () => device.session.stats.bytesReceived + lost.toHost === vboard.bytesSent && vboard.bytesReceived + lost.toBoard === device.session.stats.bytesSent,
      'bytes crossing the pty',
    );
  // Simulated time moves in steps of at most 100 ms with the I/O settled between steps, as real time
  // would let bytes through.
  const advance = async (ms: number) => {
    await sync();
    for (let left = ms; left > 0; left -= 100) {
      source.advance(Math.min(100, left));
      await sync();
    }
  };
  await advance(200);
  await until(() => run.hall.view('1')!.device?.connection === 'connected', 'the DGT board connected');
  const hall = run.hall;
  for (const side of ['white', 'black'] as const)
    hall.record({ kind: 'clock', board: '1', event: { type: 'arrive', side, at: source.now(), by: { kind: 'player', side } } });
  return { source, vboard, pair, link, run, device, arbiter, lost, sync, advance };
}

/** Pulls the cable, lets `whileOut` happen at the board, and plugs it back in. */
async function unplugged(r: Rig, whileOut: () => Promise<void>): Promise<void> {
  await r.pair.unplug();
  await until(() => r.device.session.connection === 'disconnected' && !r.vboard.connected, 'both ends to notice the unplug');
  // Nothing moves while the cable is out, so what has not arrived by now is lost for good.
  r.lost.toHost = r.vboard.bytesSent - r.device.session.stats.bytesReceived;
  r.lost.toBoard = r.device.session.stats.bytesSent - r.vboard.bytesReceived;
  await whileOut();
  await r.pair.replug();
  await r.link.reopen();
  for (let i = 0; i < 40 && r.device.session.connection !== 'connected'; i++) {
    r.source.advance(500);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await until(() => r.device.session.connection === 'connected', 'the reconnect');
}

const sideOf = (colour: 'white' | 'black'): ClockSide => (colour === 'white' ? 'left' : 'right');
/** What the DGT 3000 displays now (it shows whole seconds, rounded up), White on the left. */
const displayed = (r: Rig) => ({
  white: Math.ceil(r.vboard.clock.side('left').ms / 1000) * 1000,
  black: Math.ceil(r.vboard.clock.side('right').ms / 1000) * 1000,
});
const clockRecords = (run: RunningConsole): ClockEvent[] =>
  [...run.journal.entries()].flatMap((e) => (e.record.kind === 'clock' && e.record.board === '1' ? [e.record.event] : []));
const presses = (run: RunningConsole) => clockRecords(run).filter((e) => e.type === 'press');

const enterMissedMoves = (r: Rig, moves: readonly string[]) =>
  sendCommand(r.arbiter, { type: 'enterMissedMoves', board: '1', moves } as { readonly type: string });

/**
 * The instant the console hears the clock again after it was unreachable, and what the DGT 3000 displayed
 * then (the reading it sent at that instant: the I/O settles between steps of simulated time).
 */
function watchHeardAgain(r: Rig): { heard?: { at: number; shown: { white: number; black: number } }; stop: () => void } {
  const watch: { heard?: { at: number; shown: { white: number; black: number } }; stop: () => void } = { stop: () => {} };
  let unreachable = false;
  watch.stop = r.run.hall.subscribe(() => {
    const now = r.run.hall.view('1')!.clockUnreachable !== undefined;
    if (unreachable && !now && !watch.heard) watch.heard = { at: r.source.now(), shown: displayed(r) };
    unreachable = now;
  });
  return watch;
}

/** One ply at the board: think, move the piece, press the lever. */
async function ply(r: Rig, move: ScriptedMove): Promise<void> {
  await r.advance(Math.max(0, move.thinkMs - 600));
  r.vboard.move({ from: move.from, to: move.to, ...(move.promotion ? { promotion: move.promotion } : {}) });
  await r.advance(600);
  expect(r.vboard.press(sideOf(move.side))).toBe(true);
}

describe('a DGT board unplugged over a pty, with the console on the injected clock', () => {
  it('ten plies unplugged: every press recovered from the clock, the period at move 40 exactly, the missed moves entered', { timeout: 240_000 }, async () => {
    // 40 moves in 10 min, then 5 min, 30 s a move from move 1: the DGT 3000 set so (its own move counter
    // adds the 5 min at each side's 40th press).
    const r = await rig('40/600+30:300+30', { ms: 630_000, incrementMs: 30_000, nextPeriod: { moves: 40, addMs: 300_000 } });
    const hall = r.run.hall;
    const script = createVirtualGame({ seed: 'dgt-18', thinkMs: { kind: 'uniform', minMs: 900, maxMs: 3_000 } });
    expect(script.moves.length).toBeGreaterThanOrEqual(84);
    const moves = script.moves.slice(0, 84);
    r.vboard.clock.startStop();
    await r.advance(500);
    expect(hall.view('1')!.status).toBe('running');

    // Nothing to enter before the board has missed anything.
    expect(await enterMissedMoves(r, ['e4'])).toMatchObject({ type: 'refused', code: 'no-unread-stretch' });

    const periodsAfterEachPress: { white: number; black: number; period: { white: number; black: number } }[] = [];
    const pressedAndSeen = async (move: ScriptedMove) => {
      const before = presses(r.run).length;
      await ply(r, move);
      await r.sync();
      await until(() => presses(r.run).length === before + 1, `the press of ${move.san}`);
      const view = hall.view('1')!;
      periodsAfterEachPress.push({ white: view.presses.white, black: view.presses.black, period: view.period });
    };
    for (const move of moves.slice(0, 30)) await pressedAndSeen(move);

    // Plies 31 to 40 (moves 16 to 20) are played and pressed while the cable is out.
    let unreachableShown = false;
    const watch = watchHeardAgain(r);
    await unplugged(r, async () => {
      for (const move of moves.slice(30, 40)) await ply(r, move);
      unreachableShown = hall.view('1')!.clockUnreachable !== undefined && hall.attention().some((a) => a.code === 'clock-unreachable');
      await r.advance(1_000);
    });
    expect(unreachableShown).toBe(true);
    // The clock's first reading after: the ten presses it counted, worked out from its times, then the reading.
    await r.advance(1_000);
    watch.stop();
    const heard = watch.heard;
    expect(heard).toBeDefined();
    const unseen = presses(r.run).filter((e) => e.type === 'press' && e.unseen);
    expect(unseen.map((e) => e.type === 'press' && e.side)).toEqual(moves.slice(30, 40).map((m) => m.side));
    expect(unseen.every((e) => e.at === heard!.at)).toBe(true);
    const reading = clockRecords(r.run).find((e) => e.type === 'clockReading');
    expect(reading).toMatchObject({ type: 'clockReading', at: heard!.at, reading: heard!.shown, toMove: 'white' });
    expect(reading).not.toHaveProperty('uncounted');
    expect(hall.view('1')!.presses).toEqual({ white: 20, black: 20 });
    expect(hall.view('1')!.presses).toEqual({ white: r.vboard.clock.moves('left'), black: r.vboard.clock.moves('right') });
    expect(hall.view('1')!.remainingMs).toEqual(heard!.shown);
    expect(hall.view('1')!.asOf).toBe(heard!.at);

    // The board dump shows a position no search explains; once the game goes on from it, it is re-read
    // at the move the game has reached (ten plies unseen: move 21, White to move).
    await r.advance(5_500);
    for (const move of moves.slice(40, 42)) await pressedAndSeen(move);
    const reread = clockRecords(r.run).find((e) => e.type === 'boardPosition');
    expect(reread).toMatchObject({ type: 'boardPosition', plies: 10, fen: moves[39]!.fenAfter });
    expect(hall.view('1')!.unreadStretch).toEqual({ before: moves[29]!.fenAfter, after: moves[39]!.fenAfter });

    // The arbiter enters the ten moves over the WebSocket: an illegal one and a short list are refused.
    const missed = moves.slice(30, 40).map((m) => m.san);
    const journaled = r.run.journal.count();
    expect(await enterMissedMoves(r, ['Ke8', ...missed.slice(1)])).toMatchObject({
      type: 'refused',
      code: 'illegal-move',
    });
    expect(await enterMissedMoves(r, missed.slice(0, 9))).toMatchObject({
      type: 'refused',
      code: 'position-mismatch',
    });
    expect(r.run.journal.count()).toBe(journaled);
    expect(await enterMissedMoves(r, missed)).toMatchObject({ type: 'ack' });
    const entered = [...r.run.journal.entries(journaled)].map((e) => e.record);
    expect(entered).toEqual([
      { kind: 'note', board: '1', note: { type: 'missedMoves', at: r.source.now(), moves: missed, by: 'IA Jones', credential: 'chief' } },
    ] satisfies JournalRecord[]);
    expect(hall.view('1')!.unreadStretch).toBeUndefined();

    for (const move of moves.slice(42)) await pressedAndSeen(move);
    await r.advance(3_000);

    // Every press journaled; the second period came at each side's 40th press, not a move later or earlier.
    expect(presses(r.run)).toHaveLength(84);
    for (const seen of periodsAfterEachPress) {
      expect(seen.period).toEqual({ white: seen.white >= 40 ? 2 : 1, black: seen.black >= 40 ? 2 : 1 });
    }
    expect(periodsAfterEachPress.some((p) => p.white === 40 && p.black === 39)).toBe(true);
    const view = hall.view('1')!;
    expect(view.presses).toEqual({ white: 42, black: 42 });
    expect(view.moves).toEqual(view.presses);
    expect(view.presses).toEqual({ white: r.vboard.clock.moves('left'), black: r.vboard.clock.moves('right') });
    expect(hall.attention().filter((a) => a.code === 'clock-disagrees' || a.code === 'presses-missed' || a.code === 'move-count-mismatch')).toEqual([]);

    // The live PGN carries the whole game from the start position, not a new start at a FEN.
    const pgn = await (await fetch(`${r.run.url}/api/pgn`)).text();
    expect(pgn).not.toContain('[FEN');
    expect(chessJsRejects(pgn)).toBe('');
    expect(pgnExtractRejects(pgn)).toBe('');
    const game = new Chess();
    game.loadPgn(pgn);
    expect(game.history()).toEqual(moves.map((m) => m.san));
    expect(pgn).toContain('moves played while the board was not read, entered by IA Jones');
    expect(pgn.replace(/\s+/g, ' ')).toMatch(/clock unreachable for 0:00:\d\d; its reading taken, 10 presses made meanwhile counted from its times/);
  });

  it('the 40 s + 30 s board unplugged for four plies with White low: no flag from the console, its times the clock’s after', { timeout: 120_000 }, async () => {
    const r = await rig('40+30', { ms: 70_000, incrementMs: 30_000 });
    const hall = r.run.hall;
    r.vboard.clock.startStop();
    await r.advance(500);
    r.vboard.move('e2e4');
    await r.advance(45_000);
    r.vboard.press('left'); // White: 70 - 45 + 30 = 55 s
    await r.advance(2_000);
    r.vboard.move('e7e5');
    r.vboard.press('right');
    await r.advance(1_000);
    expect(hall.view('1')!.presses).toEqual({ white: 1, black: 1 });
    expect(presses(r.run)[0]).toMatchObject({ side: 'white', reading: { white: 55_000, black: 70_000 } });

    // White thinks with 54 s on the clock; the cable is pulled. At the board: White 40 s, Black 10 s, White
    // 20 s, Black 10 s, and White thinks 3 s more: 83 s in all, long past the console's guess of White's zero.
    const unpluggedAt = r.source.now();
    const script: [string, ClockSide, number][] = [
      ['g1f3', 'left', 40_000],
      ['b8c6', 'right', 10_000],
      ['f1b5', 'left', 20_000],
      ['a7a6', 'right', 10_000],
    ];
    let during: { status: string; unreachable: boolean; queue: boolean } | undefined;
    const watch = watchHeardAgain(r);
    await unplugged(r, async () => {
      for (const [uci, side, thinkMs] of script) {
        await r.advance(thinkMs);
        r.vboard.move(uci);
        expect(r.vboard.press(side)).toBe(true);
      }
      await r.advance(3_000);
      expect(r.source.now() - unpluggedAt).toBe(83_000);
      const view = hall.view('1')!;
      during = { status: view.status, unreachable: view.clockUnreachable !== undefined, queue: hall.attention().some((a) => a.code === 'clock-unreachable') };
    });
    expect(during).toEqual({ status: 'running', unreachable: true, queue: true });
    expect(clockRecords(r.run).filter((e) => e.type === 'flag')).toEqual([]);
    await until(() => r.arbiter.messages.some((m) => JSON.stringify(m).includes('"clockUnreachable"')), 'the page told: clock unreachable');

    // The clock's first reading: the four presses, and the console's times are the clock's.
    await r.advance(1_000);
    watch.stop();
    const heard = watch.heard;
    expect(heard).toBeDefined();
    const view = hall.view('1')!;
    expect(view.status).toBe('running');
    expect(view.remainingMs).toEqual(heard!.shown);
    expect(view.asOf).toBe(heard!.at);
    expect(view.toMove).toBe('white');
    expect(view.presses).toEqual({ white: 3, black: 3 });
    expect(view.presses).toEqual({ white: r.vboard.clock.moves('left'), black: r.vboard.clock.moves('right') });
    expect(view.clockUnreachable).toBeUndefined();
    expect(hall.attention().filter((a) => a.code === 'clock-unreachable')).toEqual([]);
    expect(clockRecords(r.run).filter((e) => e.type === 'flag')).toEqual([]);
    expect(r.vboard.clock.side('left').ms).toBeGreaterThan(40_000);
  });

  it(
    'without an increment the presses cannot be counted: the period is held, the arbiter told how many, and sets the counters',
    { timeout: 120_000 },
    async () => {
      const r = await rig('40/300:60', { ms: 300_000, incrementMs: 0, nextPeriod: { moves: 40, addMs: 60_000 } });
      const hall = r.run.hall;
      const script = createVirtualGame({ seed: 'dgt-18', thinkMs: { kind: 'uniform', minMs: 900, maxMs: 1_500 } });
      const moves = script.moves.slice(0, 16);
      r.vboard.clock.startStop();
      await r.advance(500);
      for (const move of moves.slice(0, 10)) {
        await ply(r, move);
        await r.sync();
      }
      await r.advance(1_000);
      expect(hall.view('1')!.presses).toEqual({ white: 5, black: 5 });
      // Four plies pressed while the cable is out: the lever is where it was, and the times cannot tell.
      await unplugged(r, async () => {
        for (const move of moves.slice(10, 14)) await ply(r, move);
      });
      await r.advance(1_000);
      expect(clockRecords(r.run).find((e) => e.type === 'clockReading')).toMatchObject({ uncounted: true, toMove: 'white' });
      expect(presses(r.run).filter((e) => e.type === 'press' && e.unseen)).toEqual([]);
      const held = () => hall.attention().filter((a) => a.code === 'presses-missed');
      expect(held()).toHaveLength(1);
      await r.advance(5_500);
      for (const move of moves.slice(14, 16)) {
        await ply(r, move);
        await r.sync();
      }
      await r.advance(1_000);
      // Re-read where the pieces stand, at the move number last read: no count of the plies unseen.
      const stretch = hall.view('1')!.unreadStretch!;
      expect(stretch.before).toBe(moves[9]!.fenAfter);
      expect(stretch.after.split(' ').slice(0, 2)).toEqual(moves[13]!.fenAfter.split(' ').slice(0, 2));
      expect(hall.view('1')!.lastMove).toBe(`6... ${moves[15]!.san}`);

      // The arbiter enters the four moves: the board's moves are counted, and the alert says how many presses are missing.
      expect(
        await enterMissedMoves(
          r,
          moves.slice(10, 14).map((m) => m.san),
        ),
      ).toMatchObject({ type: 'ack' });
      expect(hall.view('1')!.moves).toEqual({ white: 8, black: 8 });
      expect(hall.view('1')!.lastMove).toBe(`8... ${moves[15]!.san}`);
      expect(hall.view('1')!.presses).toEqual({ white: 6, black: 6 });
      expect(held()[0]!.message).toMatch(/4 presses missing by the board's moves$/);
      for (const side of ['white', 'black'] as const) {
        const answer = await sendCommand(r.arbiter, { type: 'setMoveCounter', board: '1', side, counter: 'presses', moves: 8, reason: 'scoresheets' } as {
          readonly type: string;
        });
        expect(answer).toMatchObject({ type: 'ack' });
      }
      expect(held()).toEqual([]);
      expect(hall.boards.get('1')!.state.periodHeld).toBeUndefined();
      expect(hall.view('1')!.period).toEqual({ white: 1, black: 1 });
      expect(hall.view('1')!.presses).toEqual({ white: r.vboard.clock.moves('left'), black: r.vboard.clock.moves('right') });
    },
  );
});
