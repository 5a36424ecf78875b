// The command line, run as a user runs it (node bin/zeitnot.js): `dgt decode` on a real capture and on
// hex text with noise, and `devices` finding the virtual board behind a real pty.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { boardDumpMessage, clockTimesMessage, fieldUpdateMessage, squareIndex, type PieceLetter } from '../../device-bridge/index.ts';
import { createManualScheduler, createVirtualLineClock, ptyBoardLink, ptySerialDevice, VirtualDgtBoard } from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';

const root = resolve(import.meta.dirname, '../..');
const captures = resolve(root, 'tests/fixtures/oracles/dgt/arnsholt_dgtdriver');

function zeitnot(args: string[], stdin?: Buffer | string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'bin/zeitnot.js'), ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('zeitnot dgt decode', () => {
  it('prints one JSON object per message of a real capture, and the counts on stderr', async () => {
    const raw = Buffer.concat(
      readFileSync(resolve(captures, '1.inbytes'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => Buffer.from(l, 'base64')),
    );
    const { code, stdout, stderr } = await zeitnot(['dgt', 'decode'], raw);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines).toHaveLength(455);
    expect(lines.filter((l) => l.type === 'fieldUpdate')).toHaveLength(131);
    expect(lines[1]).toMatchObject({ type: 'clock', right: { ms: 182_000, flag: false }, left: { ms: 182_000 }, runningSide: 'none' });
    expect(JSON.parse(stderr.trim())).toEqual({ stats: { messages: 455, garbageBytes: 0, badHeaders: 0, badLengths: 0, truncated: 0, badPayloads: 0 } });
  });

  it('--hex: reads hex text and reports what it skipped, in order', async () => {
    const { code, stdout } = await zeitnot(['dgt', 'decode', '--hex'], '0x01,0x02 8D 00 0A 0A 10 0A 0A 00 00 00\nzz 93 00 05 03 0a 8e 00');
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { type: 'error', reason: 'garbage', offset: 0, bytes: '01 02', count: 2, detail: '2 byte(s) outside any message' },
      { type: 'clockAck', ack: [0x10, 0x0a, 0, 0], ok: true, auto: false, command: 0x0a },
      { type: 'error', reason: 'garbage', offset: 12, bytes: '', count: 0, detail: "'z' in the hex input is not a hex digit" },
      { type: 'error', reason: 'garbage', offset: 12, bytes: '', count: 0, detail: "'z' in the hex input is not a hex digit" },
      { type: 'version', major: 3, minor: 10, text: '3.10' },
      { type: 'error', reason: 'truncated', offset: -1, bytes: '', count: 2, detail: 'input ended inside a message (2 bytes kept)' },
    ]);
  });

  it('says how to use it when the subcommand or an option is wrong', async () => {
    const wrong = await zeitnot(['dgt', 'listen']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/expected 'decode' or 'moves'/);
    const help = await zeitnot(['dgt', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/zeitnot dgt decode \[--hex\]/);
  });
});

describe('zeitnot dgt moves', () => {
  const captureBytes = (name: string) =>
    Buffer.concat(
      readFileSync(resolve(captures, `${name}.inbytes`), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => Buffer.from(l, 'base64')),
    );

  it('prints the game of a real capture as JSON lines, then the result signal', async () => {
    const { code, stdout, stderr } = await zeitnot(['dgt', 'moves'], captureBytes('johan'));
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ply?: number; san?: string; uci?: string; fen?: string; resultSignal?: string });
    const chess = new Chess();
    chess.loadPgn(readFileSync(resolve(captures, 'johan.pgn'), 'utf8'));
    const history = chess.history({ verbose: true });
    expect(lines.slice(0, -1)).toEqual(history.map((m, i) => ({ ply: i + 1, san: m.san, uci: m.from + m.to + (m.promotion ?? ''), fen: m.after })));
    expect(lines.at(-1)).toEqual({ resultSignal: '1-0' });
    expect(JSON.parse(stderr.trim())).toEqual({ takebacks: 0, ambiguous: 0, unrecognised: 0, reseeds: 0 });
  });

  it('recovers a takeback and a castle made rook first, and re-seeds where no legal moves explain the board (hex)', async () => {
    const start = new Chess();
    const dump = (fen: string) => {
      const squares: PieceLetter[] = [];
      for (const row of new Chess(fen).board()) for (const c of row) squares.push((c ? (c.color === 'w' ? c.type.toUpperCase() : c.type) : '.') as PieceLetter);
      return boardDumpMessage(squares);
    };
    const put = (square: string, piece: PieceLetter) => fieldUpdateMessage(squareIndex(square), piece);
    const tick = clockTimesMessage({ ms: 60_000 }, { ms: 60_000 }, 0);
    const frames: Uint8Array[] = [dump(start.fen()), tick];
    const move = (...updates: [string, PieceLetter][]) => frames.push(...updates.map(([sq, p]) => put(sq, p)), tick, tick, tick);
    move(['e2', '.'], ['e4', 'P']);
    move(['e7', '.'], ['e5', 'p']);
    move(['g1', '.'], ['f3', 'N']);
    move(['f3', '.'], ['g1', 'N']); // taken back
    move(['g1', '.'], ['f3', 'N']);
    move(['b8', '.'], ['c6', 'n']);
    move(['f1', '.'], ['c4', 'B']);
    move(['f8', '.'], ['c5', 'b']);
    move(['h1', '.'], ['f1', 'R']); // rook first...
    move(['e1', '.'], ['g1', 'K']); // ...then the king, seconds later
    // Pieces no legal move explains (a knight jumps in from nowhere), and the game goes on from there.
    move(['b1', '.'], ['b8', 'N']);
    move(['h7', '.'], ['h6', 'p']);
    const hex = Buffer.concat(frames).toString('hex').replace(/(..)/g, '$1 ');
    const { code, stdout, stderr } = await zeitnot(['dgt', 'moves', '--hex'], hex);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { san?: string; unexplained?: { reason: string; fen: string } });
    expect(lines.map((l) => l.san ?? (l.unexplained ? `unexplained:${l.unexplained.reason}` : '?'))).toEqual([
      'e4',
      'e5',
      'Nf3',
      'Nc6',
      'Bc4',
      'Bc5',
      'O-O',
      'unexplained:no-legal-path',
      'h6',
    ]);
    expect(lines[7]!.unexplained!.fen).toBe('rNbqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/R1BQ1RK1 b kq - 0 4');
    expect(JSON.parse(stderr.trim())).toMatchObject({ takebacks: 1, reseeds: 1 });
  });
});

describe('zeitnot devices', () => {
  it('finds the virtual DGT board behind a pty given with --path', async () => {
    const board = new VirtualDgtBoard({ scheduler: createManualScheduler(), serial: '07777', version: { major: 3, minor: 24 } });
    const pair = await openPtyPair();
    cleanups.push(() => pair.close());
    const link = await ptyBoardLink(board, pair.b);
    cleanups.push(() => link.close());
    const { code, stdout } = await zeitnot(['devices', '--path', pair.a, '--timeout', '2000', '--json']);
    expect(code).toBe(0);
    const ports = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { path: string });
    expect(ports.find((p) => p.path === pair.a)).toEqual({ path: pair.a, dgt: { version: '3.24', serial: '07777' } });
  });

  it('finds a virtual line-protocol clock behind a pty, after the DGT probe gets no answer', async () => {
    const pair = await openPtyPair();
    cleanups.push(() => pair.close());
    const end = await ptySerialDevice(pair.b);
    cleanups.push(() => end.close());
    const clock = createVirtualLineClock({ end, scheduler: createManualScheduler(), name: 'LINE-7', initialMs: { white: 60_000, black: 60_000 } });
    clock.powerOn();
    const { code, stdout } = await zeitnot(['devices', '--path', pair.a, '--timeout', '1500', '--json']);
    expect(code).toBe(0);
    const ports = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { path: string });
    expect(ports.find((p) => p.path === pair.a)).toEqual({ path: pair.a, line: { name: 'LINE-7', version: 1 } });
  });

  it('says what to do about a port that cannot be opened', async () => {
    const { code, stdout } = await zeitnot(['devices', '--path', '/dev/ttyZEITNOT9', '--timeout', '200']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\/dev\/ttyZEITNOT9 +cannot open: \/dev\/ttyZEITNOT9 does not exist: is the board plugged in and switched on\?/m);
  });

  it('rejects a bad timeout', async () => {
    const { code, stderr } = await zeitnot(['devices', '--timeout', 'soon']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--timeout wants a positive whole number/);
  });
});
