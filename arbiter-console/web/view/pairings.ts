// The pairings page: every round known here, newest first, with result entry, correction and
// confirmation in each game's row; the next round's pairing and its draft; byes and withdrawals;
// printing (pairings, result slips) and the CSV exports. Rows are keyed by board and thunked, so a
// result redraws its own row and a 1,000-board round is not rebuilt for it.
import { thunk } from 'snabbdom';
import type { DraftView, PairedGame, RoundPairings, TournamentView } from '../../contract/page.ts';
import { pointsText } from '../format.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { RESULTS, resultKey, resultText, type TournamentCtrl } from '../tournament-ctrl.ts';
import { choiceInput, choiceSelect, playerOptions } from './choice.ts';
import { importAllowed, trfImportBox } from './trf-import.ts';

const SOURCE_TEXT = { clock: 'from the clock, to confirm', confirmed: 'confirmed', arbiter: 'arbiter' } as const;
const RESULT_OPTIONS: readonly (readonly [string, string])[] = [['', '–'], ...RESULTS.map((r) => [r, resultText(r)] as const)];

export function pairingsPage(ctrl: TournamentCtrl, v: TournamentView): VNode[] {
  const rounds = [...v.rounds].sort((a, b) => b.round - a.round);
  const current = v.rounds.find((r) => r.round === v.currentRound);
  return [
    v.unlinkedBoards.length > 0 &&
      hl(
        'p.warning',
        `Not in section ${v.section.name} (results not counted): ${v.unlinkedBoards.map((b) => `board ${b.board} ${b.white} – ${b.black}`).join('; ')}`,
      ),
    exports(ctrl, v, current !== undefined),
    ctrl.arbiter && confirmAll(ctrl, v),
    ctrl.arbiter && pairControl(ctrl, v),
    ctrl.arbiter && v.draft !== undefined && draftSection(ctrl, v.draft),
    ...(rounds.length ? rounds.map((r) => roundTable(ctrl, r)) : [hl('p.placeholder', 'No pairings yet.')]),
    ctrl.arbiter && absences(ctrl, v),
    ctrl.arbiter && nameCorrection(ctrl, v),
    ctrl.arbiter && importAllowed(v) && trfImportBox(ctrl),
    current !== undefined && thunk('div.slips-host', 'slips', resultSlips, [v.event, current]),
  ].filter((x): x is VNode => x !== false);
}

function exports(ctrl: TournamentCtrl, v: TournamentView, hasRound: boolean): VNode {
  const inSection = `section=${encodeURIComponent(v.section.id)}`;
  return hl('div.exports', [
    hl('button', { attrs: { 'data-t': 'print' }, on: { click: () => ctrl.print(false) } }, 'Print pairings'),
    hasRound && hl('button', { attrs: { 'data-t': 'print-slips' }, on: { click: () => ctrl.print(true) } }, 'Print result slips'),
    hl(
      'a',
      { attrs: { href: `/api/pairings.csv?${inSection}&round=${v.currentRound}`, download: `pairings-${v.section.id}-round-${v.currentRound}.csv` } },
      `Pairings of round ${v.currentRound} (CSV)`,
    ),
    hl('a', { attrs: { href: `/api/standings.csv?${inSection}`, download: `standings-${v.section.id}.csv` } }, 'Standings (CSV)'),
  ]);
}

function confirmAll(ctrl: TournamentCtrl, v: TournamentView): VNode | false {
  const count = ctrl.toConfirm(v);
  if (count === 0) return false;
  return hl('div.round-actions', [
    hl(
      'button',
      { attrs: { 'data-t': 'confirm-round' }, on: { click: () => void ctrl.confirmRound(v.liveRound, count) } },
      `Confirm every clock result of round ${v.liveRound}`,
    ),
  ]);
}

function pairControl(ctrl: TournamentCtrl, v: TournamentView): VNode | false {
  const next = v.nextRound;
  if (!next || v.draft) return false;
  return hl('div', [
    hl('div.round-actions', [
      hl('button.primary', { attrs: { 'data-t': 'pair', disabled: !next.possible }, on: { click: () => ctrl.pairNextRound() } }, `Pair round ${next.round}`),
      next.why !== undefined && hl('span.hint', next.why),
    ]),
    hl(
      'p#t-next-round.hint',
      next.possible && next.publishAfter !== undefined
        ? [
            `Round ${v.liveRound} is still being played. `,
            hl('b', `Pair round ${next.round}`),
            ' drafts it now, to check; ',
            hl('b', 'Publish'),
            ` it once ${next.publishAfter}.`,
          ]
        : next.possible
          ? [
              `Round ${next.round - 1 > 0 ? `${next.round - 1} is complete` : '1 is not paired yet'}: `,
              hl('b', `Pair round ${next.round}`),
              ', check the draft, then ',
              hl('b', 'Publish'),
              ': its boards go on the clocks here, and ',
              hl('b', 'Start all clocks'),
              ' on the Clocks page starts them.',
            ]
          : [
              `To continue into round ${next.round}: confirm every result of round ${next.round - 1} (`,
              hl('b', 'Confirm every clock result'),
              '), then pair it.',
            ],
    ),
  ]);
}

function draftSection(ctrl: TournamentCtrl, draft: DraftView): VNode {
  return hl('section.t-draft', { attrs: { 'aria-label': `Draft of round ${draft.round}` } }, [
    hl('h2', [`Draft: round ${draft.round} `, hl('span.badge.bad', 'not published')]),
    hl('table.t-table', [
      hl(
        'thead',
        hl(
          'tr',
          ['Board', 'White', 'Black', 'Change'].map((t) => hl('th', t)),
        ),
      ),
      hl(
        'tbody',
        draft.games.map((g) => {
          const others = draft.games.filter((o) => o.board !== g.board);
          return hl('tr', { key: g.board, attrs: { 'data-draft-board': String(g.board) } }, [
            hl('td', String(g.board)),
            hl('td', g.white.name),
            hl('td', g.black.name),
            hl(
              'td.entry',
              others.length === 0
                ? []
                : [
                    hl('button', { attrs: { 'data-t': 'swap' }, on: { click: () => ctrl.swapColours(g.board) } }, 'Swap colours'),
                    choiceSelect(
                      ctrl,
                      `exchange ${g.board}`,
                      others.map((o) => [String(o.board), `board ${o.board}`] as const),
                      String(others[0]!.board),
                      {
                        'data-exchange': String(g.board),
                        'aria-label': `Exchange opponents of board ${g.board} with`,
                      },
                    ),
                    hl(
                      'button',
                      { attrs: { 'data-t': 'exchange' }, on: { click: () => ctrl.exchangeOpponents(g.board, others[0]!.board) } },
                      'Exchange opponents',
                    ),
                  ],
            ),
          ]);
        }),
      ),
    ]),
    draft.bye && hl('p', `Bye: ${draft.bye.name}`),
    draft.rematches.length > 0 && hl('p.warning', `Players who have met before: ${draft.rematches.join(', ')}`),
    draft.changes.length > 0 && [
      hl('h3', 'Changes'),
      hl(
        'ol',
        draft.changes.map((c) => hl('li', `${c.change}: ${c.reason} (${c.by})`)),
      ),
    ],
    hl('div.round-actions', [
      hl('button.primary', { attrs: { 'data-t': 'publish' }, on: { click: () => ctrl.publishRound() } }, `Publish round ${draft.round}`),
      hl('button.danger', { attrs: { 'data-t': 'discard' }, on: { click: () => void ctrl.discardDraft(draft.round) } }, 'Discard draft'),
    ]),
  ]);
}

function roundTable(ctrl: TournamentCtrl, round: RoundPairings): VNode {
  return hl('section.t-round', { key: `round ${round.round}`, attrs: { 'aria-label': `Round ${round.round}` } }, [
    hl('h2', [`Round ${round.round} `, hl('span.badge', round.status === 'live' ? 'on the clocks' : round.status)]),
    hl('table.t-table.pairings', [
      hl(
        'thead',
        hl(
          'tr',
          ['Board', 'White', 'Rtg', 'Pts', 'Result', 'Pts', 'Rtg', 'Black'].map((t) => hl('th', t)),
        ),
      ),
      hl(
        'tbody',
        round.games.map((g) => thunk('tr', g.board, gameRow, [ctrl, round.round, g, ctrl.arbiter ? ctrl.chosen(resultKey(round.round, g.board), '') : ''])),
      ),
    ]),
    round.bye && hl('p', `Bye: ${round.bye.name}`),
    round.notPaired.length > 0 && hl('p', `Not paired: ${round.notPaired.map((n) => `${n.name} (${n.why})`).join(', ')}`),
  ]);
}

/** One game: its result and where it came from; for arbiters the entry (or correction) and Confirm. */
function gameRow(ctrl: TournamentCtrl, round: number, g: PairedGame, picked: string): VNode {
  return hl(
    'tr',
    { key: g.board, attrs: { 'data-round': String(round), 'data-board': String(g.board), 'data-white': String(g.white.id), 'data-black': String(g.black.id) } },
    [
      hl('td', g.hallBoard !== undefined && g.hallBoard !== String(g.board) ? `${g.board} (${g.hallBoard})` : String(g.board)),
      hl('td', [`${g.white.name} `, hl('small', `(${g.white.id})`)]),
      hl('td.rating', ratingText(g.white.rating)),
      hl('td.points', pointsText(g.white.points)),
      hl('td.result-cell', [
        hl('span.result', resultText(g.result)),
        g.source !== null && [' ', hl(`span.source.${g.source}`, SOURCE_TEXT[g.source])],
        ctrl.arbiter && g.clockContradicts !== undefined && contradiction(ctrl, round, g, g.clockContradicts),
        ctrl.arbiter &&
          hl('span.entry', [
            choiceSelect(ctrl, resultKey(round, g.board), RESULT_OPTIONS, picked || (g.result ?? ''), {
              name: 'result',
              'aria-label': `Result, round ${round} board ${g.board}`,
            }),
            hl('button', { attrs: { 'data-t': 'enter' }, on: { click: () => void ctrl.enterResult(round, g) } }, 'Enter'),
            g.source === 'clock' && hl('button.primary', { attrs: { 'data-t': 'confirm' }, on: { click: () => ctrl.confirmResult(round, g) } }, 'Confirm'),
          ]),
      ]),
      hl('td.points', pointsText(g.black.points)),
      hl('td.rating', ratingText(g.black.rating)),
      hl('td', [`${g.black.name} `, hl('small', `(${g.black.id})`)]),
    ],
  );
}

const ratingText = (rating: number | null): string => (rating === null ? '' : String(rating));

/** The clock ended the game otherwise than the desk has it: keep one of the two (with the reason). */
function contradiction(ctrl: TournamentCtrl, round: number, g: PairedGame, clock: string): VNode {
  return hl('span.warning.conflict', [
    `the clock ended it ${resultText(clock)} `,
    hl('button', { attrs: { 'data-t': 'keep-entered' }, on: { click: () => ctrl.resolveConflict(round, g, 'entered') } }, `Keep ${resultText(g.result)}`),
    ' ',
    hl('button', { attrs: { 'data-t': 'keep-clock' }, on: { click: () => ctrl.resolveConflict(round, g, 'clock') } }, `Take the clock's ${resultText(clock)}`),
  ]);
}

/** Byes asked for in advance (Swiss) and withdrawals, from a round on. */
function absences(ctrl: TournamentCtrl, v: TournamentView): VNode {
  const players = playerOptions(v);
  const defaults = { player: players[0]?.[0] ?? '', round: String(Math.min(v.section.rounds, v.currentRound + 1)), kind: 'half' };
  return hl('fieldset.t-form', { key: 'absences' }, [
    hl('legend', 'Byes and withdrawals'),
    hl('label', ['Player ', choiceSelect(ctrl, 'absence player', players, defaults.player, { name: 'player' })]),
    hl('label', [
      'Round ',
      choiceInput(ctrl, 'absence round', defaults.round, { name: 'round', type: 'number', min: '1', max: String(v.section.rounds), inputmode: 'numeric' }),
    ]),
    v.section.format === 'swiss' && [
      hl('label', [
        'Bye ',
        choiceSelect(
          ctrl,
          'absence kind',
          [
            ['half', 'half point'],
            ['zero', 'zero'],
          ],
          defaults.kind,
          { name: 'kind' },
        ),
      ]),
      hl('button', { attrs: { 'data-t': 'bye' }, on: { click: () => ctrl.requestBye(defaults) } }, 'Request bye'),
    ],
    hl('button.danger', { attrs: { 'data-t': 'withdraw' }, on: { click: () => void ctrl.withdrawPlayer(defaults) } }, 'Withdraw from this round on'),
  ]);
}

/** The chief corrects a player's name: the player stays his number, pages and exports show the new name. */
function nameCorrection(ctrl: TournamentCtrl, v: TournamentView): VNode {
  const players = playerOptions(v);
  const defaults = { player: players[0]?.[0] ?? '', name: '' };
  return hl('fieldset.t-form', { key: 'name-correction' }, [
    hl('legend', 'Correct a name'),
    hl('label', ['Player ', choiceSelect(ctrl, 'rename player', players, defaults.player, { name: 'player' })]),
    hl('label', ['Name ', choiceInput(ctrl, 'rename name', defaults.name, { name: 'name', maxlength: '80' })]),
    hl('button', { attrs: { 'data-t': 'rename' }, on: { click: () => ctrl.renamePlayer(defaults) } }, 'Correct the name'),
  ]);
}

/** One slip per game of the round, two to a row on A4, for the players to sign (printed alone: style.css). */
function resultSlips(event: string, round: RoundPairings): VNode {
  return hl('div.slips-host', { key: 'slips', attrs: { 'aria-hidden': 'true' } }, [
    hl(
      'div.slips',
      round.games.map((g) =>
        hl('div.slip', { key: g.board }, [
          hl('h4', `${event} · round ${round.round} · board ${g.hallBoard ?? g.board}`),
          hl('p', `White: ${g.white.name} (${g.white.id})`),
          hl('p', `Black: ${g.black.name} (${g.black.id})`),
          hl('p', 'Result: 1-0 ☐ \u00a0 ½-½ ☐ \u00a0 0-1 ☐'),
          hl('p', 'Signatures: White ____________ Black ____________'),
        ]),
      ),
    ),
  ]);
}
