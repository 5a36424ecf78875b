// The typed reason the engine gives with an alert that refuses a claim, an offer, an agreement or a
// decision (ClockAlert.refusal: what a console decides its answer on, never the message), with the
// article per edition; and the declined offer (drawDecline), which lapses.
import { describe, expect, it } from 'vitest';
import { applyClockEvent, drawAgreementRefusal, initialGameState, type ClockEvent, type GameConfig, type GameState } from '../../clock-engine/internal.ts';
import { ev, gameConfig, min, sec } from './helpers.ts';

const fold = (config: GameConfig, events: readonly ClockEvent[], from = initialGameState(config)): GameState =>
  events.reduce((s, e) => applyClockEvent(config, s, e).state, from);
const started = (config: GameConfig): GameState => fold(config, [ev.arrive('white', 0), ev.arrive('black', 0), ev.start(0)]);
const lastRefusal = (s: GameState) => s.alerts.at(-1)?.refusal;
const decline = (side: 'white' | 'black', at: number): ClockEvent => ({ type: 'drawDecline', side, at, by: { kind: 'player', side } });

describe('draw offers and agreements', () => {
  it('the move rule: the event regulation and 9.1.1 (L2018), 9.1 a (L2009)', () => {
    for (const [edition, article] of [
      ['2018', 'event regulation: no draw agreement before move 30; Laws 2018 Art. 9.1.1'],
      ['2009', 'event regulation: no draw agreement before move 30; Laws 2009 Art. 9.1 a'],
    ] as const) {
      const config = gameConfig('5400+30', { lawsEdition: edition, drawOfferMinMove: 30 });
      const s = fold(config, [ev.drawOffer('white', sec)], started(config));
      expect(s.drawOffer).toBeUndefined();
      expect(s.alerts.at(-1)).toMatchObject({ code: 'draw-offer-refused', refusal: { reason: 'draw-before-move-limit', article } });
      expect(drawAgreementRefusal(config, s)?.refusal).toEqual({ reason: 'draw-before-move-limit', article });
    }
  });

  it('5.2.3 under L2018/L2023 only; the agreement refused lapses the offer', () => {
    const l2023 = gameConfig('5400+30', { lawsEdition: '2023' });
    const s = fold(l2023, [ev.drawOffer('white', sec), ev.drawAccept('black', 2 * sec)], started(l2023));
    expect(s.status).toBe('running');
    expect(s.drawOffer).toBeUndefined();
    expect(lastRefusal(s)).toEqual({ reason: 'draw-before-first-moves', article: 'Laws 2023 Art. 5.2.3' });
    expect(drawAgreementRefusal(l2023, s)?.refusal.reason).toBe('draw-before-first-moves');
    const l2009 = gameConfig('5400+30', { lawsEdition: '2009' });
    expect(drawAgreementRefusal(l2009, started(l2009))).toBeUndefined();
    expect(fold(l2009, [ev.drawOffer('white', sec), ev.drawAccept('black', 2 * sec)], started(l2009)).result).toEqual({
      result: '1/2-1/2',
      termination: 'agreement',
    });
  });

  it('a declined offer lapses; an answer without an offer is refused with 9.1 b (L2009) or 9.1.2 (L2018/L2023)', () => {
    for (const [edition, article] of [
      ['2009', 'Laws 2009 Art. 9.1 b'],
      ['2023', 'Laws 2023 Art. 9.1.2'],
    ] as const) {
      const config = gameConfig('5400+30', { lawsEdition: edition });
      const offered = fold(config, [ev.press('white', sec), ev.press('black', 2 * sec), ev.drawOffer('white', 3 * sec)], started(config));
      expect(offered.drawOffer).toEqual({ side: 'white', at: 3 * sec });
      const declined = fold(config, [decline('black', 4 * sec)], offered);
      expect(declined.drawOffer).toBeUndefined();
      expect(declined.alerts).toEqual(offered.alerts);
      expect(lastRefusal(fold(config, [ev.drawAccept('black', 5 * sec)], declined))).toEqual({ reason: 'no-draw-offer', article });
      // The offerer cannot answer his own offer.
      expect(lastRefusal(fold(config, [decline('white', 4 * sec)], offered))).toEqual({ reason: 'no-draw-offer', article });
    }
  });
});

describe('quickplay-finish claims and decisions', () => {
  it('not applied: Laws 2009 10.2 switched off, blitz under Guidelines III; conditions: the claim’s own article', () => {
    const off = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: false });
    expect(lastRefusal(fold(off, [ev.quickplayClaim('white', sec)], started(off)))).toEqual({ reason: 'claim-not-applied', article: 'Laws 2009 Art. 10.2' });
    const blitz = gameConfig('300', { lawsEdition: '2018', quickplayClaim: true, category: 'blitz' });
    expect(lastRefusal(fold(blitz, [ev.quickplayClaim('white', sec)], started(blitz)))).toEqual({
      reason: 'claim-not-applied',
      article: 'Laws 2018 Guidelines III.2',
    });
    const on = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: true });
    expect(lastRefusal(fold(on, [ev.quickplayClaim('white', sec)], started(on)))).toEqual({ reason: 'claim-conditions', article: 'Laws 2009 Art. 10.2' });
    const guidelines = gameConfig('7200', { lawsEdition: '2023', quickplayClaim: true });
    expect(lastRefusal(fold(guidelines, [ev.quickplayClaim('black', sec, 'increment')], started(guidelines)))).toEqual({
      reason: 'claim-conditions',
      article: 'Laws 2023 Guidelines III.4',
    });
  });

  it('a decision without a claim, or one that does not answer it', () => {
    const config = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: true });
    const s = started(config);
    expect(lastRefusal(fold(config, [ev.quickplayDecision('draw', sec)], s))).toEqual({ reason: 'no-claim', article: 'Laws 2009 Art. 10.2' });
    const claimed = fold(config, [ev.quickplayClaim('white', 7_100_000)], s);
    expect(claimed.quickplay).toMatchObject({ status: 'pending' });
    expect(lastRefusal(fold(config, [ev.quickplayDecision('increment', 7_101_000)], claimed))).toEqual({
      reason: 'decision-mismatch',
      article: 'Laws 2009 Art. 10.2',
    });
  });
});

describe('flag claims', () => {
  it("a flag up: 6.9 where the arbiter calls flags, A.4 d where only a claim counts; the engine's own flag carries no refusal", () => {
    const called = gameConfig('7200', { lawsEdition: '2009' });
    const arbiter = { kind: 'arbiter', name: 'IA Test' } as const;
    const claim = (at: number): ClockEvent => ({ type: 'flag', side: 'white', at, by: arbiter });
    expect(lastRefusal(fold(called, [claim(sec)], started(called)))).toEqual({ reason: 'flag-up', article: 'Laws 2009 Art. 6.9' });
    const device: ClockEvent = { type: 'flag', side: 'white', at: sec, by: { kind: 'system' } };
    expect(lastRefusal(fold(called, [device], started(called)))).toBeUndefined();
    const onClaim = gameConfig('1500', { lawsEdition: '2009', category: 'rapid', supervision: 'inadequate' });
    expect(lastRefusal(fold(onClaim, [claim(sec)], started(onClaim)))).toEqual({ reason: 'flag-up', article: 'Laws 2009 Appendix A.4 d' });
    const fallen = fold(onClaim, [claim(25 * min + sec)], started(onClaim));
    expect(fallen.result).toEqual({ result: '0-1', termination: "time forfeit (Art. 6.9) on the opponent's claim" });
  });
});
