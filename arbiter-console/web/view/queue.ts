// The attention queue: grouped by kind (flags, late players, calls, disagreements, devices), scrolling
// by itself, filtered by sector and kind; "Show" jumps to the board, "Dismiss" is journaled.
import type { ConsoleCtrl } from '../ctrl.ts';
import { QUEUE_GROUPS } from '../ctrl.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { filterSelect } from './hall.ts';
import { wallTime } from '../journal-banner.ts';
import type { ConsoleIncident } from '../../contract/page.ts';

/** The console's own incidents (its journal failing and writing again), for the team, above the boards' items. */
function incidentsView(incidents: readonly ConsoleIncident[]): VNode | false {
  if (incidents.length === 0) return false;
  return hl('section.queue-group.console-incidents', { attrs: { 'data-group': 'console' } }, [
    hl('h3', `Console (${incidents.length})`),
    hl(
      'ol',
      incidents.map((i) =>
        hl(`li.${i.code}`, { key: i.id, attrs: { 'data-incident': i.code } }, [hl('span.what', [hl('strong', wallTime(i.wallMs)), ` · ${i.message}`])]),
      ),
    ),
  ]);
}

export function queueView(ctrl: ConsoleCtrl): VNode {
  const groups = ctrl.queue();
  const total = groups.reduce((n, g) => n + g.items.length, 0);
  const sectors = ctrl.conn.state.sectors;
  return hl('aside.queue', { attrs: { 'aria-label': 'Attention queue' } }, [
    hl('h2', ['Attention ', hl('span#queue-count.badge', String(total))]),
    hl('div.queue-filters', [
      sectors.length > 0 &&
        filterSelect(
          ctrl,
          'queueSector',
          'select#queue-sector',
          'every sector',
          sectors.map((s) => [s.id, `sector ${s.id}`] as const),
          { 'aria-label': 'Queue sector' },
        ),
      hl(
        'div.chips',
        { attrs: { role: 'group', 'aria-label': 'Kinds' } },
        QUEUE_GROUPS.map((g) =>
          hl(
            'button.chip',
            {
              class: { active: !ctrl.queueHidden.has(g.id) },
              attrs: { 'data-kind': g.id, 'aria-pressed': String(!ctrl.queueHidden.has(g.id)) },
              on: { click: () => ctrl.toggleQueueGroup(g.id) },
            },
            g.title,
          ),
        ),
      ),
    ]),
    incidentsView(ctrl.arbiter ? (ctrl.conn.state.console?.incidents ?? []) : []),
    hl(
      'div#queue.queue-scroll',
      total === 0
        ? [hl('p.empty', 'Nothing needs you now.')]
        : groups
            .filter((g) => !ctrl.queueHidden.has(g.group.id))
            .map(({ group, items }) =>
              hl('section.queue-group', { key: group.id, attrs: { 'data-group': group.id } }, [
                hl('h3', `${group.title} (${items.length})`),
                hl(
                  'ol',
                  items.map((a) =>
                    hl(`li.${a.code}`, { key: a.id, attrs: { 'data-alert': a.id } }, [
                      hl('span.what', [hl('strong', `Board ${a.board}`), ` · ${a.message}`]),
                      hl('span.actions', [
                        hl('button', { attrs: { 'data-goto': a.board }, on: { click: () => ctrl.jumpTo(a.board) } }, 'Show'),
                        ctrl.arbiter &&
                          hl(
                            'button',
                            {
                              attrs: { 'data-dismiss': a.id },
                              on: { click: () => ctrl.conn.send({ type: 'dismiss', alertId: a.id }, `Dismiss board ${a.board}`) },
                            },
                            'Dismiss',
                          ),
                      ]),
                    ]),
                  ),
                ),
              ]),
            ),
    ),
  ]);
}
