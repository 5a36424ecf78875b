// Read-only HTTP endpoints of the tournament desk (docs/protocol.md). What a spectator may see:
// no unpublished draft is served here.
import { exportTrf, sectionStandings, sectionTrf } from '../../tournament/index.ts';
import type { TournamentDesk } from './tournament-desk.ts';

export type ApiAnswer = { readonly status: number; readonly body: unknown; readonly type?: string };

const CSV = 'text/csv; charset=utf-8';

/**
 * One CSV field. A text cell a spreadsheet would run as a formula (one starting with =, +, -, @, a tab
 * or a carriage return: a player registered as `=HYPERLINK(...)`) gets a leading `'`, so it shows as
 * text; numbers are written as numbers, a negative rating or tie-break stays a number. Then RFC 4180:
 * a field with a comma, quote or line break is quoted.
 */
function csvField(field: string | number | null | undefined): string {
  if (field === null || field === undefined) return '';
  const cell = typeof field === 'number' ? String(field) : /^[=+\-@\t\r]/.test(field) ? `'${field}` : field;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export const csvLine = (fields: readonly (string | number | null | undefined)[]): string => fields.map(csvField).join(',');

/** A CSV file: CRLF lines after a UTF-8 byte order mark, which spreadsheets need to read names like "Łukasz" as UTF-8. */
const csvAnswer = (lines: readonly string[]): ApiAnswer => ({ status: 200, body: '\uFEFF' + lines.join('\r\n') + '\r\n', type: CSV });

/** The section's feeds: each depends on its desk alone (the server's cache renders one again when the desk changes). */
export const TOURNAMENT_PATHS: readonly string[] = [
  '/api/standings',
  '/api/pairings',
  '/api/playoffs',
  '/api/fines',
  '/api/prizes',
  '/api/tournament',
  '/api/trf',
  '/api/standings.csv',
  '/api/pairings.csv',
];

/** Answers /api/standings, /api/pairings, /api/playoffs, /api/fines, /api/prizes, /api/tournament, /api/trf and the CSV exports; else undefined. */
export function tournamentApi(desk: TournamentDesk | undefined, path: string, query: URLSearchParams): ApiAnswer | undefined {
  if (!TOURNAMENT_PATHS.includes(path)) return undefined;
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
            ? rows.map((r) => ({
                rank: r.rank,
                id: r.id,
                name: crosstable.rows.find((c) => c.id === r.id)?.name ?? '',
                points: r.points,
                tiebreaks: r.tiebreaks,
              }))
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
    case '/api/pairings.csv': {
      const asked = query.get('round');
      const round = asked === null ? view.currentRound : Number(asked);
      const pairings = view.rounds.find((r) => r.round === round);
      if (!pairings) return { status: 404, body: { error: `no pairings for round ${asked ?? round}`, rounds: view.rounds.map((r) => r.round) } };
      const lines = [csvLine(['round', 'board', 'hall board', 'white no', 'white', 'result', 'black no', 'black'])];
      for (const g of pairings.games) lines.push(csvLine([round, g.board, g.hallBoard, g.white.id, g.white.name, g.result, g.black.id, g.black.name]));
      if (pairings.bye) lines.push(csvLine([round, '', '', pairings.bye.id, pairings.bye.name, 'bye', '', '']));
      return csvAnswer(lines);
    }
    case '/api/standings.csv': {
      const c = view.crosstable;
      const lines = [csvLine(['rank', 'no', 'name', 'federation', 'rating', 'points', ...c.columns])];
      for (const r of c.rows) lines.push(csvLine([r.rank, r.id, r.name, r.federation, r.rating, r.points, ...c.columns.map((col) => r.tiebreaks[col])]));
      return csvAnswer(lines);
    }
    case '/api/playoffs':
      return { status: 200, body: { playoff: view.playoff, possible: view.playoffPossible } };
    case '/api/fines':
      return { status: 200, body: view.fines };
    case '/api/prizes':
      return { status: 200, body: view.prizes };
    case '/api/tournament':
      return { status: 200, body: view };
    case '/api/trf': {
      // The pairing engines refuse a file with team lines, so they come on request.
      const teams = query.get('teams');
      if (teams !== null && teams !== 'yes' && teams !== 'no') return { status: 400, body: { error: `teams '${teams}': yes or no` } };
      const trf = exportTrf(sectionTrf(desk.event, desk.section.id, desk.record()), { teams: teams === 'yes' });
      return { status: 200, body: trf, type: 'text/plain; charset=utf-8' };
    }
    default:
      return undefined;
  }
}
