// Prize money from the final standings: place prizes shared equally (SA Open), by Hort, or by
// tie-break order; category prizes under the one-prize rule; fines deducted; team prizes.
import type { EventPlayer, EventSection, PrizeRules } from './event.ts';
import type { StandingRow } from './tiebreaks.ts';

export interface PrizeAward {
  readonly player: number;
  /** "Places 2-4 shared", "Best under 2000"… */
  readonly prize: string;
  readonly amount: number;
  readonly fine: number;
  /** amount - fine, never below zero. */
  readonly net: number;
}

export interface PrizeOptions {
  /** Players who may not receive prize money (withdrew or forfeited, when the rules say so). */
  readonly excluded?: ReadonlySet<number>;
  /** Fines per player, deducted from the prize. */
  readonly fines?: ReadonlyMap<number, number>;
  /** Override the section's sharing rule (Hort as an option). */
  readonly sharing?: PrizeRules['sharing'];
  /**
   * The rating a category prize ("Best under 2000") goes by, per player: the section's tie-break ratings,
   * which include the chief arbiter's assigned ones (SA Open). Absent: FIDE, else national.
   */
  readonly ratings?: ReadonlyMap<number, number | null>;
}

const cents = (x: number): number => Math.round(x * 100) / 100;

/** How a shared prize is paid: in whole cents, or in multiples of 10 (SA Open: "rounding to the nearest 10"). */
export type PrizeRounding = NonNullable<PrizeRules['rounding']>;

/**
 * Splits `units` whole units in proportion to the integer `weights` by largest remainder (Hamilton):
 * each gets the floor of his exact share, and the units left over go one each to the largest
 * remainders, a tie to the earlier in the list (the better placed). The parts add up to `units`.
 */
function largestRemainder(units: number, weights: readonly bigint[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0n);
  if (total === 0n) return weights.map(() => 0);
  const exact = weights.map((w) => BigInt(units) * w);
  const parts = exact.map((e) => e / total);
  let left = units - Number(parts.reduce((s, p) => s + p, 0n));
  const byRemainder = exact.map((e, i) => ({ i, rest: e % total })).sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left === 0) break;
    parts[i] = (parts[i] as bigint) + 1n;
    left -= 1;
  }
  return parts.map(Number);
}

/**
 * A fund split in proportion to `weights` (whole numbers: equal shares are all 1), paid in cents or in
 * tens; the amounts add up to the fund exactly. In tens, the part of the fund that is a multiple of 10
 * is split in tens, and what a fund has below 10 (a fund of 1,005) in cents, by the same weights.
 */
export function splitFund(fund: number, weights: readonly number[], rounding: PrizeRounding = 'cent'): number[] {
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError(`prize weights must be whole numbers, got ${weights.join(', ')}`);
  const fundCents = Math.round(fund * 100);
  const big = weights.map(BigInt);
  if (rounding === 'cent') return largestRemainder(fundCents, big).map((c) => c / 100);
  const tens = largestRemainder(Math.floor(fundCents / 1000), big);
  const rest = largestRemainder(fundCents % 1000, big);
  return tens.map((t, i) => (t * 1000 + (rest[i] as number)) / 100);
}

/**
 * The prizes of `places` (position 1 first) shared by a group tied on them: equally, or by Hort (each
 * keeps half of his own place's prize, the other halves pooled equally). Exact shares as whole-number
 * weights of the pool: Hort's own/2 + pool/2n is (n·own + pool) / 2n of it.
 */
function sharedPlaces(prizes: readonly number[], sharing: PrizeRules['sharing'], rounding: PrizeRounding): number[] {
  const pool = prizes.reduce((s, p) => s + p, 0);
  if (prizes.length === 1) return [pool];
  if (sharing !== 'hort')
    return splitFund(
      pool,
      prizes.map(() => 1),
      rounding,
    );
  const poolCents = Math.round(pool * 100);
  return splitFund(
    pool,
    prizes.map((own) => prizes.length * Math.round(own * 100) + poolCents),
    rounding,
  );
}

/** The run of items from `start` that are tied with the item at `start`. */
function tiedRun<T>(items: readonly T[], start: number, tied: (a: T, b: T) => boolean): T[] {
  const first = items[start] as T;
  let end = start + 1;
  while (end < items.length && tied(first, items[end] as T)) end += 1;
  return items.slice(start, end);
}

/** Who shares a position: equal points for 'equal' and 'hort'; an identical rank (all tie-breaks equal) for 'tiebreak'. */
const tiedFor =
  (sharing: PrizeRules['sharing']) =>
  (a: StandingRow, b: StandingRow): boolean =>
    sharing === 'tiebreak' ? a.rank === b.rank : a.points === b.points;

/** Place prizes for `rows` (already without excluded players), in rank order. */
function placePrizes(
  rows: readonly StandingRow[],
  places: readonly number[],
  sharing: PrizeRules['sharing'],
  rounding: PrizeRounding,
): Map<number, { amount: number; label: string }> {
  const out = new Map<number, { amount: number; label: string }>();
  let position = 1;
  let i = 0;
  while (i < rows.length && position <= places.length) {
    const group = tiedRun(rows, i, tiedFor(sharing));
    const amounts = sharedPlaces(
      group.map((_, k) => places[position - 1 + k] ?? 0),
      sharing,
      rounding,
    );
    const label = group.length === 1 ? `place ${position}` : `places ${position}-${position + group.length - 1} shared`;
    group.forEach((row, k) => {
      const amount = amounts[k] as number;
      if (amount > 0) out.set(row.id, { amount, label: sharing === 'hort' && group.length > 1 ? `${label} (Hort)` : label });
    });
    position += group.length;
    i += group.length;
  }
  return out;
}

/**
 * Prizes of a section from its final standings. One prize per player (the highest) unless a
 * category prize is combinable; a player who would earn more from a category prize takes it and
 * his place prize passes down. Excluded players' prizes pass to the next players.
 */
export function awardPrizes(section: EventSection, standings: readonly StandingRow[], options: PrizeOptions = {}): PrizeAward[] {
  const rules = section.prizes;
  if (!rules) return [];
  const excluded = options.excluded ?? new Set<number>();
  const sharing = options.sharing ?? rules.sharing;
  const players = new Map<number, EventPlayer>(section.players.map((p) => [p.id, p]));
  const eligibleRows = standings.filter((r) => !excluded.has(r.id));
  const qualifies = (id: number, special: PrizeRules['special'][number]): boolean => {
    const p = players.get(id);
    if (!p) return false;
    const rating = options.ratings ? (options.ratings.get(id) ?? undefined) : (p.fideRating ?? p.nationalRating);
    if (special.maxRating !== undefined && (rating === undefined || rating > special.maxRating)) return false;
    if (special.federation !== undefined && p.federation !== special.federation) return false;
    return true;
  };
  const rounding = rules.rounding ?? 'cent';
  const offPlaces = new Set<number>();
  for (let guard = 0; guard <= standings.length; guard += 1) {
    const places = placePrizes(
      eligibleRows.filter((r) => !offPlaces.has(r.id)),
      rules.places,
      sharing,
      rounding,
    );
    const specials = new Map<number, { amount: number; label: string }[]>();
    let moved = false;
    const bySize = [...rules.special].sort((a, b) => b.amount - a.amount);
    for (const special of bySize) {
      const onlyOne = !special.combinable && rules.onePerPlayer;
      // Those who may still take it, best placed first: under the one-prize rule, not a holder of another category prize.
      const candidates = eligibleRows.filter((r) => qualifies(r.id, special) && !(onlyOne && (specials.get(r.id) ?? []).length > 0));
      const shared = categoryWinners(candidates, special.amount, tiedFor(sharing), sharing, rounding, onlyOne ? (id) => places.get(id)?.amount ?? 0 : () => 0);
      for (const { row, amount } of shared) {
        const label = shared.length === 1 ? special.name : `${special.name} (shared by ${shared.length})`;
        specials.set(row.id, [...(specials.get(row.id) ?? []), { amount, label }]);
        if (onlyOne && places.has(row.id)) {
          offPlaces.add(row.id);
          moved = true;
        }
      }
      if (moved) break;
    }
    if (moved) continue;
    const awards: PrizeAward[] = [];
    for (const row of standings) {
      const fine = options.fines?.get(row.id) ?? 0;
      for (const prize of [places.get(row.id), ...(specials.get(row.id) ?? [])]) {
        if (!prize) continue;
        awards.push({ player: row.id, prize: prize.label, amount: prize.amount, fine, net: Math.max(0, cents(prize.amount - fine)) });
      }
    }
    return awards;
  }
  throw new Error('prize allocation did not settle');
}

/**
 * Who takes a category prize, and how much each: the best placed candidates tied with each other share
 * it as tied players share a place ("in the event of a tie for any position, prize money will be
 * shared", SA Open). Under the one-prize rule a candidate whose place prize is at least his share keeps
 * his place and is not among those who share; the others share the whole prize. If all of a tied group
 * keep their places, the prize passes to the next group down.
 */
function categoryWinners(
  candidates: readonly StandingRow[],
  amount: number,
  tied: (a: StandingRow, b: StandingRow) => boolean,
  sharing: PrizeRules['sharing'],
  rounding: PrizeRounding,
  placeOf: (id: number) => number,
): { row: StandingRow; amount: number }[] {
  for (let i = 0; i < candidates.length;) {
    const group = tiedRun(candidates, i, tied);
    let sharers = group;
    for (;;) {
      const amounts = sharedPlaces(
        sharers.map((_, k) => (k === 0 ? amount : 0)),
        sharing,
        rounding,
      );
      // A share grows as players keep their places, so a player who takes it once takes it at the end.
      const staying = sharers.filter((row, k) => placeOf(row.id) < (amounts[k] as number));
      if (staying.length === sharers.length) {
        if (sharers.length > 0) return sharers.map((row, k) => ({ row, amount: amounts[k] as number }));
        break;
      }
      sharers = staying;
    }
    i += group.length;
  }
  return [];
}

export interface TeamStanding {
  readonly rank: number;
  readonly team: string;
  readonly members: readonly number[];
  readonly points: number;
  /** Sums of the members' tie-break values, in the section's order. */
  readonly tiebreaks: readonly number[];
  readonly prize: number;
}

/**
 * Team prize: the sum of the members' scores (the best `members` of a larger team); ties broken by
 * the sums of the members' tie-break values in the section's order, then shared.
 */
export function teamStandings(section: EventSection, standings: readonly StandingRow[]): TeamStanding[] {
  const size = section.prizes?.team?.members ?? 4;
  const prizes = section.prizes?.team?.places ?? [];
  const byId = new Map(standings.map((r) => [r.id, r]));
  const rows = section.teams.map((team) => {
    const scored = team.members
      .map((id) => byId.get(id))
      .filter((r): r is StandingRow => r !== undefined)
      .sort((a, b) => b.points - a.points || a.rank - b.rank)
      .slice(0, size);
    const tiebreaks = section.tiebreaks.map((_code, k) => scored.reduce((s, r) => s + (Object.values(r.tiebreaks)[k] ?? 0), 0));
    return { team: team.name, members: scored.map((r) => r.id), points: scored.reduce((s, r) => s + r.points, 0), tiebreaks };
  });
  const key = (r: (typeof rows)[number]): number[] => [r.points, ...r.tiebreaks];
  const compare = (a: (typeof rows)[number], b: (typeof rows)[number]): number => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if ((ka[i] as number) !== (kb[i] as number)) return (kb[i] as number) - (ka[i] as number);
    return 0;
  };
  const sorted = [...rows].sort(compare);
  const out: TeamStanding[] = [];
  for (let i = 0; i < sorted.length;) {
    const group = tiedRun(sorted, i, (a, b) => compare(a, b) === 0);
    const shares = sharedPlaces(
      group.map((_r, k) => prizes[i + k] ?? 0),
      'equal',
      section.prizes?.rounding ?? 'cent',
    );
    group.forEach((r, k) => out.push({ ...r, rank: i + 1, prize: shares[k] as number }));
    i += group.length;
  }
  return out;
}
