// The broadcast audit (`zeitnot replay --pgn`) reports a jump where it is: on real records of a 40-move
// control with the increment from move 41, where the next period and the first increment come at the same
// press (London Chess Classic 2016, the DGT clock crediting before the move; Shamkir 2019, after the press:
// tests/fixtures/oracles/README.md section 1), audited under controls that lack the period, the increment
// or both. The plies reported are exactly the readings that rise by more than the control given allows
// since the same player's previous reading, computed here from the record alone, and none is labelled a
// glitch: not the readings before a jump, not the readings around it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  auditPgnGame,
  readPgnGames,
  replayConfig,
  timeControlFromTag,
  timeControlPresets,
  type PgnGame,
  type TimeControl,
} from '../../clock-engine/internal.ts';

const oracle = (file: string) => readPgnGames(readFileSync(new URL(`../fixtures/oracles/clocks/${file}`, import.meta.url), 'utf8'));
const TOLERANCE_MS = 1000;
const PERIOD_MS = 3600_000;
const INCREMENT_MS = 30_000;

type Credit = TimeControl['incrementCredit'];
interface Cut {
  readonly control: string;
  readonly period: boolean;
  readonly increment: boolean;
}
const cuts: readonly Cut[] = [
  { control: '7200+30@41', period: false, increment: true },
  { control: '40/7200:3600', period: true, increment: false },
  { control: '7200', period: false, increment: false },
];

/**
 * What a clock under `cut` can add to the reading after a player's move `move`: the period at the press
 * of move 40 and the increment of the moves from 41 (credited before the move: at the press of the move
 * before; after the press: at its own).
 */
function allowedMs(cut: Cut, credit: Credit, move: number): number {
  const incrementFrom = credit === 'before-move' ? 40 : 41;
  return (cut.period && move === 40 ? PERIOD_MS : 0) + (cut.increment && move >= incrementFrom ? INCREMENT_MS : 0);
}

/** The plies whose reading rises above the same player's previous one by more than `cut` allows, from the record alone. */
function unexplainedJumps(game: PgnGame, cut: Cut, credit: Credit): number[] {
  const last: { white?: number; black?: number } = {};
  const out: number[] = [];
  for (const p of game.plies) {
    if (p.clockMs === undefined) continue;
    const previous = last[p.side] ?? 7200_000;
    if (p.clockMs - previous > allowedMs(cut, credit, Math.ceil(p.ply / 2)) + TOLERANCE_MS) out.push(p.ply);
    last[p.side] = p.clockMs;
  }
  return out;
}

const records: readonly [file: string, credit: Credit, anomalies: readonly string[]][] = [
  // London 1.2 (frozen readings) and 2.3 (the period after move 39) are the record's own anomalies.
  ['london_chess_classic_2016.pgn', 'before-move', ['1.2', '2.3']],
  ['shamkir_chess_2019_round1.pgn', 'after-press', []],
];

describe.each(records)('%s (the increment credited %s)', (file, credit, anomalies) => {
  const full: TimeControl = { ...timeControlPresets['london-classic']!.timeControl, incrementCredit: credit };
  const games = oracle(file).filter((g) => !anomalies.includes(g.tags['Round'] ?? ''));
  const audit = (tc: TimeControl, game: PgnGame) => auditPgnGame(replayConfig(tc), game);

  it('under its control (120 min / 40, then 60 min, +30 s from move 41) every reading is explained; the period and the increment come at one press', () => {
    let periods = 0;
    for (const game of games) {
      const report = audit(full, game);
      expect(report.differences, `round ${game.tags['Round']}`).toEqual([]);
      for (const p of report.periodPlies) expect(p.ply, `round ${game.tags['Round']}`).toBe(p.side === 'white' ? 79 : 80);
      periods += report.periodPlies.length;
    }
    expect(periods).toBeGreaterThan(file.startsWith('london') ? 20 : 4);
  });

  it.each(cuts)('under $control: exactly the readings the control cannot explain, none labelled a glitch', (cut) => {
    const tc: TimeControl = { ...timeControlFromTag(cut.control), incrementCredit: credit };
    let reported = 0;
    for (const game of games) {
      const report = audit(tc, game);
      const round = `round ${game.tags['Round']}`;
      expect(report.stoppedAtPly, round).toBeUndefined();
      expect(
        report.differences.map((d) => d.ply),
        round,
      ).toEqual(unexplainedJumps(game, cut, credit));
      expect(
        report.differences.filter((d) => d.glitch).map((d) => d.ply),
        round,
      ).toEqual([]);
      reported += report.differences.length;
    }
    // Shamkir's players took more than the 30 s a move after move 40, so no reading rises without it there.
    if (file.startsWith('london') || !cut.period) expect(reported).toBeGreaterThan(0);
  });
});

describe('the jump at the period, with its increment, under a control without the period', () => {
  it('London 2016 round 8.3 under 120 min + 30 s from move 41: plies 79 and 80 and no other', () => {
    const game = oracle('london_chess_classic_2016.pgn').find((g) => g.tags['Round'] === '8.3')!;
    const report = auditPgnGame(replayConfig(timeControlFromTag('7200+30@41')), game);
    expect(report.differences.map((d) => [d.ply, d.glitch ?? false])).toEqual([
      [79, false],
      [80, false],
    ]);
  });

  it('… and under 120 min / 40, 60 min without the increment: the +30 s that came with the period, at plies 79 and 80, not the readings of move 39', () => {
    // White 1:44 after move 39, 1:01:56 after 40: 3612 s more, the period and most of the increment; Black
    // 7:48 after 39, 1:08:02 after 40: 3614 s more. Black had used 3 min on move 39: no glitch either.
    const game = oracle('london_chess_classic_2016.pgn').find((g) => g.tags['Round'] === '8.3')!;
    const report = auditPgnGame(replayConfig(timeControlFromTag('40/7200:3600')), game);
    expect(report.differences.slice(0, 2).map((d) => [d.ply, d.glitch ?? false, d.recordedMs - d.engineMs])).toEqual([
      [79, false, 12_000],
      [80, false, 14_000],
    ]);
  });
});
