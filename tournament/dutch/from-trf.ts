// A TRF (tournament/trf.ts's model) as the pairing engine's request, read the way the FIDE pairing
// engines read a partial tournament: the round columns after the last paired round are the round
// about to be paired, and any entry there (H, F, Z) keeps the player out of it.
import { readEngineLine, type EngineLine, type PlayerRef } from '../trf-engine-lines.ts';
import { entryPoints, paired, pairedRounds, TrfError, type TrfPlayer, type TrfRoundEntry, type TrfTournament } from '../trf.ts';
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

function record(entry: TrfRoundEntry | undefined, tournament: TrfTournament): RoundRecord {
  if (!entry) return { opponent: null, colour: null, points: tenths(tournament.scoring.zeroBye), played: false, paired: false };
  const played = entry.opponent !== null && '1=0WDL'.includes(entry.result);
  const colour: Colour | null = entry.colour === 'w' ? 'white' : entry.colour === 'b' ? 'black' : null;
  return { opponent: entry.opponent, colour, points: tenths(entryPoints(entry, tournament.scoring)), played, paired: paired(entry) };
}

/** The file's engine lines (XXP, XXZ, 152, 240, 250, 260) as trf-engine-lines.ts reads them. */
function engineLines(tournament: TrfTournament): EngineLine[] {
  const read: EngineLine[] = [];
  for (const { text } of tournament.otherLines) {
    try {
      const engine = readEngineLine(text, 0);
      if (engine) read.push(engine);
    } catch (error) {
      if (error instanceof TrfError) throw new PairingInputError(`${text.slice(0, 3)} line '${text}': ${error.problem}`);
      throw error;
    }
  }
  return read;
}

const ids = (players: readonly PlayerRef[]): number[] => players.map((p) => p.id);

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

/**
 * TRF-2026 records as bbpPairings reads them for the round to pair: 240 (a player with a bye in it is
 * not paired), 260 (pairs forbidden in it), 250 (accelerations of the rounds they name).
 */
function records2026(lines: readonly EngineLine[], round: number): { byes: number[]; forbidden: number[][]; accelerations: Map<number, number[]> } {
  const byes: number[] = [];
  const forbidden: number[][] = [];
  const accelerations = new Map<number, number[]>();
  for (const line of lines) {
    if (line.code === '240' && line.round === round) byes.push(...ids(line.players));
    if (line.code === '260' && line.firstRound <= round && round <= line.lastRound) forbidden.push(ids(line.players));
    if (line.code === '250') {
      const points = tenths(line.points);
      for (let id = line.firstPlayer.id; id <= line.lastPlayer.id; id++) {
        const values = accelerations.get(id) ?? [];
        for (let r = line.firstRound; r <= line.lastRound; r++) {
          while (values.length < r) values.push(0);
          values[r - 1] = points;
        }
        accelerations.set(id, values);
      }
    }
  }
  return { byes, forbidden, accelerations };
}

function initialColour(tournament: TrfTournament, lines: readonly EngineLine[], players: readonly TrfPlayer[]): Colour {
  if (tournament.configuration.includes('white1')) return 'white';
  if (tournament.configuration.includes('black1')) return 'black';
  for (const line of lines) if (line.code === '152') return line.colour;
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
  const lines = engineLines(tournament);
  for (const line of lines) if (line.code === 'XXZ') for (const id of ids(line.players)) absent.add(id);
  for (const player of players) {
    const entry = player.rounds[playedRounds];
    if (round === undefined ? entry !== undefined : entry === undefined || !paired(entry)) absent.add(player.id);
  }
  const recorded = records2026(lines, playedRounds + 1);
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
    initialColour: initialColour(tournament, lines, players),
    points,
    forbidden: [...lines.flatMap((line) => (line.code === 'XXP' ? [ids(line.players)] : [])), ...recorded.forbidden],
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
