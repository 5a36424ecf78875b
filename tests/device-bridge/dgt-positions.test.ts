// Board positions to moves, on simulated time: only stable legal positions become moves, a press takes a
// stable move at once, ambiguous ones are quarantined, the kings-on-centre signal is a claim, and a
// rotated board is recognised from its start position.
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { PositionTracker, squareIndex, type BoardSquare, type PieceLetter, type PositionEvent } from '../../device-bridge/internal.ts';
import { createManualScheduler } from '../../simulators/index.ts';

function squaresOf(fen: string, rotated = false): BoardSquare[] {
  const chess = new Chess(fen);
  const squares: BoardSquare[] = Array.from({ length: 64 }, () => '.');
  for (const row of chess.board()) {
    for (const cell of row) {
      if (!cell) continue;
      const index = squareIndex(cell.square);
      squares[rotated ? 63 - index : index] = (cell.color === 'w' ? cell.type.toUpperCase() : cell.type) as PieceLetter;
    }
  }
  return squares;
}

function rig(options: { fen?: string; rotated?: boolean; orientation?: 'normal' | 'rotated' } = {}) {
  const scheduler = createManualScheduler();
  const events: PositionEvent[] = [];
  const tracker = new PositionTracker({
    scheduler,
    stableMs: 400,
    confirmMs: 2_500,
    onEvent: (e) => events.push(e),
    ...(options.fen ? { fen: options.fen } : {}),
    ...(options.orientation ? { orientation: options.orientation } : {}),
  });

  tracker.boardDump(squaresOf(options.fen ?? new Chess().fen(), options.rotated));
  scheduler.advanceBy(400);
  const rotated = options.rotated ?? false;
  const put = (square: string, piece: PieceLetter) => {
    const index = squareIndex(square);
    tracker.fieldUpdate(rotated ? 63 - index : index, piece);
  };
  const moves = () => events.flatMap((e) => (e.type === 'move' ? [`${e.side} ${e.san} @${e.at}`] : []));
  return { scheduler, events, tracker, put, moves };
}

describe('positions to moves', () => {
  it('takes a move only once the board is still, and then when the mover presses the clock', () => {
    const { put, scheduler, tracker, moves, events } = rig();
    put('e2', '.');
    scheduler.advanceBy(1_000); // a piece in the air is no position
    put('e4', 'P');
    scheduler.advanceBy(399);
    tracker.clockPressed('white'); // pressed before the board was still: remembered
    expect(moves()).toEqual([]);
    scheduler.advanceBy(1);
    expect(moves()).toEqual(['white e4 @1800']);
    expect(events.find((e) => e.type === 'move')).toMatchObject({ uci: 'e2e4', ply: 1, fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' });
  });

  it('never reads a move from a piece sliding over legal squares; without a press, waits the confirm time', () => {
    const { put, scheduler, moves } = rig({ fen: '4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1' });
    // The queen slides c1-c2-c3-c4 with the board reporting each square within 400 ms.
    put('c1', '.');
    put('c2', 'Q');
    scheduler.advanceBy(150);
    put('c2', '.');
    put('c3', 'Q');
    scheduler.advanceBy(150);
    put('c3', '.');
    put('c4', 'Q');
    scheduler.advanceBy(400 + 2_499);
    expect(moves()).toEqual([]);
    scheduler.advanceBy(1);
    expect(moves()).toEqual(['white Qc4 @3600']);
  });

  it('drops a stable candidate the player changes before pressing (a piece put down and moved on)', () => {
    const { put, scheduler, tracker, moves } = rig();
    put('d2', '.');
    put('d3', 'P');
    scheduler.advanceBy(1_000); // still on d3 for a second: a candidate, not yet a move
    put('d3', '.');
    put('d4', 'P');
    scheduler.advanceBy(400);
    tracker.clockPressed('white');
    expect(moves()).toEqual(['white d4 @1800']);
  });

  it('takes both moves when both players moved within one window', () => {
    const { put, scheduler, moves } = rig();
    put('e2', '.');
    put('e4', 'P');
    put('e7', '.');
    put('e5', 'p');
    scheduler.advanceBy(400);
    expect(moves()).toEqual(['white e4 @800', 'black e5 @800']);
  });

  it('reads castling, en passant and promotion from their field updates', () => {
    const { put, scheduler, tracker, moves } = rig({ fen: 'r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1' });
    put('e5', '.');
    put('d6', 'P');
    put('d5', '.');
    scheduler.advanceBy(400);
    tracker.clockPressed('white');
    put('e8', '.');
    put('g8', 'k');
    put('h8', '.');
    put('f8', 'r');
    scheduler.advanceBy(400);
    tracker.clockPressed('black');
    put('b7', '.');
    put('b8', 'N');
    scheduler.advanceBy(400);
    tracker.clockPressed('white');
    expect(moves()).toEqual(['white exd6 @800', 'black O-O @1200', 'white b8=N @1600']);
  });

  it('quarantines a position two or more move sequences explain, and reports it once', () => {
    // The pawn promotes on b8 and the rook takes it at once: to what did it promote? The board cannot say.
    const { put, scheduler, events, moves } = rig({ fen: 'r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1' });
    put('b7', '.');
    put('b8', 'Q');
    scheduler.advanceBy(100);
    put('a8', '.');
    put('b8', 'r');
    scheduler.advanceBy(10_000);
    expect(moves()).toEqual([]);
    const quarantined = events.filter((e) => e.type === 'ambiguous');
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]).toMatchObject({ at: 900 });
    if (quarantined[0]?.type !== 'ambiguous') throw new Error('no quarantine');
    expect([...quarantined[0].candidates].sort()).toEqual(['b8=B Rxb8', 'b8=N Rxb8', 'b8=Q+ Rxb8', 'b8=R+ Rxb8']);
  });

  it('reads both kings on the centre squares as a result claim, not as moves', () => {
    const claim = (white: string, black: string) => {
      const { put, scheduler, events } = rig({ fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
      put('e1', '.');
      put('e8', '.');
      put(white, 'K');
      put(black, 'k');
      scheduler.advanceBy(10_000);
      return events.filter((e) => e.type !== 'orientation').map((e) => (e.type === 'resultSignal' ? e.result : e.type));
    };
    expect(claim('e4', 'd5')).toEqual(['1-0']);
    expect(claim('d4', 'e5')).toEqual(['0-1']);
    expect(claim('d4', 'e4')).toEqual(['1/2-1/2']);
    expect(claim('e5', 'd5')).toEqual(['1/2-1/2']);
  });

  it('recognises a rotated board from its start position and maps every square', () => {
    const { put, scheduler, tracker, events, moves } = rig({ rotated: true });
    expect(events[0]).toMatchObject({ type: 'orientation', orientation: 'rotated' });
    expect(tracker.boardOrientation).toBe('rotated');
    put('g1', '.');
    put('f3', 'N');
    scheduler.advanceBy(400);
    tracker.clockPressed('white');
    expect(moves()).toEqual(['white Nf3 @800']);
  });

  it('reports a stable position no move explains after a while, and a new game when the start position returns', () => {
    const { put, scheduler, events, tracker } = rig();
    put('e2', '.');
    put('e5', 'P');
    scheduler.advanceBy(400 + 5_000);
    expect(events.at(-1)).toMatchObject({ type: 'unrecognised', at: 5_800 });
    put('e5', '.');
    put('e4', 'P');
    scheduler.advanceBy(400);
    tracker.clockPressed('white');
    put('e4', '.');
    put('e2', 'P');
    scheduler.advanceBy(400);
    expect(events.at(-1)).toMatchObject({ type: 'newGame' });
    expect(tracker.fen).toBe(new Chess().fen());
  });
});

// A console restarted mid-game: the tracker starts at the journal's position, and the board's first dump
// shows what the players did meanwhile.
/** The position after these moves from the start. */
const after = (...sans: string[]): string => {
  const chess = new Chess();
  for (const san of sans) chess.move(san);
  return chess.fen();
};

/**
 * After 1.e4 the journal has 4 presses without their moves; the board, read again, shows the position
 * after 3.Bc4 (still for 400 ms): what a board unplugged for 4 plies gives.
 */
function unpluggedAfterE4() {
  const scheduler = createManualScheduler();
  const events: PositionEvent[] = [];
  const fork = new PositionTracker({
    scheduler,
    stableMs: 400,
    confirmMs: 2_500,
    onEvent: (e) => events.push(e),
    fen: after('e4'),
    pressed: 'white',
    unreadPresses: 4,
  });
  fork.boardDump(squaresOf(after('e4', 'e5', 'Nf3', 'Nc6', 'Bc4')));
  scheduler.advanceBy(400);
  return { scheduler, events, fork };
}

describe('a resumed game', () => {
  const resumed = (fen: string, pressed?: 'white' | 'black') => {
    const scheduler = createManualScheduler();
    const events: PositionEvent[] = [];
    const tracker = new PositionTracker({ scheduler, stableMs: 400, confirmMs: 2_500, onEvent: (e) => events.push(e), fen, ...(pressed ? { pressed } : {}) });
    const moves = () => events.flatMap((e) => (e.type === 'move' ? [`${e.side} ${e.san} @${e.at}`] : e.type === 'reseed' ? [`reseed ${e.reseed.reason}`] : []));
    const put = (square: string, piece: PieceLetter) => tracker.fieldUpdate(squareIndex(square), piece);
    return { scheduler, tracker, moves, put };
  };

  it('takes the move whose press the journal already has once the board is still, without the confirm wait', () => {
    const journal = after('e4');
    const { scheduler, tracker, moves } = resumed(journal, 'black');
    tracker.boardDump(squaresOf(after('e4', 'e5')));
    scheduler.advanceBy(400);
    expect(moves()).toEqual(['black e5 @400']);
    // Without the journal's press the same reading waits for one.
    const waiting = resumed(journal);
    waiting.tracker.boardDump(squaresOf(after('e4', 'e5')));
    waiting.scheduler.advanceBy(400);
    expect(waiting.moves()).toEqual([]);
    waiting.scheduler.advanceBy(2_500);
    expect(waiting.moves()).toEqual(['black e5 @2900']);
  });

  it('counts the plies a re-seed skipped from the presses without moves, so the board is not left behind its clock', () => {
    // Killed again before the board read the moves made while it was down: the journal has 4 presses
    // after e4 without their moves, and the board shows 4 plies on, which no search explains.
    const read = (events: PositionEvent[]) =>
      events.flatMap((e) =>
        e.type === 'move' ? [`${e.side} ${e.san}`] : e.type === 'reseed' ? [`reseed ${e.reseed.reason} ${e.reseed.plies ?? 'unknown'}`] : [],
      );
    // The game goes on from there: Black's Nf6, pressed before (or after) the board was still.
    const goOn = (pressFirst: boolean) => {
      const { scheduler, events, fork } = unpluggedAfterE4();
      expect(events.filter((e) => e.type === 'move' || e.type === 'reseed')).toEqual([]);
      events.length = 0;
      if (pressFirst) fork.clockPressed('black');
      fork.fieldUpdate(squareIndex('g8'), '.');
      fork.fieldUpdate(squareIndex('f6'), 'n');
      scheduler.advanceBy(400);
      if (!pressFirst) {
        scheduler.advanceBy(2_500);
        fork.clockPressed('black');
      }
      return read(events);
    };
    expect(goOn(true)).toEqual(['reseed no-legal-path 4', 'black Nf6']);
    expect(goOn(false)).toEqual(['reseed no-legal-path 4', 'black Nf6']);
    // A move read before its press (Black's e5, taken after the confirm wait) leaves the count right for
    // the next re-seed: 4 plies unseen, then White castles.
    const scheduler = createManualScheduler();
    const events: PositionEvent[] = [];
    const later = new PositionTracker({ scheduler, stableMs: 400, confirmMs: 2_500, onEvent: (e) => events.push(e), fen: after('e4') });
    later.boardDump(squaresOf(after('e4')));
    later.fieldUpdate(squareIndex('e7'), '.');
    later.fieldUpdate(squareIndex('e5'), 'p');
    scheduler.advanceBy(400 + 2_500);
    later.clockPressed('black');
    for (let i = 0; i < 4; i++) later.clockPressed(i % 2 === 0 ? 'white' : 'black');
    later.boardDump(squaresOf(after('e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6')));
    scheduler.advanceBy(400);
    later.fieldUpdate(squareIndex('e1'), '.');
    later.fieldUpdate(squareIndex('h1'), '.');
    later.fieldUpdate(squareIndex('g1'), 'K');
    later.fieldUpdate(squareIndex('f1'), 'R');
    later.clockPressed('white');
    scheduler.advanceBy(400);
    expect(read(events)).toEqual(['black e5', 'reseed no-legal-path 4', 'white O-O']);
  });

  it('a re-seed the presses count carries the move number the game reached, and so do the moves after it', () => {
    // After 1.e4 the board was unplugged for 4 plies (4 presses without moves): it shows the position
    // after 3.Bc4 with Black to move, move 3, not move 1 as the last position read said.
    const { scheduler, events, fork } = unpluggedAfterE4();
    fork.clockPressed('black');
    fork.fieldUpdate(squareIndex('g8'), '.');
    fork.fieldUpdate(squareIndex('f6'), 'n');
    scheduler.advanceBy(400);
    const reseed = events.find((e) => e.type === 'reseed');
    const move = events.find((e) => e.type === 'move');
    expect(reseed?.type === 'reseed' && reseed.reseed).toMatchObject({ plies: 4, fen: `${after('e4', 'e5', 'Nf3', 'Nc6', 'Bc4').split(' ')[0]} b KQkq - 0 3` });
    expect(move).toMatchObject({ side: 'black', san: 'Nf6', ply: 6 });
    expect(move?.type === 'move' && move.fen.split(' ').slice(1)).toEqual(['w', 'KQkq', '-', '1', '4']);
  });

  it('reads the dump three plies deep even when a player moves before the board was still', () => {
    const { scheduler, tracker, moves, put } = resumed(new Chess().fen(), 'black');
    tracker.boardDump(squaresOf(after('e4', 'e5')));
    scheduler.advanceBy(200);
    // White plays Bc4 while the board is being read after its reconnect.
    put('f1', '.');
    put('c4', 'B');
    scheduler.advanceBy(400);
    expect(moves()).toEqual(['white e4 @600', 'black e5 @600', 'white Bc4 @600']);
    // Once read, the next positions are read as usual (one or two plies).
    put('g8', '.');
    put('f6', 'n');
    scheduler.advanceBy(400);
    tracker.clockPressed('black');
    expect(moves().at(-1)).toBe('black Nf6 @1000');
  });
});
