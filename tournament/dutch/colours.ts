// Colour allocation (C.04.3 E.1-E.5) and the order in which boards are published.
import { otherColour, type Board, type Colour } from './model.ts';
import type { PlayerState } from './players.ts';

/** The most recent played round in which the two had different colours (E.3); colours aligned from the end. */
function lastDifference(a: PlayerState, b: PlayerState): [Colour, Colour] | null {
  for (let i = a.colours.length - 1, j = b.colours.length - 1; i >= 0 && j >= 0; i -= 1, j -= 1) {
    if (a.colours[i] !== b.colours[j]) return [a.colours[i]!, b.colours[j]!];
  }
  return null;
}

/** `a` is ranked above `b`: higher (accelerated) score, then lower pairing number. */
export const ranksAbove = (a: PlayerState, b: PlayerState): boolean => a.score > b.score || (a.score === b.score && a.rank < b.rank);

/** E.1-E.3: the colour for `player`, or null when only rank can decide. */
function byPreferences(player: PlayerState, opponent: PlayerState): Colour | null {
  const p = player.preference;
  const q = opponent.preference;
  if (p === null || q === null || p !== q) {
    if (p !== null) return p;
    if (q !== null) return otherColour(q);
    return null;
  }
  if (player.absolute && (player.colourImbalance > opponent.colourImbalance || !opponent.absolute)) return p;
  if (opponent.absolute && (opponent.colourImbalance > player.colourImbalance || !player.absolute)) return otherColour(q);
  if (player.strong && !opponent.strong) return p;
  if (opponent.strong && !player.strong) return otherColour(q);
  const difference = lastDifference(player, opponent);
  return difference ? difference[1] : null;
}

/** The colour `player` gets against `opponent`. */
export function colourFor(player: PlayerState, opponent: PlayerState, initialColour: Colour): Colour {
  const chosen = byPreferences(player, opponent);
  if (chosen) return chosen;
  const higher = ranksAbove(player, opponent) ? player : opponent;
  if (higher.preference !== null) {
    // E.4: the higher-ranked player's preference.
    return higher === player ? player.preference! : otherColour(opponent.preference!);
  }
  // E.5: odd pairing number of the higher-ranked player gets the initial colour.
  const higherGets = higher.rank % 2 === 0 ? initialColour : otherColour(initialColour);
  return higher === player ? higherGets : otherColour(higherGets);
}

/** Boards in publication order: higher player's score, then lower player's score, then the higher's rank. */
export function publicationOrder(boards: Board[], byId: ReadonlyMap<number, PlayerState>): Board[] {
  const key = (board: Board): [number, number, number] => {
    const w = byId.get(board.white)!;
    const b = byId.get(board.black)!;
    const whiteHigher = w.unacceleratedScore > b.unacceleratedScore || (w.unacceleratedScore === b.unacceleratedScore && w.rank < b.rank);
    const [higher, lower] = whiteHigher ? [w, b] : [b, w];
    return [higher.unacceleratedScore, lower.unacceleratedScore, higher.rank];
  };
  return boards
    .map((board) => ({ board, key: key(board) }))
    .sort((x, y) => y.key[0] - x.key[0] || y.key[1] - x.key[1] || x.key[2] - y.key[2])
    .map((entry) => entry.board);
}
