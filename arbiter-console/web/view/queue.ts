// The attention queue: grouped by kind (flags, late players, calls, disagreements, devices) with their
// counts, a line per board in each kind (a board's items of a kind merged), scrolling by itself,
// filtered by sector and kind. "Show" jumps to the board, "Dismiss" dismisses the line's items, and
// "Dismiss all" a whole kind (dismissKind); every dismissal is journaled.
import { askConfirm } from '../dialogs.ts';
import type { ConsoleCtrl, QueueGroupLines, QueueLine } from '../ctrl.ts';
import { QUEUE_GROUPS, QUEUE_LINES } from '../ctrl.ts';
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
  const total = groups.reduce((n, g) => n + g.count, 0);
  const counts = new Map(groups.map((g) => [g.group.id, g.count]));
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
            [g.title, counts.has(g.id) ? hl('span.count', ` ${counts.get(g.id)}`) : ''],
          ),
        ),
      ),
    ]),
    incidentsView(ctrl.arbiter ? (ctrl.conn.state.console?.incidents ?? []) : []),
    hl('div#queue.queue-scroll', total === 0 ? [hl('p.empty', 'Nothing needs you now.')] : groupViews(ctrl, groups)),
  ]);
}

/** The groups shown, their lines drawn within the queue's lines of this frame (ctrl.queueLines). */
function groupViews(ctrl: ConsoleCtrl, groups: readonly QueueGroupLines[]): VNode[] {
  let left = ctrl.queueLines;
  return groups
    .filter((g) => !ctrl.queueHidden.has(g.group.id))
    .map((g) => {
      const view = groupView(ctrl, g, left);
      left -= view.drawn;
      if (view.cut) ctrl.wholeQueueSoon();
      return view.node;
    });
}

function groupView(ctrl: ConsoleCtrl, { group, lines, count }: QueueGroupLines, frameLines: number): { node: VNode; drawn: number; cut: boolean } {
  const limit = QUEUE_LINES + (ctrl.queueMore.get(group.id) ?? 0);
  // Cut for this frame only: the others come a frame later, with no "Show more" in between.
  const cut = frameLines < Math.min(limit, lines.length);
  const shown = lines.length > limit || cut ? lines.slice(0, Math.min(limit, frameLines)) : lines;
  // A kind is dismissed over the whole hall: offered when the queue shows the whole hall's.
  const wholeHall = ctrl.queueSector === '';
  const node = hl('section.queue-group', { key: group.id, attrs: { 'data-group': group.id } }, [
    hl('h3', [
      hl('span', `${group.title} (${count}${lines.length !== count ? ` on ${lines.length} boards` : ''})`),
      ctrl.dismissesKinds &&
        wholeHall &&
        hl(
          'button.dismiss-kind',
          {
            attrs: { 'data-dismiss-kind': group.id, title: `Dismiss every item of "${group.title}" in the hall` },
            on: {
              click: async () =>
                (await askConfirm(`Dismiss all ${count} "${group.title}" items of the hall?`, `Dismiss ${count}`)) &&
                ctrl.conn.send({ type: 'dismissKind', kind: group.id }, `Dismiss all ${group.title.toLowerCase()}`),
            },
          },
          `Dismiss all ${count}`,
        ),
    ]),
    hl(
      'ol',
      shown.map((line) => lineView(ctrl, line)),
    ),
    !cut &&
      shown.length < lines.length &&
      hl(
        'button.more',
        { attrs: { 'data-more': group.id }, on: { click: () => ctrl.showMoreOf(group.id) } },
        `Show ${Math.min(100, lines.length - shown.length)} more of ${lines.length - shown.length} boards`,
      ),
  ]);
  return { node, drawn: shown.length, cut };
}

function lineView(ctrl: ConsoleCtrl, { board, items }: QueueLine): VNode {
  const first = items[0]!;
  const text = items.map((a) => a.message).join(' · ');
  const section = ctrl.conn.state.boards.get(board);
  const where = section?.section !== undefined && section.sectionBoard !== undefined ? ` (${section.section} board ${section.sectionBoard})` : '';
  return hl(
    `li.${first.code}`,
    { key: `${board}:${first.id}`, attrs: { 'data-alert': first.id, 'data-queue-board': board, 'data-items': String(items.length) } },
    [
      hl(
        'button.goto',
        { attrs: { 'data-goto': board, title: `Show board ${board}${where}`, 'aria-label': `Show board ${board}` }, on: { click: () => ctrl.jumpTo(board) } },
        board,
      ),
      hl('span.what', { attrs: { title: items.map((a) => a.message).join('\n') } }, [items.length > 1 ? hl('strong', `${items.length} · `) : '', text]),
      ctrl.arbiter &&
        hl(
          'button.dismiss',
          {
            attrs: {
              'data-dismiss': items.map((a) => a.id).join(' '),
              title: `Dismiss board ${board}'s ${items.length === 1 ? 'item' : `${items.length} items`}`,
            },
            on: { click: () => items.forEach((a) => ctrl.conn.send({ type: 'dismiss', alertId: a.id }, `Dismiss board ${board}`)) },
          },
          'Dismiss',
        ),
    ],
  );
}
