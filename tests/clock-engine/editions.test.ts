// Issue 24, the editions right in the engine: the FIDE category by edition (L2009 B.1: blitz is under
// 15 minutes, L2018/L2023 B.1: 10 minutes or less), the event's override; L2009 9.1 b 3 (a 10.2 claim
// is also a draw offer); L2018/L2023 5.2.3 (no draw agreed before both players have made a move).
import { describe, expect, it } from 'vitest';
import { fideCategory, gameConfig as buildGameConfig, parseTimeControl, penaltyOutcome } from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, opening } from './helpers.ts';

describe('the FIDE category by edition', () => {
  const table: [string, '2009' | '2018' | '2023', 'standard' | 'rapid' | 'blitz'][] = [
    ['720', '2009', 'blitz'],
    ['720', '2018', 'rapid'],
    ['720', '2023', 'rapid'],
    ['600+2', '2009', 'blitz'],
    ['600+2', '2023', 'rapid'],
    ['840', '2009', 'blitz'], // "less than 15 minutes"
    ['840+1', '2009', 'rapid'], // 14 + 60 x 1 s = 15 minutes
    ['900', '2009', 'rapid'], // "at least 15 minutes"
    ['600+5', '2009', 'rapid'], // 10 + 5 = 15
    ['600', '2018', 'blitz'], // "10 minutes or less"
    ['601', '2018', 'rapid'],
    ['300', '2009', 'blitz'],
    ['3599', '2009', 'rapid'],
    ['3600', '2009', 'standard'],
    ['5400+30', '2023', 'standard'],
  ];
  it.each(table)('%s under Laws %s is %s', (tc, edition, category) => {
    expect(fideCategory(parseTimeControl(tc), edition)).toBe(category);
    expect(buildGameConfig(tc, { lawsEdition: edition }).category).toBe(category);
  });

  it("the event may set the category itself (a section's regulations)", () => {
    expect(buildGameConfig('720', { lawsEdition: '2009', category: 'rapid' }).category).toBe('rapid');
  });

  it('the category decides the article: 720 s under Laws 2009 is blitz, so an illegal move without adequate supervision loses (B.3 c)', () => {
    const config = buildGameConfig('720', { lawsEdition: '2009', supervision: 'inadequate' });
    expect(penaltyOutcome(config, 'illegal-move', 1)).toEqual({ kind: 'loss', article: 'Laws 2009 Appendix B.3 c (illegal move, claimed by the opponent)' });
    const rapid2018 = buildGameConfig('720', { lawsEdition: '2018', supervision: 'inadequate' });
    expect(penaltyOutcome(rapid2018, 'illegal-move', 1)).toMatchObject({ kind: 'time', ms: 120_000 });
  });
});

describe('Laws 2009 9.1 b 3: a claim under Article 10.2 is also a draw offer', () => {
  const config = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: true });
  // White uses 7100 s on his first move; with 1:30 left on his second he claims.
  const claim = [...opening(), ev.press('white', 7_100_000), ev.press('black', 7_101_000)];

  it('the opponent may accept it while the arbiter has not decided: drawn by agreement', () => {
    const claimed = fold(config, [...claim, ev.quickplayClaim('white', 7_111_000)]).state;
    expect(claimed.drawOffer).toEqual({ side: 'white', at: 7_111_000 });
    const accepted = fold(config, [ev.drawAccept('black', 7_112_000)], claimed).state;
    expect(accepted.result).toEqual({ result: '1/2-1/2', termination: 'agreement' });
  });

  it('rejected, the offer stands until the opponent moves', () => {
    const rejected = fold(config, [
      ...claim,
      ev.quickplayClaim('white', 7_111_000),
      ev.quickplayDecision('reject', 7_120_000),
      ev.press('white', 7_130_000),
    ]).state;
    expect(rejected.drawOffer?.side).toBe('white');
    const declined = fold(config, [ev.press('black', 7_140_000), ev.drawAccept('black', 7_141_000)], rejected).state;
    expect(declined.result).toBeUndefined();
  });

  it.each(['2018', '2023'] as const)('Laws %s: a Guidelines III.5 claim is no offer', (edition) => {
    const guidelines = gameConfig('7200', { lawsEdition: edition, quickplayClaim: true });
    const claimed = fold(guidelines, [...claim, ev.quickplayClaim('white', 7_111_000)]).state;
    expect(claimed.quickplay?.status).toBe('pending');
    expect(claimed.drawOffer).toBeUndefined();
  });

  it("an event's move rule still holds: no offer with the claim before move 30", () => {
    const ruled = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: true, drawOfferMinMove: 30 });
    const claimed = fold(ruled, [...claim, ev.quickplayClaim('white', 7_111_000)]).state;
    expect(claimed.quickplay?.status).toBe('pending');
    expect(claimed.drawOffer).toBeUndefined();
  });
});

describe('Laws 2018/2023 5.2.3: no draw agreed before both players have made a move', () => {
  it.each(['2018', '2023'] as const)('Laws %s: White offers with his first move, Black accepts before moving: refused', (edition) => {
    const config = gameConfig('5400+30', { lawsEdition: edition });
    const { state } = fold(config, [...opening(), ev.drawOffer('white', 1000), ev.press('white', 1500), ev.drawAccept('black', 2000)]);
    expect(state.result).toBeUndefined();
    expect(state.drawOffer).toBeUndefined();
    expect(state.alerts.at(-1)).toMatchObject({
      code: 'draw-offer-refused',
      side: 'black',
      message: `draw agreement refused: both players must have made at least one move (Laws ${edition} Art. 5.2.3)`,
    });
  });

  it.each(['2018', '2023'] as const)("Laws %s: after 1.e4 e5 (pressed, or Black's move read from the board) the agreement draws", (edition) => {
    const config = gameConfig('5400+30', { lawsEdition: edition });
    const pressed = fold(config, [
      ...opening(),
      ev.press('white', 1000),
      ev.press('black', 2000),
      ev.drawOffer('white', 3000),
      ev.drawAccept('black', 3500),
    ]).state;
    expect(pressed.result).toEqual({ result: '1/2-1/2', termination: 'agreement' });
    const onTheBoard = fold(config, [
      ...opening(),
      ev.boardMove('white', 'e4', 1000),
      ev.press('white', 1000),
      ev.boardMove('black', 'e5', 2000),
      ev.drawOffer('black', 2100),
      ev.drawAccept('white', 2500),
    ]).state;
    expect(onTheBoard.result?.result).toBe('1/2-1/2');
  });

  it('Laws 2009 (5.2 c) has no such condition: the same agreement draws', () => {
    const config = gameConfig('5400+30', { lawsEdition: '2009' });
    const { state } = fold(config, [...opening(), ev.drawOffer('white', 1000), ev.press('white', 1500), ev.drawAccept('black', 2000)]);
    expect(state.result).toEqual({ result: '1/2-1/2', termination: 'agreement' });
  });
});

describe('Laws 2009 claim-only flags (A.4 d, B.3 a) with the DGT clock keeping the time', () => {
  const dgt = { kind: 'device', deviceId: 'dgt-1' } as const;
  const blitz = gameConfig('300', { lawsEdition: '2009', category: 'blitz', supervision: 'inadequate', timekeeper: 'device' });
  // White presses at 1 s; Black thinks past his five minutes, and the clock reports his flag.
  const fallen = [...opening(), ev.press('white', 1000), { type: 'flag', side: 'black', at: 301_500, by: dgt } as const];

  it("the clock's flag is recorded, play goes on, and White's claim is upheld", () => {
    const down = fold(blitz, fallen).state;
    expect(down.status).toBe('running');
    expect(down.flags.black).toBe(301_500);
    const claimed = fold(blitz, [{ type: 'flag', side: 'black', at: 305_000, by: { kind: 'player', side: 'white' } }], down).state;
    expect(claimed.result).toEqual({ result: '1-0', termination: "time forfeit (Art. 6.9) on the opponent's claim" });
  });

  it("the arbiter relaying the claim before the clock's message came, the engine at zero: upheld", () => {
    const events = [...opening(), ev.press('white', 1000), { type: 'flag', side: 'black', at: 301_000, by: { kind: 'arbiter', name: 'IA' } } as const];
    expect(fold(blitz, events).state.result?.result).toBe('1-0');
  });

  it('a claim while the clock still shows time is rejected', () => {
    const early = fold(blitz, [
      ...opening(),
      ev.press('white', 1000),
      { type: 'flag', side: 'black', at: 200_000, by: { kind: 'player', side: 'white' } },
    ]).state;
    expect(early.status).toBe('running');
    expect(early.alerts.at(-1)?.message).toMatch(/Black's flag is still up/);
  });
});
