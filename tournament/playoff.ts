// Playoffs for first place, generated stage by stage from the event's procedure (or, where the
// regulations leave the format to him, the chief arbiter's: playoff-format.ts) and run to a winner:
// matches, playoff round robins, 5-minute leagues until two remain, knockouts, Armageddon games and series.
// Pure: a PlayoffState goes in, the next games come out; results are recorded one by one.
import type { GameResult } from '../clock-engine/index.ts';
import { bergerSchedule } from './berger.ts';
import type { EventSection, PlayoffProcedure } from './event.ts';

type Ladder = Extract<PlayoffProcedure, { kind: 'ladder' }>;
type LadderStage = Ladder['bySize'][string][number];

/**
 * A stage as the playoff plays it: a regulation's ladder stage, or one of the chief arbiter's format
 * (a knockout; `onTie`: what decides a tie at the stage's end, `next-stage` where absent).
 */
export type PlayoffStage = Omit<LadderStage, 'kind'> & {
  readonly kind: LadderStage['kind'] | 'knockout';
  readonly onTie?: 'next-stage' | 'tiebreaks';
};

/**
 * The chief arbiter's playoff format where the regulations leave it to him (Cairns Cup 7: more than
 * four tied, "a combination of math tie-breaks and playoffs"): an optional cut of the tied players
 * by some of the section's tie-breaks, then stages played in order. Checked by playoff-format.ts.
 */
export interface PlayoffFormat {
  /** The best `to` of the tied players by these tie-break codes (the section's) play on; the others are placed after them. */
  readonly cut?: { readonly to: number; readonly tiebreaks: readonly string[] };
  readonly stages: readonly FormatStage[];
}

export interface FormatStage {
  /**
   * round-robin: every pair plays `games` games (a mini-match, colours alternating); knockout: seeded
   * first against last, a `games`-game match per pair, the winners play on until one is left (odd: the
   * best seed sits out the leg); armageddon: one game, a draw to Black, from the bottom of the order up
   * when more than two are in.
   */
  readonly kind: 'round-robin' | 'knockout' | 'armageddon';
  readonly games: number;
  readonly timeControl: string;
  /** A tie at the stage's end (the best score shared, a knockout match level): the next stage plays it off, or the order the playoff started from decides. */
  readonly onTie: 'next-stage' | 'tiebreaks';
}

export interface PlayoffGame {
  /** Stable id: s<stage>.<leg>.<game>. */
  readonly id: string;
  readonly stage: number;
  readonly label: string;
  readonly white: number;
  readonly black: number;
  readonly timeControl: string;
  readonly armageddon: boolean;
}

export interface PlayoffElimination {
  readonly player: number;
  readonly stage: number;
  readonly leg: number;
  /** Points in that stage's leg (a drawn Armageddon counted as Black's win). */
  readonly score: number;
}

export interface PlayoffState {
  readonly sectionId: string;
  /** Tied players in the order of the main event's tie-breaks. */
  readonly tied: readonly number[];
  readonly seed: number;
  readonly stages: readonly PlayoffStage[];
  readonly stageIndex: number;
  /** Leg within a stage (a league replayed, the next Armageddon of a series). */
  readonly leg: number;
  /** Still in contention. */
  readonly remaining: readonly number[];
  /** Which places the playoff decides: first only (the others by the main tie-breaks) or every tied player's. */
  readonly places: 1 | 'all';
  /** Eliminated, most recent last, with the stage and leg they went out in and their score in it. */
  readonly eliminated: readonly PlayoffElimination[];
  readonly games: readonly { readonly game: PlayoffGame; readonly result?: GameResult }[];
  readonly winner?: number;
  /** Set when the regulations leave it to the chief arbiter (e.g. more than four tied). */
  readonly arbiterDecision?: string;
  /** The chief arbiter's ruling on such a case: with it the playoff is decided. */
  readonly ruling?: string;
  /** The chief arbiter's format for such a case, with his reason: the playoff then plays it (setPlayoffFormat). */
  readonly format?: { readonly format: PlayoffFormat; readonly reason: string };
  readonly log: readonly string[];
}

/** Seeded drawing of lots (mulberry32): the same seed gives the same lots. */
export function drawingOfLots(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function stagesFor(procedure: Ladder, size: number): readonly PlayoffStage[] | null {
  for (const [key, stages] of Object.entries(procedure.bySize)) {
    const plus = /^(\d+)\+$/.exec(key);
    const range = /^(\d+)(?:-(\d+))?$/.exec(key);
    if (plus && size >= Number(plus[1])) return stages;
    if (range && size >= Number(range[1]) && size <= Number(range[2] ?? range[1])) return stages;
  }
  return null;
}

/** Lots for this stage and leg: derived from the seed so replaying the playoff gives the same draw. */
const lotsFor = (state: PlayoffState): (() => number) => drawingOfLots(state.seed * 7919 + state.stageIndex * 101 + state.leg);

/** The games of the current stage and leg. */
function generateGames(state: PlayoffState): PlayoffGame[] {
  const stage = state.stages[state.stageIndex];
  if (!stage) return [];
  const random = lotsFor(state);
  const prefix = `s${state.stageIndex + 1}.${state.leg}`;
  const players = state.remaining;
  const armageddon = stage.kind === 'armageddon' || stage.kind === 'armageddon-series';
  if (armageddon) {
    // Series with more than two: the two lowest-placed in the main tie-breaks play first, the winner meets the next.
    const pair = players.length === 2 ? [...players] : players.slice(-2);
    const [a, b] = random() < 0.5 ? pair : [...pair].reverse();
    return [
      {
        id: `${prefix}.1`,
        stage: state.stageIndex + 1,
        label: 'Armageddon',
        white: a as number,
        black: b as number,
        timeControl: stage.timeControl,
        armageddon: true,
      },
    ];
  }
  if (stage.kind === 'knockout') return knockoutGames(state, stage, random);
  const twoOnly = players.length === 2;
  const gamesPerPair = twoOnly && stage.kind !== 'match' ? (stage.twoPlayerGames ?? stage.games) : stage.games;
  if (twoOnly || stage.kind === 'match') {
    const [first, second] = random() < 0.5 ? [players[0], players[1]] : [players[1], players[0]];
    return Array.from({ length: gamesPerPair }, (_, g) => ({
      id: `${prefix}.${g + 1}`,
      stage: state.stageIndex + 1,
      label: `match game ${g + 1}`,
      white: (g % 2 === 0 ? first : second) as number,
      black: (g % 2 === 0 ? second : first) as number,
      timeControl: stage.timeControl,
      armageddon: false,
    }));
  }
  // Round robin / league: pairing numbers by drawing of lots, Berger table.
  const numbers = shuffled(players, random);
  return roundRobinRounds(numbers.length, stage.games).flatMap((round) =>
    round.games.map((g) => ({
      id: `${prefix}.${round.round}.${g.board}`,
      stage: state.stageIndex + 1,
      label: `${stage.kind === 'league-until-two' ? 'league' : 'round robin'} round ${round.round}`,
      white: numbers[g.white - 1] as number,
      black: numbers[g.black - 1] as number,
      timeControl: stage.timeControl,
      armageddon: false,
    })),
  );
}

/**
 * The Berger rounds of a round robin in which every pair plays `games` games: one or two cycles as
 * the Berger tables give them, more by repeating the single cycle with the colours reversed each time.
 */
function roundRobinRounds(players: number, games: number): { round: number; games: readonly { board: number; white: number; black: number }[] }[] {
  if (games <= 2) return bergerSchedule(players, { cycles: games >= 2 ? 2 : 1 });
  const single = bergerSchedule(players);
  return Array.from({ length: games }, (_, cycle) =>
    single.map((r) => ({
      round: cycle * single.length + r.round,
      games: r.games.map((g) => (cycle % 2 === 0 ? g : { ...g, white: g.black, black: g.white })),
    })),
  ).flat();
}

/** A knockout leg's pairs, in the order of those still in: first against last, second against second last; odd: the first sits out. */
function knockoutPairs(players: readonly number[]): { pairs: [number, number][]; bye?: number } {
  const odd = players.length % 2 === 1;
  const field = odd ? players.slice(1) : [...players];
  const pairs = Array.from({ length: field.length / 2 }, (_, i): [number, number] => [field[i] as number, field[field.length - 1 - i] as number]);
  return odd ? { pairs, bye: players[0] as number } : { pairs };
}

/** A knockout leg: each pair's match, game 1 of every match first (they are played side by side), colours by lot then alternating. */
function knockoutGames(state: PlayoffState, stage: PlayoffStage, random: () => number): PlayoffGame[] {
  const { pairs } = knockoutPairs(state.remaining);
  const prefix = `s${state.stageIndex + 1}.${state.leg}`;
  const firsts = pairs.map(([a, b]) => (random() < 0.5 ? [a, b] : [b, a]));
  return Array.from({ length: stage.games }, (_, g) =>
    firsts.map(([first, second], m) => ({
      id: `${prefix}.${g + 1}.${m + 1}`,
      stage: state.stageIndex + 1,
      label: `knockout match ${m + 1} game ${g + 1}`,
      white: (g % 2 === 0 ? first : second) as number,
      black: (g % 2 === 0 ? second : first) as number,
      timeControl: stage.timeControl,
      armageddon: false,
    })),
  ).flat();
}

/**
 * Starts the playoff for players tied for first (in the main tie-break order). One player: no
 * playoff. A size the regulations do not cover goes to the arbiter with the tie-break order.
 */
export function startPlayoff(section: EventSection, tied: readonly number[], seed: number): PlayoffState {
  const procedure = section.playoff;
  const places = procedure.kind === 'ladder' ? procedure.places : 1;
  const base = { sectionId: section.id, tied: [...tied], seed, places, stageIndex: 0, leg: 1, remaining: [...tied], eliminated: [], games: [], log: [] };
  if (tied.length < 2) return { ...base, stages: [], winner: tied[0], log: ['no tie for first: no playoff'] };
  if (procedure.kind === 'none') {
    return { ...base, stages: [], winner: tied[0], log: ['no playoff in the regulations: the tie-break order decides'] };
  }
  const stages = stagesFor(procedure, tied.length);
  if (!stages) {
    return {
      ...base,
      stages: [],
      arbiterDecision: `${tied.length} players tied for first: format decided by the chief arbiter (${procedure.otherwise}); tie-break order ${section.tiebreaks.join(', ')}`,
      log: [`${tied.length} players tied: outside the regulation's playoff sizes`],
    };
  }
  const state: PlayoffState = {
    ...base,
    stages,
    log: [`${tied.length} players tied for first: ${stages.map((s) => `${s.kind} ${s.timeControl}`).join(', then ')}`],
  };
  return { ...state, games: generateGames(state).map((game) => ({ game })) };
}

/** Games generated and not yet decided. */
export const pendingGames = (state: PlayoffState): PlayoffGame[] => state.games.filter((g) => g.result === undefined).map((g) => g.game);

/**
 * The games to play now, side by side on the hall's boards: the pending games in order, up to the
 * first one whose player is already in an earlier one (a match game by game, a round robin round by
 * round). Empty when the playoff is decided or waits for the chief arbiter.
 */
export function playoffSitting(state: PlayoffState): PlayoffGame[] {
  if (state.winner !== undefined || state.arbiterDecision) return [];
  const sitting: PlayoffGame[] = [];
  const busy = new Set<number>();
  for (const game of pendingGames(state)) {
    if (busy.has(game.white) || busy.has(game.black)) break;
    sitting.push(game);
    busy.add(game.white).add(game.black);
  }
  return sitting;
}

function points(result: GameResult, side: 'white' | 'black', armageddon: boolean): number {
  if (result === '1/2-1/2') return armageddon ? (side === 'black' ? 1 : 0) : 0.5;
  const whiteWins = result === '1-0' || result === '+--';
  const blackWins = result === '0-1' || result === '--+';
  if (side === 'white') return whiteWins ? 1 : 0;
  return blackWins ? 1 : 0;
}

/**
 * The chief arbiter's ruling where the regulations leave the playoff to him (more players tied than
 * the ladder covers, its stages exhausted): the winner among those still in; the others keep their
 * playoff and tie-break order.
 */
export function decidePlayoff(state: PlayoffState, winner: number, reason: string): PlayoffState {
  if (!state.tied.includes(winner)) throw new RangeError(`player ${winner} is not among the tied players`);
  if (state.winner !== undefined) throw new RangeError('the playoff is already decided');
  if (!state.arbiterDecision) throw new RangeError('the playoff is in progress: its games decide, not a ruling');
  if (!state.remaining.includes(winner)) throw new RangeError(`player ${winner} is already out of the playoff`);
  const ruling = `chief arbiter: ${reason}`;
  return { ...state, winner, ruling, log: [...state.log, ruling] };
}

const maxLegs = 20;

/** Records one game's result; when the stage is complete, decides who goes on and opens the next games. */
export function recordPlayoffResult(state: PlayoffState, gameId: string, result: GameResult): PlayoffState {
  const index = state.games.findIndex((g) => g.game.id === gameId);
  if (index < 0) throw new RangeError(`no playoff game '${gameId}'`);
  if (state.games[index]?.result !== undefined) throw new RangeError(`playoff game '${gameId}' already has a result`);
  const games = state.games.map((g, i) => (i === index ? { ...g, result } : g));
  let next: PlayoffState = { ...state, games };
  if (pendingGames(next).length > 0) return next;

  const stage = state.stages[state.stageIndex] as PlayoffStage;
  const prefix = `s${state.stageIndex + 1}.${state.leg}.`;
  const legGames = games.filter((g) => g.game.id.startsWith(prefix));
  const score = new Map<number, number>(state.remaining.map((p) => [p, 0]));
  for (const { game, result: r } of legGames) {
    score.set(game.white, (score.get(game.white) ?? 0) + points(r as GameResult, 'white', game.armageddon));
    score.set(game.black, (score.get(game.black) ?? 0) + points(r as GameResult, 'black', game.armageddon));
  }
  const leg = stage.kind === 'knockout' ? knockoutLeg(state, stage, score) : scoreLeg(state, stage, legGames, score);
  const out = (players: readonly number[]): PlayoffElimination[] =>
    players.map((player) => ({ player, stage: state.stageIndex + 1, leg: state.leg, score: score.get(player) ?? 0 }));
  // Keep the order the playoff started from among those still in.
  const remaining = state.remaining.filter((p) => !leg.losers.includes(p));
  next = {
    ...next,
    remaining,
    eliminated: [...state.eliminated, ...out(leg.losers)],
    log: [...state.log, `stage ${state.stageIndex + 1} leg ${state.leg} (${stage.kind} ${stage.timeControl}): ${leg.text}`],
  };

  if (remaining.length === 1) return { ...next, winner: remaining[0] };
  let following: PlayoffState;
  if (leg.playsOn) {
    if (state.leg >= maxLegs) return { ...next, arbiterDecision: `still tied after ${maxLegs} legs: the chief arbiter decides` };
    following = { ...next, leg: state.leg + 1 };
  } else if (state.stageIndex + 1 < state.stages.length) {
    following = { ...next, stageIndex: state.stageIndex + 1, leg: 1 };
  } else {
    return { ...next, arbiterDecision: 'the playoff stages are exhausted with a tie: the chief arbiter decides' };
  }
  return { ...following, games: [...following.games, ...generateGames(following).map((game) => ({ game }))] };
}

/** How a stage's leg ended: who is out, the line for the log, whether the same stage plays another leg. */
interface LegOutcome {
  readonly losers: readonly number[];
  readonly text: string;
  readonly playsOn: boolean;
}

/**
 * A leg scored as one table (a match, a round robin, a league, an Armageddon): the best score goes on.
 * A shared best score goes to the next stage, or, where the chief's format says the tie-breaks decide
 * it, to the first of them in the order the playoff started from.
 */
function scoreLeg(state: PlayoffState, stage: PlayoffStage, legGames: PlayoffState['games'], score: ReadonlyMap<number, number>): LegOutcome {
  const legPlayers = [...new Set(legGames.flatMap((g) => [g.game.white, g.game.black]))];
  const best = Math.max(...legPlayers.map((p) => score.get(p) ?? 0));
  const leaders = state.remaining.filter((p) => legPlayers.includes(p) && score.get(p) === best);
  const goesOn = stage.onTie === 'tiebreaks' ? leaders.slice(0, 1) : leaders;
  const losers = legPlayers.filter((p) => !goesOn.includes(p));
  const scores = legPlayers.map((p) => `${p}: ${score.get(p)}`).join(', ');
  const stillIn = state.remaining.length - losers.length;
  return {
    losers,
    text: goesOn.length < leaders.length ? `${scores}; tied, ${goesOn[0]} first by the tie-breaks` : scores,
    playsOn: stage.kind === 'armageddon-series' || (stage.kind === 'league-until-two' && stillIn > 2),
  };
}

/**
 * A knockout leg: each match's winner goes on (a level match: the better placed in the order the
 * playoff started from where the tie-breaks decide; else the next stage), the knockout plays on
 * until one is left or a match stays level.
 */
function knockoutLeg(state: PlayoffState, stage: PlayoffStage, score: ReadonlyMap<number, number>): LegOutcome {
  const { pairs, bye } = knockoutPairs(state.remaining);
  const losers: number[] = [];
  let level = false;
  const text = pairs.map(([first, second]) => {
    const [a, b] = [score.get(first) ?? 0, score.get(second) ?? 0];
    if (a !== b) losers.push(a < b ? first : second);
    else if (stage.onTie === 'tiebreaks') losers.push(second);
    else level = true;
    return `${first}–${second} ${a}–${b}${a === b && stage.onTie === 'tiebreaks' ? ` (${first} by the tie-breaks)` : ''}`;
  });
  return { losers, text: [...text, ...(bye !== undefined ? [`${bye} sat out`] : [])].join(', '), playsOn: !level };
}

/** Whether the chief arbiter may set the playoff's format now: the regulations leave it to him and nothing is played or ruled yet. */
export const formatOpen = (state: PlayoffState): boolean =>
  state.arbiterDecision !== undefined && state.winner === undefined && !state.format && state.games.length === 0;

/** A stage of the chief's format in the arbiter's words. */
export function formatStageText(stage: FormatStage): string {
  const games = `${stage.games} game${stage.games === 1 ? '' : 's'}`;
  const kind =
    stage.kind === 'round-robin'
      ? `round robin, ${games} a pairing`
      : stage.kind === 'knockout'
        ? `knockout, ${games} a match`
        : 'Armageddon (a draw to Black)';
  const tie = stage.kind === 'armageddon' ? '' : stage.onTie === 'tiebreaks' ? ', a tie decided by the tie-breaks' : ', a tie to the next stage';
  return `${kind} at ${stage.timeControl}${tie}`;
}

/**
 * The chief arbiter's format where the regulations leave the playoff to him (`arbiterDecision`,
 * no game yet): `qualified` (the cut's outcome, best first; every tied player without a cut) plays
 * its stages, the players cut are placed after them in the main tie-break order. Whether the format
 * fits the section and the tie is playoff-format.ts's check; a playoff that is not the chief's to
 * format throws.
 */
export function setPlayoffFormat(state: PlayoffState, format: PlayoffFormat, qualified: readonly number[], reason: string): PlayoffState {
  if (state.winner !== undefined) throw new RangeError('the playoff is already decided');
  if (state.format) throw new RangeError("the playoff already has the chief arbiter's format");
  if (!state.arbiterDecision) throw new RangeError("the regulations give this playoff's format: its games decide");
  if (state.games.length > 0) throw new RangeError("the playoff's games have begun: the chief arbiter rules on the tie (decidePlayoff)");
  if (qualified.length < 2 || qualified.some((p) => !state.tied.includes(p))) throw new RangeError('the format is played by two or more of the tied players');
  const cut = state.tied.filter((p) => !qualified.includes(p));
  const stages = format.stages.map((s): PlayoffStage => ({ ...s, kind: s.kind === 'armageddon' ? 'armageddon-series' : s.kind }));
  const cutText = format.cut ? `the best ${format.cut.to} by ${format.cut.tiebreaks.join(', ')} play on (${qualified.join(', ')}); ` : '';
  const formatted: PlayoffState = {
    ...state,
    stages,
    stageIndex: 0,
    leg: 1,
    remaining: [...qualified],
    eliminated: cut.map((player) => ({ player, stage: 0, leg: 0, score: 0 })),
    arbiterDecision: undefined,
    format: { format, reason },
    log: [...state.log, `chief arbiter's format (${reason}): ${cutText}${format.stages.map(formatStageText).join(', then ')}`],
  };
  return { ...formatted, games: generateGames(formatted).map((game) => ({ game })) };
}

export interface PlayoffStatus {
  readonly state: 'not-needed' | 'in-progress' | 'decided' | 'arbiter-decision';
  readonly stage?: string;
  readonly remaining: readonly number[];
  readonly winner?: number;
  readonly pending: readonly PlayoffGame[];
  readonly played: readonly { readonly game: PlayoffGame; readonly result: GameResult }[];
  readonly message?: string;
  readonly log: readonly string[];
}

/** For the console's playoff page. */
export function playoffStatus(state: PlayoffState): PlayoffStatus {
  const stage = state.stages[state.stageIndex];
  const played = state.games.filter((g): g is { game: PlayoffGame; result: GameResult } => g.result !== undefined);
  const status: PlayoffStatus['state'] =
    state.winner !== undefined
      ? state.games.length === 0 && !state.ruling
        ? 'not-needed'
        : 'decided'
      : state.arbiterDecision
        ? 'arbiter-decision'
        : 'in-progress';
  return {
    state: status,
    stage: stage
      ? `${state.stageIndex + 1}/${state.stages.length}: ${stage.kind} ${stage.timeControl}${state.leg > 1 ? ` (leg ${state.leg})` : ''}`
      : undefined,
    remaining: state.remaining,
    winner: state.winner,
    pending: pendingGames(state),
    played,
    message: state.ruling ?? state.arbiterDecision,
    log: state.log,
  };
}

/**
 * The places of the tied players, best first; the players of one inner list share a place. The
 * winner is first. When the playoff decides every tied place (Cairns Cup: "to determine final
 * standings among all tied players") the others follow by how far they got: the later stage and leg
 * they went out in, then their score in it, then the main tie-breaks (`rankOf`, the main standings'
 * rank; equal ranks share). When it decides the first place only (Donostia Art. 10) the others keep
 * the main tie-break order, sharing where every tie-break is equal.
 */
export function playoffPlaces(state: PlayoffState, rankOf: (player: number) => number = (p) => state.tied.indexOf(p)): number[][] {
  if (state.winner === undefined) return [];
  const out = new Map(state.eliminated.map((e) => [e.player, e]));
  const key = (player: number): number[] => {
    const e = out.get(player);
    const playoff = state.places === 'all' ? (e ? [-e.stage, -e.leg, -e.score] : [-Infinity, -Infinity, -Infinity]) : [];
    return [...playoff, rankOf(player)];
  };
  const compare = (a: number, b: number): number => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return (ka[i] as number) - (kb[i] as number);
    return 0;
  };
  const rest = state.tied.filter((p) => p !== state.winner).sort((a, b) => compare(a, b) || state.tied.indexOf(a) - state.tied.indexOf(b));
  const places: number[][] = [[state.winner]];
  for (const player of rest) {
    const last = places[places.length - 1] as number[];
    if (last[0] !== state.winner && compare(last[0] as number, player) === 0) last.push(player);
    else places.push([player]);
  }
  return places;
}

/** Final order of the tied players (shared places in the main tie-break order). */
export const playoffOrder = (state: PlayoffState): number[] => (state.winner === undefined ? [...state.tied] : playoffPlaces(state).flat());

/** Players tied on points for first place, in the order of the tie-breaks. */
export function tiedForFirst(rows: readonly { readonly id: number; readonly points: number; readonly rank: number }[]): number[] {
  const top = Math.max(...rows.map((r) => r.points));
  return [...rows]
    .filter((r) => r.points === top)
    .sort((a, b) => a.rank - b.rank)
    .map((r) => r.id);
}

/**
 * Final standings: the playoff places the players tied for first (ranks 1..k, a shared place one
 * rank, so the prizes of its places are pooled); the others keep theirs.
 */
export function applyPlayoff<Row extends { readonly id: number; readonly rank: number }>(rows: readonly Row[], state: PlayoffState): Row[] {
  if (state.winner === undefined || state.tied.length < 2) return [...rows];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const places = playoffPlaces(state, (p) => byId.get(p)?.rank ?? Infinity);
  const top: Row[] = [];
  for (const place of places) {
    const rank = top.length + 1;
    for (const id of place) {
      const row = byId.get(id);
      if (row) top.push({ ...row, rank });
    }
  }
  const placed = new Set(places.flat());
  return [...top, ...rows.filter((r) => !placed.has(r.id))];
}
