import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditPgnGame, formatClockComment, parseClockValue, parseTimeControl, readPgnGames, replayConfig } from '../../clock-engine/internal.ts';

describe('clock values', () => {
  it.each([
    ['1:30:00', 5_400_000],
    ['01:30:00', 5_400_000],
    ['00:15:19', 919_000],
    ['0:02:58.9', 178_900],
    ['15:19', 919_000],
    ['10:00:00', 36_000_000],
  ])('%s = %i ms', (text, ms) => expect(parseClockValue(text)).toBe(ms));
  it('rejects what is not a clock value', () => {
    expect(parseClockValue('1:3')).toBeUndefined();
    expect(parseClockValue('abc')).toBeUndefined();
  });
  it('writes [%clk] truncated to the second as a clock shows it, with tenths on request, and [%emt]', () => {
    expect(formatClockComment(5_430_000)).toBe('[%clk 1:30:30]');
    expect(formatClockComment(5_429_999)).toBe('[%clk 1:30:29]');
    expect(formatClockComment(178_950, { tenths: true })).toBe('[%clk 0:02:58.9]');
    expect(formatClockComment(12_345, { kind: 'emt' })).toBe('[%emt 0:00:12]');
    expect(formatClockComment(-5)).toBe('[%clk 0:00:00]');
    for (const ms of [0, 999, 61_000, 3_599_000, 36_000_000]) {
      expect(parseClockValue(/\[%clk (\S+)\]/.exec(formatClockComment(ms))![1]!)).toBe(Math.floor(ms / 1000) * 1000);
    }
  });
});

describe('reading PGN clock comments in the formats found in the wild', () => {
  it('reads a comment wrapped over lines, separate %emt comments and two-digit hours', () => {
    const [game] = readPgnGames(`[Event "x"]
[TimeControl "15 min/game + 10 sec/move"]

1. e4 {[%clk 00:15:19]} e5 {[%clk 00:15:18]} {[%emt 00:00:02]} 2. Nf3 {[%clk
00:15:27]} {[%emt 00:00:02]} Nc6 1-0
`);
    expect(game!.plies).toEqual([
      { ply: 1, side: 'white', moveNumber: 1, san: 'e4', clockMs: 919_000 },
      { ply: 2, side: 'black', moveNumber: 1, san: 'e5', clockMs: 918_000, emtMs: 2000 },
      { ply: 3, side: 'white', moveNumber: 2, san: 'Nf3', clockMs: 927_000, emtMs: 2000 },
      { ply: 4, side: 'black', moveNumber: 2, san: 'Nc6' },
    ]);
    expect(game!.result).toBe('1-0');
    expect(game!.tags['TimeControl']).toBe('15 min/game + 10 sec/move');
  });

  it('reads spaces inside braces, eval commands, `1...` and `1. ...` for Black, variations and NAGs', () => {
    const [a, b] = readPgnGames(`[Event "a"]

1. d4 { [%eval 0.3] [%clk 1:40:32] } 1... d5 { [%clk 1:39:39] } 2. c4 $1 (2. Nf3 {[%clk 0:00:01]} Nf6) 2... e6!? {[%clk 1:40:04]} { Inaccuracy. } *

[Event "b"]

1. Nf3 {[%clk 1:28:30]} 1. ... Nf6 {[%clk 1:30:46]} 2. g3 {[%clk
1:28:57]} 2. ... g6 { [%clk 0:02:58.9] } 1/2-1/2`);
    expect(a!.plies.map((p) => [p.san, p.clockMs])).toEqual([
      ['d4', 6_032_000],
      ['d5', 5_979_000],
      ['c4', undefined],
      ['e6', 6_004_000],
    ]);
    expect(b!.plies.map((p) => [p.ply, p.side, p.san, p.clockMs])).toEqual([
      [1, 'white', 'Nf3', 5_310_000],
      [2, 'black', 'Nf6', 5_446_000],
      [3, 'white', 'g3', 5_337_000],
      [4, 'black', 'g6', 178_900],
    ]);
  });

  it('starts with Black when the FEN says so, and survives a tag that lost its bracket', () => {
    const games = readPgnGames(`[Event "x"]
[FEN "8/8/8/4k3/8/8/8/4K3 b - - 0 40"]

40... Kd5 {[%clk 0:01:00]} 41. Kd2 {[%clk 0:00:50]} *

Event "y"]
[Site "z"]

1. e4 e5 *
`);
    expect(games).toHaveLength(2);
    expect(games[0]!.plies.map((p) => [p.side, p.moveNumber])).toEqual([
      ['black', 40],
      ['white', 41],
    ]);
    expect(games[1]!.tags).toEqual({ Event: 'y', Site: 'z' });
    // The audit starts Black's clock first for such a game: 60 s + 10 s increment credited before the move.
    const report = auditPgnGame(replayConfig(parseTimeControl('50+10')), games[0]!);
    expect(report.differences).toEqual([]);
    expect(report.checked).toBe(2);
    expect(games[1]!.plies).toHaveLength(2);
  });
});

describe('garbage in', () => {
  it('reads any text without throwing, and every ply it finds is a move', () => {
    const alphabet = fc.constantFrom(...'[]{}()%clkemt 0123456789:.e4Nf3xO-+#!?$;\n"'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 200 }), (text) => {
        for (const game of readPgnGames(text)) {
          game.plies.forEach((p, i) => {
            expect(p.ply).toBe(i + 1);
            expect(p.san).toMatch(/^(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?|--|Z0)[+#]?$/);
          });
        }
      }),
      { numRuns: 1000 },
    );
  });
});
