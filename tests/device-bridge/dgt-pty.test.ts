// End to end over real pseudo-terminals (socat): the virtual DGT board with clock on one end, the DGT
// device on the other through the native serialport binding, and the clock engine's fold behind it.
// Time is simulated: one manual scheduler drives the virtual clock, the board's debounce and the
// session's timers, so every reading is exact; the tests only wait for bytes to cross the pty.
import { afterEach, describe, expect, it } from 'vitest';
import { createGameClock, gameConfig, replayGame, type ClockEvent, type GameConfig, type GameState } from '../../clock-engine/internal.ts';
import { ClockStatus, clockTimesMessage, createDgtDevice, type DeviceMessage, type DgtDevice } from '../../device-bridge/index.ts';
import {
  createManualScheduler,
  createVirtualGame,
  ptyBoardLink,
  VirtualDgtBoard,
  type ClockSide,
  type ManualScheduler,
  type PtyBoardLink,
} from '../../simulators/internal.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Both players at the board from the start (the console records arrivals; here they are given). */
const arrivals: ClockEvent[] = [
  { type: 'arrive', side: 'white', at: 0, by: { kind: 'arbiter', name: 'test' } },
  { type: 'arrive', side: 'black', at: 0, by: { kind: 'arbiter', name: 'test' } },
];

const config = (tc: string): GameConfig => gameConfig(tc, { lateArrival: 'arbiter-decides', category: 'blitz' });

interface Rig {
  scheduler: ManualScheduler;
  board: VirtualDgtBoard;
  pair: PtyPair;
  link: PtyBoardLink;
  device: DgtDevice;
  messages: DeviceMessage[];
  events: () => ClockEvent[];
  /** Bytes that were in the pty when it was pulled: they never arrive. */
  lost: { toHost: number; toBoard: number };
  sync(): Promise<void>;
  advance(ms: number): Promise<void>;
}

async function rig(role: 'mirror' | 'host', clockMs: number, incrementMs: number): Promise<Rig> {
  const scheduler = createManualScheduler(10_000);
  const board = new VirtualDgtBoard({ scheduler, leftMs: clockMs, rightMs: clockMs, incrementMs, leverHigh: 'left', ackDelayMs: 150 });
  const pair = await openPtyPair();
  const link = await ptyBoardLink(board, pair.b);
  const device = createDgtDevice({ boardId: 'pty-1', role, path: pair.a, scheduler, stableMs: 300, confirmMs: 2500 });
  const messages: DeviceMessage[] = [];
  device.subscribe((m) => messages.push(m));
  cleanups.push(
    () => pair.close(),
    () => link.close(),
    () => board.dispose(),
    () => device.close(),
  );
  const lost = { toHost: 0, toBoard: 0 };
  const sync = () =>
    until(
      () => device.session.stats.bytesReceived + lost.toHost === board.bytesSent && board.bytesReceived + lost.toBoard === device.session.stats.bytesSent,
      'bytes crossing the pty',
    );
  // Simulated time moves in steps of at most 100 ms with the I/O settled between steps, as real time
  // would let bytes through; one big jump would fire the host's ack timeouts before any ack is read.
  const advance = async (ms: number) => {
    await sync();
    for (let left = ms; left > 0; left -= 100) {
      scheduler.advanceBy(Math.min(100, left));
      await sync();
    }
  };
  await device.open();
  await advance(200); // the clock version ack
  const events = () => messages.flatMap((m) => (m.type === 'clockEvent' ? [m.event] : []));
  return { scheduler, board, pair, link, device, messages, events, lost, sync, advance };
}

const sideOf = (colour: 'white' | 'black'): ClockSide => (colour === 'white' ? 'left' : 'right');

describe('DGT board with clock over a pty pair', () => {
  it('mirror role: a whole game becomes presses with the clock readings and board moves, and the engine agrees', async () => {
    const r = await rig('mirror', 182_000, 2_000);
    // A live actor follows the device's events as the console's would.
    const actor = createGameClock(config('180+2'), { clock: r.scheduler });
    cleanups.push(() => {
      actor.stop();
    });
    actor.start();
    for (const arrival of arrivals) actor.send(arrival);
    r.device.subscribe((m) => {
      if (m.type === 'clockEvent') actor.send(m.event);
    });
    // A whole game: 87 plies, ending in checkmate (1-0).
    const script = createVirtualGame({ seed: 'dgt-18', thinkMs: { kind: 'uniform', minMs: 900, maxMs: 3_000 } });
    expect([script.moves.length, script.result, script.termination]).toEqual([87, '1-0', 'checkmate']);
    r.board.clock.startStop();
    await r.sync();
    for (const move of script.moves) {
      await r.advance(move.thinkMs - 600);
      r.board.move(move.promotion ? { from: move.from, to: move.to, promotion: move.promotion } : { from: move.from, to: move.to });
      await r.advance(600);
      expect(r.board.press(sideOf(move.side))).toBe(true);
      await r.sync();
    }
    r.board.clock.startStop();
    await r.advance(1_000);

    const events = r.events();
    const presses = events.filter((e) => e.type === 'press');
    expect(events[0]).toMatchObject({ type: 'start', at: 10_200 });
    expect(presses.map((e) => e.side)).toEqual(script.moves.map((m) => m.side));
    expect(events.filter((e) => e.type === 'boardMove').map((e) => e.type === 'boardMove' && e.san)).toEqual(script.moves.map((m) => m.san));
    expect(events.at(-1)).toMatchObject({ type: 'pause', reason: 'stopped on the DGT clock' });

    const state = replayGame(config('180+2'), [...arrivals, ...events]);
    expect(actor.getSnapshot().context.game).toEqual(state);
    expect(state.fen).toBe(script.moves.at(-1)?.fenAfter);
    expect(state.presses).toEqual({ white: Math.ceil(script.moves.length / 2), black: Math.floor(script.moves.length / 2) });
    expect(state.moves).toEqual(state.presses);
    expect(state.alerts.filter((a) => a.code === 'move-count-mismatch')).toEqual([]);
    // The engine's times are exactly the virtual clock's: same instants, same increments.
    expect(state.remainingMs).toEqual({ white: r.board.clock.side('left').ms, black: r.board.clock.side('right').ms });
    expect(r.device.compareWithEngine(state)).toBeUndefined();
    // Each press carries what the clock displayed at that moment (whole seconds).
    for (const press of presses) {
      if (press.type !== 'press' || !press.reading) throw new Error('press without reading');
      expect(press.reading.white % 1000).toBe(0);
    }
    const drifted: GameState = { ...state, remainingMs: { ...state.remainingMs, black: state.remainingMs.black + 1_500 } };
    expect(r.device.compareWithEngine(drifted)).toMatchObject({ code: 'clock-disagrees', side: 'black' });
    expect(r.messages.filter((m) => m.type === 'inputError')).toEqual([]);
  });

  it('host role: a clock-engine actor drives the DGT 3000 with set-and-run, lever presses come back, texts show', async () => {
    const r = await rig('host', 300_000, 0);
    const cfg = config('300');
    // The engine's actor runs on the same simulated time; every state it reaches is shown on the clock.
    const actor = createGameClock(cfg, { clock: r.scheduler });
    cleanups.push(() => {
      actor.stop();
    });
    actor.subscribe((snapshot) => r.device.show(snapshot.context.game, r.scheduler.now()));
    actor.start();
    const game = () => actor.getSnapshot().context.game;
    r.device.subscribe((m) => {
      if (m.type === 'clockEvent') actor.send(m.event);
    });
    for (const arrival of arrivals) actor.send(arrival);
    actor.send({ type: 'start', at: r.scheduler.now(), by: { kind: 'arbiter', name: 'test' } });
    await r.advance(200);
    expect(r.board.clock.runningSide).toBe('left');
    const script = createVirtualGame({ seed: 'dgt-29', thinkMs: { kind: 'uniform', minMs: 1_000, maxMs: 3_000 } });
    expect([script.moves.length, script.result, script.termination]).toEqual([43, '1-0', 'checkmate']);
    for (const [index, move] of script.moves.entries()) {
      await r.advance(move.thinkMs - 600);
      r.board.move({ from: move.from, to: move.to, ...(move.promotion ? { promotion: move.promotion } : {}) });
      await r.advance(600);
      expect(r.board.press(sideOf(move.side))).toBe(true);
      await r.advance(200); // press -> engine -> set-and-run -> ack
      // The last move mates and ends the game (checked after the loop): the clock no longer runs.
      if (index === script.moves.length - 1) break;
      const state = game();
      expect(r.board.clock.runningSide).toBe(sideOf(state.toMove));
      // The clock shows the engine's time rounded up to the second.
      const engineMs = state.remainingMs[state.toMove] - (r.scheduler.now() - state.asOf);
      const clockMs = r.board.clock.side(sideOf(state.toMove)).ms;
      expect(clockMs - engineMs).toBeGreaterThanOrEqual(0);
      expect(clockMs - engineMs).toBeLessThan(1_000);
    }
    // The board reads a move at its press, so the mate came with the last press and ended the game there
    // (Laws 5.1.1): the engine stopped and no clock runs on.
    expect(game().result).toEqual({ result: '1-0', termination: `checkmate (Laws ${cfg.lawsEdition} Art. 5.1.1)` });
    expect(r.board.clock.runningSide).toBeUndefined();
    expect(game().presses.white + game().presses.black).toBe(script.moves.length);
    expect(game().moves).toEqual(game().presses);
    expect(game().alerts.filter((a) => a.code === 'move-count-mismatch')).toEqual([]);
    r.device.notify('PAUSE');
    await r.advance(200);
    expect(r.board.clock.text).toBe('PAUSE');
    await r.advance(3_000);
    expect(r.board.clock.text).toBeUndefined();
    // Ack-paced: the clock never had two commands at once, though the host sent many.
    expect(r.board.clockCommands.length).toBeGreaterThan(script.moves.length);
    expect(r.board.maxOutstanding).toBe(1);
  });

  it('an unplug and replug loses no press; the update mode is sent again after the reconnect', async () => {
    const r = await rig('mirror', 300_000, 0);
    r.board.clock.startStop();
    await r.advance(3_000);
    r.board.move('e2e4');
    await r.advance(500);
    r.board.press('left');
    await r.advance(1_000);
    // Pull the cable while Black thinks; Black moves and presses while the host cannot hear.
    await r.pair.unplug();
    await until(() => r.device.session.connection === 'disconnected' && !r.board.connected, 'both ends to notice the unplug');
    // Nothing moves while the cable is out, so what has not arrived by now is lost for good.
    r.lost.toHost = r.board.bytesSent - r.device.session.stats.bytesReceived;
    r.lost.toBoard = r.device.session.stats.bytesSent - r.board.bytesReceived;
    await r.advance(2_000);
    r.board.move('e7e5');
    r.board.press('right');
    await r.advance(4_000);
    await r.pair.replug();
    await r.link.reopen();
    const before = r.board.commands.length;
    // Backoff: 500 ms, 1 s, 2 s, 4 s ... in simulated time; the link is back, so the next attempt works.
    for (let i = 0; i < 12 && r.device.session.connection !== 'connected'; i++) {
      r.scheduler.advanceBy(500);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await until(() => r.device.session.connection === 'connected', 'the reconnect');
    await r.advance(1_000);
    const resent = r.board.commands.slice(before).flatMap((c) => (c.kind === 'board' ? [c.byte] : []));
    expect(resent).toContain(0x43);
    expect(r.board.mode).toBe('update');
    const presses = r.events().filter((e) => e.type === 'press');
    expect(presses.map((e) => e.type === 'press' && e.side)).toEqual(['white', 'black']);
    // Black's press is reported with the clock's reading after the reconnect: Black's clock stopped at
    // the press, 3 s after White's press.
    expect(presses[1]).toMatchObject({ reading: { black: 297_000 } });
    expect(r.board.clock.side('right').ms).toBe(297_000);
    const moves = r.events().filter((e) => e.type === 'boardMove');
    expect(moves.map((e) => e.type === 'boardMove' && e.san)).toEqual(['e4', 'e5']);
    const states = r.messages.flatMap((m) => (m.type === 'connection' ? [m.state] : []));
    expect(states).toContain('disconnected');
    expect(states.at(-1)).toBe('connected');
  });

  /** Pulls the cable, lets `whileOut` happen on the board, and plugs it back in. */
  async function unplugged(r: Rig, whileOut: () => Promise<void>): Promise<void> {
    await r.pair.unplug();
    await until(() => r.device.session.connection === 'disconnected' && !r.board.connected, 'both ends to notice the unplug');
    // Nothing moves while the cable is out, so what has not arrived by now is lost for good.
    r.lost.toHost = r.board.bytesSent - r.device.session.stats.bytesReceived;
    r.lost.toBoard = r.device.session.stats.bytesSent - r.board.bytesReceived;
    await whileOut();
    await r.pair.replug();
    await r.link.reopen();
    for (let i = 0; i < 12 && r.device.session.connection !== 'connected'; i++) {
      r.scheduler.advanceBy(500);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await until(() => r.device.session.connection === 'connected', 'the reconnect');
  }

  const sans = (r: Rig) => r.events().flatMap((e) => (e.type === 'boardMove' ? [e.san] : []));
  const pressedMove = async (r: Rig, san: string, side: ClockSide) => {
    r.board.move(san);
    await r.advance(600);
    r.board.press(side);
    await r.advance(1_000);
  };

  it.each([1, 2, 3, 10])(
    'unplugged over %i plies: the moves are recovered from the board dump, or re-seeded with an alert',
    { timeout: 120_000 },
    async (plies) => {
      const r = await rig('mirror', 300_000, 0);
      r.board.clock.startStop();
      await r.advance(1_000);
      await pressedMove(r, 'e4', 'left');
      await pressedMove(r, 'e5', 'right');
      expect(sans(r)).toEqual(['e4', 'e5']);
      // The pieces move while the cable is out (the clock, on its own cable, is not pressed here).
      const line = plies <= 3 ? ['Nf3', 'Nc6', 'Nxe5'].slice(0, plies) : ['Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5'];
      await unplugged(r, async () => {
        for (const san of line) r.board.move(san);
        await r.advance(5_000);
      });
      // The board dump after the reconnect; a single ply waits for its press or the confirm time.
      await r.advance(3_500);
      const alerts = () => r.messages.flatMap((m) => (m.type === 'arbiterCall' ? [m.detail] : []));
      const positions = () => r.events().filter((e) => e.type === 'boardPosition');
      if (plies <= 3) {
        expect(sans(r)).toEqual(['e4', 'e5', ...line]);
        expect(positions()).toEqual([]);
        return;
      }
      // Ten plies: no search explains the position; it is reported, and once the game visibly goes on
      // from it the board is re-seeded there, with an alert, and tracked on.
      await r.advance(3_000); // a position nothing explains is reported once it has stood still (not mid-dump)
      expect(sans(r)).toEqual(['e4', 'e5']);
      expect(r.messages.some((m) => m.type === 'inputError' && m.detail.startsWith('board position no legal move explains'))).toBe(true);
      await pressedMove(r, 'Bb3', 'left');
      await pressedMove(r, 'd6', 'right');
      expect(positions()).toMatchObject([{ type: 'boardPosition', detail: 'no legal moves lead to the position on the board' }]);
      expect(alerts().filter((a) => a.startsWith('board re-read: no legal moves lead'))).toHaveLength(1);
      expect(sans(r).slice(-2)).toEqual(['Bb3', 'd6']);
    },
  );

  it('a reading of all six time bytes zero with a lever change does not end the game', { timeout: 60_000 }, async () => {
    const r = await rig('mirror', 300_000, 0);
    r.board.clock.startStop();
    await r.advance(1_000);
    await pressedMove(r, 'e4', 'left');
    // Black's clock runs; a glitch reports 0:00:00 on both sides and the lever the other way.
    const flipped = ClockStatus.running | ClockStatus.leverRightHigh | ClockStatus.d3;
    r.board.sendGarbage(Array.from(clockTimesMessage({ ms: 0 }, { ms: 0 }, flipped)));
    await r.advance(3_000);
    const events = r.events();
    const state = replayGame(config('5+0'), [...arrivals, ...events]);
    expect(state.status).toBe('running');
    expect(state.toMove).toBe('black');
    expect(events.filter((e) => e.type === 'flag')).toEqual([]);
    expect(events.filter((e) => e.type === 'press')).toHaveLength(1);
    expect(r.messages.filter((m) => m.type === 'arbiterCall' && m.detail.includes('both times 0:00:00 without a flag'))).toHaveLength(1);
    // The game goes on: Black's press is a press with the clock's real times.
    await pressedMove(r, 'e5', 'right');
    expect(
      r
        .events()
        .filter((e) => e.type === 'press')
        .map((e) => e.type === 'press' && e.side),
    ).toEqual(['white', 'black']);
    expect(replayGame(config('5+0'), [...arrivals, ...r.events()]).status).toBe('running');
  });

  it('a game through line noise, split and merged deliveries loses no press and no move', async () => {
    const r = await rig('mirror', 600_000, 0);
    const script = createVirtualGame({ seed: 'dgt-2', thinkMs: { kind: 'uniform', minMs: 900, maxMs: 3_000 } });
    expect([script.moves.length, script.termination]).toEqual([27, 'checkmate']);
    r.board.clock.startStop();
    await r.sync();
    const deliveries = ['whole', 'split', 'merged'] as const;
    let noise = 0;
    for (const [i, move] of script.moves.entries()) {
      r.board.delivery = deliveries[i % 3] ?? 'whole';
      if (i % 4 === 1) {
        // Noise that cannot complete a message: a stray id with half a size, and bytes outside any message.
        r.board.sendGarbage([0x00, 0x13, 0x8e, 0x00]);
        noise++;
      }
      await r.advance(move.thinkMs - 600);
      r.board.move({ from: move.from, to: move.to, ...(move.promotion ? { promotion: move.promotion } : {}) });
      await r.advance(600);
      expect(r.board.press(sideOf(move.side))).toBe(true);
      await r.advance(100);
    }
    const events = r.events();
    expect(events.filter((e) => e.type === 'press').map((e) => e.type === 'press' && e.side)).toEqual(script.moves.map((m) => m.side));
    expect(events.filter((e) => e.type === 'boardMove').map((e) => e.type === 'boardMove' && e.san)).toEqual(script.moves.map((m) => m.san));
    const state = replayGame(config('600'), [...arrivals, ...events]);
    expect(state.remainingMs).toEqual({ white: r.board.clock.side('left').ms, black: r.board.clock.side('right').ms });
    // Each burst of noise is reported (as garbage and a broken header), and nothing else is.
    const errors = r.messages.filter((m) => m.type === 'inputError');
    expect(errors.length).toBe(noise * 3);
    expect(r.device.session.decoder.stats).toMatchObject({ garbageBytes: noise * 3, badHeaders: noise, badLengths: 0, truncated: 0 });
  });
});
