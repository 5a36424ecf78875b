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
      ctrl.arbiter && ctrl.chief && waiveForm(ctrl, v),
      f.entries.length ? incidentsByRound(v) : hl('p.placeholder', 'No fines or sanctions.'),
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

type FineEntry = TournamentView['fines']['entries'][number];

/** Every incident under its round: who, what, the fine (struck through when waived), who recorded it, who waived it and why. */
function incidentsByRound(v: TournamentView): VNode[] {
  const f = v.fines;
  const rounds = [...new Set(f.entries.map((x) => x.round))];
  return rounds.map((round) =>
    hl('div.t-fines-round', { attrs: { 'data-round': String(round) } }, [
      hl('h3', `Round ${round}`),
      hl('table.t-table', [
        hl(
          'thead',
          hl(
            'tr',
            ['Player', 'Offence', 'Fine', 'Sanction', 'Recorded by', 'Note', 'Waived'].map((t) => hl('th', t)),
          ),
        ),
        hl(
          'tbody',
          f.entries.filter((x) => x.round === round).map((x) => incidentRow(x, f.currency)),
        ),
      ]),
    ]),
  );
}

function incidentRow(x: FineEntry, currency: string): VNode {
  const recorded = x.provisional ? 'the clock (confirm the result to record it)' : x.source === 'clock' ? `${x.by ?? ''} (from the clock)` : (x.by ?? '');
  return hl('tr', { attrs: { 'data-incident': x.id } }, [
    hl('td', `${x.player} (#${x.playerId})`),
    hl('td', x.offence),
    hl('td', x.waived ? hl('s', money(x.fine, currency)) : money(x.fine, currency)),
    hl('td', x.sanction),
    hl('td', recorded),
    hl('td', x.note ?? ''),
    hl('td.t-waived', x.waived ? `by ${x.waived.by}: ${x.waived.reason}` : ''),
  ]);
}

/** The chief's waiver: a journaled incident with a fine not waived yet, and his reason. */
function waiveForm(ctrl: TournamentCtrl, v: TournamentView): VNode | false {
  const waivable = v.fines.entries.filter((x) => x.fine > 0 && !x.waived && !x.provisional);
  if (waivable.length === 0) return false;
  const defaults = { incident: waivable[0]!.id, reason: '' };
  return hl('fieldset.t-form', { attrs: { 'aria-label': 'Waive a fine' } }, [
    hl('legend', 'Waive a fine'),
    hl('label', [
      'Incident ',
      choiceSelect(
        ctrl,
        'waive incident',
        waivable.map((x) => [x.id, `round ${x.round}: ${x.player}, ${x.offence}, ${money(x.fine, v.fines.currency)}`] as const),
        defaults.incident,
        { name: 'incident' },
      ),
    ]),
    hl('label', ['Reason ', choiceInput(ctrl, 'waive reason', defaults.reason, { name: 'reason', maxlength: '200', required: true })]),
    hl('button', { attrs: { 'data-t': 'waive' }, on: { click: () => ctrl.waiveFine(defaults) } }, 'Waive'),
  ]);
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
