// The playoff page: its state, stage and games (on a hall board's clock, or entered here), the chief
// arbiter's ruling where the regulations leave the playoff to him, and its log.
import type { PlayoffView } from '../../contract/page.ts';
import type { TournamentView } from '../../contract/page.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { PLAYOFF_RESULTS, resultText, type TournamentCtrl } from '../tournament-ctrl.ts';
import { choiceSelect } from './choice.ts';

export function playoffsPage(ctrl: TournamentCtrl, v: TournamentView): VNode[] {
  const p = v.playoff;
  const start =
    ctrl.arbiter &&
    !p &&
    hl('div.round-actions', [
      hl(
        'button.primary',
        { attrs: { 'data-t': 'playoff', disabled: !v.playoffPossible.possible }, on: { click: () => ctrl.startPlayoff() } },
        'Start the playoff',
      ),
      hl('span.hint', v.playoffPossible.why ?? ''),
    ]);
  if (!p) return [start, hl('p.placeholder', `No playoff${v.playoffPossible.why ? `: ${v.playoffPossible.why}` : ''}.`)].filter((x): x is VNode => x !== false);
  return [
    hl('section', { attrs: { 'aria-label': 'Playoff' } }, [
      hl('h2', ['Playoff ', hl('span.badge', p.state)]),
      p.stage !== undefined && hl('p', `Stage ${p.stage}`),
      p.winner ? hl('p', hl('strong', `Winner: ${p.winner.name}`)) : hl('p', `Still in: ${p.remaining.map((r) => r.name).join(', ')}`),
      p.message !== undefined && hl('p.warning', p.message),
      ctrl.arbiter && p.state === 'arbiter-decision' && ruling(ctrl, p),
      hl('table.t-table', [
        hl(
          'thead',
          hl(
            'tr',
            ['Game', 'White', 'Black', 'Control', 'Hall board', 'Result'].map((t) => hl('th', t)),
          ),
        ),
        hl(
          'tbody',
          p.games.map((g) =>
            hl('tr', { key: g.id, attrs: { 'data-game': g.id } }, [
              hl('td', g.label),
              hl('td', g.white),
              hl('td', g.black),
              hl('td', `${g.timeControl}${g.armageddon ? ' (Armageddon: a draw goes to Black)' : ''}`),
              hl('td', g.hallBoard !== undefined ? `board ${g.hallBoard}` : ''),
              hl('td', gameResult(ctrl, g)),
            ]),
          ),
        ),
      ]),
      hl('h3', 'Log'),
      hl(
        'ol',
        p.log.map((l) => hl('li', l)),
      ),
    ]),
  ];
}

function ruling(ctrl: TournamentCtrl, p: PlayoffView): VNode | false {
  const first = p.remaining[0];
  if (!first) return false;
  return hl('div.round-actions', [
    hl('label', [
      'Winner ',
      choiceSelect(
        ctrl,
        'playoff winner',
        p.remaining.map((r) => [String(r.id), r.name] as const),
        String(first.id),
        { name: 'winner' },
      ),
    ]),
    hl('button', { attrs: { 'data-t': 'playoff-ruling' }, on: { click: () => ctrl.decidePlayoff(first.id) } }, "Record the chief arbiter's ruling"),
    hl('span.hint', 'with the reason above'),
  ]);
}

function gameResult(ctrl: TournamentCtrl, g: PlayoffView['games'][number]): string | (VNode | string)[] {
  if (g.result) return resultText(g.result);
  if (g.hallBoard !== undefined) return 'on the clock';
  if (!ctrl.arbiter) return 'to play';
  return [
    choiceSelect(
      ctrl,
      `playoff ${g.id}`,
      PLAYOFF_RESULTS.map((r) => [r, resultText(r)] as const),
      PLAYOFF_RESULTS[0],
      { name: 'result', 'aria-label': `Result of ${g.label}` },
    ),
    ' ',
    hl('button', { attrs: { 'data-t': 'playoff-result', 'data-game': g.id }, on: { click: () => ctrl.playoffResult(g.id, g.label) } }, 'Enter'),
  ];
}
