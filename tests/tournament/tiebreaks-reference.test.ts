// Issue 12, tie-breaks as TieBreakServer (the FIDE reference code) computes them: REP, PTP and the C.07
// codes and modifiers added here (APPO, STD, TPN, RTNG, DE/P, /U, AOB/F), on bbpPairings-generated
// tournaments; its outputs are committed (fixtures/trf/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedScoreHundredths, parseTiebreak, parseTrf, rankStandings, tiebreakContext, tiebreakValue } from '../../tournament/internal.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'trf');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');

function reference(name: string): { codes: string[]; rows: Map<number, string[]> } {
  const [header, ...rows] = read(`${name}.tiebreakserver.tsv`)
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  return { codes: header!.slice(2), rows: new Map(rows.map((r) => [Number(r[0]), r.slice(2)])) };
}

describe('the same values as TieBreakServer', () => {
  // AOB/F on the 8-player file: TieBreakServer's fore mode counts a last-round forfeit as a drawn game
  // for the opponents' Fore Buchholz, zeitnot's FB does not (docs/tournament-rules.md): not compared.
  const skipped: Record<string, string[]> = { 'dutch-8-players-7-rounds': ['AOB/F'] };
  for (const name of ['scoring-162-3-1-0', 'dutch-8-players-7-rounds']) {
    it(name, () => {
      const { codes, rows } = reference(name);
      const t = parseTrf(read(`${name}.trf`));
      const ctx = tiebreakContext(t, { roundRobin: false, unplayedRules: '2026' });
      let compared = 0;
      for (const [id, values] of rows) {
        codes.forEach((code, i) => {
          if (skipped[name]?.includes(code)) return;
          const expected = Number(values[i]);
          expect(tiebreakValue(ctx, code, id), `${name} player ${id} ${code}`).toBeCloseTo(expected, 6);
          compared++;
        });
      }
      expect(compared).toBeGreaterThanOrEqual(80);
    });
  }
});

describe('REP and PTP, the cases that were off', () => {
  it('REP counts a pairing-allocated bye worth less than a win (162 P 1.0 against W 3.0)', () => {
    const line = (id: number, points: string, slot: string) => `001 ${String(id).padStart(4)}`.padEnd(80) + points.padStart(4) + ' '.repeat(7) + slot;
    const t = parseTrf(['162  W 3.0    D 1.0    P 1.0', line(1, '3.0', '   2 w 1'), line(2, '0.0', '   1 b 0'), line(3, '1.0', '   0 - U')].join('\n'));
    const ctx = tiebreakContext(t, { roundRobin: false });
    expect([1, 2, 3].map((id) => tiebreakValue(ctx, 'REP', id))).toEqual([1, 1, 1]);
  });

  it("the expected-score table is TieBreakServer's at every difference (735 is still .99)", () => {
    const table = JSON.parse(read('tiebreakserver-diff-to-pd.json')) as number[];
    expect(table).toHaveLength(801);
    table.forEach((pd, d) => expect(expectedScoreHundredths(1600 + d, 1600), `difference ${d}`).toBe(pd));
    expect(expectedScoreHundredths(2735, 2000)).toBe(99);
    expect(expectedScoreHundredths(2736, 2000)).toBe(100);
  });

  it('PTP of a full score is the first rating the table gives 1.00 (highest opponent + 736), not + 800', () => {
    const line = (id: number, rating: number, points: string, slot: string) =>
      `001 ${String(id).padStart(4)}`.padEnd(48) + String(rating).padStart(4) + ' '.repeat(28) + points.padStart(4) + ' '.repeat(7) + slot;
    const t = parseTrf([line(1, 2000, '1.0', '   2 w 1'), line(2, 2000, '0.0', '   1 b 0')].join('\n'));
    const ctx = tiebreakContext(t, { roundRobin: false });
    expect(tiebreakValue(ctx, 'PTP', 1)).toBe(2736);
    expect(tiebreakValue(ctx, 'PTP', 2)).toBe(1200);
  });
});

describe('the codes and modifiers added', () => {
  it('parse with their canonical names and refuse where they do not apply', () => {
    expect(parseTiebreak('de/p')).toMatchObject({ code: 'DE/P', base: 'DE', predetermined: true });
    expect(parseTiebreak('PTP/U1000')).toMatchObject({ code: 'PTP/U1000', unrated: 1000 });
    expect(parseTiebreak('AOB/F')).toMatchObject({ code: 'AOB/F', fore: true });
    for (const code of ['APPO', 'STD', 'TPN', 'RTNG', 'RTNG/U1400']) expect(parseTiebreak(code).code).toBe(code);
    expect(() => parseTiebreak('BH/P')).toThrow(/\/P applies to DE only/);
    expect(() => parseTiebreak('SB/U1000')).toThrow(/\/U applies to RTNG, ARO, TPR, PTP, APRO, APPO only/);
  });

  it('TPN ranks the lower pairing number first; RTNG/U gives the unrated a rating', () => {
    const line = (id: number, rating: string, points: string, slot: string) =>
      `001 ${String(id).padStart(4)}`.padEnd(48) + rating.padStart(4) + ' '.repeat(28) + points.padStart(4) + ' '.repeat(7) + slot;
    const t = parseTrf([line(1, '', '0.5', '   2 w ='), line(2, '2100', '0.5', '   1 b =')].join('\n'));
    expect(rankStandings(t, ['TPN'], { roundRobin: false }).map((r) => r.id)).toEqual([1, 2]);
    expect(rankStandings(t, ['RTNG'], { roundRobin: false }).map((r) => r.id)).toEqual([2, 1]);
    const ctx = tiebreakContext(t, { roundRobin: false });
    expect(tiebreakValue(ctx, 'RTNG', 1)).toBeNull();
    expect(tiebreakValue(ctx, 'RTNG/U2200', 1)).toBe(2200);
    expect(tiebreakValue(ctx, 'PTP', 2)).toBeNull();
    // A draw against a 2200: the lowest rating whose expected score is .50 (difference 3 or less).
    expect(tiebreakValue(ctx, 'PTP/U2200', 2)).toBe(2197);
  });

  it('DE/P counts a forfeited game between the tied players as played', () => {
    const line = (id: number, points: string, slot: string) => `001 ${String(id).padStart(4)}`.padEnd(80) + points.padStart(4) + ' '.repeat(7) + slot;
    // 1 won their game by forfeit; ranked on equal points, DE finds no game between them, DE/P one.
    const two = parseTrf([line(1, '1.0', '   2 w +'), line(2, '0.0', '   1 b -')].join('\n'));
    const plain = rankStandings(two, ['DE'], {
      roundRobin: false,
      points: new Map([
        [1, 1],
        [2, 1],
      ]),
    });
    const predetermined = rankStandings(two, ['DE/P'], {
      roundRobin: false,
      points: new Map([
        [1, 1],
        [2, 1],
      ]),
    });
    expect(plain.map((r) => r.rank)).toEqual([1, 1]);
    expect(predetermined.map((r) => [r.id, r.rank])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});
