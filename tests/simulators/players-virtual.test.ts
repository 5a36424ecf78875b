import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import {
  createManualScheduler,
  createRealTimeScheduler,
  createVirtualGame,
  createVirtualPlayer,
  drawThinkMs,
  playVirtualGame,
  runGameScript,
  seededRandom,
  startPlannedGame,
  startSeededGame,
  totalThinkMs,
  type ScriptedMove,
} from '../../simulators/internal.ts';

const lognormal = { kind: 'lognormal', medianMs: 20_000, sigma: 1, minMs: 1_000, maxMs: 600_000 } as const;

describe('virtual players', () => {
  it('play only legal moves, and every fen follows from the previous one', () => {
    for (const seed of [1, 2, 3, 'round-4/board-7']) {
      const script = createVirtualGame({ seed, thinkMs: lognormal, maxPlies: 400 });
      const chess = new Chess(script.startFen);
      for (const move of script.moves) {
        expect(chess.fen()).toBe(move.fenBefore);
        expect(move.side).toBe(chess.turn() === 'w' ? 'white' : 'black');
        const played = chess.move({ from: move.from, to: move.to, promotion: move.promotion });
        expect(played.san).toBe(move.san);
        expect(chess.fen()).toBe(move.fenAfter);
        expect(Number.isInteger(move.thinkMs)).toBe(true);
        expect(move.thinkMs).toBeGreaterThanOrEqual(1_000);
        expect(move.thinkMs).toBeLessThanOrEqual(600_000);
      }
      if (script.termination === 'checkmate') expect(chess.isCheckmate()).toBe(true);
      if (script.termination === 'move-limit') expect(script.moves).toHaveLength(400);
      else expect(chess.isGameOver()).toBe(true);
    }
  });

  it('are deterministic per seed and differ between seeds', () => {
    const a = createVirtualGame({ seed: 42, thinkMs: lognormal });
    const b = createVirtualGame({ seed: 42, thinkMs: lognormal });
    const c = createVirtualGame({ seed: 43, thinkMs: lognormal });
    expect(b).toEqual(a);
    expect(c.moves.map((m) => `${m.san}:${m.thinkMs}`)).not.toEqual(a.moves.map((m) => `${m.san}:${m.thinkMs}`));
  });

  it('a game played as far as asked for has the moves and the end of the whole game played ahead', () => {
    for (const seed of [5, 'sa-open/open/3/7']) {
      const whole = createVirtualGame({ seed, thinkMs: lognormal, style: 'random', maxPlies: 120 });
      const game = startSeededGame({ seed, thinkMs: lognormal, style: 'random', maxPlies: 120 });
      // Asked out of order (a resumed board asks for the ply before the one it plays), then in order.
      expect(game.move(9)).toEqual(whole.moves[9]);
      expect(game.outcome).toBeUndefined();
      const moves: ScriptedMove[] = [];
      for (let move = game.move(0); move; move = game.move(moves.length)) moves.push(move);
      expect(moves).toEqual(whole.moves);
      expect(game.outcome).toEqual({ result: whole.result, termination: whole.termination });
    }
  });

  it('eager players finish games far more often than the move limit', () => {
    const results = Array.from({ length: 10 }, (_, seed) => createVirtualGame({ seed, thinkMs: { kind: 'fixed', ms: 1 } }));
    expect(results.filter((game) => game.termination !== 'move-limit').length).toBeGreaterThanOrEqual(7);
    expect(results.some((game) => game.result === '1-0' || game.result === '0-1')).toBe(true);
  });

  it('a single player chooses from the given position', () => {
    const player = createVirtualPlayer({ seed: 'x', thinkMs: { kind: 'uniform', minMs: 500, maxMs: 700 } });
    const fen = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'; // Ra8# is on offer
    const position = new Chess(fen);
    const move = player.chooseMove(position, position.moves(), 0);
    expect(move.san).toBe('Ra8#');
    expect(move.thinkMs).toBeGreaterThanOrEqual(500);
    expect(move.thinkMs).toBeLessThanOrEqual(700);
  });

  it('draws think times from the distribution (uniform bounds, lognormal median)', () => {
    const random = seededRandom(7);
    const uniform = Array.from({ length: 2000 }, (_, ply) => drawThinkMs({ kind: 'uniform', minMs: 10, maxMs: 20 }, random, ply));
    expect(Math.min(...uniform)).toBe(10);
    expect(Math.max(...uniform)).toBe(20);
    const logs = Array.from({ length: 4001 }, (_, ply) => drawThinkMs({ kind: 'lognormal', medianMs: 10_000, sigma: 0.8 }, random, ply));
    const median = [...logs].sort((x, y) => x - y)[2000] as number;
    expect(median).toBeGreaterThan(9_000);
    expect(median).toBeLessThan(11_000);
    expect(() => drawThinkMs({ kind: 'fixed', ms: -1 }, random, 0)).toThrow(RangeError);
  });

  it('plays a script at exact simulated instants, however far the clock jumps', () => {
    const script = playVirtualGame({
      white: createVirtualPlayer({ seed: 1, thinkMs: { kind: 'fixed', ms: 3_000 } }),
      black: createVirtualPlayer({ seed: 2, thinkMs: { kind: 'fixed', ms: 5_000 } }),
      maxPlies: 6,
    });
    const scheduler = createManualScheduler(1_000);
    const seen: Array<[ScriptedMove, number, number]> = [];
    const run = runGameScript(script, { scheduler, onMove: (move, at) => seen.push([move, at, scheduler.now()]) });
    scheduler.advanceBy(2_999);
    expect(seen).toHaveLength(0);
    scheduler.advanceBy(1);
    expect(seen.map(([, at]) => at)).toEqual([4_000]);
    scheduler.advanceBy(100_000); // jumps past all the remaining moves at once
    expect(seen.map(([, at, now]) => [at, now])).toEqual([
      [4_000, 4_000],
      [9_000, 9_000],
      [12_000, 12_000],
      [17_000, 17_000],
      [20_000, 20_000],
      [25_000, 25_000],
    ]);
    expect(run.played).toBe(6);
    expect(totalThinkMs(script, 'white')).toBe(9_000);
    expect(totalThinkMs(script, 'black')).toBe(15_000);
    return run.finished;
  });

  it('stops when told', async () => {
    const script = createVirtualGame({ seed: 3, thinkMs: { kind: 'fixed', ms: 10 } });
    const scheduler = createManualScheduler();
    const run = runGameScript(script, { scheduler, onMove: () => {} });
    scheduler.advanceBy(25);
    run.stop();
    scheduler.runAll();
    expect(run.played).toBe(2);
    await run.finished;
  });
});

describe('accelerated real time', () => {
  it('waits think times divided by the speed and reports simulated milliseconds', () => {
    let wall = 5_000.25;
    const waits: number[] = [];
    const scheduler = createRealTimeScheduler({
      speed: 20,
      startAt: 1_000,
      monotonic: () => wall,
      timers: { setTimeout: (_callback, ms) => waits.push(ms), clearTimeout: () => {} },
    });
    expect(scheduler.now()).toBe(1_000);
    wall += 150; // 150 ms of wall time = 3 s of game time
    expect(scheduler.now()).toBe(4_000);
    scheduler.setTimeout(() => {}, 30_000);
    expect(waits).toEqual([1_500]);
    expect(() => createRealTimeScheduler({ speed: 0 })).toThrow(RangeError);
  });
});

describe('a virtual game resumed where a journal left it', () => {
  const plan = { result: '1-0', ending: 'resignation', atPly: 60 } as const;

  it('plays on from the position, legally, without playing the plies before it, the same way every time', () => {
    const whole = createVirtualGame({ seed: 'resume', thinkMs: lognormal, style: 'random', maxPlies: 300 });
    const at = whole.moves[39]!;
    const from = { ply: 40, fen: at.fenAfter };
    const game = startPlannedGame({ seed: 'resume', thinkMs: lognormal, plan, from });
    const again = startPlannedGame({ seed: 'resume', thinkMs: lognormal, plan, from });
    expect(game.move(39)).toBeUndefined();
    const chess = new Chess(at.fenAfter);
    const moves: ScriptedMove[] = [];
    for (let move = game.move(40); move; move = game.move(40 + moves.length)) {
      expect(move.ply).toBe(40 + moves.length);
      expect(move.fenBefore).toBe(chess.fen());
      expect(chess.move(move.san).san).toBe(move.san);
      expect(move.fenAfter).toBe(chess.fen());
      moves.push(move);
    }
    // The plan's end counts the whole game: 20 plies after the 40 the journal had.
    expect(moves).toHaveLength(20);
    expect(game.outcome).toEqual({ result: '1-0', termination: 'resignation' });
    expect(again.move(59)).toEqual(moves[19]);
  });

  it("makes a move the journal has without its press again, as the player's next move", () => {
    const whole = createVirtualGame({ seed: 'forced', thinkMs: lognormal, style: 'random', maxPlies: 300 });
    const pressed = whole.moves[10]!;
    const game = startPlannedGame({ seed: 'forced', thinkMs: lognormal, plan, from: { ply: 10, fen: pressed.fenBefore, forced: pressed.san } });
    expect(game.move(10)).toMatchObject({
      ply: 10,
      san: pressed.san,
      from: pressed.from,
      to: pressed.to,
      fenBefore: pressed.fenBefore,
      fenAfter: pressed.fenAfter,
    });
    expect(game.move(11)!.fenBefore).toBe(pressed.fenAfter);
  });
});
