// The arbiter's "set the board's position" (FEN) for what the board's reading cannot explain: checked at
// the protocol's boundary (zod: a FEN's six fields) and by the console (chess.js: a legal position),
// journaled as a boardPosition event with the arbiter's name and reason, a new start in the live PGN,
// and passed to a DGT board, whose reading goes on from there (reporting no second event for it).
// A real console, its WebSocket protocol, and a virtual DGT board over a socat pseudo-terminal pair.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemScheduler } from '../../device-bridge/internal.ts';
import { ptyBoardLink, VirtualDgtBoard, type PtyBoardLink } from '../../simulators/internal.ts';
import { arbiterCommandSchema, parseDeviceSpec, startConsole, type JournalRecord, type RunningConsole } from '../../arbiter-console/internal.ts';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';
import { oneSectionConsole } from './fixtures.ts';
import { openClient, type TestClient } from '../support/ws-client.ts';

// Where the pieces really stand after 1. e4 e5 2. Nf3 (the board's reading missed something).
const FEN = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';

let dir: string;
let pair: PtyPair;
let vboard: VirtualDgtBoard;
let link: PtyBoardLink;
let run: RunningConsole;
let arbiter: TestClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-set-position-'));
  pair = await openPtyPair();
  vboard = new VirtualDgtBoard({ scheduler: systemScheduler, leftMs: 5_430_000, rightMs: 5_430_000, incrementMs: 30_000, leverHigh: 'left' });
  link = await ptyBoardLink(vboard, pair.b);
  run = await startConsole({
    dataDir: join(dir, 'data'),
    port: 0,
    noPage: true,
    ...oneSectionConsole({ boards: 2 }),
    devices: [parseDeviceSpec(`1=dgt:${pair.a}`)],
  });
  arbiter = await openClient(run.url);
  arbiter.send({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Jones' });
  await arbiter.next((m) => m.type === 'snapshot', 'the snapshot');
}, 60_000);

afterAll(async () => {
  arbiter?.ws.close();
  await run?.stop();
  await link?.close();
  vboard?.dispose();
  await pair?.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = (): JournalRecord[] => [...run.journal.entries()].map((e) => e.record);
const positions = (board: string) => records().filter((r) => r.kind === 'clock' && r.board === board && r.event.type === 'boardPosition');
let next = 0;
async function command(command: object): Promise<{ type: string; reason?: unknown }> {
  const id = `c${++next}`;
  const after = arbiter.messages.length;
  arbiter.send({ type: 'command', id, command });
  return (await arbiter.next(
    (m) => (m.type === 'ack' || m.type === 'refused' || m.type === 'error') && (m.id === id || m.type === 'error'),
    `the answer to ${id}`,
    after,
  )) as { type: string; reason?: unknown };
}

it('the protocol takes a FEN only in its six fields, with a reason', () => {
  const ok = { type: 'setPosition', board: '1', fen: FEN, reason: 'pieces knocked over' };
  expect(arbiterCommandSchema.safeParse(ok).success).toBe(true);
  for (const bad of [
    { ...ok, fen: 'e4 e5 Nf3' },
    { ...ok, fen: FEN.replace(' b ', ' x ') },
    { ...ok, reason: ' ' },
    { ...ok, fen: `${FEN} extra` },
  ]) {
    expect(arbiterCommandSchema.safeParse(bad).success).toBe(false);
  }
});

it("sets a DGT board's position: journaled once with who and why, a new start in the PGN, the board read on from there", { timeout: 60_000 }, async () => {
  const hall = run.hall;
  await until(() => hall.view('1')!.device?.connection === 'connected', 'the DGT board connected');
  expect(await command({ type: 'arriveAll' })).toMatchObject({ type: 'ack' });
  expect(await command({ type: 'startAll' })).toMatchObject({ type: 'ack' });

  // A position no legal position fits: refused, nothing journaled.
  const twoKings = '4k3/8/8/8/8/8/8/K3K3 w - - 0 1';
  expect(await command({ type: 'setPosition', board: '1', fen: twoKings, reason: 'test' })).toMatchObject({
    type: 'refused',
    code: 'illegal-position',
    reason: expect.stringContaining('not a legal position'),
  });
  // A malformed one does not pass the protocol.
  expect(await command({ type: 'setPosition', board: '1', fen: 'e4 e5', reason: 'test' })).not.toMatchObject({ type: 'ack' });
  expect(positions('1')).toHaveLength(0);

  // Where the pieces stand: the board is set up so, and the arbiter says it.
  vboard.setPosition(FEN);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = positions('1').length;
  expect(await command({ type: 'setPosition', board: '1', fen: FEN, reason: 'pieces knocked over and set up again' })).toMatchObject({ type: 'ack' });
  const set = positions('1').slice(before);
  // Once, the arbiter's (the board reports no second event for it, and no re-read of its own).
  expect(set).toHaveLength(1);
  expect(set[0]).toMatchObject({
    event: {
      type: 'boardPosition',
      fen: FEN,
      plies: 0,
      by: { kind: 'arbiter', name: 'IA Jones' },
      detail: 'set by the arbiter: pieces knocked over and set up again',
    },
  });
  expect(hall.boards.get('1')!.state.fen).toBe(FEN);

  // The board's reading goes on from the arbiter's position: Black's 2... Nc6 is a move.
  vboard.move('b8c6');
  await until(
    () => records().some((r) => r.kind === 'clock' && r.board === '1' && r.event.type === 'boardMove' && r.event.san === 'Nc6'),
    "Black's Nc6 read from the set position",
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(positions('1')).toHaveLength(before + 1);

  // The live PGN: a new start at the arbiter's FEN, and legal in both validators.
  const pgn = await (await fetch(`${run.url}/api/pgn`)).text();
  expect(pgn).toContain(`[FEN "${FEN}"]`);
  expect(pgn).toContain('Nc6');
  expect(chessJsRejects(pgn)).toBe('');
  expect(pgnExtractRejects(pgn)).toBe('');

  // A board without a board reader (no device): the position still sets the game's record.
  expect(await command({ type: 'setPosition', board: '2', fen: FEN, reason: 'scoresheets agree on this position' })).toMatchObject({ type: 'ack' });
  expect(hall.boards.get('2')!.state.fen).toBe(FEN);
  expect(positions('2')).toHaveLength(1);
});
