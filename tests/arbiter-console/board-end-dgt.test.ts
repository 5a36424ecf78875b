// Whole games from DGT boards over pseudo-terminals (socat, the native serialport binding), read by a real
// console: each game's moves arrive as the board's bytes (field updates as hands move the pieces) and its
// presses as the DGT clock's lever (mirror role: the clock keeps time), and the console ends the game from
// the position at the move that made it (Laws 2018, the Cairns Cup's edition): checkmate before a later
// flag (5.1.1, 6.9 "unless the game had already ended"), stalemate (5.2.1), fivefold repetition (9.6.1)
// and the 75-move rule (9.6.2); under Laws 2009, which have neither 9.6 rule, the same repetitions end
// nothing. What the arbiter sees is checked where the arbiter sees it: the board over
// the WebSocket and the live PGN (/api/pgn), which chess.js and pgn-extract both read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ptyBoardLink, VirtualDgtBoard, type PtyBoardLink } from '../../simulators/internal.ts';
import { parseDeviceSpec, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { realClock } from '../../arbiter-console/internal.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { oneSectionConsole } from './fixtures.ts';

type Side = 'white' | 'black';
const clockSide = (side: Side) => (side === 'white' ? 'left' : 'right');

/**
 * A console with `boards` DGT boards on ptys, every DGT 3000 set to the section's control, and a spectator.
 * `scale`: the console and the boards (their clocks, acks and messages) on one clock that many times
 * faster than real time, as in an accelerated demo: the board is read once the position has been still
 * for 400 ms of that clock, so a long game takes a fraction of the wait; the serial bytes go at their
 * real speed.
 */
class DgtHall {
  readonly pairs: PtyPair[] = [];
  readonly vboards: VirtualDgtBoard[] = [];
  readonly links: PtyBoardLink[] = [];
  run!: RunningConsole;
  spectator!: TestClient;
  private dir = '';

  constructor(
    private readonly boards: number,
    private readonly baseMs: number,
    private readonly incrementMs: number,
    private readonly lawsEdition: ZeitnotEvent['lawsEdition'] = 'L2018',
    private readonly scale = 1,
  ) {}

  async open(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'zeitnot-board-end-'));
    const scheduler = realClock(0, this.scale);
    for (let i = 0; i < this.boards; i++) {
      const pair = await openPtyPair();
      this.pairs.push(pair);
      // The first move's increment is on the clock at the start, as the engine counts it.
      const start = this.baseMs + this.incrementMs;
      const vboard = new VirtualDgtBoard({ scheduler, leftMs: start, rightMs: start, incrementMs: this.incrementMs, leverHigh: 'left' });
      this.vboards.push(vboard);
      this.links.push(await ptyBoardLink(vboard, pair.b));
    }
    const section = oneSectionConsole({ boards: this.boards, timeControl: `${this.baseMs / 1000}+${this.incrementMs / 1000}` });
    this.run = await startConsole({
      dataDir: join(this.dir, 'data'),
      port: 0,
      noPage: true,
      scale: this.scale,
      ...section,
      event: { ...section.event!, lawsEdition: this.lawsEdition },
      devices: this.pairs.map((pair, i) => parseDeviceSpec(`${i + 1}=dgt:${pair.a}`)),
    });
    this.spectator = await helloClient(this.run.url, { role: 'spectator' });
  }

  async close(): Promise<void> {
    this.spectator?.ws.close();
    await this.run?.stop();
    for (const link of this.links) await link.close();
    for (const vboard of this.vboards) vboard.dispose();
    for (const pair of this.pairs) await pair.close();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  /** Both players at the board and the DGT clock started by the arbiter: White's runs. */
  async begin(board: string): Promise<VirtualDgtBoard> {
    const hall = this.run.hall;
    const vboard = this.vboards[Number(board) - 1]!;
    await until(() => hall.view(board)!.device?.connection === 'connected', `board ${board}'s DGT board to connect`);
    for (const side of ['white', 'black'] as const)
      hall.record({ kind: 'clock', board, event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    vboard.clock.startStop();
    await until(() => hall.view(board)!.status === 'running', `board ${board}'s start from the clock`);
    return vboard;
  }

  /**
   * The player to move makes `san` on the board and (unless `press` is false) presses the lever at once,
   * as players do; resolves once the console has read the move (and the press, while the game goes on).
   */
  async play(board: string, san: string, press = true): Promise<void> {
    const hall = this.run.hall;
    const vboard = this.vboards[Number(board) - 1]!;
    const side: Side = vboard.chess.turn() === 'w' ? 'white' : 'black';
    const before = hall.view(board)!;
    vboard.move(san);
    if (press) vboard.press(clockSide(side));
    const read = () => {
      const now = hall.view(board)!;
      return now.moves[side] === before.moves[side] + 1 && (!press || now.status === 'finished' || now.presses[side] === before.presses[side] + 1);
    };
    await until(read, `board ${board}: ${side}'s ${san} read`, 15_000);
  }

  /** The latest view of `board` the spectator's WebSocket received. */
  seen(board: string): { status?: string; result?: unknown } | undefined {
    const messages = this.spectator.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i]!;
      if (m.type !== 'snapshot' && m.type !== 'delta') continue;
      const view = (m.boards as { id: string; status?: string; result?: unknown }[]).find((b) => b.id === board);
      if (view) return view;
    }
    return undefined;
  }

  /** The game of `board` in the live PGN. */
  async livePgn(board: string): Promise<string> {
    const pgn = await (await fetch(`${this.run.url}/api/pgn`)).text();
    const game = pgn.split(/\n(?=\[Event )/).find((g) => g.includes(`[Board "${board}"]`));
    if (!game) throw new Error(`no game of board ${board} in the live PGN:\n${pgn}`);
    return game;
  }

  /**
   * The game has ended with `result` and `termination` on the console, over the WebSocket and in the live
   * PGN; the PGN is legal for chess.js and pgn-extract and its moves are `moves`.
   */
  async expectEnded(board: string, moves: readonly string[], result: string, termination: string): Promise<void> {
    expect(this.run.hall.view(board)!.result).toEqual({ result, termination });
    await until(() => this.seen(board)?.status === 'finished', `board ${board}'s end over the WebSocket`);
    expect(this.seen(board)!.result).toEqual({ result, termination });
    const pgn = await this.livePgn(board);
    expect(chessJsRejects(pgn)).toBe('');
    expect(pgnExtractRejects(pgn)).toBe('');
    expect(pgn).toContain(`[Result "${result}"]`);
    expect(pgn).toContain(`[Termination "${termination}"]`);
    const game = new Chess();
    game.loadPgn(pgn);
    expect(game.history()).toEqual(moves);
    expect(pgn.trimEnd().endsWith(result)).toBe(true);
  }
}

/**
 * A game of `plies` plies whose last 150 move no pawn and capture nothing, without a position five
 * times and without an end by the position before it: after four pawn moves, each side moves the piece
 * whose move leads to the position seen least so far (chess.js's move order breaks ties), so the game is
 * the same every run.
 */
function seventyFiveMoveGame(): string[] {
  const game = new Chess();
  for (const san of ['e4', 'e5', 'd4', 'd5']) game.move(san);
  const seen = new Map<string, number>();
  const key = (g: Chess) => g.fen().split(' ').slice(0, 4).join(' ');
  seen.set(key(game), 1);
  while (Number(game.fen().split(' ')[4]) < 150) {
    let best: { san: string; count: number } | undefined;
    for (const move of game.moves({ verbose: true })) {
      if (move.piece === 'p' || move.captured) continue;
      game.move(move.san);
      const count = seen.get(key(game)) ?? 0;
      // Not chess.js's isGameOver: it counts threefold repetition and 50 moves, which are only claims.
      const ends = game.isCheckmate() || game.isStalemate() || game.isInsufficientMaterial();
      game.undo();
      if (!ends && (!best || count < best.count)) best = { san: move.san, count };
    }
    game.move(best!.san);
    seen.set(key(game), (seen.get(key(game)) ?? 0) + 1);
  }
  return game.history();
}

describe('checkmate on a DGT board before a flag falls (Laws 2018 5.1.1, 6.9)', () => {
  // 12 s a side + 1 s a move: Black's flag falls on the DGT clock within the test.
  const t = new DgtHall(1, 12_000, 1_000);
  beforeAll(() => t.open(), 60_000);
  afterAll(() => t.close());

  it('f3 e5 g4 Qh4#, then Black does not press and Black’s flag falls: 0-1 by checkmate', { timeout: 60_000 }, async () => {
    const vboard = await t.begin('1');
    for (const san of ['f3', 'e5', 'g4']) await t.play('1', san);
    await t.play('1', 'Qh4#', false);
    const hall = t.run.hall;
    expect(hall.view('1')!.status).toBe('finished');
    await t.expectEnded('1', ['f3', 'e5', 'g4', 'Qh4#'], '0-1', 'checkmate (Laws 2018 Art. 5.1.1)');
    // The DGT clock keeps time and nobody stopped it: Black's time runs out on it after the mate.
    const flags = () => [...t.run.journal.entries()].filter((e) => e.record.kind === 'clock' && e.record.board === '1' && e.record.event.type === 'flag');
    await until(() => vboard.clock.side('right').finalFlag, "Black's flag on the DGT clock", 30_000);
    await until(() => flags().length === 1, 'the flag read from the clock', 5_000);
    expect(hall.view('1')!.result).toEqual({ result: '0-1', termination: 'checkmate (Laws 2018 Art. 5.1.1)' });
    expect(hall.view('1')!.flag).toBeUndefined();
    expect(hall.attention().filter((a) => a.board === '1')).toEqual([]);
    await t.expectEnded('1', ['f3', 'e5', 'g4', 'Qh4#'], '0-1', 'checkmate (Laws 2018 Art. 5.1.1)');
  });
});

describe.concurrent('stalemate, fivefold repetition and the 75-move rule from DGT boards (Laws 2018 5.2.1, 9.6)', () => {
  // 5 min + 2 s a move: no flag comes near in these games, at 3x (a 154-ply game in about 25 s).
  const t = new DgtHall(3, 300_000, 2_000, 'L2018', 3);
  beforeAll(() => t.open(), 60_000);
  afterAll(() => t.close());

  async function playOut(board: string, moves: readonly string[]): Promise<void> {
    await t.begin(board);
    for (const [i, san] of moves.entries()) {
      expect(t.run.hall.view(board)!.status, `board ${board} before ply ${i + 1} (${san})`).toBe('running');
      await t.play(board, san);
    }
  }

  it('Loyd’s ten-move stalemate: ½-½ at 10.Qe6', { timeout: 120_000 }, async () => {
    const moves = 'e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6'.split(' ');
    await playOut('1', moves);
    await t.expectEnded('1', moves, '1/2-1/2', 'stalemate (Laws 2018 Art. 5.2.1)');
  });

  it('the knights back and forth: ½-½ at the fifth occurrence of the position after 1...e5 (at 9...Nb8), not before', { timeout: 120_000 }, async () => {
    const cycle = ['Ng1', 'Nb8', 'Nf3', 'Nc6'];
    // The position after 1...e5 comes again after 3...Nb8, 5...Nb8, 7...Nb8 and 9...Nb8; the one after
    // 2...Nc6 four times only (the threefold repetitions on the way are claims, 9.2).
    const moves = ['e4', 'e5', 'Nf3', 'Nc6', ...cycle, ...cycle, ...cycle, 'Ng1', 'Nb8'];
    await playOut('2', moves);
    await t.expectEnded('2', moves, '1/2-1/2', 'fivefold repetition (Laws 2018 Art. 9.6.1)');
  });

  it('75 moves by each side without a pawn move or capture: ½-½ at the 150th such ply', { timeout: 300_000 }, async () => {
    const moves = seventyFiveMoveGame();
    expect(moves.length).toBe(154);
    await playOut('3', moves);
    await t.expectEnded('3', moves, '1/2-1/2', '75 moves by each player without a pawn move or capture (Laws 2018 Art. 9.6.2)');
  });
});

describe('Laws 2009 from a DGT board: a fifth repetition ends nothing (threefold is a claim, 9.2)', () => {
  const t = new DgtHall(1, 300_000, 2_000, 'L2009', 3);
  beforeAll(() => t.open(), 60_000);
  afterAll(() => t.close());

  it('the same knight moves go on past the fifth and sixth occurrence; the game runs until the arbiter rules on a claim', { timeout: 120_000 }, async () => {
    const cycle = ['Ng1', 'Nb8', 'Nf3', 'Nc6'];
    const moves = ['e4', 'e5', 'Nf3', 'Nc6', ...cycle, ...cycle, ...cycle, ...cycle, 'Ng1', 'Nb8'];
    await t.begin('1');
    for (const san of moves) await t.play('1', san);
    const view = t.run.hall.view('1')!;
    expect([view.status, view.result, view.moves]).toEqual(['running', undefined, { white: 11, black: 11 }]);
    await until(() => t.seen('1')?.status === 'running', 'the board running over the WebSocket');
    const pgn = await t.livePgn('1');
    expect(chessJsRejects(pgn)).toBe('');
    expect(pgnExtractRejects(pgn)).toBe('');
    expect(pgn).toContain('[Result "*"]');
  });
});
