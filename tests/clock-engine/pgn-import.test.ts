// Issue 12, PGN: the import format (several tag pairs on one line, comments wherever the standard allows
// them), checked against chess.js and pgn-extract where they read the same file; and a glitch reading
// (one 0:00:00 between normal ones) reported once while the audit goes on to the end of the game.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { afterAll, describe, expect, it } from 'vitest';
import { auditPgnGame, formatClockComment, parseTimeControl, readPgnGames, replayConfig } from '../../clock-engine/internal.ts';

const root = join(import.meta.dirname, '..', '..');
const fixture = (name: string) => readFileSync(join(root, 'tests', 'fixtures', 'pgn', name), 'utf8');
const pgnExtract = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));
const work = mkdtempSync(join(tmpdir(), 'zeitnot-pgn-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('several tag pairs on one line (lichess broadcast fixture, Norway Chess 2023)', () => {
  const text = fixture('norway_chess_2023_round3_carlsen_so.pgn');
  const games = readPgnGames(text);

  it('is one game with both tags of the shared line', () => {
    expect(games).toHaveLength(1);
    expect(games[0]!.tags).toMatchObject({ WhiteTitle: 'GM', White: 'Carlsen, Magnus', Black: 'So, Wesley', BlackFideId: '5202213' });
    expect(games[0]!.plies).toHaveLength(35);
    expect(games[0]!.plies[0]).toMatchObject({ san: 'e4', clockMs: 7_199_000 });
    expect(games[0]!.plies[1]).toMatchObject({ san: 'e5', clockMs: 7_180_000 });
    expect(games[0]!.result).toBe('*');
  });

  it('reads the same tags and moves as chess.js', () => {
    const chess = new Chess();
    chess.loadPgn(text);
    expect(games[0]!.plies.map((p) => p.san)).toEqual(chess.history());
    expect(games[0]!.tags).toEqual(chess.getHeaders());
  });

  it.skipIf(!pgnExtract)('reads the same moves as pgn-extract (one game)', () => {
    const out = spawnSync(pgnExtract!, ['-Wsan', '-C', '-N', '-V', '--nomovenumbers', '--noresults', '-w10000', '-s'], { input: text, encoding: 'utf8' });
    expect(out.status).toBe(0);
    const movetext = out.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('['));
    expect(movetext).toEqual([games[0]!.plies.map((p) => p.san).join(' ')]);
    expect(out.stdout).toContain('[White "Carlsen, Magnus"]');
    expect(out.stdout).toContain('[WhiteTitle "GM"]');
  });
});

describe('comments anywhere the standard allows them', () => {
  it('lichess import fixture: comments before the first move, in variations, `;` comments, a move number without a period', () => {
    const [game] = readPgnGames(fixture('lichess_import_annotations.pgn'));
    expect(game!.plies.map((p) => [p.side, p.moveNumber, p.san])).toEqual([
      ['white', 1, 'e4'],
      ['black', 1, 'e5'],
      ['white', 2, 'c4'],
    ]);
  });

  const importFormat = `% a line that starts with % is an escape: [Event "not a tag"]
{a comment before the tags} [Event "Import"] {between tags} [Site "Here"]
; a rest-of-line comment [Round "not a tag"]
[White "A"] [Black "B"] [TimeControl "40/5400+30:1800+30"]
{a comment with a line that looks like a tag:
[Result "1-0"]
and more} 1. {before the move} e4 {[%clk 1:30:20]} 1... {after the number} e5 {[%clk
1:30:25]} ; a rest-of-line comment after Black's move
2.Nf3{[%clk 1:30:40]}Nc6{[%clk 1:30:45]} (2... d6 {in a variation [%clk 0:00:01]}) 3. Bb5 $1 {[%clk 1:30:59]} 1-0 {after the result}
[Event "Second"] [White "C"] [Black "D"] 1. d4 {[%clk 0:05:00]} 0-1`;

  it('keeps tags, moves and clock readings where they belong, and splits the games at their results', () => {
    const games = readPgnGames(importFormat);
    expect(games).toHaveLength(2);
    expect(games[0]!.tags).toEqual({ Event: 'Import', Site: 'Here', White: 'A', Black: 'B', TimeControl: '40/5400+30:1800+30' });
    expect(games[0]!.plies.map((p) => [p.san, p.clockMs])).toEqual([
      ['e4', 5_420_000],
      ['e5', 5_425_000],
      ['Nf3', 5_440_000],
      ['Nc6', 5_445_000],
      ['Bb5', 5_459_000],
    ]);
    expect(games[0]!.result).toBe('1-0');
    expect(games[1]).toMatchObject({ tags: { Event: 'Second', White: 'C', Black: 'D' }, result: '0-1' });
    expect(games[1]!.plies.map((p) => p.san)).toEqual(['d4']);
  });

  // pgn-extract 19.04 (Debian's) stops at `;` comments, at comments among the tags or between a move
  // number and its move, and at a comment line that starts with `[`, all of which the standard allows;
  // where it reads a file (several tags a line, comments glued to moves, variations) it must agree.
  const portable = `[Event "Import"] [Site "Here"]
[White "A"] [Black "B"] [TimeControl "40/5400+30:1800+30"]

1. e4 {[%clk 1:30:20]} 1... e5 {[%clk
1:30:25]}
2.Nf3{[%clk 1:30:40]}Nc6{[%clk 1:30:45]} (2... d6 {in a variation [%clk 0:00:01]}) 3. Bb5 $1 {[%clk 1:30:59]} 1-0 {after the result}
[Event "Second"] [White "C"] [Black "D"] 1. d4 {[%clk 0:05:00]} 0-1`;

  it.skipIf(!pgnExtract)('pgn-extract finds the same two games and moves', () => {
    const out = spawnSync(pgnExtract!, ['-Wsan', '-C', '-N', '-V', '--nomovenumbers', '--noresults', '-w10000', '-s'], { input: portable, encoding: 'utf8' });
    const movetext = out.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('['));
    const games = readPgnGames(portable);
    expect(movetext).toEqual(games.map((g) => g.plies.map((p) => p.san).join(' ')));
    expect(movetext).toEqual(['e4 e5 Nf3 Nc6 Bb5', 'd4']);
    expect(games.map((g) => g.plies.map((p) => p.clockMs))).toEqual(readPgnGames(importFormat).map((g) => g.plies.map((p) => p.clockMs)));
  });
});

describe('a glitch reading is reported once and the audit goes on', () => {
  // 90+30, both players 60 s a move; White's reading after move 20 is a 0:00:00 glitch.
  const tc = parseTimeControl('5400+30');
  const plies = 80;
  const clocks: number[] = [];
  const clock = { white: 5_430_000, black: 5_430_000 };
  let movetext = '';
  for (let i = 0; i < plies; i++) {
    const side = i % 2 === 0 ? 'white' : 'black';
    clock[side] += 30_000 - 60_000;
    const shown = i === 38 ? 0 : clock[side];
    clocks.push(shown);
    movetext += `${i % 2 === 0 ? `${i / 2 + 1}. ` : ''}${i % 4 < 2 ? (side === 'white' ? 'Nf3' : 'Nf6') : side === 'white' ? 'Ng1' : 'Ng8'} {${formatClockComment(shown)}} `;
  }
  const pgn = `[Event "Glitch"]\n[White "A"]\n[Black "B"]\n[TimeControl "5400+30"]\n\n${movetext}*\n`;

  it('as one difference marked glitch, with every later reading still checked and matching', () => {
    const [game] = readPgnGames(pgn);
    expect(game!.plies).toHaveLength(plies);
    const report = auditPgnGame(replayConfig(tc), game!);
    expect(report.checked).toBe(plies);
    expect(report.stoppedAtPly).toBeUndefined();
    expect(report.differences).toEqual([expect.objectContaining({ ply: 39, side: 'white', recordedMs: 0, glitch: true })]);
    expect(report.differences[0]!.flag).toBeUndefined();
  });

  it('zeitnot replay --pgn prints it once and counts it in the game line', async () => {
    const file = join(work, 'glitch.pgn');
    writeFileSync(file, pgn);
    const { stdout, code } = await new Promise<{ stdout: string; code: number }>((resolve) =>
      execFile(process.execPath, ['bin/zeitnot.js', 'replay', '--pgn', file], { cwd: root }, (error, out) => resolve({ stdout: out, code: error ? 1 : 0 })),
    );
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ game: 1, ply: 39, recordedMs: 0, glitch: true });
    expect(lines[1]).toMatchObject({ game: 1, plies, checked: plies, differences: 1, glitches: 1 });
    expect(lines[2]).toMatchObject({ summary: true, checked: plies, differences: 1 });
  });

  it('a flag the record confirms still ends the audit, and the game line says where', () => {
    // Black's readings run down to 0:00:00 and stay there: no later reading contradicts the flag.
    const lines = [
      '[TimeControl "300"]',
      '',
      '1. e4 {[%clk 0:04:50]} e5 {[%clk 0:00:00]} 2. Nf3 {[%clk 0:04:40]} Nc6 {[%clk 0:00:00]} 3. Bc4 {[%clk 0:04:30]} *',
    ];
    const [game] = readPgnGames(lines.join('\n'));
    const report = auditPgnGame(replayConfig(parseTimeControl('300')), game!);
    expect(report.stoppedAtPly).toBe(4);
    expect(report.differences.some((d) => d.flag)).toBe(true);
  });
});
