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

/** The run of items from `start` that are tied with the item at `start`. */
function tiedRun<T>(items: readonly T[], start: number, tied: (a: T, b: T) => boolean): T[] {
  const first = items[start] as T;
  let end = start + 1;
  while (end < items.length && tied(first, items[end] as T)) end += 1;
  return items.slice(start, end);
}

/** Place prizes for `rows` (already without excluded players), in rank order. */
function placePrizes(rows: readonly StandingRow[], places: readonly number[], sharing: PrizeRules['sharing']): Map<number, { amount: number; label: string }> {
  const out = new Map<number, { amount: number; label: string }>();
  const prizeAt = (position: number): number => places[position - 1] ?? 0;
  let position = 1;
  let i = 0;
  while (i < rows.length && position <= places.length) {
    // Who shares: equal points for 'equal' and 'hort'; an identical rank (all tie-breaks equal) for 'tiebreak'.
    const group = tiedRun(rows, i, (a, b) => (sharing === 'tiebreak' ? a.rank === b.rank : a.points === b.points));
    const positions = group.map((_, k) => position + k);
    const pool = positions.reduce((s, p) => s + prizeAt(p), 0);
    const label = group.length === 1 ? `place ${position}` : `places ${position}-${position + group.length - 1} shared`;
    group.forEach((row, k) => {
      const own = prizeAt(position + k);
      const amount = sharing === 'hort' && group.length > 1 ? own / 2 + pool / 2 / group.length : pool / group.length;
      if (amount > 0) out.set(row.id, { amount: cents(amount), label: sharing === 'hort' && group.length > 1 ? `${label} (Hort)` : label });
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
  const offPlaces = new Set<number>();
  for (let guard = 0; guard <= standings.length; guard += 1) {
    const places = placePrizes(
      eligibleRows.filter((r) => !offPlaces.has(r.id)),
      rules.places,
      sharing,
    );
    const specials = new Map<number, { amount: number; label: string }[]>();
    let moved = false;
    const bySize = [...rules.special].sort((a, b) => b.amount - a.amount);
    for (const special of bySize) {
      for (const row of eligibleRows) {
        if (!qualifies(row.id, special)) continue;
        const held = specials.get(row.id) ?? [];
        if (!special.combinable && rules.onePerPlayer) {
          if (held.length > 0) continue;
          const place = places.get(row.id);
          if (place && place.amount >= special.amount) continue;
          if (place) {
            offPlaces.add(row.id);
            moved = true;
          }
        }
        specials.set(row.id, [...held, { amount: special.amount, label: special.name }]);
        break;
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
    const pool = group.reduce((s, _r, k) => s + (prizes[i + k] ?? 0), 0);
    for (const r of group) out.push({ ...r, rank: i + 1, prize: cents(pool / group.length) });
    i += group.length;
  }
  return out;
}
