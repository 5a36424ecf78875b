// The board cards: every board with both clocks large, for a few boards or a screen on the wall.
import { thunk } from 'snabbdom';
import type { BoardView } from '../../contract/page.ts';
import type { ClockPainter } from '../clocks.ts';
import type { ConsoleCtrl } from '../ctrl.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { opensPanel } from './panel.ts';

export function cardsView(ctrl: ConsoleCtrl, clocks: ClockPainter, boards: readonly BoardView[], alerted: ReadonlySet<string>): VNode {
  return hl(
    'div#grid.grid',
    {
      on: {
        keydown: (e: KeyboardEvent) => {
          const card = (e.target as HTMLElement).closest<HTMLElement>('.board');
          const grid = e.currentTarget as HTMLElement;
          if (!card) return;
          const list = [...grid.querySelectorAll<HTMLElement>('.board')];
          const perRow = Math.max(1, Math.round(grid.clientWidth / card.clientWidth));
          const move = ({ ArrowRight: 1, ArrowLeft: -1, ArrowDown: perRow, ArrowUp: -perRow } as Record<string, number>)[e.key];
          if (move === undefined) return;
          list[Math.min(list.length - 1, Math.max(0, list.indexOf(card) + move))]?.focus();
          e.preventDefault();
        },
      },
    },
    boards.map((b) => thunk('article.board', b.id, card, [ctrl, clocks, b, alerted.has(b.id), ctrl.jumped === b.id])),
  );
}

function card(ctrl: ConsoleCtrl, clocks: ClockPainter, b: BoardView, alerted: boolean, jumped: boolean): VNode {
  const side = (s: 'white' | 'black') =>
    hl(
      `div.side.${s}`,
      { class: { running: b.status === 'running' && b.toMove === s, flagged: b.flag?.side === s, absent: !b.arrived[s] }, attrs: { 'data-side': s } },
      [hl('span.name', { attrs: { title: b[s] } }, `${b[s]}${b.arrived[s] ? '' : ' (absent)'}`), hl('span.clock', clocks.hooks(b, s))],
    );
  const status =
    b.status === 'finished'
      ? hl('span.state-finished', `${b.result?.result ?? ''} ${b.result?.termination ?? ''}`)
      : b.status === 'paused'
        ? hl('span.state-paused', `paused: ${b.paused?.reason ?? ''}`)
        : hl('span', b.status);
  const penalties = (['white', 'black'] as const)
    .filter((s) => b.penalties[s].illegalMoves + b.penalties[s].falseClaims > 0)
    .map((s) => `${s}: ${b.penalties[s].illegalMoves} illegal, ${b.penalties[s].falseClaims} false claims`)
    .join('; ');
  const toControl = ctrl.toControl(b, b.toMove);
  return hl(
    'article.board',
    {
      key: b.id,
      class: { attention: alerted, jumped },
      attrs: { tabindex: '0', 'data-board': b.id, 'aria-label': `Board ${b.id}` },
      on: opensPanel(ctrl, b.id),
    },
    [
      hl('header', [hl('span.no', `Board ${b.id}`), status]),
      side('white'),
      side('black'),
      hl('footer', [
        hl('span', { attrs: { 'data-move': '' } }, `move ${b.moveNumber}`),
        b.lastMove && hl('span.last-move', b.lastMove),
        hl('span', `${b.toMove} to move`),
        toControl !== undefined && hl('span', `${toControl} to the control`),
        hl('span', b.period.white === b.period.black ? `period ${b.period.white}` : `periods: White ${b.period.white}, Black ${b.period.black}`),
        b.flag && hl('span', `flag: ${b.flag.side}`),
        b.device && hl('span', `${b.device.kind} ${b.device.connection}`),
        b.clockUnreachable && hl('span.alert', { attrs: { 'data-clock-unreachable': '' } }, 'clock unreachable'),
        b.host && !b.host.reachable && hl('span.alert', { attrs: { 'data-host': b.host.id } }, `host ${b.host.id} unreachable`),
        penalties && hl('span', penalties),
        alerted && hl('span', '⚠ needs attention'),
      ]),
    ],
  );
}
