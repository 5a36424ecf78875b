// Random tournaments paired round after round by the engine, with requested byes, withdrawals,
// late entries, forfeits and forbidden pairs. Whatever the results, every round must keep the
// absolute rules: everyone present paired once, no rematch, no forbidden pair, no second bye,
// and (C3) no non-topscorer pushed beyond a colour difference of 2 or three colours in a row.
import { describe, expect, it } from 'vitest';
import { pairRound, type PairingEntrant, type PairingRoundRecord, type RoundPairing } from '../../tournament/internal.ts';
import { seededRandom } from '../../simulators/index.ts';

const random = (seed: number): (() => number) => seededRandom(seed).next;

interface Player {
  readonly id: number;
  readonly rounds: PairingRoundRecord[];
  joins: number;
  leaves: number;
}

const score = (p: Player): number => p.rounds.reduce((sum, r) => sum + r.points, 0);

function colourTrouble(p: Player): boolean {
  const colours = p.rounds.filter((r) => r.played).map((r) => r.colour);
  const whites = colours.filter((c) => c === 'white').length;
  const diff = Math.abs(2 * whites - colours.length);
  const last3 = colours.slice(-3);
  return diff > 2 || (last3.length === 3 && last3.every((c) => c === last3[0]));
}

/** Plays one random tournament; returns the number of rounds paired. */
function playTournament(seed: number): number {
  const rand = random(seed);
  const size = 7 + Math.floor(rand() * 30);
  const totalRounds = 4 + Math.floor(rand() * 6);
  const players: Player[] = Array.from({ length: size }, (_, i) => ({
    id: i + 1,
    rounds: [],
    joins: rand() < 0.08 ? 1 + Math.floor(rand() * 2) : 0,
    leaves: rand() < 0.08 ? 2 + Math.floor(rand() * totalRounds) : Infinity,
  }));
  const forbidden =
    rand() < 0.5
      ? [
          [1, 2],
          [3, 4, 5],
        ]
      : [];
  const forbiddenKey = new Set(forbidden.flatMap((g) => g.flatMap((a) => g.filter((b) => b !== a).map((b) => `${a}-${b}`))));
  for (let round = 0; round < totalRounds; round += 1) {
    const absent = new Set<number>();
    const requested = new Map<number, number>();
    for (const p of players) {
      if (round < p.joins || round >= p.leaves) absent.add(p.id);
      else if (rand() < 0.06) {
        absent.add(p.id);
        requested.set(p.id, rand() < 0.5 ? 5 : 0);
      }
    }
    const entrants: PairingEntrant[] = players.map((p) => ({ id: p.id, rounds: p.rounds }));
    let pairing: RoundPairing;
    try {
      pairing = pairRound({ entrants, playedRounds: round, totalRounds, absent, initialColour: 'white', points: { win: 10, draw: 5, loss: 0 }, forbidden });
    } catch (error) {
      // Small fields can run out of legal opponents; that must be reported, never mis-paired.
      expect((error as Error).name).toBe('NoValidPairingError');
      return round;
    }
    const present = players.filter((p) => !absent.has(p.id));
    const seen = pairing.boards.flatMap((b) => [b.white, b.black]).concat(pairing.bye === null ? [] : [pairing.bye]);
    expect([...seen].sort((a, b) => a - b)).toEqual(present.map((p) => p.id));
    expect(pairing.bye === null).toBe(present.length % 2 === 0);
    const byId = new Map(players.map((p) => [p.id, p]));
    if (pairing.bye !== null) {
      const hadBye = byId.get(pairing.bye)!.rounds.some((r) => !r.played && (r.points >= 10 || (r.paired && r.opponent === null)));
      expect(hadBye, `round ${round + 1}: second bye for ${pairing.bye}`).toBe(false);
    }
    const lastRound = round === totalRounds - 1;
    const topscorer = (p: Player): boolean => lastRound && score(p) > (round * 10) / 2;
    for (const board of pairing.boards) {
      const white = byId.get(board.white)!;
      const black = byId.get(board.black)!;
      expect(
        white.rounds.some((r) => r.played && r.opponent === black.id),
        `rematch ${board.white}-${board.black}`,
      ).toBe(false);
      expect(forbiddenKey.has(`${board.white}-${board.black}`), `forbidden ${board.white}-${board.black}`).toBe(false);
    }
    // Results: 30 % draws, 4 % forfeits.
    for (const board of pairing.boards) {
      const white = byId.get(board.white)!;
      const black = byId.get(board.black)!;
      const forfeit = rand() < 0.04;
      const r = rand();
      const whitePoints = r < 0.3 ? 5 : r < 0.65 ? 10 : 0;
      const wp = forfeit ? (whitePoints >= 5 ? 10 : 0) : whitePoints;
      white.rounds.push({ opponent: black.id, colour: 'white', points: wp, played: !forfeit, paired: true });
      black.rounds.push({ opponent: white.id, colour: 'black', points: 10 - wp, played: !forfeit, paired: true });
      if (!forfeit && !topscorer(white) && !topscorer(black)) {
        expect(colourTrouble(white), `C3: ${white.id} in round ${round + 1}`).toBe(false);
        expect(colourTrouble(black), `C3: ${black.id} in round ${round + 1}`).toBe(false);
      }
    }
    for (const p of players) {
      if (p.id === pairing.bye) p.rounds.push({ opponent: null, colour: null, points: 10, played: false, paired: true });
      else if (absent.has(p.id)) p.rounds.push({ opponent: null, colour: null, points: requested.get(p.id) ?? 0, played: false, paired: false });
    }
  }
  return totalRounds;
}

describe('random tournaments keep the absolute rules every round', () => {
  for (let seed = 1; seed <= 40; seed += 1) {
    it(`tournament ${seed}`, () => {
      expect(playTournament(seed)).toBeGreaterThanOrEqual(1);
    });
  }
});
