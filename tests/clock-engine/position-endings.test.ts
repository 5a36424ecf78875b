// The end of the game from the position, per Laws edition (issue 24): checkmate and stalemate end the
// game at the move that made them, before any later flag (L2009 5.1 a, 5.2 a; L2018/L2023 5.1.1, 5.2.1,
// 6.9 "unless the game had already ended"); a dead position by material ends it in every edition
// (L2009 5.2 b, 9.6; L2018/L2023 5.2.2); fivefold repetition and the 75-move rule only from the 2018
// Laws (9.6.1, 9.6.2; L2009 has only the claims of 9.2 and 9.3).
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { advanceTo, type ClockEvent, type EventActor, type GameConfig, type Side } from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, opening } from './helpers.ts';

const editions = ['2009', '2018', '2023'] as const;
const blitz = (lawsEdition: GameConfig['lawsEdition'], settings: Partial<GameConfig> = {}) =>
  gameConfig('300', { lawsEdition, category: 'blitz', ...settings });

/**
 * The board's moves as a DGT board reports them (SAN and the position after, from chess.js), each
 * followed by its press `think` ms later, one ply every `think` ms from `from`; `pressLast` false
 * leaves the last move on the board with its clock still running.
 */
function played(
  sans: readonly string[],
  options: { fen?: string; from?: number; think?: number; pressLast?: boolean } = {},
): { events: ClockEvent[]; end: number } {
  const chess = new Chess(options.fen);
  const think = options.think ?? 1000;
  const events: ClockEvent[] = [];
  let at = options.from ?? 0;
  sans.forEach((san, i) => {
    const side: Side = chess.turn() === 'w' ? 'white' : 'black';
    chess.move(san);
    at += think;
    events.push(ev.boardMove(side, san, at, chess.fen()));
    if (i < sans.length - 1 || options.pressLast !== false) events.push(ev.press(side, at));
  });
  return { events, end: at };
}

describe('checkmate ends the game at the mating move, before a later flag', () => {
  it.each(editions)("Laws %s: f3 e5 g4 Qh4#, then Black's flag falls before the press: 0-1 by mate", (edition) => {
    const config = blitz(edition);
    const { events } = played(['f3', 'e5', 'g4', 'Qh4#'], { pressLast: false });
    const mated = fold(config, [...opening(), ...events]).state;
    const article = edition === '2009' ? 'Art. 5.1 a' : 'Art. 5.1.1';
    expect(mated.result).toEqual({ result: '0-1', termination: `checkmate (Laws ${edition} ${article})` });
    expect(mated.status).toBe('finished');
    // Black's clock reaches zero at 302 s: nothing falls any more.
    const later = advanceTo(config, mated, 400_000);
    expect(later.emitted).toEqual([]);
    expect(later.state.result?.result).toBe('0-1');
    expect(later.state.firstFlag).toBeUndefined();
    const reported = fold(config, [{ type: 'flag', side: 'black', at: 304_000, by: { kind: 'device', deviceId: 'clock-1' } }], mated).state;
    expect(reported.result?.result).toBe('0-1');
  });

  it('the flag that falls before the mating move is read decides: 1-0 on time', () => {
    const config = blitz('2023');
    const { events } = played(['f3', 'e5', 'g4'], { think: 1000 });
    const mateTooLate: ClockEvent = ev.boardMove('black', 'Qh4#', 310_000, 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
    const { state, emitted } = fold(config, [...opening(), ...events, mateTooLate]);
    expect(emitted).toEqual([{ type: 'flag', side: 'black', at: 302_000, by: { kind: 'system' } }]);
    expect(state.result).toEqual({ result: '1-0', termination: 'time forfeit (Art. 6.9)' });
  });

  it('with a DGT clock keeping the time, its flag after the mate changes nothing', () => {
    const config = blitz('2018', { timekeeper: 'device' });
    const dgt: EventActor = { kind: 'device', deviceId: 'dgt-3' };
    const { events } = played(['f3', 'e5', 'g4', 'Qh4#'], { pressLast: false });
    const { state } = fold(config, [...opening(), ...events, { type: 'flag', side: 'black', at: 303_500, by: dgt }]);
    expect(state.result?.result).toBe('0-1');
    expect(state.flags).toEqual({});
  });

  it('a move SAN without a FEN is played on the last position (chess.js) and mates too', () => {
    const config = blitz('2023');
    const sans: [Side, string][] = [
      ['white', 'f3'],
      ['black', 'e5'],
      ['white', 'g4'],
      ['black', 'Qh4#'],
    ];
    const events = sans.map(([side, san], i) => ev.boardMove(side, san, 1000 * (i + 1)));
    expect(fold(config, [...opening(), ...events]).state.result?.result).toBe('0-1');
  });
});

describe('stalemate and dead positions end the game in every edition', () => {
  // Sam Loyd's ten-move stalemate: Black to move after 10.Qe6 and has no legal move.
  const loyd = ['e3', 'a5', 'Qh5', 'Ra6', 'Qxa5', 'h5', 'h4', 'Rah6', 'Qxc7', 'f6', 'Qxd7+', 'Kf7', 'Qxb7', 'Qd3', 'Qxb8', 'Qh7', 'Qxc8', 'Kg6', 'Qe6'];
  it.each(editions)("Laws %s: stalemate at White's 10th move is a draw, the clock stops there", (edition) => {
    const { events, end } = played(loyd, { pressLast: false });
    const { state } = fold(blitz(edition), [...opening(), ...events, ev.press('white', end + 500)]);
    expect(state.result).toEqual({ result: '1/2-1/2', termination: `stalemate (Laws ${edition} ${edition === '2009' ? 'Art. 5.2 a' : 'Art. 5.2.1'})` });
    expect(state.presses.white).toBe(9);
  });

  it.each(editions)('Laws %s: K+B v K after Kxd2 takes the last pawn-less bishop: dead position', (edition) => {
    const { events } = played(['Kxd2'], { fen: '8/8/8/4k3/8/8/3b4/4K3 w - - 0 60' });
    const { state } = fold(blitz(edition), [...opening(), ...events]);
    expect(state.result?.result).toBe('1/2-1/2');
    expect(state.result?.termination).toBe(
      `dead position: neither side can checkmate (Laws ${edition} ${edition === '2009' ? 'Art. 5.2 b, 9.6' : 'Art. 5.2.2'})`,
    );
  });

  it('Armageddon: stalemate is a draw, and the draw wins the match for Black', () => {
    const { events } = played(loyd, { pressLast: false });
    const state = fold(blitz('2023', { armageddon: true }), [...opening(), ...events]).state;
    expect(state.result?.result).toBe('1/2-1/2');
    expect(state.matchWinner).toBe('black');
  });
});

describe('fivefold repetition and the 75-move rule, from the 2018 Laws only', () => {
  // The start position, then again after every fourth ply: the fifth time after 16 plies.
  const shuffle = (times: number) => Array.from({ length: times }, () => ['Nf3', 'Nf6', 'Ng1', 'Ng8']).flat();

  it.each(['2018', '2023'] as const)('Laws %s: the fifth occurrence of a position draws at once (9.6.1), the fourth does not', (edition) => {
    const four = fold(blitz(edition), [...opening(), ...played(shuffle(3)).events]).state;
    expect(four.status).toBe('running');
    const five = fold(blitz(edition), [...opening(), ...played(shuffle(4)).events]).state;
    expect(five.result).toEqual({ result: '1/2-1/2', termination: `fivefold repetition (Laws ${edition} Art. 9.6.1)` });
    expect(five.presses).toEqual({ white: 8, black: 7 });
  });

  it("Laws 2009: no automatic draw by repetition (a claim under 9.2 is the players')", () => {
    const state = fold(blitz('2009'), [...opening(), ...played(shuffle(6)).events]).state;
    expect(state.status).toBe('running');
    expect(state.repeatablePositions?.length).toBe(25);
  });

  it('a pawn move starts the count afresh; a takeback drops the positions taken back', () => {
    const config = blitz('2023');
    const { events, end } = played([...shuffle(3), 'e4', 'e5', ...shuffle(3)]);
    const state = fold(config, [...opening(), ...events]).state;
    expect(state.status).toBe('running');
    expect(state.repeatablePositions?.length).toBe(13);
    const fenBefore = new Chess();
    for (const san of [...shuffle(3), 'e4', 'e5', ...shuffle(3)].slice(0, -2)) fenBefore.move(san);
    const back: ClockEvent = { type: 'boardPosition', fen: fenBefore.fen(), plies: -2, at: end + 100, by: { kind: 'device', deviceId: 'board-1' } };
    expect(fold(config, [back], state).state.repeatablePositions?.length).toBe(11);
  });

  const quiet = '8/8/8/4k3/8/2K5/8/R7 w - - 149 120';
  it.each(['2018', '2023'] as const)('Laws %s: the 75th move of each side without a pawn move or capture draws (9.6.2)', (edition) => {
    const { state } = fold(blitz(edition), [...opening(), ...played(['Ra2'], { fen: quiet }).events]);
    expect(state.result).toEqual({ result: '1/2-1/2', termination: `75 moves by each player without a pawn move or capture (Laws ${edition} Art. 9.6.2)` });
  });

  it('Laws 2009: no 75-move rule', () => {
    expect(fold(blitz('2009'), [...opening(), ...played(['Ra2'], { fen: quiet }).events]).state.status).toBe('running');
  });

  it('a checkmate on the 150th halfmove takes precedence (9.6.2)', () => {
    const { state } = fold(blitz('2023'), [...opening(), ...played(['Rh8#'], { fen: 'k7/8/1K6/8/8/8/8/7R w - - 149 120' }).events]);
    expect(state.result).toEqual({ result: '1-0', termination: 'checkmate (Laws 2023 Art. 5.1.1)' });
  });
});

describe('a re-read position that is an end ends the game', () => {
  it('a mate made while the board was unplugged: 1-0 at the re-read, not a later flag', () => {
    const config = blitz('2023');
    const fen = 'k6R/8/1K6/8/8/8/8/8 b - - 1 61';
    const reread: ClockEvent = { type: 'boardPosition', fen, plies: 3, at: 10_000, by: { kind: 'device', deviceId: 'board-1' } };
    const { state } = fold(config, [...opening(), reread]);
    expect(state.result?.result).toBe('1-0');
    expect(advanceTo(config, state, 1_000_000).emitted).toEqual([]);
  });
});
