// The FIDE category of a section's games per Laws edition (issue 24): FIDE's own by default (L2009
// Appendix B: blitz under 15 minutes; L2018/L2023: 10 minutes or less), or the section's, set in the
// event file; and the articles that follow from it, through the one builder of clock rules
// (sectionGameConfig). Donostia 2009's 5-minute playoff keeps Article 10.2 (L2009 B.2).
import { describe, expect, it } from 'vitest';
import { EventFileError, loadEvent, pendingGames, playoffGameConfig, presetEvent, sectionGameConfig, startPlayoff } from '../../tournament/internal.ts';
import type { GameConfig } from '../../clock-engine/index.ts';
import { ev, fold, min, opening } from './helpers.ts';

type Edition = 'L2009' | 'L2018' | 'L2023';
type Category = 'standard' | 'rapid' | 'blitz';

/** SA Open 2009's B section (10.2 on) under `edition`, at `timeControl`, with the given section fields. */
function bSection(edition: Edition, timeControl: string, fields: Record<string, unknown> = {}): GameConfig {
  const input = JSON.parse(JSON.stringify(presetEvent('sa-open-2009'))) as { lawsEdition: string; sections: Record<string, unknown>[] };
  input.lawsEdition = edition;
  Object.assign(input.sections[1]!, { timeControl, ...fields });
  return sectionGameConfig(loadEvent(JSON.stringify(input)), 'b', { scheduledStart: 0 });
}

/** What Black's first illegal move costs him, 3 s into the game, after White's first move. */
function firstIllegalMove(config: GameConfig): { status: string; whiteGains: number; article: string | undefined } {
  const events = [...opening(), ev.press('white', 2000), ev.penalty('black', 'illegal-move', 3000)];
  const { state } = fold(config, events);
  const before = fold(config, events.slice(0, -1)).state;
  return {
    status: state.status,
    whiteGains: state.remainingMs.white - before.remainingMs.white,
    article: state.result?.termination ?? state.alerts.find((a) => a.code === 'penalty-limit')?.message,
  };
}

describe('the category of a section’s games, per edition', () => {
  it('by default FIDE’s under the edition: 600+2 and 720 s are blitz under L2009, rapid under L2018 and L2023', () => {
    const expected: Record<Edition, Category> = { L2009: 'blitz', L2018: 'rapid', L2023: 'rapid' };
    for (const [edition, category] of Object.entries(expected) as [Edition, Category][]) {
      expect([edition, bSection(edition, '600+2').category]).toEqual([edition, category]);
      expect([edition, bSection(edition, '720').category]).toEqual([edition, category]);
      // The edges: 15 minutes is rapid under every edition; 10 minutes blitz under every edition.
      expect([edition, bSection(edition, '900').category]).toEqual([edition, 'rapid']);
      expect([edition, bSection(edition, '600').category]).toEqual([edition, 'blitz']);
      expect([edition, bSection(edition, '7200').category]).toEqual([edition, 'standard']);
    }
  });

  it('set in the event file, the section’s category decides, under every edition', () => {
    for (const edition of ['L2009', 'L2018', 'L2023'] as const) {
      for (const category of ['standard', 'rapid', 'blitz'] as const) {
        expect([edition, category, bSection(edition, '600+2', { category }).category]).toEqual([edition, category, category]);
      }
    }
  });

  it('a category the schema does not know is refused at the field', () => {
    const input = JSON.parse(JSON.stringify(presetEvent('sa-open-2009'))) as { sections: Record<string, unknown>[] };
    input.sections[1]!['category'] = 'bullet';
    expect(() => loadEvent(JSON.stringify(input))).toThrow(EventFileError);
    try {
      loadEvent(JSON.stringify(input));
    } catch (error) {
      expect((error as EventFileError).errors.map((e) => e.path)).toEqual(['sections.1.category']);
    }
  });

  it('L2009 without adequate supervision: 600+2 as blitz loses on the first illegal move (B.3 c); classed rapid, the claim and 7.4 b (A.4 c)', () => {
    const unsupervised = { supervision: 'inadequate' };
    expect(firstIllegalMove(bSection('L2009', '600+2', unsupervised))).toEqual({
      status: 'finished',
      whiteGains: 0,
      article: 'Laws 2009 Appendix B.3 c (illegal move, claimed by the opponent)',
    });
    expect(firstIllegalMove(bSection('L2009', '600+2', { ...unsupervised, category: 'rapid' }))).toEqual({
      status: 'running',
      whiteGains: 2 * min,
      article: undefined,
    });
  });

  it('L2018: an illegal move in blitz costs 1 minute (B.2), in rapid 2; L2023: 1 minute in both (A.3, B.3)', () => {
    const gains = (edition: Edition, category?: Category) => firstIllegalMove(bSection(edition, '600+2', category ? { category } : {})).whiteGains;
    expect(gains('L2018')).toBe(2 * min); // rapid by default
    expect(gains('L2018', 'blitz')).toBe(1 * min);
    expect(gains('L2023')).toBe(1 * min);
    expect(gains('L2023', 'blitz')).toBe(1 * min);
    expect(gains('L2023', 'standard')).toBe(2 * min);
  });

  it('L2009 Article 10.2 in the B section at 10 minutes without adequate supervision: refused as blitz (B.3 b), heard when the section says rapid', () => {
    // White claims with 1:50 left on his move in the final (only) period.
    const claim = (config: GameConfig) => fold(config, [...opening(), ev.quickplayClaim('white', 490_000)]).state;
    const blitz = claim(bSection('L2009', '600', { supervision: 'inadequate' }));
    expect(blitz.status).toBe('running');
    expect(blitz.alerts.at(-1)?.message).toMatch(/does not apply in blitz without adequate supervision \(Laws 2009 B\.3 b\)/);
    const rapid = claim(bSection('L2009', '600', { supervision: 'inadequate', category: 'rapid' }));
    expect(rapid.status).toBe('paused');
    expect(rapid.alerts.at(-1)?.message).toBe('White claims a draw under Laws 2009 Art. 10.2: arbiter decides');
  });
});

describe('Donostia 2009’s 5-minute playoff keeps Article 10.2 (Laws 2009 B.2)', () => {
  const donostia = presetEvent('donostia-2009');
  const group = donostia.sections[0]!;
  const game = pendingGames(startPlayoff(group, [1, 2], 7))[0]!;

  it('an adequately supervised blitz game under the standard rules: the claim pauses the clock, the arbiter may declare the draw', () => {
    const config = playoffGameConfig(donostia, game, 0, group.id);
    expect(config).toMatchObject({ category: 'blitz', lawsEdition: '2009', supervision: 'adequate', quickplayClaim: true });
    // White, to move with 1:50 left of his 5 minutes, claims; a 10.2 claim is also a draw offer (9.1 b 3).
    const claimed = fold(config, [...opening(), ev.quickplayClaim('white', 190_000)]).state;
    expect(claimed.status).toBe('paused');
    expect(claimed.drawOffer).toEqual({ side: 'white', at: 190_000 });
    const drawn = fold(config, [ev.quickplayDecision('draw', 200_000)], claimed).state;
    expect(drawn.result?.result).toBe('1/2-1/2');
    expect(drawn.result?.termination).toMatch(/Laws 2009 Art\. 10\.2/);
    // Rejected: the opponent gets two minutes (10.2 c).
    const rejected = fold(config, [ev.quickplayDecision('reject', 200_000)], claimed).state;
    expect([rejected.status, rejected.remainingMs.black]).toEqual(['running', 300_000 + 2 * min]);
  });

  it('without adequate supervision (B.3 b) the same claim is refused', () => {
    const input = JSON.parse(JSON.stringify(donostia)) as { sections: Record<string, unknown>[] };
    input.sections[0]!['supervision'] = 'inadequate';
    const config = playoffGameConfig(loadEvent(JSON.stringify(input)), game, 0, group.id);
    const state = fold(config, [...opening(), ev.quickplayClaim('white', 190_000)]).state;
    expect(state.status).toBe('running');
    expect(state.alerts.at(-1)?.message).toMatch(/Laws 2009 B\.3 b/);
  });

  it('a section that switches 10.2 off switches it off in its playoff too; under L2018 the Cairns Cup playoff has no quickplay finish', () => {
    const input = JSON.parse(JSON.stringify(donostia)) as { sections: Record<string, unknown>[] };
    input.sections[0]!['quickplayFinish'] = false;
    expect(playoffGameConfig(loadEvent(JSON.stringify(input)), game, 0, group.id).quickplayClaim).toBe(false);
    const cairns = presetEvent('cairns-cup-2019');
    const cairnsGame = pendingGames(startPlayoff(cairns.sections[0]!, [1, 2], 7))[0]!;
    expect(playoffGameConfig(cairns, cairnsGame, 0).quickplayClaim).toBe(false);
  });
});
