// A TRF (tournament/trf.ts's model) as the pairing engine's request, read the way the FIDE pairing
// engines read a partial tournament: the round columns after the last paired round are the round
// about to be paired, and any entry there (H, F, Z) keeps the player out of it.
import { entryPoints, type TrfPlayer, type TrfRoundEntry, type TrfTournament } from '../trf.ts';
import type { Colour, Entrant, PairingRequest, PointSystem, RoundRecord } from './model.ts';

export interface PairingOptions {
  /** Baku acceleration (C.04.5.1); also switched on by a 192 line FIDE_DUTCH_BAKU. */
  readonly baku?: boolean;
  /** Total rounds when the file has no XXR / 142 line. */
  readonly totalRounds?: number;
}

/** A file that cannot be paired as it stands (CLI exit code 3). */
export class PairingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PairingInputError';
  }
}

const tenths = (points: number): number => Math.round(points * 10);

const paired = (entry: TrfRoundEntry): boolean => entry.opponent !== null || entry.result === 'U' || entry.result === '+';

/** Rounds of `tournament` already paired: the last column in which anyone was paired. */
export function pairedRounds(tournament: TrfTournament): number {
  let rounds = 0;
  for (const player of tournament.players) {
    player.rounds.forEach((entry, index) => {
      if (paired(entry) || index < player.rounds.length - 1) rounds = Math.max(rounds, index + 1);
    });
  }
  return rounds;
}

function record(entry: TrfRoundEntry | undefined, tournament: TrfTournament): RoundRecord {
  if (!entry) return { opponent: null, colour: null, points: tenths(tournament.scoring.zeroBye), played: false, paired: false };
  const played = entry.opponent !== null && '1=0WDL'.includes(entry.result);
  const colour: Colour | null = entry.colour === 'w' ? 'white' : entry.colour === 'b' ? 'black' : null;
  return { opponent: entry.opponent, colour, points: tenths(entryPoints(entry, tournament.scoring)), played, paired: paired(entry) };
}

function otherLineNumbers(tournament: TrfTournament, code: string): number[][] {
  return tournament.otherLines
    .filter((line) => line.code === code)
    .map((line) =>
      line.text
        .slice(3)
        .trim()
        .split(/\s+/)
        .filter((word) => word !== '')
        .map((word) => {
          const id = Number(word);
          if (!Number.isInteger(id) || id < 1) throw new PairingInputError(`${code} line: '${word}' is not a pairing number`);
          return id;
        }),
    );
}

/** XXA lines: id in columns 5-8, the points of round r in columns 10+5(r-1) .. 13+5(r-1). */
function accelerations(tournament: TrfTournament): Map<number, number[]> {
  const result = new Map<number, number[]>();
  for (const line of tournament.otherLines.filter((l) => l.code === 'XXA')) {
    const id = Number(line.text.slice(4, 8).trim());
    if (!Number.isInteger(id) || id < 1) throw new PairingInputError(`XXA line '${line.text}' has no pairing number`);
    const values: number[] = [];
    for (let start = 9; start + 4 <= line.text.length; start += 5) {
      const text = line.text.slice(start, start + 4).trim();
      const value = text === '' ? 0 : Number(text);
      if (!Number.isFinite(value)) throw new PairingInputError(`XXA line '${line.text}': '${text}' is not a number`);
      values.push(tenths(value));
    }
    result.set(id, values);
  }
  return result;
}

/** A number in `line`'s columns [from, to) (0-based, as bbpPairings reads TRF-2026 records). */
function columns(line: string, from: number, to: number, what: string): number {
  const text = line.slice(from, to).trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value))
    throw new PairingInputError(`${line.slice(0, 3)} line '${line}': ${what} '${text}' in columns ${from + 1}-${to} is not a number`);
  return value;
}

/** Pairing numbers every 5 columns from column `from` (0-based) to the end of a TRF-2026 record. */
function playerList(line: string, from: number): number[] {
  const ids: number[] = [];
  for (let start = from; start < line.trimEnd().length; start += 5) ids.push(columns(line, start, start + 4, 'pairing number'));
  return ids;
}

/**
 * TRF-2026 records as bbpPairings reads them: 240 (byes: type in column 5, round in 7-9, players from
 * column 11; a player with a bye in the round to pair is not paired), 250 (accelerations: game points
 * in 10-13, rounds 15-17 to 19-21, players 23-26 to 28-31), 260 (forbidden pairs: rounds 5-7 to 9-11,
 * players from column 13).
 */
function records2026(tournament: TrfTournament, round: number): { byes: number[]; forbidden: number[][]; accelerations: Map<number, number[]> } {
  const byes: number[] = [];
  const forbidden: number[][] = [];
  const accelerations = new Map<number, number[]>();
  for (const { code, text } of tournament.otherLines) {
    if (code === '240' && columns(text, 6, 9, 'round') === round) byes.push(...playerList(text, 10));
    if (code === '260' && columns(text, 4, 7, 'first round') <= round && round <= columns(text, 8, 11, 'last round')) forbidden.push(playerList(text, 12));
    if (code === '250') {
      const points = tenths(columns(text, 9, 13, 'game points'));
      const [from, to] = [columns(text, 14, 17, 'first round'), columns(text, 18, 21, 'last round')];
      for (let id = columns(text, 22, 26, 'first player'); id <= columns(text, 27, 31, 'last player'); id++) {
        const values = accelerations.get(id) ?? [];
        for (let r = from; r <= to; r++) {
          while (values.length < r) values.push(0);
          values[r - 1] = points;
        }
        accelerations.set(id, values);
      }
    }
  }
  return { byes, forbidden, accelerations };
}

function initialColour(tournament: TrfTournament, players: readonly TrfPlayer[]): Colour {
  if (tournament.configuration.includes('white1')) return 'white';
  if (tournament.configuration.includes('black1')) return 'black';
  const tag = tournament.otherLines
    .find((line) => line.code === '152')
    ?.text.slice(4)
    .trim();
  if (tag === 'W') return 'white';
  if (tag === 'B') return 'black';
  // Not given: infer it from the first round in which colours were given, as the engines do.
  let first = Infinity;
  for (const p of players) p.rounds.forEach((e, i) => e.colour && (first = Math.min(first, i)));
  if (first === Infinity) return 'white';
  let counter = 0;
  for (const p of players) {
    if (!p.rounds.slice(0, first + 1).some(paired)) continue;
    const colour = p.rounds[first]?.colour;
    if (colour) {
      const own: Colour = colour === 'w' ? 'white' : 'black';
      return counter % 2 === 1 ? (own === 'white' ? 'black' : 'white') : own;
    }
    counter += 1;
  }
  return 'white';
}

/**
 * The request to pair round `round` (default: the round after the last paired one). Rounds from
 * `round` on are ignored, except that an entry in column `round` marks the player absent from it
 * when `round` is the next round to pair.
 */
export function pairingRequestFromTrf(tournament: TrfTournament, options: PairingOptions = {}, round?: number): PairingRequest {
  const played = pairedRounds(tournament);
  const playedRounds = round === undefined ? played : round - 1;
  const totalRounds = tournament.totalRounds ?? options.totalRounds;
  if (totalRounds === undefined) throw new PairingInputError('the total number of rounds is missing (XXR line)');
  if (playedRounds >= totalRounds) throw new PairingInputError(`all ${totalRounds} rounds have been paired already`);
  const players = [...tournament.players].sort((a, b) => a.id - b.id);
  const absent = new Set<number>();
  for (const ids of otherLineNumbers(tournament, 'XXZ')) for (const id of ids) absent.add(id);
  for (const player of players) {
    const entry = player.rounds[playedRounds];
    if (round === undefined ? entry !== undefined : entry === undefined || !paired(entry)) absent.add(player.id);
  }
  const recorded = records2026(tournament, playedRounds + 1);
  for (const id of recorded.byes) absent.add(id);
  const accelerated = accelerations(tournament);
  for (const [id, values] of recorded.accelerations) accelerated.set(id, values);
  const baku =
    options.baku === true ||
    tournament.otherLines.some((l) => l.code === '192' && ['FIDE_DUTCH_BAKU', 'FIDE_DUTCH_2025_BAKU'].includes(l.text.slice(4).trim()));
  if (baku && accelerated.size === 0) {
    const lastAccelerated = Math.floor((players.length - 1) / 2);
    const lastRound = Math.floor((totalRounds - 1) / 2);
    const lastFull = Math.floor(lastRound / 2);
    players.forEach((player, rank) => {
      if (rank > lastAccelerated) return;
      const values: number[] = [];
      for (let r = 0; r <= lastRound && r <= playedRounds; r += 1) values.push(tenths(r <= lastFull ? tournament.scoring.win : tournament.scoring.draw));
      accelerated.set(player.id, values);
    });
  }
  const entrants: Entrant[] = players.map((player) => ({
    id: player.id,
    rounds: Array.from({ length: playedRounds }, (_, r) => record(player.rounds[r], tournament)),
    accelerations: accelerated.get(player.id) ?? [],
  }));
  const points: PointSystem = { win: tenths(tournament.scoring.win), draw: tenths(tournament.scoring.draw), loss: tenths(tournament.scoring.loss) };
  return {
    entrants,
    playedRounds,
    totalRounds,
    absent,
    initialColour: initialColour(tournament, players),
    points,
    forbidden: [...otherLineNumbers(tournament, 'XXP'), ...recorded.forbidden],
  };
}

/** Who was paired with whom in `round` (1-based): the pairing the checker compares against. */
export function pairingOfRound(tournament: TrfTournament, round: number): { boards: { white: number; black: number }[]; bye: number | null } {
  const boards: { white: number; black: number }[] = [];
  let bye: number | null = null;
  for (const player of tournament.players) {
    const entry = player.rounds[round - 1];
    if (!entry || !paired(entry)) continue;
    if (entry.opponent === null) bye = player.id;
    else if (entry.colour === 'w') boards.push({ white: player.id, black: entry.opponent });
    else if (entry.colour === null && player.id < entry.opponent) boards.push({ white: player.id, black: entry.opponent });
  }
  return { boards, bye };
}
