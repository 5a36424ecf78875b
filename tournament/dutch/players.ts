// Each player's state as the Dutch rules see it before a round: score, colour preference (A.6),
// floats of the last two rounds (A.4), bye eligibility (C2).
import { otherColour, type Colour, type Entrant, type PairingRequest } from './model.ts';

export type Float = 'down' | 'up' | 'none';

export interface PlayerState {
  readonly id: number;
  /** Effective pairing number, 0-based, among the players taking part in the tournament. */
  readonly rank: number;
  /** Score with acceleration, tenths. */
  readonly score: number;
  readonly unacceleratedScore: number;
  /** |whites - blacks| over played games. */
  readonly colourImbalance: number;
  readonly preference: Colour | null;
  /** The colour of the last two played games when they were the same, else null. */
  readonly repeatedColour: Colour | null;
  readonly strong: boolean;
  readonly absolute: boolean;
  readonly absoluteImbalance: boolean;
  readonly byeEligible: boolean;
  readonly playedGames: number;
  /** Colours of played games, most recent last. */
  readonly colours: readonly Colour[];
  /** floats[0] = last round, floats[1] = the round before. */
  readonly floats: readonly [Float, Float];
}

export interface TournamentView {
  readonly byId: ReadonlyMap<number, Entrant>;
  readonly playedRounds: number;
  readonly winPoints: number;
  readonly lossPoints: number;
}

/** Score before the last `roundsBack` rounds, plus the acceleration of the round then paired. */
export function scoreAt(entrant: Entrant, view: TournamentView, roundsBack: number): number {
  const roundIndex = view.playedRounds - roundsBack;
  let score = 0;
  for (let r = 0; r < roundIndex; r += 1) score += entrant.rounds[r]?.points ?? 0;
  return score + (entrant.accelerations?.[roundIndex] ?? 0);
}

function floatOf(entrant: Entrant, view: TournamentView, roundsBack: number): Float {
  if (view.playedRounds < roundsBack) return 'none';
  const record = entrant.rounds[view.playedRounds - roundsBack];
  if (!record) return 'none';
  if (!record.played || record.opponent === null) return record.points > view.lossPoints ? 'down' : 'none';
  const opponent = view.byId.get(record.opponent);
  if (!opponent) return 'none';
  const mine = scoreAt(entrant, view, roundsBack);
  const theirs = scoreAt(opponent, view, roundsBack);
  return mine > theirs ? 'down' : mine < theirs ? 'up' : 'none';
}

export function playerState(entrant: Entrant, rank: number, view: TournamentView): PlayerState {
  const colours: Colour[] = [];
  let whites = 0;
  let blacks = 0;
  let run = 0;
  let last: Colour | null = null;
  let byeEligible = true;
  let unaccelerated = 0;
  for (const record of entrant.rounds) {
    unaccelerated += record.points;
    if (!record.played) {
      // A pairing-allocated bye, or a win's points without playing, rules out the bye (C2).
      const pab = record.paired && record.opponent === null;
      if (record.points >= view.winPoints || pab) byeEligible = false;
      continue;
    }
    const colour = record.colour ?? 'white';
    colours.push(colour);
    if (colour === 'white') whites += 1;
    else blacks += 1;
    run = last === colour ? run + 1 : 1;
    last = colour;
  }
  const imbalance = Math.abs(whites - blacks);
  const lowerColour: Colour = whites > blacks ? 'black' : 'white';
  const preference: Colour | null =
    imbalance > 1 ? lowerColour : run > 1 && last ? otherColour(last) : imbalance > 0 ? lowerColour : last ? otherColour(last) : null;
  const repeatedColour = run > 1 ? last : null;
  const absoluteImbalance = imbalance > 1;
  const absolute = absoluteImbalance || repeatedColour !== null;
  return {
    id: entrant.id,
    rank,
    score: scoreAt(entrant, view, 0),
    unacceleratedScore: unaccelerated,
    colourImbalance: imbalance,
    preference,
    repeatedColour,
    strong: !absolute && imbalance > 0,
    absolute,
    absoluteImbalance,
    byeEligible,
    playedGames: colours.length,
    colours,
    floats: [floatOf(entrant, view, 1), floatOf(entrant, view, 2)],
  };
}

/** Players of the tournament (ranked) and those to be paired this round, ranking order. */
export function rankPlayers(request: PairingRequest): { ranked: PlayerState[]; toPair: PlayerState[]; view: TournamentView } {
  const byId = new Map(request.entrants.map((e) => [e.id, e]));
  const view: TournamentView = { byId, playedRounds: request.playedRounds, winPoints: request.points.win, lossPoints: request.points.loss };
  const ordered = [...request.entrants].sort((a, b) => a.id - b.id);
  // A player who was never paired and is absent now has not yet joined: no pairing number is used.
  const taking = ordered.filter((e) => !request.absent.has(e.id) || e.rounds.some((r) => r.paired));
  const ranked = taking.map((e, rank) => playerState(e, rank, view));
  const toPair = ranked.filter((p) => !request.absent.has(p.id));
  toPair.sort((a, b) => b.score - a.score || a.rank - b.rank);
  return { ranked, toPair, view };
}
