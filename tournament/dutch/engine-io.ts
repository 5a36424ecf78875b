// The FIDE pairing engines' command-line contract: pair the next round of a TRF, or re-pair every
// round of a finished one and list the rounds where the engine would have paired differently.
import type { TrfTournament } from '../trf.ts';
import { pairedRounds } from '../trf.ts';
import { pairingOfRound, pairingRequestFromTrf, type PairingOptions } from './from-trf.ts';
import type { Board, RoundPairing } from './model.ts';
import { pairRound } from './pair.ts';

/** The engines' output: the number of pairs, then "white black" per line, the bye as "id 0". */
export function formatPairing(pairing: RoundPairing): string {
  const lines = pairing.boards.map((b) => `${b.white} ${b.black}`);
  if (pairing.bye !== null) lines.push(`${pairing.bye} 0`);
  return [String(lines.length), ...lines].join('\n') + '\n';
}

export function pairTrf(tournament: TrfTournament, options: PairingOptions = {}): RoundPairing {
  return pairRound(pairingRequestFromTrf(tournament, options));
}

export interface RoundCheck {
  readonly round: number;
  readonly expected: RoundPairing;
  /** null when the engine found no valid pairing. */
  readonly actual: RoundPairing | null;
  readonly same: boolean;
}

const boardKey = (b: Board): string => `${b.white}-${b.black}`;

function samePairing(a: RoundPairing, b: { boards: readonly Board[]; bye: number | null }): boolean {
  const keys = new Set(a.boards.map(boardKey));
  return a.bye === b.bye && a.boards.length === b.boards.length && b.boards.every((board) => keys.has(boardKey(board)));
}

/** Re-pairs rounds 1..n of a played tournament from the history before each. */
export function checkTrf(tournament: TrfTournament, options: PairingOptions = {}): RoundCheck[] {
  const rounds = pairedRounds(tournament);
  const checks: RoundCheck[] = [];
  const total = { ...options, totalRounds: options.totalRounds ?? rounds };
  for (let round = 1; round <= rounds; round += 1) {
    const expected = pairingOfRound(tournament, round);
    let actual: RoundPairing | null = null;
    try {
      actual = pairRound(pairingRequestFromTrf(tournament, total, round));
    } catch (error) {
      if (!(error instanceof Error && error.name === 'NoValidPairingError')) throw error;
    }
    checks.push({ round, expected, actual, same: actual !== null && samePairing(actual, expected) });
  }
  return checks;
}
