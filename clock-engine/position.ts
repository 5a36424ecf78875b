// The end of the game read from the position, per Laws edition, through chess.js (the one rules library
// of zeitnot: the DGT game reader, the virtual players and this engine all use it). A position ends the
// game at the move that made it (L2009 5.1 a, 5.2 a, 5.2 b; L2018/L2023 5.1.1, 5.2.1, 5.2.2, 9.6), so a
// flag that falls after it changes nothing (6.9 "unless the game had already ended").
import { Chess } from 'chess.js';
import type { GameConfig, GameResult } from './types.ts';

export const startFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export interface PositionEnding {
  readonly result: GameResult;
  readonly termination: string;
}

/** A position read once: chess.js's own, and the parts the repetition and 75-move rules compare. */
export interface ReadPosition {
  readonly chess: Chess;
  /**
   * What Art. 9.2 compares: the pieces, the side to move, castling rights and an en passant capture that
   * can really be made (chess.js writes the en passant square only then).
   */
  readonly key: string;
  /** Halfmoves since the last pawn move or capture (the FEN's fifth field). */
  readonly halfmoves: number;
}

/** The position of a FEN, or undefined when chess.js cannot read it as a legal position. */
export function readPosition(fen: string): ReadPosition | undefined {
  let chess: Chess;
  try {
    chess = new Chess(fen);
  } catch {
    return undefined;
  }
  const fields = chess.fen().split(' ');
  return { chess, key: fields.slice(0, 4).join(' '), halfmoves: Number(fields[4] ?? 0) };
}

/**
 * The positions that may still repeat after a move to `now`: none before a pawn move or capture can
 * come again, so the list starts afresh at one (halfmove clock 0); otherwise `now` joins `before`.
 */
export function nextRepeatable(before: readonly string[], now: ReadPosition): readonly string[] {
  return now.halfmoves === 0 ? [now.key] : [...before, now.key];
}

const articles = {
  '2009': { mate: 'Art. 5.1 a', stalemate: 'Art. 5.2 a', dead: 'Art. 5.2 b, 9.6' },
  '2018': { mate: 'Art. 5.1.1', stalemate: 'Art. 5.2.1', dead: 'Art. 5.2.2' },
  '2023': { mate: 'Art. 5.1.1', stalemate: 'Art. 5.2.1', dead: 'Art. 5.2.2' },
} as const;

/**
 * How `position` ends the game under `config`'s edition, or undefined when play goes on. Checkmate first
 * (it takes precedence over the 75-move rule, L2018/L2023 9.6.2), then stalemate, then a dead position
 * by material (chess.js's insufficient material: no series of legal moves can mate, Art. 5.2.2 / 2009
 * 5.2 b), then, from the 2018 Laws only (L2009 has neither: a threefold repetition or 50 moves are
 * claims, 9.2 and 9.3), the fifth occurrence of a position (`repeatable` holds it and the earlier ones)
 * and 75 moves by each side without a pawn move or capture.
 */
export function positionEnding(config: Pick<GameConfig, 'lawsEdition'>, position: ReadPosition, repeatable: readonly string[]): PositionEnding | undefined {
  const edition = config.lawsEdition;
  const article = articles[edition];
  const laws = `Laws ${edition}`;
  const { chess } = position;
  if (!hasLegalMove(chess)) {
    if (chess.isCheck()) return { result: chess.turn() === 'w' ? '0-1' : '1-0', termination: `checkmate (${laws} ${article.mate})` };
    return { result: '1/2-1/2', termination: `stalemate (${laws} ${article.stalemate})` };
  }
  if (chess.isInsufficientMaterial()) {
    return { result: '1/2-1/2', termination: `dead position: neither side can checkmate (${laws} ${article.dead})` };
  }
  if (edition === '2009') return undefined;
  const occurrences = repeatable.filter((key) => key === position.key).length;
  if (occurrences >= 5) return { result: '1/2-1/2', termination: `fivefold repetition (${laws} Art. 9.6.1)` };
  if (position.halfmoves >= 150) {
    return { result: '1/2-1/2', termination: `75 moves by each player without a pawn move or capture (${laws} Art. 9.6.2)` };
  }
  return undefined;
}

/** The side to move's pieces, those most often free to move first. */
const searchOrder = ['p', 'n', 'k', 'b', 'r', 'q'] as const;

/**
 * Whether the side to move has a legal move: piece by piece until one has. chess.js's isCheckmate and
 * isStalemate make the whole list of legal moves, every move made and taken back, for each ply the
 * engine folds (on a hall host and again on the console): the largest part of a ply's cost. Here a
 * position with a movable pawn costs that pawn's moves; only a mate or a stalemate costs every piece's.
 */
function hasLegalMove(chess: Chess): boolean {
  const color = chess.turn();
  for (const type of searchOrder) for (const square of chess.findPiece({ type, color })) if (chess.moves({ square }).length > 0) return true;
  return false;
}

/** Moves played from a position: each one's SAN (as chess.js writes it) and the position after it. */
export interface PlayedLine {
  readonly sans: readonly string[];
  readonly fens: readonly string[];
}

/**
 * `moves` (SAN) played one after the other from `fen`: the line, or the index of the first one that is
 * not a legal move where it comes (or a position chess.js cannot read).
 */
export function playMoves(
  fen: string,
  moves: readonly string[],
): { readonly ok: true; readonly line: PlayedLine } | { readonly ok: false; readonly index: number } {
  const position = readPosition(fen);
  if (!position) return { ok: false, index: 0 };
  const { chess } = position;
  const sans: string[] = [];
  const fens: string[] = [];
  for (const [index, san] of moves.entries()) {
    try {
      sans.push(chess.move(san, { strict: false }).san);
    } catch {
      return { ok: false, index };
    }
    fens.push(chess.fen());
  }
  return { ok: true, line: { sans, fens } };
}

/**
 * Whether two FENs show the same position as a board can see it: the pieces and the side to move. A
 * re-read position's castling and en passant rights are the reader's guess, its counters unknown.
 */
export function samePlacement(a: string, b: string): boolean {
  const [pieces, turn] = a.split(' ');
  const [otherPieces, otherTurn] = b.split(' ');
  return pieces === otherPieces && turn === otherTurn;
}
