// Tie-breaks of FIDE C.07 computed from a TRF crosstable. Unplayed rounds follow Art. 16 of the
// 2023/2024 text (dummy opponent with the player's own score) or the 2026 caps, chosen per event.
// Round robins treat forfeits as regular games (15.2); see docs/tournament-rules.md for each decision.
import { dpFor, expectedScoreHundredths } from './rating-tables.ts';
import { parseTiebreak, type TiebreakSpec } from './tiebreak-codes.ts';
import { entryPoints, standardScoring, type TrfColour, type TrfTournament } from './trf.ts';

export type UnplayedRules = '2023' | '2026';

export interface TiebreakOptions {
  /** Round robin: forfeits count as games against the scheduled opponent. Default: guessed from the TRF. */
  readonly roundRobin?: boolean;
  readonly unplayedRules?: UnplayedRules;
  /** Rounds to count (default: the longest round list). */
  readonly rounds?: number;
  /** Rating used by ARO/TPR/PTP per starting rank (default: the TRF's FIDE rating). */
  readonly ratings?: ReadonlyMap<number, number | null>;
}

type RoundKind = 'game' | 'forfeit-win' | 'forfeit-loss' | 'pab' | 'full-bye' | 'half-bye' | 'zero-bye';

interface RoundRecord {
  readonly round: number;
  readonly opponent: number | null;
  readonly colour: TrfColour | null;
  readonly points: number;
  readonly kind: RoundKind;
  /** Played over the board. */
  readonly played: boolean;
  /** Rated game (TRF W/D/L games of less than one move are not). */
  readonly rated: boolean;
  /** Voluntarily unplayed round: requested bye or forfeit loss. */
  readonly vur: boolean;
  /** The game's result for rating purposes (1, 0.5, 0), whatever the event's scoring: TPR and PTP. */
  readonly ratingPoints: number;
}

interface PlayerData {
  readonly id: number;
  readonly rounds: readonly RoundRecord[];
  readonly points: number;
  /** Score as the player's opponents see it (Art. 16.3). */
  readonly adjusted: number;
  /** Adjusted score with the last round's game counted as a draw (Fore Buchholz). */
  readonly foreAdjusted: number;
  /** Own score with the last round's game as a draw (FB dummy). */
  readonly foreOwn: number;
  readonly rating: number | null;
}

/** The crosstable prepared once for all tie-breaks. */
export interface TiebreakContext {
  readonly players: ReadonlyMap<number, PlayerData>;
  readonly rounds: number;
  readonly roundRobin: boolean;
  readonly unplayedRules: UnplayedRules;
  readonly win: number;
  readonly draw: number;
}

const kindOf = (result: string): RoundKind => {
  switch (result) {
    case '+':
      return 'forfeit-win';
    case '-':
      return 'forfeit-loss';
    case 'U':
      return 'pab';
    case 'F':
      return 'full-bye';
    case 'H':
      return 'half-bye';
    case 'Z':
      return 'zero-bye';
    default:
      return 'game';
  }
};

/**
 * A round robin when the file says so (pairingSystem: tags 192 and 092); otherwise guessed from the
 * shape, every player meeting (n-1)·k opponents.
 */
function looksLikeRoundRobin(t: TrfTournament, rounds: number): boolean {
  const system = pairingSystem(t);
  if (system) return system === 'round-robin';
  const n = t.players.length;
  // Single: n-1 rounds (even n) or n (odd n); double: twice that.
  return n === rounds + 1 || n === rounds || n === rounds / 2 + 1 || n === rounds / 2;
}

/**
 * The pairing system a TRF names: TRF-2026 tag 192 (FIDE_DUTCH_2025, FIDE_BURSTEIN, …), else the
 * type in tag 092, free text in TRF-16 ("Swiss Dutch", "Round robin") and a system code where
 * bbpPairings writes it ("FIDE_DUTCH_2025"). Undefined when neither says.
 */
export function pairingSystem(t: Pick<TrfTournament, 'type' | 'otherLines'>): 'swiss' | 'round-robin' | undefined {
  const texts = [...t.otherLines.filter((l) => l.code === '192').map((l) => l.text.slice(4)), t.type ?? ''];
  for (const text of texts) {
    const type = text.toUpperCase();
    if (/SWISS|DUTCH|BURSTEIN|DUBOV|\bLIM\b|OLIMPIAD|OLYMPIAD|MONRAD/.test(type)) return 'swiss';
    if (/ROBIN|BERGER|\bRR\b|ALL[ -]PLAY|VARMA/.test(type)) return 'round-robin';
  }
  return undefined;
}

export function tiebreakContext(t: TrfTournament, options: TiebreakOptions = {}): TiebreakContext {
  const rounds = options.rounds ?? Math.max(0, ...t.players.map((p) => p.rounds.length));
  const roundRobin = options.roundRobin ?? looksLikeRoundRobin(t, rounds);
  const scoring = t.scoring ?? standardScoring;
  const win = scoring.win;
  const draw = scoring.draw;
  const players = new Map<number, PlayerData>();
  for (const player of t.players) {
    const records: RoundRecord[] = [];
    for (let r = 1; r <= rounds; r += 1) {
      // Rounds after the last entry (withdrawal) are zero-point byes.
      const entry = player.rounds[r - 1] ?? { opponent: null, colour: null, result: 'Z' as const };
      const kind = kindOf(entry.result);
      records.push({
        round: r,
        opponent: entry.opponent,
        colour: entry.colour,
        points: entryPoints(entry, scoring),
        kind,
        played: kind === 'game',
        rated: kind === 'game' && '1=0'.includes(entry.result),
        vur: kind === 'forfeit-loss' || kind === 'half-bye' || kind === 'zero-bye',
        ratingPoints: '1W'.includes(entry.result) ? 1 : '=D'.includes(entry.result) ? 0.5 : 0,
      });
    }
    const points = records.reduce((s, r) => s + r.points, 0);
    // 16.2.5: unplayed rounds after the last non-VUR round count as draws for the opponents.
    const lastNonVur = Math.max(0, ...records.filter((r) => !r.vur).map((r) => r.round));
    const adjustedOf = (rs: readonly RoundRecord[]): number => rs.reduce((s, r) => s + (r.round <= lastNonVur || r.opponent !== null ? r.points : draw), 0);
    const adjusted = adjustedOf(records);
    const last = records[rounds - 1];
    // FB: the last round's game (played or forfeited) counts as a draw, when the last round is not a VUR.
    const foreShift = last && lastNonVur === rounds && last.opponent !== null ? draw - last.points : 0;
    players.set(player.id, {
      id: player.id,
      rounds: records,
      points,
      adjusted,
      foreAdjusted: adjusted + foreShift,
      foreOwn: points + foreShift,
      rating: options.ratings ? (options.ratings.get(player.id) ?? null) : player.rating,
    });
  }
  return { players, rounds, roundRobin, unplayedRules: options.unplayedRules ?? '2023', win, draw };
}

const round2 = (x: number): number => Math.round(x * 100 + 1e-6) / 100;
const roundHalfUp = (x: number): number => Math.floor(x + 0.5 + 1e-9);

function player(ctx: TiebreakContext, id: number): PlayerData {
  const found = ctx.players.get(id);
  if (!found) throw new RangeError(`no player ${id}`);
  return found;
}

/** Whether a round counts as a game against its scheduled opponent. */
const countsAsGame = (ctx: TiebreakContext, r: RoundRecord): boolean => r.played || (ctx.roundRobin && r.opponent !== null);

interface Contribution {
  readonly score: number;
  readonly value: number;
  readonly vur: boolean;
}

/** BH / SB / FB contributions per round, Art. 16.4 and (2026) the dummy caps. */
function opponentContributions(ctx: TiebreakContext, p: PlayerData, kind: 'BH' | 'SB' | 'FB'): Contribution[] {
  const out: Contribution[] = [];
  for (const r of p.rounds) {
    let score: number;
    let vur = r.vur;
    if (countsAsGame(ctx, r) && r.opponent !== null) {
      const opponent = player(ctx, r.opponent);
      score = kind === 'FB' ? opponent.foreAdjusted : opponent.adjusted;
      vur = false;
    } else if (ctx.roundRobin && r.opponent === null) {
      continue; // the bye of an odd round robin is no game at all
    } else {
      score = kind === 'FB' ? p.foreOwn : p.points;
      if (ctx.unplayedRules === '2026') {
        const cap = r.opponent !== null ? (kind === 'FB' ? player(ctx, r.opponent).foreAdjusted : player(ctx, r.opponent).adjusted) : ctx.draw * ctx.rounds;
        score = Math.min(score, cap);
      }
    }
    out.push({ score, value: kind === 'SB' ? score * r.points : score, vur });
  }
  return out;
}

/** Cut-n and Median-n with the Art. 16.5 exception for voluntarily unplayed rounds. */
function cutContributions(values: Contribution[], cut: number, median: number): Contribution[] {
  const rest = [...values];
  const low = Math.min(cut + median, rest.length);
  for (let i = 0; i < low; i += 1) {
    const byScore = [...rest].sort((a, b) => a.score - b.score || a.value - b.value);
    const byVur = [...rest].sort((a, b) => Number(b.vur) - Number(a.vur) || a.score - b.score || a.value - b.value);
    const least = byScore[0] as Contribution;
    const vurFirst = byVur[0] as Contribution;
    const removed = least.value > vurFirst.value ? least : vurFirst;
    rest.splice(rest.indexOf(removed), 1);
  }
  const high = Math.min(median, rest.length);
  for (let i = 0; i < high; i += 1) {
    const top = [...rest].sort((a, b) => b.score - a.score || b.value - a.value)[0] as Contribution;
    rest.splice(rest.indexOf(top), 1);
  }
  return rest;
}

function buchholzLike(ctx: TiebreakContext, id: number, kind: 'BH' | 'SB' | 'FB', spec: TiebreakSpec): number {
  const kept = cutContributions(opponentContributions(ctx, player(ctx, id), kind), spec.cut, spec.median);
  return kept.reduce((s, c) => s + c.value, 0);
}

/**
 * Opponents played over the board with a rating, for ARO/TPR/PTP, each with the game's rating result
 * (1, 0.5, 0: TieBreakServer's "rpoints", whatever the event's scoring). `unrated` (the /U modifier)
 * is the rating an unrated opponent counts with; without it he is left out.
 */
function ratedOpponents(ctx: TiebreakContext, p: PlayerData, unrated?: number): { rating: number; points: number }[] {
  return p.rounds
    .filter((r) => r.played && r.rated && r.opponent !== null)
    .map((r) => ({ rating: player(ctx, r.opponent as number).rating ?? unrated ?? 0, points: r.ratingPoints }))
    .filter((o) => o.rating > 0);
}

function ratingOpponentsAfterCut(ctx: TiebreakContext, p: PlayerData, spec: TiebreakSpec): { rating: number; points: number }[] | null {
  let list = ratedOpponents(ctx, p, spec.unrated);
  const otbGames = p.rounds.filter((r) => r.played).length;
  if (spec.cut > 0 || spec.median > 0) {
    // Cuts apply only when every OTB opponent is rated.
    if (otbGames === list.length) {
      list = [...list].sort((a, b) => a.rating - b.rating);
      list = list.slice(Math.min(spec.cut + spec.median, list.length), list.length - spec.median);
    }
  }
  return list.length > 0 ? list : null;
}

const averageRating = (list: readonly { rating: number }[]): number => roundHalfUp(list.reduce((s, o) => s + o.rating, 0) / list.length);

function performance(list: readonly { rating: number; points: number }[]): number {
  const score = list.reduce((s, o) => s + o.points, 0);
  return averageRating(list) + dpFor(score / list.length);
}

/**
 * PTP (C.07 10.4) as TieBreakServer computes it: the lowest rating whose expected score against the
 * opponents (the B.02 table, differences capped at 800) reaches the score; a score of 0 is the lowest
 * opponent's rating - 800. A full score is reached at the table's first 1.00 (736 points above the
 * highest opponent), not at +800.
 */
function perfectPerformance(list: readonly { rating: number; points: number }[]): number {
  const score = list.reduce((s, o) => s + o.points, 0);
  const ratings = list.map((o) => o.rating);
  if (score === 0) return Math.min(...ratings) - 800;
  const target = Math.round(score * 100);
  const expected = (r: number): number => ratings.reduce((s, o) => s + expectedScoreHundredths(r, o), 0);
  // Expected score rises with rating: binary search for the lowest rating reaching the score.
  let low = Math.min(...ratings) - 800;
  let high = Math.max(...ratings) + 800;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (expected(mid) >= target) high = mid;
    else low = mid;
  }
  return high;
}

function koyaThreshold(ctx: TiebreakContext, spec: TiebreakSpec): number {
  const n = ctx.players.size;
  const games = ctx.roundRobin && n % 2 === 1 ? (ctx.rounds * (n - 1)) / n : ctx.rounds;
  return (games * ctx.win) / 2 + spec.limit * ctx.draw;
}

/** Counts of Type B tie-breaks. Round robins: forfeits are games (2023); 2026 drops forfeit losses. */
function countsAsTypeBGame(ctx: TiebreakContext, r: RoundRecord): boolean {
  if (r.played) return true;
  if (!ctx.roundRobin || r.opponent === null) return false;
  return ctx.unplayedRules === '2023' || r.kind === 'forfeit-win';
}

/** Value of a non-DE tie-break for one player; null when it has no value (no rated games…). */
export function tiebreakValue(ctx: TiebreakContext, specOrCode: TiebreakSpec | string, id: number): number | null {
  const spec = typeof specOrCode === 'string' ? parseTiebreak(specOrCode) : specOrCode;
  const p = player(ctx, id);
  switch (spec.base) {
    case 'DE':
      throw new RangeError('DE ranks a tied group: use rankStandings');
    case 'WIN':
      return p.rounds.filter((r) => r.points === ctx.win).length;
    case 'WON':
      return p.rounds.filter((r) => r.points === ctx.win && countsAsTypeBGame(ctx, r) && r.opponent !== null).length;
    case 'BPG':
      return p.rounds.filter((r) => r.colour === 'b' && countsAsTypeBGame(ctx, r)).length;
    case 'BWG':
      return p.rounds.filter((r) => r.colour === 'b' && r.points === ctx.win && countsAsTypeBGame(ctx, r)).length;
    case 'REP':
      // Rounds the player elected to play (TieBreakServer): every game over the board, the
      // pairing-allocated bye whatever it is worth, and any unplayed round worth a win.
      return p.rounds.filter((r) => r.played || r.kind === 'pab' || r.points === ctx.win).length;
    case 'STD':
      // The score under 1/0.5/0: a round above a draw's points counts 1, a draw's 0.5 (C.07 2026, TieBreakServer).
      return p.rounds.reduce((s, r) => s + (r.points > ctx.draw ? 1 : r.points === ctx.draw ? 0.5 : 0), 0);
    case 'TPN':
      return p.id;
    case 'RTNG':
      return p.rating ?? spec.unrated ?? null;
    case 'PS': {
      let running = 0;
      let sum = 0;
      for (const r of p.rounds) {
        running += r.points;
        if (r.round > spec.cut) sum += running;
      }
      return sum;
    }
    case 'BH':
    case 'SB':
    case 'FB':
      return buchholzLike(ctx, id, spec.base, spec);
    case 'AOB': {
      const opponents = p.rounds.filter((r) => r.played && r.opponent !== null);
      if (opponents.length === 0) return 0;
      const kind = spec.fore ? 'FB' : 'BH';
      const bh = parseTiebreak(kind);
      const sum = opponents.reduce((s, r) => s + buchholzLike(ctx, r.opponent as number, kind, bh), 0);
      return round2(sum / opponents.length);
    }
    case 'KS': {
      const threshold = koyaThreshold(ctx, spec);
      return p.rounds.filter((r) => r.opponent !== null && player(ctx, r.opponent).points + 1e-9 >= threshold).reduce((s, r) => s + r.points, 0);
    }
    case 'ARO': {
      const list = ratingOpponentsAfterCut(ctx, p, spec);
      return list ? averageRating(list) : null;
    }
    case 'TPR': {
      const list = ratedOpponents(ctx, p, spec.unrated);
      return list.length > 0 ? performance(list) : null;
    }
    case 'PTP': {
      const list = ratedOpponents(ctx, p, spec.unrated);
      return list.length > 0 ? perfectPerformance(list) : null;
    }
    case 'APRO':
    case 'APPO': {
      // The average of the opponents' TPR (APRO) or PTP (APPO), rounded half up (C.07 10.3, 10.5).
      const of = spec.base === 'APRO' ? performance : perfectPerformance;
      const values = p.rounds
        .filter((r) => r.played && r.opponent !== null)
        .map((r) => {
          const list = ratedOpponents(ctx, player(ctx, r.opponent as number), spec.unrated);
          return list.length > 0 ? of(list) : null;
        })
        .filter((v): v is number => v !== null);
      return values.length > 0 ? roundHalfUp(values.reduce((s, v) => s + v, 0) / values.length) : null;
    }
  }
}

/**
 * DE on a tied group (Art. 6): the mini-tournament of games among the group. Returns the group
 * split into ranked subgroups, re-applying DE to every subgroup that is still tied (6.2), and for
 * groups whose members have not all met, separating a player only when no missing result could
 * catch him (6.3).
 */
export function directEncounter(ctx: TiebreakContext, group: readonly number[], predetermined = false): number[][] {
  if (group.length < 2) return [[...group]];
  const members = new Set(group);
  const stats = group.map((id) => {
    const perOpponent = new Map<number, { sum: number; games: number }>();
    for (const r of player(ctx, id).rounds) {
      // DE/P: a scheduled game that was not played (a forfeit) counts as played.
      if (r.opponent === null || !members.has(r.opponent) || !(predetermined || countsAsGame(ctx, r))) continue;
      const s = perOpponent.get(r.opponent) ?? { sum: 0, games: 0 };
      perOpponent.set(r.opponent, { sum: s.sum + r.points, games: s.games + 1 });
    }
    // Several games against the same opponent count as their average (6.1.2).
    const score = [...perOpponent.values()].reduce((s, o) => s + o.sum / o.games, 0);
    const missing = group.length - 1 - perOpponent.size;
    return { id, score, max: score + missing * ctx.win, missing };
  });
  let parts: number[][];
  if (stats.every((s) => s.missing === 0) || ctx.roundRobin) {
    const scores = [...new Set(stats.map((s) => s.score))].sort((a, b) => b - a);
    parts = scores.map((score) => stats.filter((s) => s.score === score).map((s) => s.id));
  } else {
    let rest = [...stats].sort((a, b) => b.score - a.score || b.max - a.max);
    parts = [];
    while (rest.length > 1) {
      const [top, ...others] = rest as [(typeof stats)[number], ...typeof stats];
      if (others.every((o) => top.score > o.max)) {
        parts.push([top.id]);
        rest = others;
      } else break;
    }
    parts.push(rest.map((s) => s.id));
  }
  if (parts.length === 1) return parts;
  return parts.flatMap((part) => directEncounter(ctx, part, predetermined));
}

export interface StandingRow {
  readonly rank: number;
  readonly id: number;
  readonly points: number;
  /** By canonical code, in the order asked; DE holds the rank DE gives (points, earlier tie-breaks, DE). */
  readonly tiebreaks: Readonly<Record<string, number | null>>;
}

export interface StandingsOptions extends TiebreakOptions {
  /** Points to rank by (default: the TRF's results). Lets point deductions count. */
  readonly points?: ReadonlyMap<number, number>;
  /** Ranks of players still tied after every tie-break: shared (default) or in pairing-number order. */
  readonly sharedRanks?: boolean;
}

/** Ranks players by points then the tie-breaks in order; equal on everything shares a rank. */
export function rankStandings(t: TrfTournament, codes: readonly string[], options: StandingsOptions = {}): StandingRow[] {
  const ctx = tiebreakContext(t, options);
  const specs = codes.map(parseTiebreak);
  const pointsOf = (id: number): number => options.points?.get(id) ?? player(ctx, id).points;
  const values = new Map<number, Record<string, number | null>>();
  for (const id of ctx.players.keys()) {
    const row: Record<string, number | null> = {};
    for (const spec of specs) if (spec.base !== 'DE') row[spec.code] = tiebreakValue(ctx, spec, id);
    values.set(id, row);
  }
  const ids = [...ctx.players.keys()].sort((a, b) => pointsOf(b) - pointsOf(a) || a - b);
  // Groups of still-tied players, in rank order.
  let groups: number[][] = [];
  for (const id of ids) {
    const last = groups[groups.length - 1];
    if (last && pointsOf(last[0] as number) === pointsOf(id)) last.push(id);
    else groups.push([id]);
  }
  const deRanks = new Map<number, number>();
  for (const spec of specs) {
    const next: number[][] = [];
    for (const group of groups) {
      if (group.length === 1) next.push(group);
      else if (spec.base === 'DE') next.push(...directEncounter(ctx, group, spec.predetermined));
      else {
        // TPN ranks the lower pairing number first; every other tie-break the higher value.
        const sign = spec.base === 'TPN' ? -1 : 1;
        const value = (id: number): number => sign * (values.get(id)?.[spec.code] ?? Number.NEGATIVE_INFINITY);
        const distinct = [...new Set(group.map(value))].sort((a, b) => b - a);
        next.push(...distinct.map((v) => group.filter((id) => value(id) === v)));
      }
    }
    groups = next;
    if (spec.base === 'DE') {
      let position = 1;
      for (const group of groups) {
        for (const id of group) deRanks.set(id, position);
        position += group.length;
      }
      for (const [id, rank] of deRanks) (values.get(id) as Record<string, number | null>)[spec.code] = rank;
    }
  }
  const rows: StandingRow[] = [];
  let position = 1;
  for (const group of groups) {
    const sorted = [...group].sort((a, b) => a - b);
    sorted.forEach((id, i) => {
      const ordered: Record<string, number | null> = {};
      for (const spec of specs) ordered[spec.code] = values.get(id)?.[spec.code] ?? null;
      rows.push({ rank: options.sharedRanks === false ? position + i : position, id, points: pointsOf(id), tiebreaks: ordered });
    });
    position += group.length;
  }
  return rows;
}
