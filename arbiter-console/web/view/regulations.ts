// What the section's regulations ask of the desk beyond pairings and results: the players who lost by
// default (withdrawn unless they notified: SA Open), the chief's ratings for unrated players (after
// round 4), and the appeals log with each deadline, the fee and the committee's decision. The forms are
// for arbiters; spectators see the log.
import type { RegulationsView, TournamentView } from '../../contract/page.ts';
import { hl, type VNode } from '../snabbdom.ts';
import type { TournamentCtrl } from '../tournament-ctrl.ts';
import { choiceInput, choiceSelect, playerOptions } from './choice.ts';

/** An ISO time as the hall's clocks show it (hh:mm, the browser's zone) with its date. */
const time = (iso: string): string => {
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-CA')} ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
};

export function regulationsPage(ctrl: TournamentCtrl, v: TournamentView): VNode[] {
  const r = v.regulations;
  return [noShows(ctrl, r), ratings(ctrl, r), appeals(ctrl, v, r)];
}

function noShows(ctrl: TournamentCtrl, r: RegulationsView): VNode {
  return hl('section#t-no-shows', { attrs: { 'aria-label': 'No-shows' } }, [
    hl('h2', 'Players who did not come'),
    r.noShows === null
      ? hl('p.placeholder', "This section's regulations do not withdraw a player who misses a round.")
      : r.noShows.length === 0
        ? hl('p.placeholder', 'No game lost by default.')
        : hl('table.t-table', [
            hl('thead', hl('tr', [hl('th', 'Round'), hl('th', 'Player'), hl('th', 'Decision')])),
            hl(
              'tbody',
              r.noShows.map((n) =>
                hl('tr', { attrs: { 'data-no-show': `${n.round}:${n.player.id}` } }, [
                  hl('td', String(n.round)),
                  hl('td', n.player.name),
                  hl(
                    'td',
                    n.decided
                      ? `${n.decided.withdrawn ? `withdrawn from round ${n.decided.fromRound ?? '?'} on (no notification)` : 'notified: stays paired'} — ${n.decided.by}: ${n.decided.reason}`
                      : ctrl.arbiter
                        ? [
                            hl(
                              'button',
                              { attrs: { 'data-t': 'no-show-withdraw' }, on: { click: () => ctrl.recordNoShow(n.round, n.player, true) } },
                              'No notification: withdraw',
                            ),
                            ' ',
                            hl(
                              'button',
                              { attrs: { 'data-t': 'no-show-notified' }, on: { click: () => ctrl.recordNoShow(n.round, n.player, false) } },
                              'Notified: keep paired',
                            ),
                          ]
                        : 'waiting for the arbiter',
                  ),
                ]),
              ),
            ),
          ]),
  ]);
}

function ratings(ctrl: TournamentCtrl, r: RegulationsView): VNode {
  const rule = r.ratings;
  return hl('section#t-ratings', { attrs: { 'aria-label': 'Ratings for unrated players' } }, [
    hl('h2', 'Ratings for unrated players'),
    rule === null
      ? hl('p.placeholder', "This section's regulations assign no ratings.")
      : [
          hl('p', rule.possible ? `The chief arbiter assigns them now (after round ${rule.afterRound}).` : (rule.why ?? '')),
          rule.unrated.length === 0
            ? hl('p.placeholder', 'Every player is rated.')
            : hl('table.t-table', [
                hl('thead', hl('tr', [hl('th', 'Player'), hl('th', 'Rating'), hl('th', '')])),
                hl(
                  'tbody',
                  rule.unrated.map((u) =>
                    hl('tr', { attrs: { 'data-unrated': String(u.player.id) } }, [
                      hl('td', u.player.name),
                      hl('td', u.assigned ? `${u.assigned.rating} (after round ${u.assigned.afterRound}; ${u.assigned.by}: ${u.assigned.reason})` : 'unrated'),
                      hl(
                        'td',
                        ctrl.arbiter && rule.possible
                          ? [
                              choiceInput(ctrl, `rating ${u.player.id}`, '', { name: 'rating', type: 'number', min: '100', max: '3500', inputmode: 'numeric' }),
                              hl('button', { attrs: { 'data-t': 'assign-rating' }, on: { click: () => ctrl.assignRating(u.player) } }, 'Assign'),
                            ]
                          : '',
                      ),
                    ]),
                  ),
                ),
              ]),
        ],
  ]);
}

function appeals(ctrl: TournamentCtrl, v: TournamentView, r: RegulationsView): VNode {
  const { rule, log } = r.appeals;
  const ruleText = rule
    ? `In writing within ${rule.deadlineMinutes} minutes of the end of the ${rule.after}${rule.fee !== undefined ? `, with a fee of ${rule.fee} returned if upheld` : ''}${rule.committee ? `; the committee: ${rule.committee}` : ''}.`
    : "This event's regulations have no appeals.";
  return hl('section#t-appeals', { attrs: { 'aria-label': 'Appeals' } }, [
    hl('h2', 'Appeals'),
    hl('p', ruleText),
    ctrl.arbiter && rule && lodgeForm(ctrl, v, rule.fee),
    log.length === 0
      ? hl('p.placeholder', 'No appeal lodged.')
      : hl('table.t-table', [
          hl(
            'thead',
            hl(
              'tr',
              ['No.', 'Round', 'Player', 'Against', 'Lodged', 'Deadline', 'Fee', 'Decision'].map((t) => hl('th', t)),
            ),
          ),
          hl(
            'tbody',
            log.map((a) =>
              hl('tr', { attrs: { 'data-appeal': a.id } }, [
                hl('td', a.id),
                hl('td', String(a.round)),
                hl('td', a.player.name),
                hl('td', a.against),
                hl('td', `${time(a.filedAt)} (${a.by})`),
                hl('td', time(a.deadline)),
                hl('td', a.fee === undefined ? '—' : `${a.fee}${a.feeReturned === undefined ? '' : a.feeReturned ? ' returned' : ' kept'}`),
                hl(
                  'td',
                  a.decision
                    ? `${a.decision.upheld ? 'upheld' : 'dismissed'} by ${a.decision.committee.join(', ')}: ${a.decision.reason}`
                    : decideForm(ctrl, a.id),
                ),
              ]),
            ),
          ),
        ]),
  ]);
}

function lodgeForm(ctrl: TournamentCtrl, v: TournamentView, fee: number | undefined): VNode {
  const players = playerOptions(v);
  const defaults = { round: String(Math.max(1, v.currentRound)), player: players[0]?.[0] ?? '', against: '', fee: fee === undefined ? '' : String(fee) };
  return hl('fieldset.t-form', [
    hl('legend', 'Lodge an appeal (received now)'),
    hl('label', ['Round ', choiceInput(ctrl, 'appeal round', defaults.round, { name: 'round', type: 'number', min: '1', inputmode: 'numeric' })]),
    hl('label', ['Player ', choiceSelect(ctrl, 'appeal player', players, defaults.player, { name: 'player' })]),
    hl('label', ['Against ', choiceInput(ctrl, 'appeal against', defaults.against, { name: 'against', maxlength: '200' })]),
    fee !== undefined &&
      hl('label', ['Fee paid ', choiceInput(ctrl, 'appeal fee', defaults.fee, { name: 'fee', type: 'number', min: '0', inputmode: 'numeric' })]),
    hl('button', { attrs: { 'data-t': 'lodge-appeal' }, on: { click: () => ctrl.lodgeAppeal(defaults) } }, 'Lodge'),
  ]);
}

function decideForm(ctrl: TournamentCtrl, appeal: string): VNode | string {
  if (!ctrl.arbiter) return 'waiting for the committee';
  return hl('span.t-decide', [
    choiceInput(ctrl, `committee ${appeal}`, '', { name: 'committee', maxlength: '300', placeholder: 'committee: section:number or names, by commas' }),
    hl('button', { attrs: { 'data-t': 'appeal-upheld' }, on: { click: () => ctrl.decideAppeal(appeal, true) } }, 'Upheld'),
    hl('button', { attrs: { 'data-t': 'appeal-dismissed' }, on: { click: () => ctrl.decideAppeal(appeal, false) } }, 'Dismissed'),
  ]);
}
