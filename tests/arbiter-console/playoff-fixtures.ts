// The Cairns Cup 2019 on a console, its nine rounds played on the clocks to a forced tie for first
// (results entered on the boards, as an arbiter would): the starting point of the playoff tests.
import { expect } from 'vitest';
import type { GameResult } from '../../clock-engine/index.ts';
import type { ManualSource, RunningConsole } from '../../arbiter-console/internal.ts';
import { presetEvent } from '../../tournament/index.ts';

export const event = presetEvent('cairns-cup-2019');
export const SECTION = 'main';
export const PLAYOFF = 'main/playoff';

export const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });
export const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
export const source = (c: RunningConsole): ManualSource => c.hall.source as ManualSource;
export const nameOf = (id: number): string => event.sections[0]!.players.find((p) => p.id === id)!.name;

/** White's score in a main-event game between pairing numbers. */
export type Script = (white: number, black: number) => 1 | 0.5 | 0;

/** `leaders` draw among themselves and beat everyone else; the others by a fixed pattern. */
export const leadersScript =
  (leaders: readonly number[]): Script =>
  (w, b) => {
    if (leaders.includes(w) && leaders.includes(b)) return 0.5;
    if (leaders.includes(w)) return 1;
    if (leaders.includes(b)) return 0;
    return (w + b) % 3 === 0 ? 0.5 : w < b ? 1 : 0;
  };

const resultOf = (score: 1 | 0.5 | 0): GameResult => (score === 1 ? '1-0' : score === 0 ? '0-1' : '1/2-1/2');

/** The nine rounds, each paired, published, played on the clocks (results on the boards) and confirmed. */
export async function playMainEvent(c: RunningConsole, script: Script): Promise<void> {
  const desk = c.desks.get(SECTION)!;
  for (let round = 1; round <= 9; round += 1) {
    ok(desk.command({ type: 'pairNextRound', section: SECTION }, 'IA'));
    ok(desk.command({ type: 'publishRound', section: SECTION }, 'IA'));
    ok(c.hall.command({ type: 'arriveAll' }, 'IA'));
    ok(c.hall.command({ type: 'startAll', section: SECTION }, 'IA'));
    source(c).advance(60_000);
    for (const [board, pair] of desk.hallPairs) {
      const score = script(pair.white, pair.black);
      // A draw a minute into the game is no agreement (the 30-move rule refuses one): a repetition the arbiter upholds.
      const result = resultOf(score);
      ok(
        c.hall.command(
          score === 0.5
            ? { type: 'result', board, result, termination: 'threefold repetition (9.2)', drawBy: 'ruling' }
            : { type: 'result', board, result, termination: 'resignation' },
          'IA',
        ),
      );
    }
    ok(desk.command({ type: 'confirmRound', section: SECTION }, 'IA'));
    source(c).advance(3_600_000);
  }
  await turn();
}
