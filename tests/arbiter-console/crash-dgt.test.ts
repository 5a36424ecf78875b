// The game records survive a crash: the console runs as a child process with 20 virtual DGT boards
// (virtual players moving pieces and pressing levers, read by the real DGT bridge) and a real SQLite
// journal, and is killed with SIGKILL ten times mid-round. After every restart the live PGN of every
// board is legal for chess.js and pgn-extract, no move is journaled twice (each board's moves replay as
// one legal game, never more than its presses; a board re-read after a restart goes on from the
// position it was re-read at), and every game goes on.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../arbiter-console/index.ts';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { fortyPlayerEventFile } from './fixtures.ts';

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-crash-dgt-'));

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--data', join(dataDir, 'data'), '--port', '0', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  child.once('exit', (code, signal) => {
    if (signal !== 'SIGKILL' && signal !== 'SIGTERM') died = `console exited (${code ?? signal}): ${err}`;
  });
  const end = Date.now() + 60_000;
  while (!/spectators:\s+(\S+)\/spectator/.test(out)) {
    if (child.exitCode !== null || Date.now() > end) throw new Error(`console did not start: ${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url: /spectators:\s+(\S+)\/spectator/.exec(out)![1]! };
}

interface BoardSummary {
  readonly id: string;
  readonly status: string;
  readonly presses: { white: number; black: number };
  readonly moves: { white: number; black: number };
}

/** Why a console died by itself, if one did. */
let died = '';

async function boards(url: string): Promise<BoardSummary[]> {
  if (died) throw new Error(died);
  return ((await (await fetch(`${url}/api/boards`)).json()) as { boards: BoardSummary[] }).boards;
}

const plies = (b: BoardSummary) => b.moves.white + b.moves.black;
/** Presses whose board move is not read yet. */
const unread = (b: BoardSummary) => b.presses.white + b.presses.black - plies(b);

async function waitForPlies(url: string, enough: (boards: BoardSummary[]) => boolean, ms = 90_000): Promise<BoardSummary[]> {
  const end = Date.now() + ms;
  for (;;) {
    const now = await boards(url);
    if (enough(now)) return now;
    if (Date.now() > end) throw new Error(`boards did not move on: ${JSON.stringify(now.map((b) => [b.id, b.presses, b.moves]))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Boards re-read after a restart (journal order), over the whole test. */
let rereads: string[] = [];

/** Every board's journaled moves replay as one legal game with no move twice, and match its presses. */
function checkJournal(): void {
  rereads = [];
  const journal = new Journal(join(dataDir, 'data', 'journal.sqlite'));
  const games = new Map<string, Chess>();
  const presses = new Map<string, number>();
  const recent = new Map<string, string[]>();
  const movesOf = new Map<string, number>();
  try {
    for (const { seq, record } of journal.entries()) {
      if (record.kind !== 'clock') continue;
      const e = record.event;
      const log = recent.get(record.board) ?? [];
      recent.set(record.board, [...log.slice(-15), `${seq} ${e.type} ${'side' in e ? e.side : ''} ${'san' in e ? e.san : ''}`]);
      if (e.type === 'press') presses.set(record.board, (presses.get(record.board) ?? 0) + 1);
      if (e.type !== 'boardMove' && e.type !== 'boardPosition') continue;
      if (e.type === 'boardPosition') {
        // A board killed again before it had read the moves made while it was down can lag by more
        // plies than a search explains: it is re-read (alerted), and its game goes on from there.
        expect(e.plies, `board ${record.board}: a takeback after a restart\n${recent.get(record.board)!.join('\n')}`).toBeGreaterThanOrEqual(0);
        rereads.push(`${record.board}: ${e.detail ?? ''}`);
        games.set(record.board, new Chess(e.fen));
        continue;
      }
      const game = games.get(record.board) ?? new Chess();
      games.set(record.board, game);
      const side = game.turn() === 'w' ? 'white' : 'black';
      expect(`${record.board}: ${e.side} ${e.san}`).toBe(`${record.board}: ${side} ${e.san}`);
      game.move(e.san);
      expect(game.fen()).toBe(e.fen);
      movesOf.set(record.board, (movesOf.get(record.board) ?? 0) + 1);
    }
  } finally {
    journal.close();
  }
  expect(games.size).toBe(20);
  // Rare, never systematic (0 to 3 seen in a run of 200 board restarts): the players of a board killed
  // again before it had read the moves made while it was down get more plies ahead than a search
  // explains. Each re-read is an alert and a legal PGN from the position; a bound keeps it rare.
  expect(rereads.length, rereads.join('\n')).toBeLessThanOrEqual(8);
  for (const [id] of games) {
    // A press is journaled before its board move is read (the board reads moves made while the console
    // was down after the restart, so a board killed again soon after may lag by a few): no move is read
    // that nobody pressed for (a move read twice would be one). Re-read boards skip unseen plies.
    const moves = movesOf.get(id) ?? 0;
    const apart = (presses.get(id) ?? 0) - moves;
    if (!rereads.some((r) => r.startsWith(`${id}:`))) expect(apart, `board ${id}: ${presses.get(id)} presses, ${moves} moves`).toBeGreaterThanOrEqual(0);
  }
}

async function checkPgn(url: string): Promise<void> {
  const pgn = await (await fetch(`${url}/api/pgn`)).text();
  expect((pgn.match(/^\[Event /gm) ?? []).length).toBe(20);
  expect(chessJsRejects(pgn)).toBe('');
  expect(pgnExtractRejects(pgn)).toBe('');
}

describe('crash and restart with 20 simulated DGT boards', () => {
  it('keeps every game record through SIGKILL x10: legal PGN, no move twice, every game goes on', async () => {
    let run = await serve([
      '--event',
      fortyPlayerEventFile(dataDir),
      '--auto-publish',
      '--simulate',
      '20',
      '--time-scale',
      '60',
      '--start-in',
      '0',
      '--auto-start',
    ]);
    const moved = (base: Map<string, number>, b: BoardSummary) => b.status === 'finished' || plies(b) > base.get(b.id)!;
    let before = await waitForPlies(run.url, (all) => all.every((b) => plies(b) >= 2 && unread(b) <= 1));
    const first = new Map(before.map((b) => [b.id, plies(b)]));
    for (let kill = 1; kill <= 10; kill++) {
      run.child.kill('SIGKILL');
      await new Promise((r) => run.child.once('exit', r));
      checkJournal();
      // The arbiter restarts it as it was started: the journal keeps the round, the scale and the seed.
      run = await serve(['--simulate', '20']);
      const resumed = await boards(run.url);
      // Nothing was read twice or lost on the way up: the board counts are the journal's.
      for (const b of resumed) expect(plies(b)).toBeGreaterThanOrEqual(plies(before.find((x) => x.id === b.id)!));
      await checkPgn(run.url);
      // The games go on: half the boards move again before the next kill, and no board's reading is
      // more than one press behind. A kill may come between a press and its reading (the restart reads
      // that move), but three plies made unread may be a transposition no board can order (docs/dgt.md:
      // re-seeded, by design), which a console killed every second on a loaded machine would reach.
      const base = new Map(resumed.map((b) => [b.id, plies(b)]));
      before = await waitForPlies(run.url, (all) => all.filter((b) => moved(base, b)).length >= 10 && all.every((b) => unread(b) <= 1));
    }
    // ...and after the last restart every board has moved on.
    const last = new Map(before.map((b) => [b.id, plies(b)]));
    await waitForPlies(run.url, (all) => all.every((b) => moved(last, b) && moved(first, b)));
    await checkPgn(run.url);
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.once('exit', r));
    checkJournal();
  }, 600_000);
});
