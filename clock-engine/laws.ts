// The FIDE Laws the clock applies, per edition (2009 / 2018 / 2023), category and, in rapid and blitz,
// supervision. Sources: the developers' research notes on the FIDE rules, sections 1.3, 1.5, 1.8, 1.12
// and 1.13 (article numbers as in that edition); docs/clock-rules.md names each decision.
import { Chess } from 'chess.js';
import type { GameConfig, GameResult, Side } from './types.ts';

export type PenaltyOutcome = { readonly kind: 'time'; readonly ms: number; readonly article: string } | { readonly kind: 'loss'; readonly article: string };

const minute = 60_000;

/**
 * What the `count`-th offence (1-based) costs: extra time for the opponent or the game.
 * L2009: illegal moves +2 min twice, the 3rd loses (7.4 b); false claim +3 min (9.5 b).
 * L2018: illegal +2 min, the 2nd loses (7.5.5); false claim +2 min (9.5.3); blitz 1 min (B.2).
 * L2023: as L2018, but 1 min in rapid and blitz (A.3, B.3).
 */
export function penaltyOutcome(
  config: Pick<GameConfig, 'lawsEdition' | 'category' | 'supervision'>,
  offence: 'illegal-move' | 'false-claim',
  count: number,
): PenaltyOutcome {
  const { lawsEdition: edition, category } = config;
  const unsupervised = category !== 'standard' && config.supervision === 'inadequate';
  if (edition === '2009') {
    if (offence === 'illegal-move') {
      // L2009 B.3 c: in blitz without adequate supervision the opponent claims a win (a draw if he
      // cannot mate) before his own move: the first illegal move the arbiter rules on loses.
      if (unsupervised && category === 'blitz') return { kind: 'loss', article: 'Laws 2009 Appendix B.3 c (illegal move, claimed by the opponent)' };
      // L2009 A.4 c: in rapid without it the arbiter rules only on the opponent's claim, then by 7.4.
      const claimed = unsupervised ? ", on the opponent's claim (Appendix A.4 c)" : '';
      return count >= 3
        ? { kind: 'loss', article: `Laws 2009 Art. 7.4 b (third illegal move)${claimed}` }
        : { kind: 'time', ms: 2 * minute, article: `Laws 2009 Art. 7.4 b${claimed}` };
    }
    return { kind: 'time', ms: 3 * minute, article: 'Laws 2009 Art. 9.5 b' };
  }
  const oneMinute = category === 'blitz' || (edition === '2023' && category === 'rapid');
  const ms = oneMinute ? minute : 2 * minute;
  // L2018 A.4.2 / L2023 A.5.2 (and blitz by B.4 / B.3): without adequate supervision the arbiter still
  // applies 7.5.5, if he sees it before the opponent's next move or on the opponent's claim.
  const appendix = unsupervised
    ? edition === '2018'
      ? category === 'blitz'
        ? ' with B.2, B.4, A.4.2'
        : ' with A.4.2'
      : ' with A.3, A.5.2' + (category === 'blitz' ? ', B.3' : '')
    : oneMinute
      ? category === 'blitz'
        ? edition === '2018'
          ? ' with B.2'
          : ' with A.3, B.3'
        : ' with A.3'
      : '';
  if (offence === 'illegal-move') {
    return count >= 2
      ? { kind: 'loss', article: `Laws ${edition} Art. 7.5.5 (second illegal move)` }
      : { kind: 'time', ms, article: `Laws ${edition} Art. 7.5.5${appendix}` };
  }
  return { kind: 'time', ms, article: `Laws ${edition} Art. 9.5.3${appendix}` };
}

/**
 * Whether a flag counts only when the opponent claims it: L2009 A.4 d (rapid, and blitz through B.3 a)
 * without adequate supervision, where the arbiter refrains from signalling a flag fall (he may when
 * both flags have fallen: the game is then drawn). L2018 A.4.5 and L2023 A.5.5 have the arbiter call
 * flag falls in every case.
 */
export function flagNeedsClaim(config: Pick<GameConfig, 'lawsEdition' | 'category' | 'supervision'>): boolean {
  return config.lawsEdition === '2009' && config.category !== 'standard' && config.supervision === 'inadequate';
}

/**
 * The instant the default time ends: a player absent then loses (or the arbiter decides). Under
 * 'more-than' (the Laws' and the three events' wording) arriving at exactly the default time is in
 * time, so the end is 1 ms later.
 */
export function defaultTimeEnd(config: Pick<GameConfig, 'scheduledStart' | 'defaultTimeMs' | 'defaultTimeBoundary'>): number {
  return config.scheduledStart + config.defaultTimeMs + ((config.defaultTimeBoundary ?? 'more-than') === 'more-than' ? 1 : 0);
}

/** The Guidelines III five-second increment (III.4). */
export const quickplayIncrementMs = 5000;

/**
 * The quickplay-finish rule this game has, or why it has none (and the article that says so): L2009
 * Article 10.2 wherever the event keeps it (not in blitz without adequate supervision, B.3 b); under
 * L2018/L2023 only the Guidelines III an event adopts, never in blitz, never with an increment or delay
 * (III.2).
 */
export function quickplayRule(
  config: GameConfig,
): { readonly article: string; readonly incrementOption: boolean } | { readonly unavailable: string; readonly article: string } {
  const guidelines = `Laws ${config.lawsEdition} Guidelines III.2`;
  if (!config.quickplayClaim) {
    return config.lawsEdition === '2009'
      ? { unavailable: 'the event does not apply Article 10.2', article: 'Laws 2009 Art. 10.2' }
      : { unavailable: `the event does not adopt Guidelines III (Laws ${config.lawsEdition} have no Article 10.2)`, article: guidelines };
  }
  if (config.lawsEdition === '2009') {
    if (config.category === 'blitz' && config.supervision === 'inadequate')
      return { unavailable: 'Article 10.2 does not apply in blitz without adequate supervision (Laws 2009 B.3 b)', article: 'Laws 2009 Appendix B.3 b' };
    return { article: 'Laws 2009 Art. 10.2', incrementOption: false };
  }
  if (config.category === 'blitz') return { unavailable: `Guidelines III do not apply to blitz (${guidelines})`, article: guidelines };
  const bonus = config.timeControl.periods.some((p) => p.bonus.kind !== 'none' && p.bonus.ms > 0);
  if (bonus) return { unavailable: `Guidelines III apply only to games without increment or delay (${guidelines})`, article: guidelines };
  return { article: `Laws ${config.lawsEdition} Guidelines III.5`, incrementOption: true };
}

/** The article that lets an event forbid early draw agreements. */
export function drawAgreementArticle(edition: GameConfig['lawsEdition']): string {
  return edition === '2009' ? 'Laws 2009 Art. 9.1 a' : `Laws ${edition} Art. 9.1.1`;
}

/** The article on how a draw offer is made and how long it stands. */
export function drawOfferArticle(edition: GameConfig['lawsEdition']): string {
  return edition === '2009' ? 'Laws 2009 Art. 9.1 b' : `Laws ${edition} Art. 9.1.2`;
}

/** The article on a flag fall (the loss on time, or the draw when the opponent cannot mate). */
export function flagArticle(edition: GameConfig['lawsEdition']): string {
  return `Laws ${edition} Art. 6.9`;
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
    const theirBlockers = them.knights + them.heavyOrPawns + (colour === 'light' ? them.darkBishops : them.lightBishops);
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
