// Issue 12, rules per Laws edition (docs/clock-rules.md names each article): rapid and blitz with and
// without adequate supervision, the quickplay finish only where the edition has it (L2009 Art. 10.2;
// L2018/L2023 Guidelines III where adopted, with the five-second increment), the arbiter's discretion
// on postponing, and the default-time boundary as an event words it.
import { describe, expect, it } from 'vitest';
import { presetEvent, playoffGameConfig, startPlayoff, pendingGames, sectionGameConfig, loadEvent, roundBoards } from '../../tournament/internal.ts';
import { advanceTo, type GameConfig } from '../../clock-engine/index.ts';
import { ev, fold, gameConfig, min, opening, sec } from './helpers.ts';

const blitz2009 = (supervision: 'adequate' | 'inadequate') => gameConfig('300', { lawsEdition: '2009', category: 'blitz', supervision });

describe('illegal moves in rapid and blitz, with and without adequate supervision', () => {
  it('L2009 blitz without adequate supervision: the first illegal move loses (the opponent claims a win, B.3 c)', () => {
    const { state } = fold(blitz2009('inadequate'), [...opening(), ev.press('white', 2000), ev.penalty('black', 'illegal-move', 3000)]);
    expect(state.result).toEqual({ result: '1-0', termination: 'Laws 2009 Appendix B.3 c (illegal move, claimed by the opponent)' });
  });

  it('… a draw when the claimant cannot checkmate (B.3 c)', () => {
    const bareKing = '4k3/8/8/8/8/8/8/4K2R b - - 0 1'; // Black offends; White (K+R) can mate
    const drawn = '4k3/8/8/8/8/8/8/4K3 b - - 0 1'; // White has a bare king
    const config = blitz2009('inadequate');
    const base = [...opening(), ev.press('white', 2000)];
    expect(fold(config, [...base, ev.boardMove('white', 'Kd1', 2000, bareKing), ev.penalty('black', 'illegal-move', 3000)]).state.result?.result).toBe('1-0');
    expect(fold(config, [...base, ev.boardMove('white', 'Kd1', 2000, drawn), ev.penalty('black', 'illegal-move', 3000)]).state.result?.result).toBe('1/2-1/2');
  });

  it('L2009 blitz with adequate supervision: the standard rules (B.2), +2 min, the third loses', () => {
    const { state } = fold(blitz2009('adequate'), [...opening(), ev.press('white', 2000), ev.penalty('black', 'illegal-move', 3000)]);
    expect(state.status).toBe('running');
    expect(state.remainingMs.white).toBe(300_000 - 2000 + 2 * min);
  });

  it('L2009 rapid without adequate supervision: ruled only on the claim, then by 7.4 (A.4 c)', () => {
    const rapid = gameConfig('1500+5', { lawsEdition: '2009', category: 'rapid', supervision: 'inadequate' });
    const { state } = fold(rapid, [...opening(), ev.penalty('white', 'illegal-move', 1000)]);
    expect(state.remainingMs.black).toBe(1_505_000 + 2 * min);
  });

  it('L2018 and L2023 without adequate supervision: the arbiter still applies 7.5.5 (A.4.2, A.5.2)', () => {
    for (const edition of ['2018', '2023'] as const) {
      const rapid = gameConfig('1500+5', { lawsEdition: edition, category: 'rapid', supervision: 'inadequate' });
      const once = fold(rapid, [...opening(), ev.penalty('white', 'illegal-move', 1000)]).state;
      expect(once.status).toBe('running');
      expect(once.remainingMs.black).toBe(1_505_000 + (edition === '2023' ? 1 : 2) * min);
      const twice = fold(rapid, [...opening(), ev.penalty('white', 'illegal-move', 1000), ev.penalty('white', 'illegal-move', 2000)]).state;
      expect(twice.result?.termination).toBe(`Laws ${edition} Art. 7.5.5 (second illegal move)`);
    }
  });
});

describe('flag falls in rapid and blitz without adequate supervision', () => {
  const rapid2009 = gameConfig('600', { lawsEdition: '2009', category: 'rapid', supervision: 'inadequate' });

  it('L2009 (A.4 d): the arbiter does not call the flag; the game goes on until the opponent claims it', () => {
    const { state, emitted } = fold(rapid2009, [...opening(), ev.press('white', 601 * sec)]);
    expect(emitted).toEqual([{ type: 'flag', side: 'white', at: 600_000, by: { kind: 'system' } }]);
    expect(state.status).toBe('running');
    expect(state.flags.white).toBe(600_000);
    expect(state.alerts.at(-1)?.message).toMatch(/counts only when Black claims it \(Laws 2009 Appendix A.4 d/);
    const claim = { type: 'flag', side: 'white', at: 610_000, by: { kind: 'player', side: 'black' } } as const;
    const claimed = fold(rapid2009, [claim], state).state;
    expect(claimed.result).toEqual({ result: '0-1', termination: "time forfeit (Art. 6.9) on the opponent's claim" });
  });

  it("… a claim while the opponent's flag is still up is rejected", () => {
    const early = fold(rapid2009, [...opening(), { type: 'flag', side: 'white', at: 10_000, by: { kind: 'player', side: 'black' } }]).state;
    expect(early.status).toBe('running');
    expect(early.alerts.at(-1)?.message).toMatch(/White's flag is still up/);
  });

  it('… both flags down: drawn', () => {
    // White's flag falls unclaimed at 10:00; he plays on at 0; Black's falls at 10:00 of his own time.
    const events = [...opening(), ev.press('white', 601 * sec), ev.press('black', 601 * sec + 600 * sec + 1)];
    const { state } = fold(rapid2009, events);
    expect(state.result).toEqual({ result: '1/2-1/2', termination: 'both flags fallen (Laws 2009 Appendix A.4 d)' });
  });

  it('L2018 (A.4.5) and L2023 (A.5.5): the arbiter calls the flag, as with adequate supervision', () => {
    for (const edition of ['2018', '2023'] as const) {
      const rapid = gameConfig('600', { lawsEdition: edition, category: 'rapid', supervision: 'inadequate' });
      expect(fold(rapid, [...opening(), ev.press('white', 601 * sec)]).state.result?.result).toBe('0-1');
    }
  });
});

describe('the quickplay finish only where the edition has it', () => {
  const noIncrement = (edition: '2009' | '2018' | '2023', category: 'standard' | 'rapid' | 'blitz' = 'standard', tc = '7200') =>
    gameConfig(tc, { lawsEdition: edition, category, quickplayClaim: true });
  const claimAt = (tc: number) => [...opening(), ev.quickplayClaim('white', tc)];

  it('L2009: Article 10.2', () => {
    expect(fold(noIncrement('2009'), claimAt(7_110_000)).state.alerts.at(-1)?.message).toBe('White claims a draw under Laws 2009 Art. 10.2: arbiter decides');
  });

  it('L2018/L2023: Guidelines III.5 where the event adopts them; never Article 10.2 by that name', () => {
    for (const edition of ['2018', '2023'] as const) {
      const state = fold(noIncrement(edition), claimAt(7_110_000)).state;
      expect(state.alerts.at(-1)?.message).toBe(`White claims a draw under Laws ${edition} Guidelines III.5: arbiter decides`);
      const off = fold(gameConfig('7200', { lawsEdition: edition }), claimAt(7_110_000)).state;
      expect(off.alerts.at(-1)?.message).toMatch(new RegExp(`does not adopt Guidelines III \\(Laws ${edition} have no Article 10\\.2\\)`));
      expect(off.status).toBe('running');
    }
  });

  it('Guidelines III never in blitz, never with an increment (III.2); L2009 10.2 not in unsupervised blitz (B.3 b)', () => {
    expect(fold(noIncrement('2018', 'blitz', '300'), claimAt(190_000)).state.alerts.at(-1)?.message).toMatch(
      /do not apply to blitz \(Laws 2018 Guidelines III\.2\)/,
    );
    expect(fold(noIncrement('2023', 'standard', '5400+30'), claimAt(5_400_000)).state.alerts.at(-1)?.message).toMatch(
      /only to games without increment or delay/,
    );
    const unsupervised = gameConfig('300', { lawsEdition: '2009', category: 'blitz', supervision: 'inadequate', quickplayClaim: true });
    expect(fold(unsupervised, claimAt(190_000)).state.alerts.at(-1)?.message).toMatch(
      /does not apply in blitz without adequate supervision \(Laws 2009 B\.3 b\)/,
    );
  });

  it('III.4: a five-second increment for both, asked for (a draw offer), refused, agreed by the arbiter: +2 min to the opponent', () => {
    const config = noIncrement('2018');
    const asked = fold(config, [...opening(), ev.quickplayClaim('white', 7_110_000, 'increment')]).state;
    expect(asked.status).toBe('paused');
    expect(asked.drawOffer).toEqual({ side: 'white', at: 7_110_000 });
    expect(asked.alerts.at(-1)?.message).toMatch(/five-second increment .* also a draw offer \(Laws 2018 Guidelines III\.4\)/);
    const agreed = fold(config, [ev.quickplayDecision('increment', 7_120_000)], asked).state;
    expect(agreed.status).toBe('running');
    expect(agreed.drawOffer).toBeUndefined();
    // White's move in progress gets its five seconds (credited before the move), Black gets two minutes.
    expect(agreed.remainingMs).toEqual({ white: 90_000 + 5000, black: 7_200_000 + 2 * min });
    const after = fold(config, [ev.press('white', 7_130_000), ev.press('black', 7_140_000)], agreed).state;
    expect(after.remainingMs.white).toBe(95_000 - 10_000 + 5000);
    expect(after.remainingMs.black).toBe(7_320_000 - 10_000 + 5000);
  });

  it('III.4 does not exist under L2009; an increment request is refused there', () => {
    const state = fold(noIncrement('2009'), [...opening(), ev.quickplayClaim('white', 7_110_000, 'increment')]).state;
    expect(state.status).toBe('running');
    expect(state.alerts.at(-1)?.message).toMatch(/no five-second increment option/);
  });

  it('the arbiter rejecting an increment request gives no time; a rejected draw claim gives two minutes', () => {
    const config = noIncrement('2023');
    const request = fold(config, [...opening(), ev.quickplayClaim('white', 7_110_000, 'increment'), ev.quickplayDecision('reject', 7_120_000)]).state;
    expect(request.remainingMs.black).toBe(7_200_000);
    const claim = fold(config, [...opening(), ev.quickplayClaim('white', 7_110_000), ev.quickplayDecision('reject', 7_120_000)]).state;
    expect(claim.remainingMs.black).toBe(7_320_000);
  });
});

describe('per event, from the event file', () => {
  it('the default-time boundary and supervision reach the clocks; 10.2 is on by default under L2009, Guidelines III off under L2018', () => {
    const cairns = presetEvent('cairns-cup-2019');
    const board = roundBoards(cairns, cairns.sections[0]!.id, 1).boards[0]!;
    const config = sectionGameConfig(cairns, cairns.sections[0]!.id, { scheduledStart: board.scheduledStartMs, autoStart: true });
    expect(config).toMatchObject({ defaultTimeBoundary: 'more-than', quickplayClaim: false, supervision: 'adequate' });
    const donostia = presetEvent('donostia-2009');
    const group = donostia.sections[0]!;
    const dBoard = roundBoards(donostia, group.id, 1).boards[0]!;
    expect(sectionGameConfig(donostia, group.id, { scheduledStart: dBoard.scheduledStartMs, autoStart: true }).quickplayClaim).toBe(true);
    const input = JSON.parse(JSON.stringify(cairns)) as { sections: Record<string, unknown>[] };
    input.sections[0]!['defaultTimeBoundary'] = 'at';
    const edited = loadEvent(JSON.stringify(input));
    expect(sectionGameConfig(edited, edited.sections[0]!.id, { scheduledStart: board.scheduledStartMs, autoStart: true }).defaultTimeBoundary).toBe('at');
  });

  it('a player absent at the end of the default time: as each regulation says (all three: a loss), else as the Laws per edition', () => {
    // White arrives, Black never does: the clock starts itself and runs 1 ms past the default time.
    const absentBlack = (config: GameConfig) => {
      const arrived = fold(config, [ev.arrive('white', config.scheduledStart - 1000)]).state;
      return advanceTo(config, arrived, config.scheduledStart + config.defaultTimeMs + 1).state;
    };
    const expected = { 'cairns-cup-2019': 30, 'sa-open-2009': 30, 'donostia-2009': 60 } as const;
    for (const [name, minutes] of Object.entries(expected)) {
      const event = presetEvent(name as keyof typeof expected);
      for (const section of event.sections) {
        const config = sectionGameConfig(event, section.id, { scheduledStart: 10_000, autoStart: true });
        expect([name, section.id, config.lateArrival, config.defaultTimeMs]).toEqual([name, section.id, 'forfeit', minutes * min]);
        expect(absentBlack(config).result?.result).toBe('+--');
      }
    }
    // Cairns Cup regulation 1 ("shall forfeit") decides, not the Laws 2018: without it, 6.7.1 leaves it to the arbiter.
    const cairns = JSON.parse(JSON.stringify(presetEvent('cairns-cup-2019'))) as { sections: Record<string, unknown>[] };
    delete cairns.sections[0]!['lateArrival'];
    const silent = sectionGameConfig(loadEvent(JSON.stringify(cairns)), 'main', { scheduledStart: 10_000, autoStart: true });
    expect(silent.lateArrival).toBe('arbiter-decides');
    const held = absentBlack(silent);
    expect([held.status, held.result, held.alerts.at(-1)?.code]).toEqual(['paused', undefined, 'default-time-expired']);
    const sa = JSON.parse(JSON.stringify(presetEvent('sa-open-2009'))) as { sections: Record<string, unknown>[] };
    delete sa.sections[0]!['lateArrival'];
    expect(sectionGameConfig(loadEvent(JSON.stringify(sa)), 'open', { scheduledStart: 0 }).lateArrival).toBe('forfeit');
  });

  it("Donostia's blitz playoff (5-minute games, L2009): an arbiter a game is adequate supervision, else B.3 c", () => {
    const donostia = presetEvent('donostia-2009');
    const group = donostia.sections[0]!;
    const state = startPlayoff(group, [1, 2], 7);
    const game = pendingGames(state)[0]!;
    const supervised = playoffGameConfig(donostia, game, 0, group.id);
    expect(supervised).toMatchObject({ category: 'blitz', lawsEdition: '2009', supervision: 'adequate' });
    const penalty = [...opening(), ev.press('white', 2000), ev.penalty('black', 'illegal-move', 3000)];
    expect(fold(supervised, penalty).state.status).toBe('running');
    const unsupervised = JSON.parse(JSON.stringify(donostia)) as { sections: Record<string, unknown>[] };
    unsupervised.sections[0]!['supervision'] = 'inadequate';
    const event = loadEvent(JSON.stringify(unsupervised));
    expect(fold(playoffGameConfig(event, game, 0, group.id), penalty).state.result?.result).toBe('1-0');
  });
});
