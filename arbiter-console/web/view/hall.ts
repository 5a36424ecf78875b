// The compact hall view: one two-line row per board, 100+ on a 1080p screen, the first screen drawn first, keyed so that sorting and
// filtering move rows instead of rebuilding them. Clocks are painted by ClockPainter, not by the view.
import { thunk, type Attrs } from 'snabbdom';
import { statusText, type BoardView } from '../../contract/page.ts';
import type { ClockPainter } from '../clocks.ts';
import type { ConsoleCtrl, Show, SortKey } from '../ctrl.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { opensPanel } from './panel.ts';

const SHOW: readonly [Show, string][] = [
  ['all', 'All'],
  ['alerts', 'Alerts'],
  ['running', 'Running'],
  ['finished', 'Finished'],
];
const SORT: readonly [SortKey, string][] = [
  ['board', 'Board'],
  ['time', 'Time left'],
  ['status', 'Status'],
];

/** A sector as the chief defined it: "A: North (1-50)", "B1: Juniors (section b: 1-10)". */
const sectorLabel = (s: { id: string; name: string; boards: string; section?: string }): string =>
  `${s.id}: ${s.name} (${s.section !== undefined ? `section ${s.section}: ` : ''}${s.boards})`;

/** A filter of the hall or the queue: "every …" (the value '') or one of `options`, kept in ConsoleCtrl. */
export function filterSelect(
  ctrl: ConsoleCtrl,
  key: 'section' | 'sector' | 'queueSector',
  sel: string,
  every: string,
  options: readonly (readonly [value: string, text: string])[],
  attrs: Attrs = {},
): VNode {
  const current = ctrl[key];
  return hl(sel, { attrs, on: { change: (e: Event) => ctrl.set(key, (e.target as HTMLSelectElement).value) } }, [
    hl('option', { attrs: { value: '' }, props: { selected: current === '' } }, every),
    ...options.map(([value, text]) => hl('option', { attrs: { value }, props: { selected: current === value } }, text)),
  ]);
}

export function hallControls(ctrl: ConsoleCtrl, shown: number): VNode {
  const sectors = ctrl.conn.state.sectors;
  const sections = ctrl.sections();
  return hl('div.hall-controls', { attrs: { role: 'toolbar', 'aria-label': 'Hall view' } }, [
    hl('div.layout-switch', [
      hl(
        'button',
        {
          class: { active: ctrl.layout === 'hall' },
          attrs: { 'data-layout': 'hall', 'aria-pressed': String(ctrl.layout === 'hall') },
          on: { click: () => ctrl.setLayout('hall') },
        },
        'Hall',
      ),
      hl(
        'button',
        {
          class: { active: ctrl.layout === 'cards' },
          attrs: { 'data-layout': 'cards', 'aria-pressed': String(ctrl.layout === 'cards') },
          on: { click: () => ctrl.setLayout('cards') },
        },
        'Cards',
      ),
    ]),
    hl('label', [
      'Sort ',
      hl(
        'select#hall-sort',
        { on: { change: (e: Event) => ctrl.set('sort', (e.target as HTMLSelectElement).value as SortKey) } },
        SORT.map(([value, text]) => hl('option', { attrs: { value }, props: { selected: ctrl.sort === value } }, text)),
      ),
    ]),
    hl(
      'div.chips',
      { attrs: { role: 'group', 'aria-label': 'Show' } },
      SHOW.map(([value, text]) =>
        hl(
          'button.chip',
          {
            class: { active: ctrl.show === value },
            attrs: { 'data-show': value, 'aria-pressed': String(ctrl.show === value) },
            on: { click: () => ctrl.set('show', value) },
          },
          text,
        ),
      ),
    ),
    sections.length > 1 &&
      hl('label', [
        'Section ',
        filterSelect(
          ctrl,
          'section',
          'select#hall-section',
          'every section',
          sections.map((s) => [s.id, s.name] as const),
        ),
      ]),
    sectors.length > 0 &&
      hl('label', [
        'Sector ',
        filterSelect(
          ctrl,
          'sector',
          'select#hall-sector',
          'every sector',
          sectors.map((s) => [s.id, sectorLabel(s)] as const),
        ),
      ]),
    hl('input#hall-search', {
      attrs: { type: 'search', placeholder: 'player or board, Enter to jump', 'aria-label': 'Search by player or board number' },
      props: { value: ctrl.search },
      on: {
        input: (e: Event) => ctrl.set('search', (e.target as HTMLInputElement).value),
        keydown: (e: KeyboardEvent) => e.key === 'Enter' && ctrl.jump(),
      },
    }),
    hl('span.hint', { attrs: { id: 'hall-count' } }, `${shown} of ${ctrl.conn.state.boards.size + ctrl.conn.state.toCome} boards`),
  ]);
}

export function hallView(ctrl: ConsoleCtrl, clocks: ClockPainter, boards: readonly BoardView[], alerted: ReadonlySet<string>): VNode {
  // An event's hall: a column with each board's section and its board number there.
  const sections = ctrl.sections().length > 1;
  const drawn = boards.length > ctrl.hallRows ? boards.slice(0, ctrl.hallRows) : boards;
  if (drawn.length < boards.length) ctrl.moreRowsSoon();
  return hl('div.hall', { class: { sections }, attrs: { role: 'table', 'aria-label': 'Every board' } }, [
    hl(
      'p.hall-legend',
      `hall board · ${sections ? 'section and its board · ' : ''}White above Black, each with the clock · move, moves to the time control · status · device, ⚠ alert`,
    ),
    hl(
      'div.hall-rows',
      drawn.map((b) => thunk('div.hall-row', b.id, hallRow, [ctrl, clocks, b, alerted.has(b.id), ctrl.jumped === b.id, sections])),
    ),
  ]);
}

/**
 * A board on two lines, White above Black: each name has the width of both name columns of a
 * one-line row (a FIDE name of 40 characters is read whole at 1366x768), the hall board number and the
 * section's own board number side by side.
 */
function hallRow(ctrl: ConsoleCtrl, clocks: ClockPainter, b: BoardView, alert: boolean, jumped: boolean, sections: boolean): VNode {
  const side = (s: 'white' | 'black') => [
    hl(
      `span.name.${s}`,
      { class: { absent: !b.arrived[s] }, attrs: { title: `${s === 'white' ? 'White' : 'Black'}: ${b[s]}${b.arrived[s] ? '' : ' (not at the board)'}` } },
      b[s],
    ),
    hl(`span.clock.${s}`, { ...clocks.hooks(b, s), class: { running: b.status === 'running' && b.toMove === s, flagged: b.flag?.side === s } }),
  ];
  const toControl = ctrl.toControl(b, b.toMove);
  const status = statusText(b);
  return hl(
    'div.hall-row',
    {
      key: b.id,
      class: { attention: alert, jumped, [b.status]: true },
      attrs: { role: 'row', tabindex: '0', 'data-board': b.id, 'aria-label': `Board ${b.id}` },
      on: opensPanel(ctrl, b.id),
    },
    [
      hl('span.no', { attrs: { title: `hall board ${b.id}` } }, b.id),
      sections &&
        hl('span.section', { attrs: { title: b.section === undefined ? '' : `section ${b.section}, board ${b.sectionBoard ?? '?'}` } }, [
          hl('span.section-id', b.section ?? ''),
          ' ',
          hl('span.section-board', b.sectionBoard === undefined ? '' : String(b.sectionBoard)),
        ]),
      ...side('white'),
      ...side('black'),
      hl('span.move', { attrs: { 'data-move': '', title: 'move' } }, String(b.moveNumber)),
      hl('span.tc', { attrs: { title: 'moves to the next time control' } }, toControl === undefined ? '' : String(toControl)),
      hl('span.status', { attrs: { title: b.paused?.reason ?? b.result?.termination ?? '' } }, status),
      hl(
        'span.device',
        {
          class: { bad: b.device !== undefined && b.device.connection !== 'connected' },
          attrs: { title: b.device ? `${b.device.kind} ${b.device.connection}` : 'no device' },
        },
        b.device ? (b.device.connection === 'connected' ? '●' : '○') : '',
      ),
      hl(
        'span.alert',
        { attrs: { title: b.host && !b.host.reachable ? `host ${b.host.id} unreachable` : '' } },
        alert ? '⚠' : b.host && !b.host.reachable ? '⌁' : '',
      ),
    ],
  );
}
