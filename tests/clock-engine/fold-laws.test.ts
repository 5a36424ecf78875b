// Rules the clock applies: penalties per Laws edition, the draw-offer move rule, Article 10.2,
// the two move counts, and the Laws 6.9 flag result.
import { describe, expect, it } from 'vitest';
import { canCheckmate, penaltyOutcome } from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, opening } from './helpers.ts';

describe('penalties per Laws edition', () => {
  const table: [string, '2009' | '2018' | '2023', 'standard' | 'rapid' | 'blitz', 'illegal-move' | 'false-claim', number, string][] = [
    ['L2009 1st illegal move', '2009', 'standard', 'illegal-move', 1, '+120000'],
    ['L2009 2nd illegal move', '2009', 'standard', 'illegal-move', 2, '+120000'],
    ['L2009 3rd illegal move', '2009', 'standard', 'illegal-move', 3, 'loss'],
    ['L2009 false claim', '2009', 'standard', 'false-claim', 1, '+180000'],
    ['L2009 rapid illegal move', '2009', 'rapid', 'illegal-move', 1, '+120000'],
    ['L2018 1st illegal move', '2018', 'standard', 'illegal-move', 1, '+120000'],
    ['L2018 2nd illegal move', '2018', 'standard', 'illegal-move', 2, 'loss'],
    ['L2018 false claim', '2018', 'standard', 'false-claim', 1, '+120000'],
    ['L2018 rapid illegal move', '2018', 'rapid', 'illegal-move', 1, '+120000'],
    ['L2018 blitz illegal move', '2018', 'blitz', 'illegal-move', 1, '+60000'],
    ['L2018 blitz false claim', '2018', 'blitz', 'false-claim', 1, '+60000'],
    ['L2023 standard illegal move', '2023', 'standard', 'illegal-move', 1, '+120000'],
    ['L2023 rapid illegal move', '2023', 'rapid', 'illegal-move', 1, '+60000'],
    ['L2023 rapid false claim', '2023', 'rapid', 'false-claim', 1, '+60000'],
    ['L2023 blitz false claim', '2023', 'blitz', 'false-claim', 2, '+60000'],
    ['L2023 rapid 2nd illegal move', '2023', 'rapid', 'illegal-move', 2, 'loss'],
  ];
  it.each(table)('%s', (_name, lawsEdition, category, offence, count, expected) => {
    const outcome = penaltyOutcome({ lawsEdition, category }, offence, count);
    expect(outcome.kind === 'loss' ? 'loss' : `+${outcome.ms}`).toBe(expected);
    expect(outcome.article).toContain(`Laws ${lawsEdition}`);
  });

  it('L2018: the first illegal move gives the opponent 2 minutes, the second loses the game', () => {
    const config = gameConfig('5400+30', { lawsEdition: '2018' });
    const first = fold(config, [...opening(), ev.penalty('white', 'illegal-move', 10_000)]).state;
    expect(first.remainingMs.black).toBe(5_430_000 + 120_000);
    expect(first.penalties.white).toEqual({ illegalMoves: 1, falseClaims: 0 });
    const second = fold(config, [ev.penalty('white', 'illegal-move', 20_000)], first).state;
    expect(second.result).toEqual({ result: '0-1', termination: 'Laws 2018 Art. 7.5.5 (second illegal move)' });
    expect(second.alerts.at(-1)?.code).toBe('penalty-limit');
  });

  it('L2009: the third illegal move loses; a false claim gives 3 minutes', () => {
    const config = gameConfig('5400+30', { lawsEdition: '2009' });
    const events = [...opening(), ev.penalty('black', 'illegal-move', 1), ev.penalty('black', 'illegal-move', 2), ev.penalty('black', 'false-claim', 3)];
    const twice = fold(config, events).state;
    expect(twice.status).toBe('running');
    expect(twice.remainingMs.white).toBe(5_430_000 - 3 + 2 * 120_000 + 180_000);
    const third = fold(config, [ev.penalty('black', 'illegal-move', 4)], twice).state;
    expect(third.result?.result).toBe('1-0');
  });

  it('a loss by penalty is a draw when the opponent cannot checkmate', () => {
    const config = gameConfig('300', { lawsEdition: '2023', category: 'blitz' });
    const bareKing = '8/8/8/4k3/8/8/8/3QK3 w - - 0 40';
    const events = [...opening(), ev.boardMove('white', 'Qd1', 1, bareKing), ev.penalty('white', 'illegal-move', 2), ev.penalty('white', 'illegal-move', 3)];
    expect(fold(config, events).state.result?.result).toBe('1/2-1/2');
  });
});

describe('no draw agreement before move N (Cairns Cup: 30)', () => {
  const config = gameConfig('40/5400+30:1800+30', { drawOfferMinMove: 30 });
  const moves = (n: number) => {
    const events = [...opening()];
    for (let i = 1; i <= n; i++) events.push(ev.press('white', i * 2000 - 1000), ev.press('black', i * 2000));
    return events;
  };
  it("refuses an offer with White's 29th move and names the rule", () => {
    const { state } = fold(config, [...moves(28), ev.drawOffer('white', 60_000)]);
    expect(state.drawOffer).toBeUndefined();
    const alert = state.alerts.at(-1)!;
    expect(alert.code).toBe('draw-offer-refused');
    expect(alert.message).toMatch(/move 29 refused: no draw agreement before move 30/);
    expect(alert.message).toMatch(/Laws 2018 Art\. 9\.1\.1/);
    expect(alert.message).toMatch(/claims under Art\. 9\.2\/9\.3 still go to the arbiter/);
    const accepted = fold(config, [ev.drawAccept('black', 61_000)], state).state;
    expect(accepted.result).toBeUndefined();
  });
  it('allows it from move 30 and the acceptance draws', () => {
    const { state } = fold(config, [...moves(29), ev.drawOffer('white', 60_000), ev.press('white', 60_500), ev.drawAccept('black', 61_000)]);
    expect(state.result).toEqual({ result: '1/2-1/2', termination: 'agreement' });
  });
  it("the opponent's move declines a standing offer", () => {
    const { state } = fold(config, [
      ...moves(29),
      ev.drawOffer('white', 60_000),
      ev.press('white', 60_500),
      ev.press('black', 62_000),
      ev.drawAccept('black', 63_000),
    ]);
    expect(state.result).toBeUndefined();
    expect(state.alerts.at(-1)?.code).toBe('ignored-event');
  });
});

describe('Laws 2009 Article 10.2 (SA Open B section, 120 minutes, no increment)', () => {
  const config = gameConfig('7200', { lawsEdition: '2009', quickplayClaim: true });
  // White to move with 1:30 left after a long first move... of Black's? White thinks 7110 s on move 1.
  const claim = [...opening(), ev.quickplayClaim('white', 7_110_000)];
  it('admits the claim of the player to move with under 2 minutes and pauses the clock', () => {
    const { state } = fold(config, claim);
    expect(state.status).toBe('paused');
    expect(state.quickplay).toEqual({ side: 'white', at: 7_110_000, status: 'pending', request: 'draw' });
    expect(state.remainingMs.white).toBe(90_000);
    expect(state.alerts.at(-1)).toMatchObject({ code: 'quickplay-claim', side: 'white' });
  });
  it('draw: the game ends drawn', () => {
    expect(fold(config, [...claim, ev.quickplayDecision('draw', 7_200_000)]).state.result).toEqual({
      result: '1/2-1/2',
      termination: 'Laws 2009 Art. 10.2 claim upheld',
    });
  });
  it('postpone: the arbiter may give the opponent 2 minutes (10.2 b), and does not have to', () => {
    const without = fold(config, [...claim, ev.quickplayDecision('postpone', 7_200_000)]).state;
    expect(without.status).toBe('running');
    expect(without.remainingMs).toEqual({ white: 90_000, black: 7_200_000 });
    expect(without.quickplay?.status).toBe('postponed');
  });
  it('postpone with the two minutes: play goes on; the later decision can still draw', () => {
    const postponed = fold(config, [...claim, ev.quickplayDecision('postpone', 7_200_000, true)]).state;
    expect(postponed.status).toBe('running');
    expect(postponed.remainingMs).toEqual({ white: 90_000, black: 7_200_000 + 120_000 });
    expect(postponed.quickplay?.status).toBe('postponed');
    const later = fold(config, [ev.press('white', 7_230_000), ev.quickplayDecision('draw', 7_240_000)], postponed).state;
    expect(later.remainingMs.white).toBe(60_000);
    expect(later.result?.result).toBe('1/2-1/2');
  });
  it('reject: the opponent gets 2 minutes and the clock restarts', () => {
    const { state } = fold(config, [...claim, ev.quickplayDecision('reject', 7_200_000)]);
    expect(state.status).toBe('running');
    expect(state.quickplay).toBeUndefined();
    expect(state.remainingMs.black).toBe(7_320_000);
  });
  it('refuses claims outside the article', () => {
    const early = fold(config, [...opening(), ev.quickplayClaim('white', 60_000)]).state;
    expect(early.status).toBe('running');
    expect(early.alerts.at(-1)?.message).toMatch(/2 minutes or more/);
    const notToMove = fold(config, [...opening(), ev.quickplayClaim('black', 7_110_000)]).state;
    expect(notToMove.alerts.at(-1)?.message).toMatch(/player having the move/);
    // L2009 10.2 does not exempt increment games (the SA Open switched it off for its Open section).
    const increment = gameConfig('5400+30', { lawsEdition: '2009', quickplayClaim: true });
    expect(fold(increment, [...opening(), ev.quickplayClaim('white', 5_400_000)]).state.quickplay?.status).toBe('pending');
    const off = gameConfig('7200', { lawsEdition: '2009' });
    expect(fold(off, claim).state.alerts.at(-1)?.message).toMatch(/does not apply Article 10\.2/);
  });
});

describe('press counter vs authoritative move count', () => {
  const config = gameConfig('40/5400+30:1800+30');
  it("alerts when a press had no move, and the arbiter's correction clears it", () => {
    const events = [
      ...opening(),
      ev.press('white', 1000), // pressed without moving (L2018 7.5.3 treats it as an illegal move)
      ev.press('black', 2000), // Black presses back to restart White's clock
      ev.boardMove('white', 'e4', 3000),
      ev.press('white', 3100),
      ev.boardMove('black', 'e5', 4000),
      ev.press('black', 4100),
    ];
    const { state } = fold(config, events);
    expect(state.moveCountMismatch).toEqual({ side: 'white', presses: 2, moves: 1 });
    // Both presses were moveless: Black's is found at White's next press, White's at Black's.
    expect(state.alerts.filter((a) => a.code === 'move-count-mismatch').map((a) => a.side)).toEqual(['black', 'white']);
    expect(state.alerts.at(-1)?.message).toMatch(/White: the clock counts 2 presses but the board shows 1 moves/);
    expect(state.fen).toBe('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    const fixed = fold(config, [ev.setMoveCounter('presses', 'white', 1, 5000), ev.setMoveCounter('presses', 'black', 1, 5001)], state).state;
    expect(fixed.moveCountMismatch).toBeUndefined();
    expect(fixed.presses).toEqual({ white: 1, black: 1 });
    expect(fixed.moves).toEqual({ white: 1, black: 1 });
  });
});

describe('flag fall result (Laws 6.9)', () => {
  const config = gameConfig('300');
  const flagWith = (fen: string) => fold(config, [...opening(), ev.boardMove('white', '--', 1, fen), ev.press('white', 301_000)]).state;
  it('is a loss when the opponent can mate by any series of legal moves (K+N v K+R)', () => {
    // White (K+R) flags; Black has K+N and could mate if the rook blocks its own king.
    const s = flagWith('7k/8/8/8/8/8/5n2/R3K3 w - - 0 50');
    expect(s.result?.result).toBe('0-1');
    expect(s.firstFlag).toEqual({ side: 'white', at: 300_000 });
  });
  it('is a draw when the opponent has a bare king', () => {
    expect(flagWith('7k/8/8/8/8/8/8/Q3K3 w - - 0 50').result).toEqual({
      result: '1/2-1/2',
      termination: 'time forfeit: drawn, the opponent cannot checkmate (Art. 6.9)',
    });
  });
  it('tests the position, not a material table', () => {
    expect(canCheckmate('7k/8/8/8/8/8/8/4K1N1 w - - 0 1', 'white')).toBe(false); // K+N v K
    expect(canCheckmate('7k/7p/8/8/8/8/8/4K1N1 w - - 0 1', 'white')).toBe(true); // K+N v K+P
    expect(canCheckmate('7k/8/8/8/8/8/8/4KB2 w - - 0 1', 'white')).toBe(false); // K+B v K
    expect(canCheckmate('7k/8/8/8/8/8/8/4KNN1 w - - 0 1', 'white')).toBe(true); // K+N+N v K (helpmate)
    expect(canCheckmate('6bk/8/8/8/8/8/8/4KB2 w - - 0 1', 'white')).toBe(false); // bishops on the same colour
    expect(canCheckmate('5b1k/8/8/8/8/8/8/4KB2 w - - 0 1', 'white')).toBe(true); // opposite colours
    expect(canCheckmate('7k/8/8/8/8/8/8/4K3 w - - 0 1', 'white')).toBe(false);
    expect(canCheckmate(undefined, 'white')).toBe(true);
  });
  it("a flag reported before the engine's deadline only raises an alert", () => {
    const { state } = fold(config, [...opening(), { type: 'flag', side: 'white', at: 200_000, by: { kind: 'device', deviceId: 'clock-1' } }]);
    expect(state.status).toBe('running');
    expect(state.alerts.at(-1)).toMatchObject({ code: 'clock-disagrees', side: 'white' });
  });
});
