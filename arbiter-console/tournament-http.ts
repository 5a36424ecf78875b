// Read-only HTTP endpoints of the tournament desk (docs/protocol.md). What a spectator may see:
// no unpublished draft is served here.
import { exportTrf, sectionStandings, sectionTrf } from '../tournament/index.ts';
import type { TournamentDesk } from './tournament-desk.ts';

export type ApiAnswer = { readonly status: number; readonly body: unknown; readonly type?: string };

/** Answers /api/standings, /api/pairings, /api/playoffs, /api/fines, /api/prizes, /api/tournament, /api/trf; else undefined. */
export function tournamentApi(desk: TournamentDesk | undefined, path: string, query: URLSearchParams): ApiAnswer | undefined {
  const known = ['/api/standings', '/api/pairings', '/api/playoffs', '/api/fines', '/api/prizes', '/api/tournament', '/api/trf'];
  if (!known.includes(path)) return undefined;
  if (!desk) return { status: 404, body: { error: 'this console runs no tournament section (start it with --event)' } };
  const view = desk.view('spectator');
  switch (path) {
    case '/api/standings': {
      const tiebreaks = query.get('tiebreaks');
      const record = desk.record();
      let rows: ReturnType<typeof sectionStandings> | undefined;
      try {
        rows = tiebreaks ? sectionStandings(desk.event, desk.section.id, record, tiebreaks.split(',')) : undefined;
      } catch (err) {
        return { status: 400, body: { error: `tiebreaks '${tiebreaks}': ${err instanceof Error ? err.message : String(err)}` } };
      }
      const crosstable = view.crosstable;
      return {
        status: 200,
        body: {
          event: view.event,
          section: view.section,
          roundsPlayed: crosstable.roundsPlayed,
          columns: rows ? tiebreaks!.split(',') : crosstable.columns,
          standings: rows
            ? rows.map((r) => ({ rank: r.rank, id: r.id, name: crosstable.rows.find((c) => c.id === r.id)?.name ?? '', points: r.points, tiebreaks: r.tiebreaks }))
            : crosstable.rows.map((r) => ({ rank: r.rank, id: r.id, name: r.name, points: r.points, tiebreaks: r.tiebreaks })),
          crosstable,
        },
      };
    }
    case '/api/pairings': {
      const asked = query.get('round');
      const round = asked === null ? view.currentRound : Number(asked);
      const pairings = view.rounds.find((r) => r.round === round);
      if (!pairings) return { status: 404, body: { error: `no pairings for round ${asked ?? round}`, rounds: view.rounds.map((r) => r.round) } };
      return { status: 200, body: { event: view.event, section: view.section, liveRound: view.liveRound, ...pairings } };
    }
    case '/api/playoffs':
      return { status: 200, body: { playoff: view.playoff, possible: view.playoffPossible } };
    case '/api/fines':
      return { status: 200, body: view.fines };
    case '/api/prizes':
      return { status: 200, body: view.prizes };
    case '/api/tournament':
      return { status: 200, body: view };
    case '/api/trf':
      return { status: 200, body: exportTrf(sectionTrf(desk.event, desk.section.id, desk.record())), type: 'text/plain; charset=utf-8' };
    default:
      return undefined;
  }
}
