// Real events: Uzchess Cup Masters 2025 (10-player round robin) and the Women's World Rapid 2024 (11-round Swiss).
import { describe, expect, it } from 'vitest';
import { buildCrosstable, exportTrf, parseTrf, rankStandings, tiebreakContext, tiebreakValue } from '../../tournament/internal.ts';
import { readResultPgn, readSnapshot } from './pgn-headers.ts';

const base = new URL('../fixtures/oracles/tiebreaks/', import.meta.url);

describe('Uzchess Cup Masters 2025', () => {
  const pgn = readResultPgn(new URL('uzchess_cup_masters_2025/uzchesscup.pgn', base));
  const trf = buildCrosstable(pgn.players, pgn.rounds, { totalRounds: 9 });
  const snapshot = readSnapshot(new URL('uzchess_cup_masters_2025/scalachess_snapshot_uzchesscup.txt', base));
  const codes = ['DE', 'SB', 'WIN', 'BWG', 'KS'];
  const rows = rankStandings(trf, codes, { roundRobin: true });

  it('has 45 games and the known three-way tie on 5.5', () => {
    expect(pgn.rounds.flatMap((r) => r.games)).toHaveLength(45);
    const top = rows.filter((r) => r.points === 5.5).map((r) => pgn.players[r.id - 1]?.name);
    expect(top.sort()).toEqual(['Abdusattorov, Nodirbek', 'Praggnanandhaa R', 'Sindarov, Javokhir'].sort());
  });

  it.each(snapshot.map((s) => [s.fideId, s] as const))('player %s: points, DE place in its tie, SB, WIN, BWG, KS', (_fide, s) => {
    const id = pgn.idByFide.get(s.fideId) as number;
    const row = rows.find((r) => r.id === id);
    expect(row?.points).toBe(s.points);
    const tied = rows.filter((r) => r.points === s.points);
    const firstRank = Math.min(...tied.map((r) => r.rank));
    const dePlace = tied.length === 1 ? 0 : (row?.tiebreaks.DE as number) - firstRank + 1;
    expect([dePlace, row?.tiebreaks.SB, row?.tiebreaks.WIN, row?.tiebreaks.BWG, row?.tiebreaks.KS]).toEqual(s.values);
  });

  it('survives a TRF round trip with the same standings', () => {
    expect(rankStandings(parseTrf(exportTrf(trf)), codes, { roundRobin: true })).toEqual(rows);
  });
});

describe("FIDE Women's World Rapid 2024", () => {
  const pgn = readResultPgn(new URL('fide_womens_world_rapid_2024/FWWRC.pgn', base));
  const trf = buildCrosstable(pgn.players, pgn.rounds, { totalRounds: 11 });
  const ctx = tiebreakContext(trf, { roundRobin: false });
  const official = readSnapshot(new URL('fide_womens_world_rapid_2024/scalachess_snapshot_official_tournament.txt', base));
  const software = readSnapshot(new URL('fide_womens_world_rapid_2024/scalachess_snapshot_tournament.txt', base));

  it('has 110 players and 605 games', () => {
    expect(pgn.players).toHaveLength(110);
    expect(pgn.rounds.flatMap((r) => r.games)).toHaveLength(605);
  });

  it('matches BH-C1, BH and ARO-C1 for all 110 players', () => {
    expect(official).toHaveLength(110);
    for (const s of official) {
      const id = pgn.idByFide.get(s.fideId) as number;
      const mine = [tiebreakValue(ctx, 'BH-C1', id), tiebreakValue(ctx, 'BH', id), tiebreakValue(ctx, 'ARO-C1', id)];
      expect(mine, `FIDE id ${s.fideId}`).toEqual(s.values);
    }
  });

  it('matches SB and AOB for all 110 players (software values)', () => {
    expect(software).toHaveLength(110);
    for (const s of software) {
      const id = pgn.idByFide.get(s.fideId) as number;
      expect(tiebreakValue(ctx, 'SB', id), `FIDE id ${s.fideId}`).toBeCloseTo(s.values[4] as number, 5);
      expect(tiebreakValue(ctx, 'AOB', id), `FIDE id ${s.fideId}`).toBeCloseTo(s.values[0] as number, 2);
    }
  });
});
