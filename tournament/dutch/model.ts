// The pairing engine's own view of a tournament: only what the Dutch rules look at.
// Points are in tenths (a draw is 5) so that scores compare exactly.

export type Colour = 'white' | 'black';

export const otherColour = (colour: Colour): Colour => (colour === 'white' ? 'black' : 'white');

/** One past round of one player. */
export interface RoundRecord {
  /** Pairing number of the opponent; null for a bye or an absence. */
  readonly opponent: number | null;
  readonly colour: Colour | null;
  /** Points this round gave, in tenths. */
  readonly points: number;
  /** Played over the board (forfeits and byes are not). */
  readonly played: boolean;
  /** Paired by the system: a game, a forfeit or the pairing-allocated bye (not a requested bye or absence). */
  readonly paired: boolean;
}

export interface Entrant {
  /** Pairing number (TRF starting rank). */
  readonly id: number;
  /** Round 1 first; exactly `playedRounds` entries. */
  readonly rounds: readonly RoundRecord[];
  /** Fictitious points (tenths) per round index for accelerated pairings; missing rounds count 0. */
  readonly accelerations?: readonly number[];
}

/** Points (tenths) of the three game results; byes and forfeits are already in RoundRecord.points. */
export interface PointSystem {
  readonly win: number;
  readonly draw: number;
  readonly loss: number;
}

export const standardPoints: PointSystem = { win: 10, draw: 5, loss: 0 };

export interface PairingRequest {
  /** Every player of the tournament, in any order. */
  readonly entrants: readonly Entrant[];
  /** Rounds already played (the round to pair is playedRounds + 1). */
  readonly playedRounds: number;
  readonly totalRounds: number;
  /** Pairing numbers not to be paired this round: requested byes, withdrawals, late entries not yet in. */
  readonly absent: ReadonlySet<number>;
  /** Colour of the first-ranked player in round 1 (E.5): XXC white1 / black1. */
  readonly initialColour: Colour;
  readonly points: PointSystem;
  /** Groups of pairing numbers no two of whom may meet (XXP). */
  readonly forbidden?: readonly (readonly number[])[];
}

export interface Board {
  readonly white: number;
  readonly black: number;
}

export interface RoundPairing {
  /** In publication order: higher score first. */
  readonly boards: readonly Board[];
  /** The pairing-allocated bye, if the number of players is odd. */
  readonly bye: number | null;
}

/** No pairing satisfies the absolute criteria (CLI exit code 1). */
export class NoValidPairingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoValidPairingError';
  }
}
