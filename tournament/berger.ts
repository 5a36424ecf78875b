// FIDE Berger tables (C.05 Annex 1) by the rotation construction, for any number of players.
// Pairing numbers are 1..n; with an odd field the player paired with the phantom number n+1 has a bye.

export interface BergerGame {
  /** 1-based board; board 1 is the game of the highest number (the bye board with an odd field). */
  readonly board: number;
  readonly white: number;
  readonly black: number;
}

export interface BergerRound {
  readonly round: number;
  /** Games in board order, the bye excluded. */
  readonly games: readonly BergerGame[];
  /** The player who sits out (odd fields), else null. */
  readonly bye: number | null;
}

export interface BergerOptions {
  /** 2 for a double round robin: the second cycle repeats the first with colours reversed. */
  readonly cycles?: 1 | 2;
  /**
   * Double round robin: swap the last two rounds of the first cycle (FIDE recommendation, so that
   * players 1 and N/2+1 do not get three games in a row with the same colour). Default true.
   */
  readonly swapLastTwoRounds?: boolean;
}

type Pair = readonly [white: number, black: number];

/** One cycle as the table prints it: N/2 pairs per round including the phantom N. */
function singleCycle(N: number): Pair[][] {
  const rounds: Pair[][] = [];
  let previous: Pair[] = [];
  for (let b = 1; b <= N / 2; b += 1) previous.push([b, N - b + 1]);
  rounds.push(previous);
  for (let r = 2; r <= N - 1; r += 1) {
    const order = previous.flatMap(([w, b]) => [w, b]).filter((p) => p !== N);
    const last = order.pop() as number;
    // N has Black in odd rounds and White in even rounds.
    const pairs: Pair[] = [r % 2 === 0 ? [N, last] : [last, N]];
    while (order.length > 0) {
      const black = order.pop() as number;
      const white = order.pop() as number;
      pairs.push([white, black]);
    }
    rounds.push(pairs);
    previous = pairs;
  }
  return rounds;
}

/** The whole schedule for `players` participants (2 or more). */
export function bergerSchedule(players: number, options: BergerOptions = {}): BergerRound[] {
  if (!Number.isInteger(players) || players < 2) throw new RangeError(`a round robin needs at least 2 players, got ${players}`);
  const N = players % 2 === 0 ? players : players + 1;
  const cycle = singleCycle(N);
  let sequence: Pair[][] = cycle;
  if (options.cycles === 2) {
    const first = [...cycle];
    if ((options.swapLastTwoRounds ?? true) && first.length >= 2) {
      const last = first.length - 1;
      [first[last - 1], first[last]] = [first[last] as Pair[], first[last - 1] as Pair[]];
    }
    const second = cycle.map((pairs) => pairs.map(([w, b]): Pair => [b, w]));
    sequence = [...first, ...second];
  }
  return sequence.map((pairs, index) => {
    let bye: number | null = null;
    const games: BergerGame[] = [];
    for (const [white, black] of pairs) {
      if (white > players) bye = black;
      else if (black > players) bye = white;
      else games.push({ board: games.length + 1, white, black });
    }
    return { round: index + 1, games, bye };
  });
}

/** Number of rounds of a round robin of `players` in `cycles` cycles. */
export const roundRobinRounds = (players: number, cycles: 1 | 2 = 1): number => (players % 2 === 0 ? players - 1 : players) * cycles;
