// The live crosstable (wall chart) and standings: one row per player, keyed by player and thunked,
// so a result patches the rows it changed (the two players, the ranks it moved) and no other. A
// corrected result's cells are marked and open the game's correction history under the table.
import { thunk } from 'snabbdom';
import type { CrosstableRow, CrosstableView } from '../../contract/page.ts';
import type { ResultCorrection, TournamentView } from '../../contract/page.ts';
import { pointsText } from '../format.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { resultText, type TournamentCtrl } from '../tournament-ctrl.ts';

/** A game of the section: "round:white:black". */
const gameKey = (round: number, white: number, black: number): string => `${round}:${white}:${black}`;
const NONE: readonly ResultCorrection[] = [];

// Each player's corrections, worked out once per corrections list (a patch that changes none keeps
// the list, and so every row's thunk sees the same array).
const byPlayerOf = new WeakMap<readonly ResultCorrection[], Map<number, ResultCorrection[]>>();
function correctionsByPlayer(corrections: readonly ResultCorrection[]): Map<number, ResultCorrection[]> {
  let map = byPlayerOf.get(corrections);
  if (!map) {
    map = new Map();
    for (const c of corrections) for (const id of [c.white.id, c.black.id]) map.set(id, [...(map.get(id) ?? []), c]);
    byPlayerOf.set(corrections, map);
  }
  return map;
}

export function crosstablePage(ctrl: TournamentCtrl, v: TournamentView): VNode[] {
  const c = v.crosstable;
  const rounds = Math.max(0, ...c.rows.map((r) => r.rounds.length));
  const nameOf = new Map(c.rows.map((r) => [r.id, r.name]));
  const byPlayer = correctionsByPlayer(v.corrections);
  const shown = v.corrections.filter((x) => gameKey(x.round, x.white.id, x.black.id) === ctrl.history);
  return [
    hl('div.exports', [
      hl('button', { attrs: { 'data-t': 'print' }, on: { click: () => ctrl.print(false) } }, 'Print crosstable'),
      hl(
        'a',
        { attrs: { href: `/api/standings.csv?section=${encodeURIComponent(v.section.id)}`, download: `standings-${v.section.id}.csv` } },
        'Standings (CSV)',
      ),
    ]),
    hl('section', { attrs: { 'aria-label': 'Crosstable' } }, [
      hl('h2', `${c.section} · after ${c.roundsPlayed} round${c.roundsPlayed === 1 ? '' : 's'}`),
      hl('div.scroll', [
        hl('table.t-table.crosstable', [
          hl(
            'thead',
            hl(
              'tr',
              [...['Rk', 'No', 'Name', 'Fed', 'Rtg'], ...Array.from({ length: rounds }, (_, i) => String(i + 1)), 'Pts', ...c.columns].map((t) => hl('th', t)),
            ),
          ),
          hl(
            'tbody',
            c.rows.map((r) => {
              const corrections = byPlayer.get(r.id) ?? NONE;
              // The open history matters to the rows of its two players only.
              const open = corrections.some((x) => gameKey(x.round, x.white.id, x.black.id) === ctrl.history) ? ctrl.history : undefined;
              return thunk('tr', r.id, playerRow, [ctrl, r, c.columns, corrections, open]);
            }),
          ),
        ]),
      ]),
      c.tiedForFirst.length > 1 && hl('p', `Tied for first: ${c.tiedForFirst.map((id) => nameOf.get(id) ?? String(id)).join(', ')}`),
      v.corrections.length > 0 && hl('p.hint', '✎ a corrected result: press the cell for its history.'),
    ]),
    shown.length > 0 && correctionHistory(shown),
  ].filter((x): x is VNode => x !== false);
}

function playerRow(
  ctrl: TournamentCtrl,
  r: CrosstableRow,
  columns: CrosstableView['columns'],
  corrections: readonly ResultCorrection[],
  open: string | undefined,
): VNode {
  const cell = (x: CrosstableRow['rounds'][number]): VNode => {
    const text = `${x.opponent ?? ''}${x.colour ?? ''}${x.result === '=' ? '½' : x.result}`;
    const game = x.opponent === null ? undefined : x.colour === 'w' ? gameKey(x.round, r.id, x.opponent) : gameKey(x.round, x.opponent, r.id);
    const last = corrections.filter((c) => gameKey(c.round, c.white.id, c.black.id) === game).at(-1);
    if (game === undefined || !last) return hl('td.cell', text);
    return hl('td.cell.corrected', [
      hl(
        'button',
        {
          attrs: {
            'data-t': 'history',
            'data-game': game,
            'aria-expanded': String(open === game),
            title: `corrected ${resultText(last.from)} → ${resultText(last.to)} by ${last.by}: ${last.reason}`,
          },
          on: { click: () => ctrl.toggleHistory(game) },
        },
        [text, hl('sup', '✎')],
      ),
    ]);
  };
  return hl('tr', { key: r.id, attrs: { 'data-player': String(r.id) } }, [
    hl('td', String(r.rank)),
    hl('td', String(r.id)),
    hl('td.name', r.name),
    hl('td', r.federation),
    hl('td', r.rating === null ? '' : String(r.rating)),
    ...r.rounds.map(cell),
    hl('td.points', pointsText(r.points)),
    ...columns.map((col) => hl('td', pointsText(r.tiebreaks[col]))),
  ]);
}

/** A corrected game's history under the crosstable: each result it had, who changed it, why, when. */
function correctionHistory(list: readonly ResultCorrection[]): VNode {
  const first = list[0]!;
  const when = (at: number): string => {
    const s = Math.floor(at / 1000);
    return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };
  return hl('section.correction-history', { attrs: { 'aria-label': 'Correction history' } }, [
    hl('h3', `Round ${first.round}: ${first.white.name} – ${first.black.name}`),
    hl('table.t-table', [
      hl(
        'thead',
        hl(
          'tr',
          ['Console time', 'Result', 'By', 'Reason'].map((t) => hl('th', t)),
        ),
      ),
      hl(
        'tbody',
        list.map((c) => hl('tr', [hl('td', when(c.at)), hl('td', `${resultText(c.from)} → ${resultText(c.to)}`), hl('td', c.by), hl('td', c.reason)])),
      ),
    ]),
  ]);
}
