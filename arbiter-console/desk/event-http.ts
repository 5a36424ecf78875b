// The event console's read-only HTTP routes (docs/protocol.md): the event's summary and the PGN of
// any round of any section, rebuilt from the journal. The tournament endpoints take ?section=ID
// (tournament-http.ts); the server routes here before them.
import type { ApiAnswer } from './tournament-http.ts';
import type { PlayingHall } from '../hall/index.ts';
import { Board } from '../hall/index.ts';
import type { Journal } from '../journal/index.ts';
import { boardPgn } from '../hall/index.ts';
import type { Round } from '../contract/index.ts';
import type { TournamentDesk } from './tournament-desk.ts';

export interface EventSummary {
  readonly finished: boolean;
  readonly sections: readonly {
    readonly id: string;
    readonly format: string;
    readonly rounds: number;
    readonly roundsPlayed: number;
    readonly finished: boolean;
  }[];
}

/** `GET /api/event`: each section's rounds played (closed: every result confirmed) and whether it is finished. */
export function eventSummary(desks: ReadonlyMap<string, TournamentDesk>): EventSummary {
  const sections = [...desks.values()].map((desk) => {
    const played = Math.max(desk.importedRounds, desk.liveRoundClosed ? desk.liveRound : desk.liveRound - 1);
    const playoff = desk.playoff;
    const playoffDone = !desk.view('spectator').playoffPossible.possible && (playoff === undefined || playoff.winner !== undefined);
    return {
      id: desk.section.id,
      format: desk.section.format.kind,
      rounds: desk.totalRounds,
      roundsPlayed: Math.max(0, played),
      finished: played >= desk.totalRounds && playoffDone,
    };
  });
  return { finished: sections.every((s) => s.finished), sections };
}

/** The last seating of a section's round on the boards, as journaled; undefined before it is published. */
export function seatedRound(journal: Journal, section: string, round: number): Round | undefined {
  let seated: Round | undefined;
  for (const entry of journal.entries(0, 'seat', { section, round })) if (entry.record.kind === 'seat') seated = entry.record.round;
  return seated;
}

/** A section's round rebuilt from the journal: its seating and each hall board's game as its records left it (a live round included). */
export function replayRound(
  journal: Journal,
  section: string,
  round: number,
): { readonly seated: Round; readonly boards: ReadonlyMap<string, Board> } | undefined {
  const seated = seatedRound(journal, section, round);
  if (!seated) return undefined;
  const boards = new Map(seated.boards.map((info) => [info.id, new Board(info, seated.game, seated)]));
  for (const entry of journal.entries(0, undefined, { section, round })) {
    const r = entry.record;
    if (r.kind === 'clock') boards.get(r.board)?.applyClock(r.event);
    else if (r.kind === 'note') boards.get(r.board)?.applyNote(r.note);
  }
  return { seated, boards };
}

/** `GET /api/pgn?section=ID&round=N`: every game of that round as the journal has it (a live round included). */
export function roundPgn(journal: Journal, section: string, round: number, now: number): ApiAnswer {
  const replayed = replayRound(journal, section, round);
  if (!replayed) return { status: 404, body: { error: `section '${section}' has no round ${round} on the boards yet` } };
  const text = [...replayed.boards.values()].map((b) => boardPgn(replayed.seated, b, now)).join('\n');
  return { status: 200, body: text, type: 'application/x-chess-pgn; charset=utf-8' };
}

/**
 * The event console's routes: `/api/event`, `/api/pgn?section=ID&round=N`, and which section's desk a
 * tournament endpoint is asked about (`?section=ID`, default the first; an unknown one is a 404).
 */
export function eventApi(
  ctx: {
    readonly hall: PlayingHall;
    readonly desk: TournamentDesk | undefined;
    readonly desks?: ReadonlyMap<string, TournamentDesk>;
    readonly event?: () => unknown;
  },
  path: string,
  query: URLSearchParams,
): { readonly answer?: ApiAnswer; readonly desk: TournamentDesk | undefined } {
  if (path === '/api/event') {
    return {
      desk: ctx.desk,
      answer: ctx.event ? { status: 200, body: ctx.event() } : { status: 404, body: { error: 'this console runs no event (start it with --event)' } },
    };
  }
  const asked = query.get('section');
  if (path === '/api/pgn' && query.has('round')) {
    const round = Number(query.get('round'));
    if (!Number.isInteger(round) || round < 1)
      return { desk: ctx.desk, answer: { status: 400, body: { error: `round '${query.get('round')}' is not a round number` } } };
    const section = asked ?? ctx.desk?.hallSection ?? ctx.hall.seated.keys().next().value ?? '';
    return { desk: ctx.desk, answer: roundPgn(ctx.hall.journal, section, round, ctx.hall.source.now()) };
  }
  const desk = deskAsked(ctx, query);
  if (!desk && asked !== null && path.startsWith('/api/'))
    return { desk: undefined, answer: { status: 404, body: { error: `no section '${asked}'`, sections: [...sectionDesks(ctx).keys()] } } };
  return { desk };
}

const sectionDesks = (ctx: {
  readonly desk: TournamentDesk | undefined;
  readonly desks?: ReadonlyMap<string, TournamentDesk>;
}): ReadonlyMap<string, TournamentDesk> => ctx.desks ?? new Map(ctx.desk ? [[ctx.desk.section.id, ctx.desk]] : []);

/** The desk a tournament endpoint is asked about: `?section=ID`'s, else the first; undefined for an unknown section. */
export function deskAsked(
  ctx: { readonly desk: TournamentDesk | undefined; readonly desks?: ReadonlyMap<string, TournamentDesk> },
  query: URLSearchParams,
): TournamentDesk | undefined {
  const asked = query.get('section');
  return asked === null ? ctx.desk : sectionDesks(ctx).get(asked);
}
