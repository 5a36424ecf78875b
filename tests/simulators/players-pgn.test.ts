import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { commandDuration, createManualScheduler, pgnGameScript, PgnScriptError, runGameScript, splitPgnGames } from '../../simulators/internal.ts';

const oracle = (name: string) => readFileSync(new URL(`../fixtures/oracles/clocks/${name}`, import.meta.url), 'utf8');

describe('PGN replay', () => {
  it('gives the recorded [%emt] and [%clk] of every move (Feria de las Flores 2025, 90+30)', () => {
    const pgn = oracle('feria_de_las_flores_2025_round10_90+30.pgn');
    const script = pgnGameScript(pgn);
    expect(script.tags.White).toBe('Velez Torres, Sebastian');
    expect(script.result).toBe('1-0');
    expect(script.moves).toHaveLength(75);
    expect(script.moves.slice(0, 4).map((m) => [m.san, m.side, m.thinkMs, m.clockMs])).toEqual([
      ['d4', 'white', 943_000, 4_486_000],
      ['Nf6', 'black', 10_000, 5_419_000],
      ['c4', 'white', 5_000, 4_510_000],
      ['g6', 'black', 7_000, 5_442_000],
    ]);
    // Every emt as written in the file, in order.
    const recorded = [...pgn.matchAll(/\[%emt (\d+):(\d+):(\d+)\]/g)].map(([, h, m, s]) => ((+h! * 60 + +m!) * 60 + +s!) * 1000);
    expect(script.moves.map((m) => m.thinkMs)).toEqual(recorded);
    // The oracle's relation (README §clocks): clk = previous clk + 30 s - emt, to the recorded second.
    const last = { white: 5_400_000, black: 5_400_000 };
    for (const move of script.moves) {
      expect(Math.abs(move.clockMs! - (last[move.side] + 30_000 - move.thinkMs))).toBeLessThanOrEqual(1_000);
      last[move.side] = move.clockMs!;
    }
  });

  it('replays the moves to the same final position as chess.js', () => {
    const pgn = oracle('feria_de_las_flores_2025_round10_90+30.pgn');
    const chess = new Chess();
    chess.loadPgn(pgn);
    expect(pgnGameScript(pgn).moves.at(-1)?.fenAfter).toBe(chess.fen());
  });

  it('handles a DGT LiveChess file: several games, clk and emt in separate comments, missing first emt', () => {
    const games = splitPgnGames(oracle('dgt_livechess_sample_rapid_15+10.pgn'));
    expect(games).toHaveLength(12);
    expect(() => pgnGameScript(games[0]!)).toThrow(PgnScriptError);
    const script = pgnGameScript(games[0]!, { missingThinkMs: 0 });
    expect(script.moves.slice(0, 4).map((m) => [m.san, m.thinkMs, m.clockMs])).toEqual([
      ['e4', 0, 919_000],
      ['e5', 2_000, 918_000],
      ['Nf3', 2_000, 927_000],
      ['Nc6', 2_000, 927_000],
    ]);
    expect(script.moves.at(-1)?.san).toBe('Bc4');
    expect(script.result).toBe('1-0');
  });

  it('skips variations, NAGs and annotations; reads fractions of seconds', () => {
    const script = pgnGameScript(
      '[Event "t"]\n\n1. e4!? {[%emt 0:00:01.25]} (1. d4 {[%emt 0:09:00]} d5) 1... e5 $1 {[%clk 0:02:58.9] [%emt 0:00:02]} 2. Nf3 {[%emt 12:34]} *',
    );
    expect(script.moves.map((m) => [m.san, m.thinkMs, m.clockMs])).toEqual([
      ['e4', 1_250, undefined],
      ['e5', 2_000, 178_900],
      ['Nf3', 754_000, undefined],
    ]);
    expect(script.result).toBe('*');
    expect(commandDuration('[%emt x]', 'emt')).toBeUndefined();
  });

  it('rejects an illegal move with the ply that failed', () => {
    expect(() => pgnGameScript('1. e4 {[%emt 0:00:01]} e4 {[%emt 0:00:01]}')).toThrow(/"e4" at ply 2/);
  });

  it('replays at the recorded pace on a simulated clock', () => {
    const script = pgnGameScript(oracle('feria_de_las_flores_2025_round10_90+30.pgn'));
    const scheduler = createManualScheduler();
    const instants: number[] = [];
    runGameScript(script, { scheduler, onMove: (_move, at) => instants.push(at) });
    scheduler.runAll();
    expect(instants).toHaveLength(75);
    expect(instants.slice(0, 3)).toEqual([943_000, 953_000, 958_000]);
    expect(instants.at(-1)).toBe(script.moves.reduce((sum, m) => sum + m.thinkMs, 0));
  });
});

describe('PGN files as broadcasts write them', () => {
  it('reads "1. ... Nf6" and comments whose continuation line starts with "[%clk" (Roquetas 2025)', () => {
    const games = splitPgnGames(oracle('roquetas_open_2025_round5.pgn'));
    expect(games).toHaveLength(1);
    const script = pgnGameScript(games[0]!, { missingThinkMs: 0 });
    const chess = new Chess();
    chess.loadPgn(games[0]!);
    expect(script.moves.map((m) => m.san)).toEqual(chess.history());
    expect(script.moves.slice(0, 2).map((m) => m.clockMs)).toEqual([5_310_000, 5_446_000]);
  });

  it('reads every game of Tata Steel 2017 like chess.js, stopping each at its result', () => {
    // The file has 90 [Event] tags and one game whose Event tag lost its "[": 91 games.
    const games = splitPgnGames(oracle('tata_steel_2017_masters.pgn'));
    expect(games).toHaveLength(91);
    for (const game of games) {
      const script = pgnGameScript(game, { missingThinkMs: 0 });
      const chess = new Chess();
      chess.loadPgn(game.replace(/^Event .*$/m, ''));
      expect(script.moves.map((m) => m.san)).toEqual(chess.history());
    }
  });

  it('reads consecutive comments, which chess.js 1.4 refuses (Tata Steel 2022)', () => {
    const games = splitPgnGames(oracle('tata_steel_2022_masters_3games.pgn'));
    expect(() => new Chess().loadPgn(games[0]!)).toThrow();
    expect(games.map((game) => pgnGameScript(game, { missingThinkMs: 0 }).moves.length).every((n) => n > 20)).toBe(true);
  });
});
