// Fines and sanctions (with the incident form for arbiters) and the prizes as the standings are now.
import type { TournamentView } from '../../contract/page.ts';
import { pointsText } from '../format.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { OFFENCES, type TournamentCtrl } from '../tournament-ctrl.ts';
import { choiceInput, choiceSelect, playerOptions } from './choice.ts';

const money = (n: number, currency: string): string => `${n.toLocaleString('en')} ${currency}`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): VNode =>
  hl('table.t-table', [
    hl(
      'thead',
      hl(
        'tr',
        head.map((t) => hl('th', t)),
      ),
    ),
    hl(
      'tbody',
      rows.map((cells) =>
        hl(
          'tr',
          cells.map((c) => hl('td', c)),
        ),
      ),
    ),
  ]);

export function finesPage(ctrl: TournamentCtrl, v: TournamentView): VNode[] {
  const f = v.fines;
  const p = v.prizes;
  return [
    hl('section', { attrs: { 'aria-label': 'Fines' } }, [
      hl('h2', 'Fines and sanctions'),
      ctrl.arbiter && incidentForm(ctrl, v),
      f.entries.length
        ? table(
            ['Round', 'Player', 'Offence', 'Fine', 'Sanction', 'Note'],
            f.entries.map((x) => [String(x.round), x.player, x.offence, money(x.fine, f.currency), x.sanction, x.note ?? '']),
          )
        : hl('p.placeholder', 'No fines or sanctions.'),
    ]),
    hl('section', { attrs: { 'aria-label': 'Prizes' } }, [
      hl('h2', ['Prizes ', !v.playoff?.winner && hl('span.badge', 'as the standings are now')]),
      table(
        ['Player', 'Prize', 'Amount', 'Fines', 'Paid'],
        p.awards.map((a) => [a.name, a.prize, money(a.amount, p.currency), money(a.fine, p.currency), money(a.net, p.currency)]),
      ),
      p.teams.length > 0 && [
        hl('h3', 'Teams'),
        table(
          ['Rk', 'Team', 'Pts', 'Prize'],
          p.teams.map((t) => [String(t.rank), t.team, pointsText(t.points), money(t.prize, p.currency)]),
        ),
      ],
      p.excluded.length > 0 && hl('p', `No prize (withdrew or forfeited): ${p.excluded.map((x) => x.name).join(', ')}`),
    ]),
  ];
}

function incidentForm(ctrl: TournamentCtrl, v: TournamentView): VNode {
  const players = playerOptions(v);
  const defaults = { round: String(v.currentRound), player: players[0]?.[0] ?? '', offence: OFFENCES[0], note: '' };
  return hl('fieldset.t-form', [
    hl('legend', 'Record an incident'),
    hl('label', [
      'Round ',
      choiceInput(ctrl, 'incident round', defaults.round, { name: 'round', type: 'number', min: '1', max: String(v.currentRound), inputmode: 'numeric' }),
    ]),
    hl('label', ['Player ', choiceSelect(ctrl, 'incident player', players, defaults.player, { name: 'player' })]),
    hl('label', [
      'Offence ',
      choiceSelect(
        ctrl,
        'incident offence',
        OFFENCES.map((o) => [o, o] as const),
        defaults.offence,
        { name: 'offence' },
      ),
    ]),
    hl('label', ['Note ', choiceInput(ctrl, 'incident note', defaults.note, { name: 'note', maxlength: '200' })]),
    hl('button', { attrs: { 'data-t': 'incident' }, on: { click: () => ctrl.recordIncident(defaults) } }, 'Record'),
  ]);
}
