// Board artefacts the tracker must recover from, one scenario each, on simulated time: how people really
// move pieces (captures in either order, slow castling either way, takebacks, a knocked-over piece), and
// what an unplug does (1, 2, 3 and 10 plies the board never reported, then one full board dump). The
// kinds follow arnsholt/dgtdriver's MoveParser (reachable positions around the line); the game at the
// end must be the game played, and where no search can explain the board the tracker re-seeds once and
// goes on, reported, never silently.
import { Chess, type Move } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { PositionTracker, squareIndex, type BoardSquare, type PieceLetter, type PositionEvent } from '../../device-bridge/internal.ts';
import { createManualScheduler } from '../../simulators/index.ts';

type Side = 'white' | 'black';

function squaresOf(fen: string, rotated = false): BoardSquare[] {
  const squares: BoardSquare[] = Array.from({ length: 64 }, () => '.');
  for (const row of new Chess(fen).board()) {
    for (const cell of row) {
      if (!cell) continue;
      const index = squareIndex(cell.square);
      squares[rotated ? 63 - index : index] = (cell.color === 'w' ? cell.type.toUpperCase() : cell.type) as PieceLetter;
    }
  }
  return squares;
}

/** A board, its tracker and a player's hands; `game` is what the tracker has read, takebacks applied. */
function rig(options: { fen?: string; rotated?: boolean } = {}) {
  const scheduler = createManualScheduler();
  const events: PositionEvent[] = [];
  const rotated = options.rotated ?? false;
  const tracker = new PositionTracker({ scheduler, onEvent: (e) => events.push(e), ...(options.fen ? { fen: options.fen } : {}) });
  const truth = new Chess(options.fen);
  let plugged = true;
  tracker.boardDump(squaresOf(truth.fen(), rotated));
  scheduler.advanceBy(500);
  const put = (square: string, piece: PieceLetter) => {
    if (plugged) tracker.fieldUpdate(rotated ? 63 - squareIndex(square) : squareIndex(square), piece);
  };
  const letter = (m: Move, piece = m.piece): PieceLetter => (m.color === 'w' ? piece.toUpperCase() : piece) as PieceLetter;
  const wait = (ms: number) => scheduler.advanceBy(ms);
  const hands = {
    /** The usual way: a capture lifts the victim first; a castle moves the king, then the rook. */
    move(san: string, order: 'usual' | 'capturer-first' | 'rook-first' = 'usual', gapMs = 0) {
      const m = truth.move(san);
      const steps: (() => void)[] = [];
      if (m.flags.includes('k') || m.flags.includes('q')) {
        const rank = m.from[1];
        const [rf, rt] = m.flags.includes('k') ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
        const king = () => (put(m.from, '.'), put(m.to, letter(m)));
        const rook = () => (put(rf, '.'), put(rt, letter(m, 'r')));
        steps.push(...(order === 'rook-first' ? [rook, king] : [king, rook]));
      } else {
        const victim = m.flags.includes('e') ? `${m.to[0]}${m.from[1]}` : m.captured ? m.to : undefined;
        const lift = () => put(m.from, '.');
        const land = () => put(m.to, letter(m, m.promotion ?? m.piece));
        const take = () => victim && put(victim, '.');
        if (order === 'capturer-first') steps.push(lift, take, land);
        else steps.push(take, lift, land);
      }
      steps.forEach((step, i) => {
        if (i > 0 && gapMs) wait(gapMs);
        step();
      });
      return m;
    },
    /** Puts the pieces of the last ply back where they were (a takeback), in the truth too. */
    takeBack() {
      const now = squaresOf(truth.fen());
      if (!truth.undo()) throw new Error('nothing to take back');
      const before = squaresOf(truth.fen());
      for (let i = 0; i < 64; i++) if (now[i] !== before[i]) put(squareName(i), before[i] as PieceLetter);
    },
    press: (side: Side) => tracker.clockPressed(side),
    unplug: () => (plugged = false),
    /** Back on the cable: the handshake's board dump is the first thing the tracker hears. */
    replug() {
      plugged = true;
      tracker.boardDump(squaresOf(truth.fen(), rotated));
    },
  };
  const game = () => {
    const sans: string[] = [];
    for (const e of events) {
      if (e.type === 'move') sans.push(e.san);
      if (e.type === 'takeback') sans.splice(sans.length - e.plies, e.plies);
      if (e.type === 'reseed') sans.push(`[${e.reseed.fen}]`);
    }
    return sans;
  };
  const kinds = (type: PositionEvent['type']) => events.filter((e) => e.type === type);
  return { scheduler, events, tracker, truth, hands, wait, game, kinds, put };
}

const squareName = (i: number): string => `${'abcdefgh'[i % 8]}${8 - Math.floor(i / 8)}`;

/** Plays moves the usual way, each pressed after the board is still. */
function playPressed(r: ReturnType<typeof rig>, sans: readonly string[]): void {
  for (const san of sans) {
    const side: Side = r.truth.turn() === 'w' ? 'white' : 'black';
    r.hands.move(san);
    r.wait(500);
    r.hands.press(side);
    r.wait(1_000);
  }
}

const opening = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5'];

describe('board artefacts: how pieces are really moved', () => {
  it('1. a move taken at its press', () => {
    const r = rig();
    playPressed(r, ['e4']);
    expect(r.game()).toEqual(['e4']);
  });

  it('2. a move without a press is taken after the confirm time', () => {
    const r = rig();
    r.hands.move('d4');
    r.wait(3_000);
    expect(r.game()).toEqual(['d4']);
  });

  it('3. both players moving within one window', () => {
    const r = rig();
    r.hands.move('e4');
    r.hands.move('c5');
    r.wait(500);
    expect(r.game()).toEqual(['e4', 'c5']);
  });

  it('4. a capture, victim lifted first', () => {
    const r = rig();
    playPressed(r, ['e4', 'd5', 'exd5']);
    expect(r.game()).toEqual(['e4', 'd5', 'exd5']);
  });

  it('5. a capture, capturer lifted first and held while the victim comes off', () => {
    const r = rig();
    playPressed(r, ['e4', 'd5']);
    r.hands.move('exd5', 'capturer-first', 1_000);
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual(['e4', 'd5', 'exd5']);
    expect(r.kinds('unrecognised')).toEqual([]);
  });

  it('6. en passant, the passed pawn removed last', () => {
    const r = rig();
    playPressed(r, ['e4', 'a6', 'e5', 'd5']);
    r.hands.move('exd6', 'capturer-first', 600);
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual(['e4', 'a6', 'e5', 'd5', 'exd6']);
  });

  it('7. promotion to a queen and 8. under-promotion to a knight', () => {
    const r = rig({ fen: '8/1P4k1/8/8/8/8/1p4K1/8 w - - 0 1' });
    playPressed(r, ['b8=Q', 'b1=N']);
    expect(r.game()).toEqual(['b8=Q', 'b1=N']);
  });

  it('9. castling king first, quickly', () => {
    const r = rig();
    playPressed(r, [...opening, 'O-O']);
    expect(r.game()).toEqual([...opening, 'O-O']);
  });

  it('10. castling rook first, quickly', () => {
    const r = rig();
    playPressed(r, opening);
    r.hands.move('O-O', 'rook-first');
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual([...opening, 'O-O']);
  });

  it('11. castling rook first with 3 s between rook and king', () => {
    const r = rig();
    playPressed(r, opening);
    r.hands.move('O-O', 'rook-first', 3_000);
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual([...opening, 'O-O']);
    expect(r.kinds('takeback')).toEqual([]);
  });

  it('12. castling king first with 3 s between king and rook', () => {
    const r = rig();
    playPressed(r, opening);
    r.hands.move('O-O', 'usual', 3_000);
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual([...opening, 'O-O']);
  });

  it('13. castling with the king stopping on f1 for 3 s, then g1, then the rook', () => {
    const r = rig();
    playPressed(r, opening);
    r.put('e1', '.');
    r.put('f1', 'K');
    r.wait(3_000);
    r.put('f1', '.');
    r.put('g1', 'K');
    r.wait(1_000);
    r.put('h1', '.');
    r.put('f1', 'R');
    r.truth.move('O-O');
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual([...opening, 'O-O']);
  });

  it('14. queenside castling rook first with a delay', () => {
    const line = ['d4', 'd5', 'Nc3', 'Nc6', 'Bf4', 'Bf5', 'Qd2', 'Qd7'];
    const r = rig();
    playPressed(r, line);
    r.hands.move('O-O-O', 'rook-first', 3_000);
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual([...line, 'O-O-O']);
  });

  it('15. Black castling rook first with a delay', () => {
    const r = rig();
    playPressed(r, [...opening, 'd3']);
    r.hands.move('Nf6');
    r.wait(500);
    r.hands.press('black');
    r.wait(1_000);
    playPressed(r, ['c3']);
    r.hands.move('O-O', 'rook-first', 4_000);
    r.wait(500);
    r.hands.press('black');
    expect(r.game()).toEqual([...opening, 'd3', 'Nf6', 'c3', 'O-O']);
  });
});

describe('board artefacts: takebacks and replaced moves', () => {
  it('16. a move taken back before the press: nothing recorded', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.hands.move('Nf3');
    r.wait(1_000);
    r.hands.takeBack();
    r.wait(5_000);
    expect(r.game()).toEqual(['e4', 'e5']);
  });

  it('17. a takeback, then another move (the first was taken by its confirm time)', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.hands.move('Nf3');
    r.wait(3_000); // taken: no press came
    r.hands.takeBack();
    r.wait(1_000);
    r.hands.move('Nc3');
    r.wait(3_000);
    r.hands.press('white');
    expect(r.game()).toEqual(['e4', 'e5', 'Nc3']);
    expect(r.kinds('takeback')).toHaveLength(1);
  });

  it('18. a move replaced at once, without the old position showing in between', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.hands.move('Bc4');
    r.wait(3_000);
    // The bishop goes on from c4 to b5 (Bb5 instead of Bc4), the board still in between.
    r.put('c4', '.');
    r.put('b5', 'B');
    r.truth.undo();
    r.truth.move('Bb5');
    r.wait(3_000);
    expect(r.game()).toEqual(['e4', 'e5', 'Bb5']);
  });

  it('19. a takeback of both players last moves', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5', 'Nf3', 'Nc6']);
    r.hands.takeBack();
    r.wait(600);
    r.hands.takeBack();
    r.wait(3_000);
    expect(r.game()).toEqual(['e4', 'e5']);
    playPressed(r, ['d4']);
    expect(r.game()).toEqual(['e4', 'e5', 'd4']);
  });

  it('20. a takeback of a capture puts the captured piece back', () => {
    const r = rig();
    playPressed(r, ['e4', 'd5', 'exd5']);
    r.hands.takeBack();
    r.wait(3_000);
    playPressed(r, ['e5']);
    expect(r.game()).toEqual(['e4', 'd5', 'e5']);
  });

  it('21. a knocked-over piece stood up again: no move, no re-seed', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.put('d2', '.'); // knocked off its square
    r.wait(8_000);
    r.put('d2', 'P');
    r.wait(1_000);
    playPressed(r, ['Nf3']);
    expect(r.game()).toEqual(['e4', 'e5', 'Nf3']);
    expect(r.kinds('unrecognised')).toHaveLength(1);
    expect(r.kinds('reseed')).toEqual([]);
  });

  it('22. a piece put down and moved on before the press', () => {
    const r = rig();
    r.put('g1', '.');
    r.put('f3', 'N');
    r.wait(1_000);
    r.put('f3', '.');
    r.put('h3', 'N');
    r.truth.move('Nh3');
    r.wait(500);
    r.hands.press('white');
    expect(r.game()).toEqual(['Nh3']);
  });

  it('23. a takeback on a rotated board', () => {
    const r = rig({ rotated: true });
    playPressed(r, ['e4', 'e5']);
    r.hands.move('Nf3');
    r.wait(3_000);
    r.hands.takeBack();
    r.wait(3_000);
    playPressed(r, ['Bc4']);
    expect(r.game()).toEqual(['e4', 'e5', 'Bc4']);
  });
});

describe('board artefacts: moves the board never reported (unplugged)', () => {
  const unplugged = (plies: number) => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.hands.unplug();
    // Three plies with one white piece moved twice by the only route there is (Nf3 then Bb5 would
    // transpose: see below).
    const line = plies <= 3 ? ['Nf3', 'Nc6', 'Nxe5'].slice(0, plies) : ['Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O', 'Be7', 'Re1', 'b5'].slice(0, plies);
    for (const san of line) r.hands.move(san);
    r.wait(10_000);
    r.hands.replug();
    r.wait(500);
    return { r, line };
  };

  it.each([1, 2, 3])('24-26. %i plies during one unplug are recovered from the board dump', (plies) => {
    const { r, line } = unplugged(plies);
    // A single ply waits for its press (or the confirm time) like any move.
    r.wait(3_000);
    expect(r.game()).toEqual(['e4', 'e5', ...line]);
    expect(r.kinds('reseed')).toEqual([]);
  });

  it('26b. 3 plies that transpose (Nf3 Nc6 Bb5 or Bb5 Nc6 Nf3): re-seeded at once with both orders, never guessed', () => {
    const r = rig();
    playPressed(r, ['e4', 'e5']);
    r.hands.unplug();
    for (const san of ['Nf3', 'Nc6', 'Bb5']) r.hands.move(san);
    r.hands.replug();
    r.wait(500);
    expect(r.kinds('reseed')).toMatchObject([
      { reseed: { plies: 3, reason: 'ambiguous', candidates: expect.arrayContaining(['Nf3 Nc6 Bb5', 'Bb5 Nc6 Nf3']) } },
    ]);
    playPressed(r, ['a6']);
    expect(r.game().slice(-1)).toEqual(['a6']);
  });

  it('27. 10 plies during one unplug: re-seeded once the game goes on from the position, then tracked', () => {
    const { r } = unplugged(10);
    r.wait(6_000);
    expect(r.kinds('unrecognised')).toHaveLength(1);
    playPressed(r, ['Bb3', 'd6']);
    expect(r.kinds('reseed')).toHaveLength(1);
    expect(r.kinds('reseed')[0]).toMatchObject({ reseed: { reason: 'no-legal-path' } });
    expect(r.game().slice(-2)).toEqual(['Bb3', 'd6']);
    expect(r.tracker.fen.split(' ').slice(0, 2)).toEqual(r.truth.fen().split(' ').slice(0, 2));
  });

  it('28. a promotion captured at once is quarantined, then the game goes on after a re-seed', () => {
    const r = rig({ fen: 'r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1' });
    r.hands.move('b8=Q');
    r.hands.move('Rxb8');
    r.wait(6_000);
    expect(r.kinds('ambiguous')).toHaveLength(1);
    playPressed(r, ['Kd2']);
    expect(r.kinds('reseed')).toHaveLength(1);
    expect(r.kinds('reseed')[0]).toMatchObject({ reseed: { plies: 2, reason: 'ambiguous' } });
    playPressed(r, ['Rb2+']);
    expect(r.game().slice(-1)).toEqual(['Rb2+']);
  });
});

describe('board artefacts: signals and the arbiter', () => {
  it.each([
    ['e4', 'e5'],
    ['d4', 'd5'],
    ['e4', 'd5'],
    ['d4', 'e5'],
  ])('29. kings on %s and %s are the result signal (DGT draw: opposite colours)', (white, black) => {
    const r = rig({ fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
    r.put('e1', '.');
    r.put('e8', '.');
    r.put(white, 'K');
    r.put(black, 'k');
    r.wait(1_000);
    const expected = white === 'e4' && black === 'd5' ? '1-0' : white === 'd4' && black === 'e5' ? '0-1' : '1/2-1/2';
    expect(r.kinds('resultSignal')).toMatchObject([{ result: expected }]);
  });

  it('the arbiter sets the position; the game goes on from it', () => {
    const r = rig();
    playPressed(r, ['e4']);
    r.put('d7', '.');
    r.put('d5', 'p');
    r.put('c7', '.');
    r.put('c6', 'p');
    r.wait(6_000);
    const fen = 'rnbqkbnr/pp2pppp/2p5/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    r.tracker.setPosition(fen);
    r.truth.load(fen);
    playPressed(r, ['exd5']);
    expect(r.game()).toEqual(['e4', `[${fen}]`, 'exd5']);
  });
});
