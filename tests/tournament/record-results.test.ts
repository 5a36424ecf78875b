// recordBoardResults (the desk's section record, built at every desk change) is recordBoardResult
// applied to each result in turn: the same record, the same refusals, in one linear pass.
import { describe, expect, it } from 'vitest';
import { emptyRecord, findSection, presetEvent, recordBoardResult, recordBoardResults, type BoardResult, type SectionRecord } from '../../tournament/index.ts';
import { seededRandom } from '../../simulators/index.ts';

const section = findSection(presetEvent('sa-open-2009'), 'open');
const players = section.players.map((p) => p.id);

const oneByOne = (record: SectionRecord, results: readonly { round: number; result: BoardResult }[]): SectionRecord =>
  results.reduce((r, { round, result }) => recordBoardResult(section, r, round, result), record);

const outcome = (f: () => SectionRecord): SectionRecord | string => {
  try {
    return f();
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
};

describe('recordBoardResults', () => {
  it('gives the record one result at a time gives: corrections go last, clashes and unknown players refused alike', () => {
    const random = seededRandom(28).next;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let trial = 0; trial < 300; trial++) {
      const results: { round: number; result: BoardResult }[] = [];
      for (let i = 0; i < 1 + Math.floor(random() * 30); i++) {
        const white = random() < 0.02 ? 999 : pick(players);
        const black = random() < 0.02 ? white : pick(players);
        results.push({ round: 1 + Math.floor(random() * 3), result: { white, black, result: pick(['1-0', '0-1', '1/2-1/2'] as const) } });
        // A correction of an earlier game now and then.
        if (random() < 0.2 && results.length > 1) {
          const earlier = pick(results);
          results.push({ round: earlier.round, result: { ...earlier.result, result: '1/2-1/2', termination: 'arbiter correction' } });
        }
      }
      const start = trial % 2 ? emptyRecord : oneByOne(emptyRecord, [{ round: 2, result: { white: players[0]!, black: players[1]!, result: '1-0' } }]);
      expect(outcome(() => recordBoardResults(section, start, results))).toEqual(outcome(() => oneByOne(start, results)));
    }
  });
});
