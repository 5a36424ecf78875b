// The FIDE Laws the clock applies, per edition (2009 / 2018 / 2023) and category.
// Sources: shared/research/fide-rules.md sections 1.8, 1.11, 1.12 (article numbers as in that edition).
import { Chess } from 'chess.js';
import type { GameConfig, GameResult, Side } from './types.ts';

export type PenaltyOutcome =
  | { readonly kind: 'time'; readonly ms: number; readonly article: string }
  | { readonly kind: 'loss'; readonly article: string };

const minute = 60_000;

/**
 * What the `count`-th offence (1-based) costs: extra time for the opponent or the game.
 * L2009: illegal moves +2 min twice, the 3rd loses (7.4 b); false claim +3 min (9.5 b).
 * L2018: illegal +2 min, the 2nd loses (7.5.5); false claim +2 min (9.5.3); blitz 1 min (B.2).
 * L2023: as L2018, but 1 min in rapid and blitz (A.3, B.3).
 */
export function penaltyOutcome(
  config: Pick<GameConfig, 'lawsEdition' | 'category'>,
  offence: 'illegal-move' | 'false-claim',
  count: number,
): PenaltyOutcome {
  const { lawsEdition: edition, category } = config;
  if (edition === '2009') {
    if (offence === 'illegal-move') {
      return count >= 3
        ? { kind: 'loss', article: 'Laws 2009 Art. 7.4 b (third illegal move)' }
        : { kind: 'time', ms: 2 * minute, article: 'Laws 2009 Art. 7.4 b' };
    }
    return { kind: 'time', ms: 3 * minute, article: 'Laws 2009 Art. 9.5 b' };
  }
  const oneMinute = category === 'blitz' || (edition === '2023' && category === 'rapid');
  const ms = oneMinute ? minute : 2 * minute;
  const appendix = oneMinute ? (category === 'blitz' ? (edition === '2018' ? ' with B.2' : ' with A.3, B.3') : ' with A.3') : '';
  if (offence === 'illegal-move') {
    return count >= 2
      ? { kind: 'loss', article: `Laws ${edition} Art. 7.5.5 (second illegal move)` }
      : { kind: 'time', ms, article: `Laws ${edition} Art. 7.5.5${appendix}` };
  }
  return { kind: 'time', ms, article: `Laws ${edition} Art. 9.5.3${appendix}` };
}

/** The article that lets an event forbid early draw agreements. */
export function drawAgreementArticle(edition: GameConfig['lawsEdition']): string {
  return edition === '2009' ? 'Laws 2009 Art. 9.1 a' : `Laws ${edition} Art. 9.1.1`;
}

type Material = { kings: number; knights: number; lightBishops: number; darkBishops: number; heavyOrPawns: number };

function material(fen: string): { white: Material; black: Material } | undefined {
  let board;
  try {
    board = new Chess(fen).board();
  } catch {
    return undefined;
  }
  const empty = (): Material => ({ kings: 0, knights: 0, lightBishops: 0, darkBishops: 0, heavyOrPawns: 0 });
  const m = { white: empty(), black: empty() };
  board.forEach((row, r) =>
    row.forEach((sq, f) => {
      if (!sq) return;
      const side = m[sq.color === 'w' ? 'white' : 'black'];
      if (sq.type === 'k') side.kings++;
      else if (sq.type === 'n') side.knights++;
      else if (sq.type === 'b') {
        if ((r + f) % 2 === 0) side.lightBishops++;
        else side.darkBishops++;
      } else side.heavyOrPawns++;
    }),
  );
  return m;
}

/**
 * Laws 6.9: can `side` checkmate by any series of legal moves (the helpmate test, not "forced mate")?
 * Decided by material: a bare king cannot; king and one knight cannot mate a bare king; king and
 * bishops all on one colour cannot mate a king whose own men are only bishops on that colour.
 * Everything else can (K+N v K+R can: the rook may block its own king). Blocked pawn fortresses are
 * not recognised; an unknown or unreadable position counts as "can mate" (the ordinary loss).
 */
export function canCheckmate(fen: string | undefined, side: Side): boolean {
  if (!fen) return true;
  const m = material(fen);
  if (!m) return true;
  const me = m[side];
  const them = m[side === 'white' ? 'black' : 'white'];
  const myMen = me.knights + me.lightBishops + me.darkBishops + me.heavyOrPawns;
  const theirMen = them.knights + them.lightBishops + them.darkBishops + them.heavyOrPawns;
  if (myMen === 0) return false;
  if (me.heavyOrPawns > 0) return true;
  if (me.knights === 1 && myMen === 1) return theirMen > 0;
  if (me.knights === 0) {
    // Only bishops: all on one colour can never cover the mating square pattern unless the other side
    // has a man that can block on the other colour.
    const oneColour = me.lightBishops === 0 || me.darkBishops === 0;
    if (!oneColour) return true;
    const colour = me.lightBishops > 0 ? 'light' : 'dark';
    const theirBlockers =
      them.knights + them.heavyOrPawns + (colour === 'light' ? them.darkBishops : them.lightBishops);
    return theirBlockers > 0;
  }
  return true;
}

/** The result when `flagged` runs out of time (Laws 6.9). */
export function flagResult(fen: string | undefined, flagged: Side): { result: GameResult; termination: string } {
  if (!canCheckmate(fen, flagged === 'white' ? 'black' : 'white')) {
    return { result: '1/2-1/2', termination: 'time forfeit: drawn, the opponent cannot checkmate (Art. 6.9)' };
  }
  return { result: flagged === 'white' ? '0-1' : '1-0', termination: 'time forfeit (Art. 6.9)' };
}

/** A loss by penalty (e.g. the second illegal move) is a draw if the opponent cannot checkmate. */
export function lossResult(fen: string | undefined, loser: Side, why: string): { result: GameResult; termination: string } {
  if (!canCheckmate(fen, loser === 'white' ? 'black' : 'white')) {
    return { result: '1/2-1/2', termination: `${why}: drawn, the opponent cannot checkmate` };
  }
  return { result: loser === 'white' ? '0-1' : '1-0', termination: why };
}
