// The derived part of the tournament pages' view: the crosstable with its tie-breaks, the playoff,
// fines and prizes, from the desk's ViewParts. Pure and plain data in, plain data out, so the view
// worker (tournament-worker.ts) runs it off the event loop that carries the clocks.
import {
  crosstableView,
  finesView,
  playoffView,
  prizesView,
  standingsBeforeRounds,
  type CrosstableView,
  type PlayoffView,
  type SectionRecord,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import type { PairedPlayer, RoundPairings, TournamentView, ViewParts } from '../contract/index.ts';

export interface RoleViews {
  readonly spectator: TournamentView;
  /** The spectators' view and the unpublished draft. */
  readonly arbiter: TournamentView;
}

export function assembleViews(eventFile: ZeitnotEvent, sectionId: string, parts: ViewParts): RoleViews {
  const { record, playoff, playoffBoards, playoffHeld, draft, players, ...known } = parts;
  // An imported registration list: the section's players as the desk has them.
  const event = players ? { ...eventFile, sections: eventFile.sections.map((s) => (s.id === sectionId ? { ...s, players: [...players] } : s)) } : eventFile;
  const spectator: TournamentView = {
    ...known,
    rounds: withStandings(event, sectionId, record, known.rounds),
    crosstable: withGamesInProgress(crosstableView(event, sectionId, record, playoff), parts.rounds),
    playoff: playoff ? withHallBoards(playoffView(event, sectionId, playoff), playoffBoards ?? {}, playoffHeld) : null,
    fines: finesView(event, sectionId, record),
    prizes: prizesView(event, sectionId, record, playoff),
  };
  return { spectator, arbiter: draft ? { ...spectator, draft } : spectator };
}

/** Each paired player with his points before the round and his rating, as posted pairings show them. */
function withStandings(event: ZeitnotEvent, sectionId: string, record: SectionRecord, rounds: readonly RoundPairings<PairedPlayer>[]): RoundPairings[] {
  const standing = standingsBeforeRounds(event, sectionId, record);
  return rounds.map((r) => ({
    ...r,
    games: r.games.map((g) => ({ ...g, white: { ...g.white, ...standing(g.white.id, r.round) }, black: { ...g.black, ...standing(g.black.id, r.round) } })),
  }));
}

/** The playoff page: each game with the hall board it is played on; why the next sitting waits. */
function withHallBoards(view: PlayoffView, boards: Readonly<Record<string, string>>, held: string | undefined): PlayoffView {
  const message = view.message ?? (held !== undefined ? `the next playoff games wait: ${held}` : undefined);
  return {
    ...view,
    ...(message !== undefined ? { message } : {}),
    games: view.games.map((g) => (boards[g.id] !== undefined ? { ...g, hallBoard: boards[g.id]! } : g)),
  };
}

/** An event console's view: the first section's, carrying every section's in `sections`. */
export function eventViews(sections: readonly RoleViews[]): RoleViews {
  if (sections.length === 1) return sections[0]!;
  const of = (role: keyof RoleViews): TournamentView => ({ ...sections[0]![role], sections: sections.map((s) => s[role]) });
  const spectator = of('spectator');
  // No section has a draft: the arbiters' view is the spectators' (one object, as in one section).
  return { spectator, arbiter: sections.every((s) => s.arbiter === s.spectator) ? spectator : of('arbiter') };
}

/**
 * The crosstable counts a missing result as absent ("Z"); a game still being played shows as
 * opponent, colour and "…" instead (its points are 0 until the result comes).
 */
function withGamesInProgress(crosstable: CrosstableView, rounds: readonly RoundPairings<PairedPlayer>[]): CrosstableView {
  const playing = new Map<string, { opponent: number; colour: 'w' | 'b' }>();
  for (const round of rounds) {
    for (const g of round.games) {
      if (g.result !== null) continue;
      playing.set(`${round.round}:${g.white.id}`, { opponent: g.black.id, colour: 'w' });
      playing.set(`${round.round}:${g.black.id}`, { opponent: g.white.id, colour: 'b' });
    }
  }
  if (playing.size === 0) return crosstable;
  return {
    ...crosstable,
    rows: crosstable.rows.map((row) => ({
      ...row,
      rounds: row.rounds.map((cell) => {
        const game = playing.get(`${cell.round}:${row.id}`);
        return game ? { ...cell, ...game, result: '…' } : cell;
      }),
    })),
  };
}
