// Pairing a Swiss section's next round: starting ranks by each player's pairing rating (the
// section's federation rule and arbiter-assigned ratings), absences (withdrawn, late registrants in
// round 1, requested byes) marked, then the Dutch engine (tournament/dutch) on the resulting TRF.
import { pairTrf } from './dutch/index.ts';
import { findSection, type EventPlayer, type ZeitnotEvent } from './event.ts';
import type { Pairing } from './boards.ts';
import { playersToPair, pairingRating, sectionCrosstable, startingRankOrder, type SectionRecord } from './section-record.ts';
import { entryPoints, type TrfTournament } from './trf.ts';

export interface ByeRequest {
  readonly player: number;
  readonly round: number;
  readonly kind: 'half' | 'zero';
}

export interface SwissRound {
  readonly round: number;
  /** In board order, event player ids. */
  readonly games: readonly Pairing[];
  /** Pairing-allocated bye. */
  readonly bye: number | null;
  /** Players left out of the pairing, and why. */
  readonly notPaired: readonly { readonly player: number; readonly why: 'withdrawn' | 'late-registration' | 'requested-bye' }[];
  /** Starting ranks used for this round (index = starting rank - 1). */
  readonly startingRanks: readonly number[];
}

/** The TRF the pairing engine reads for `round`, in starting-rank ids, with absences marked Z/H. */
export function pairingTrf(
  event: ZeitnotEvent,
  sectionId: string,
  record: SectionRecord,
  round: number,
  byes: readonly ByeRequest[] = [],
): { trf: TrfTournament; startingRanks: number[] } {
  const section = findSection(event, sectionId);
  if (section.format.kind !== 'swiss') throw new RangeError(`section '${sectionId}' is not a Swiss`);
  const crosstable = sectionCrosstable(event, sectionId, { ...record, rounds: record.rounds.filter((r) => r.round < round) });
  const order = startingRankOrder(event, sectionId, record, round).map((p) => p.id);
  const rankOf = new Map(order.map((id, i) => [id, i + 1]));
  const { notPaired } = playersToPair(section, record, round);
  const absent = new Map<number, 'Z' | 'H'>(notPaired.map((n) => [n.player.id, 'Z']));
  for (const bye of byes) if (bye.round === round) absent.set(bye.player, bye.kind === 'half' ? 'H' : 'Z');
  const players = order.map((eventId) => {
    const player = crosstable.players.find((p) => p.id === eventId);
    if (!player) throw new RangeError(`no player ${eventId}`);
    const rounds = player.rounds
      .slice(0, round - 1)
      .map((entry) => ({ ...entry, opponent: entry.opponent === null ? null : (rankOf.get(entry.opponent) ?? null) }));
    const mark = absent.get(eventId);
    if (mark) rounds.push({ opponent: null, colour: null, result: mark });
    // A requested half-point bye is part of the score the file states (TRF-16: points must equal the
    // results, the bye included; bbpPairings and zeitnot refuse a file where they do not).
    const points = mark ? player.points + entryPoints({ opponent: null, colour: null, result: mark }, crosstable.scoring) : player.points;
    return {
      ...player,
      id: rankOf.get(eventId) as number,
      rounds,
      points,
      rating: pairingRating(section, section.players.find((p) => p.id === eventId) as EventPlayer, record, round),
    };
  });
  return {
    trf: { ...crosstable, players, totalRounds: section.format.rounds, configuration: ['white1'] },
    startingRanks: order,
  };
}

/** Pairs the next round of a Swiss section with the Dutch engine; ids in the result are event ids. */
export function pairSwissRound(event: ZeitnotEvent, sectionId: string, record: SectionRecord, round: number, byes: readonly ByeRequest[] = []): SwissRound {
  const section = findSection(event, sectionId);
  const { trf, startingRanks } = pairingTrf(event, sectionId, record, round, byes);
  const pairing = pairTrf(trf);
  const eventId = (rank: number): number => startingRanks[rank - 1] as number;
  const { notPaired } = playersToPair(section, record, round);
  return {
    round,
    games: pairing.boards.map((b) => ({ white: eventId(b.white), black: eventId(b.black) })),
    bye: pairing.bye === null ? null : eventId(pairing.bye),
    notPaired: [
      ...notPaired.map((n) => ({ player: n.player.id, why: n.why })),
      ...byes.filter((b) => b.round === round).map((b) => ({ player: b.player, why: 'requested-bye' as const })),
    ],
    startingRanks,
  };
}
