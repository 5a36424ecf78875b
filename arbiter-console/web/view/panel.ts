// The per-board panel: the board as it is now (redrawn with every change, so it never offers Pause on
// a paused clock), every arbiter command with its reason, the answer where the arbiter looks,
// confirmation before forfeits, results and a repeated time change, and the board's own history.
import type { ArbiterCommand, BoardView } from '../../contract/page.ts';
import type { ClockPainter } from '../clocks.ts';
import type { ConsoleCtrl } from '../ctrl.ts';
import { askConfirm } from '../dialogs.ts';
import { hl, type VNode } from '../snabbdom.ts';

const sideSelect = (name = 'side') =>
  hl('select', { attrs: { name, 'aria-label': name } }, [
    hl('option', { attrs: { value: 'white' } }, 'White'),
    hl('option', { attrs: { value: 'black' } }, 'Black'),
  ]);
const reasonInput = (value: string) =>
  hl('input', { attrs: { name: 'reason', required: true, maxlength: '200', placeholder: 'reason (journal + PGN)', 'aria-label': 'reason' }, props: { value } });
const number = (name: string, label: string, value: number, max: number) =>
  hl('label', [label, hl('input', { attrs: { name, type: 'number', min: '0', max: String(max), inputmode: 'numeric' }, props: { value: String(value) } })]);

function form(ctrl: ConsoleCtrl, b: BoardView, action: string, label: string, legend: string, fields: (VNode | false)[], button: VNode): VNode {
  return hl(
    'form',
    {
      attrs: { 'data-action': action, 'data-label': label },
      on: { submit: (e: Event) => void submit(ctrl, b, e) },
    },
    [hl('fieldset', [hl('legend', legend), ...fields, button])],
  );
}

async function submit(ctrl: ConsoleCtrl, b: BoardView, e: Event): Promise<void> {
  e.preventDefault();
  const f = e.target as HTMLFormElement;
  const data = new FormData(f);
  const get = (k: string) => String(data.get(k) ?? '');
  const board = b.id;
  const side = get('side') as 'white' | 'black';
  const ms = () => Math.round((Number(get('minutes')) * 60 + Number(get('seconds'))) * 1000);
  let command: ArbiterCommand | undefined;
  switch (f.dataset.action) {
    case 'pause':
      command = { type: 'pause', board, reason: get('reason') };
      break;
    case 'resume':
      command = { type: 'resume', board };
      break;
    case 'addTime':
      command = { type: 'addTime', board, side, ms: ms() * (get('sign') === '-' ? -1 : 1), reason: get('reason') };
      break;
    case 'setTime':
      command = { type: 'setTime', board, side, ms: ms(), reason: get('reason') };
      break;
    case 'setMoveCounter':
      command = { type: 'setMoveCounter', board, side, counter: get('counter') as 'presses' | 'moves', moves: Number(get('moves')), reason: get('reason') };
      break;
    case 'penalty':
      command = {
        type: 'penalty',
        board,
        offender: get('offender') as 'white' | 'black',
        offence: get('offence') as 'illegal-move' | 'false-claim',
        reason: get('reason'),
      };
      break;
    case 'forfeit':
      command = { type: 'forfeit', board, side, reason: get('reason') };
      break;
    case 'result':
      command = { type: 'result', board, result: get('result') as '1-0', termination: get('termination') };
      break;
    case 'arrive':
      command = { type: 'arrive', board, side };
      break;
    case 'setPosition':
      command = { type: 'setPosition', board, fen: get('fen').trim(), reason: get('reason') };
      break;
    case 'drawOffer':
      command = { type: 'drawOffer', board, side };
      break;
    case 'drawAccept':
    case 'drawDecline':
      command = { type: 'drawAnswer', board, side, accept: f.dataset.action === 'drawAccept' };
      break;
    case 'flagClaim':
      command = { type: 'flagClaim', board, claimant: get('claimant') as 'white' | 'black' };
      break;
    case 'quickplayClaim':
      command = { type: 'quickplayClaim', board, side, request: get('request') as 'draw' | 'increment' };
      break;
    case 'quickplayDecision': {
      const [decision, extra] = get('decision').split('+') as ['draw' | 'postpone' | 'reject' | 'increment', string | undefined];
      command = { type: 'quickplayDecision', board, decision, ...(decision === 'postpone' ? { extraTime: extra === '2' } : {}) };
      break;
    }
    case 'enterMissedMoves':
      // Move numbers ("12." or "12...") may be typed with the moves, as on a scoresheet.
      command = {
        type: 'enterMissedMoves',
        board,
        moves: get('moves')
          .split(/\s+/)
          .filter((m) => m !== '' && !/^\d+\.+$/.test(m)),
      };
      break;
  }
  if (!command) return;
  const question =
    command.type === 'forfeit'
      ? `Board ${board}: ${side} (${b[side]}) forfeits the game?`
      : command.type === 'result'
        ? `Board ${board}: record ${command.result} (${command.termination}) and end the game?`
        : command.type === 'quickplayDecision' && command.decision === 'draw'
          ? `Board ${board}: uphold the claim and end the game drawn?`
          : (command.type === 'addTime' || command.type === 'setTime') && ctrl.isRepeatedTimeChange(board)
            ? `Board ${board}'s time was changed from this page a few minutes ago. Change it again?`
            : undefined;
  if (question && !(await askConfirm(question, 'Yes, do it'))) return;
  ctrl.sendFromPanel(command, `Board ${board}: ${f.dataset.label ?? f.dataset.action}`);
}

const other = (side: 'white' | 'black') => (side === 'white' ? 'black' : 'white');
const sideName = (side: 'white' | 'black') => (side === 'white' ? 'White' : 'Black');
const hiddenSide = (side: 'white' | 'black', name = 'side') => hl('input', { attrs: { type: 'hidden', name }, props: { value: side } });

/**
 * What waits for an answer, first in the panel: the arbiter's decision on a claim, the opponent's
 * answer to a draw offer. The clock engine rules on each (and on the claims and offers below) under the
 * board's Laws edition and the event's rules; a refusal shows in the answer above with its code and article.
 */
function waitingForms(ctrl: ConsoleCtrl, b: BoardView): (VNode | undefined)[] {
  const offer = b.drawOffer;
  const claim = b.quickplay && b.quickplay.status !== 'increment' ? b.quickplay : undefined;
  const increment = claim?.request === 'increment';
  const decisions: [string, string][] = increment
    ? [
        ['increment', 'introduce the 5 s increment (+2 min to the opponent)'],
        ['reject', 'reject the request'],
      ]
    : [
        ['draw', 'draw (claim upheld)'],
        ['postpone', 'postpone'],
        ['postpone+2', 'postpone, +2 min to the opponent'],
        ['reject', 'reject, +2 min to the opponent'],
      ];
  return [
    claim &&
      form(
        ctrl,
        b,
        'quickplayDecision',
        'decision on the claim',
        `${sideName(claim.side)}'s ${increment ? 'increment request' : 'draw claim'}${claim.status === 'postponed' ? ' (postponed)' : ''}: your decision`,
        [
          hl(
            'select',
            { attrs: { name: 'decision', 'aria-label': 'decision' } },
            decisions.map(([value, text]) => hl('option', { attrs: { value } }, text)),
          ),
        ],
        hl('button.primary', { attrs: { 'data-command': 'quickplayDecision' } }, 'Decide'),
      ),
    offer &&
      form(
        ctrl,
        b,
        'drawAccept',
        'draw accepted',
        `${sideName(offer.side)} offers a draw: ${sideName(other(offer.side))}…`,
        [hiddenSide(other(offer.side))],
        hl('button', { attrs: { 'data-command': 'drawAccept' } }, 'Accepts'),
      ),
    offer &&
      form(
        ctrl,
        b,
        'drawDecline',
        'draw declined',
        `${sideName(other(offer.side))} declines`,
        [hiddenSide(other(offer.side))],
        hl('button', { attrs: { 'data-command': 'drawDecline' } }, 'Declines'),
      ),
  ];
}

/** What the players may claim or offer, recorded by the arbiter. */
function claimsForms(ctrl: ConsoleCtrl, b: BoardView): VNode[] {
  return [
    form(ctrl, b, 'drawOffer', 'draw offer', 'Draw offer (9.1)', [sideSelect()], hl('button', { attrs: { 'data-command': 'drawOffer' } }, 'Record offer')),
    form(
      ctrl,
      b,
      'quickplayClaim',
      'quickplay claim',
      'Quickplay-finish claim (Laws 2009 10.2, Guidelines III)',
      [
        hl('select', { attrs: { name: 'side', 'aria-label': 'side' } }, [
          hl('option', { attrs: { value: b.toMove } }, `${sideName(b.toMove)} (to move)`),
          hl('option', { attrs: { value: other(b.toMove) } }, sideName(other(b.toMove))),
        ]),
        hl('select', { attrs: { name: 'request', 'aria-label': 'request' } }, [
          hl('option', { attrs: { value: 'draw' } }, 'claims a draw'),
          hl('option', { attrs: { value: 'increment' } }, 'asks for the 5 s increment (III.4)'),
        ]),
      ],
      hl('button', { attrs: { 'data-command': 'quickplayClaim' } }, 'Record claim'),
    ),
    form(
      ctrl,
      b,
      'flagClaim',
      'flag claim',
      b.flagsOnClaim ? 'Flag claim (the arbiter does not call flags here: Laws 2009 A.4 d)' : 'Flag claim (6.9)',
      [
        hl('select', { attrs: { name: 'claimant', 'aria-label': 'claimant' } }, [
          hl('option', { attrs: { value: other(b.toMove) } }, `${sideName(other(b.toMove))} claims ${sideName(b.toMove)}'s flag`),
          hl('option', { attrs: { value: b.toMove } }, `${sideName(b.toMove)} claims ${sideName(other(b.toMove))}'s flag`),
        ]),
      ],
      hl('button', { attrs: { 'data-command': 'flagClaim' } }, 'Claim flag'),
    ),
  ];
}

/** A board row or card opens its panel on a click, Enter or Space. */
export function opensPanel(ctrl: ConsoleCtrl, board: string) {
  return {
    click: () => ctrl.openPanel(board),
    keydown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      ctrl.openPanel(board);
    },
  };
}

export function panelView(ctrl: ConsoleCtrl, clocks: ClockPainter): VNode | false {
  const b = ctrl.panel === undefined ? undefined : ctrl.conn.state.boards.get(ctrl.panel);
  if (!b) return false;
  const own = ctrl.conn.state.arbiter?.sector;
  const outside = own !== undefined && !ctrl.members(own)?.has(b.id);
  const answer = ctrl.panelAnswer;
  const history = ctrl.history?.board === b.id ? ctrl.history.items : undefined;
  const finished = b.status === 'finished';
  return hl(
    'dialog#actions.panel',
    {
      key: 'panel',
      attrs: { 'aria-labelledby': 'actions-title', 'data-board': b.id },
      hook: {
        insert: (v) => {
          const d = v.elm as HTMLDialogElement;
          d.showModal();
          d.querySelector<HTMLElement>('input, select, button:not(.close)')?.focus();
        },
        destroy: (v) => (v.elm as HTMLDialogElement).close(),
      },
      on: { close: () => ctrl.panel !== undefined && ctrl.closePanel(), cancel: (e: Event) => (e.preventDefault(), ctrl.closePanel()) },
    },
    [
      hl('button.close', { attrs: { 'data-close': '', 'aria-label': 'Close' }, on: { click: () => ctrl.closePanel() } }, '✕'),
      hl('h2#actions-title', `Board ${b.id}: ${b.white} – ${b.black}`),
      hl('div.panel-state', [
        hl('span', [hl('span.clock', clocks.hooks(b, 'white')), ' – ', hl('span.clock', clocks.hooks(b, 'black'))]),
        hl('span', `move ${b.moveNumber}, ${b.toMove} to move`),
        hl('span.status', b.status === 'paused' ? `paused: ${b.paused?.reason ?? ''}` : finished ? `finished ${b.result?.result ?? ''}` : b.status),
      ]),
      outside && hl('p.warning', `Board ${b.id} is not in your sector ${own}: the console will refuse your commands here.`),
      hl('p.answer', { class: { refused: answer?.ok === false }, attrs: { role: 'status', 'aria-live': 'polite' } }, answer?.text ?? ''),
      !finished &&
        hl('div.panel-forms', [
          ...waitingForms(ctrl, b),
          b.status === 'paused'
            ? form(ctrl, b, 'resume', 'resume', 'Clock', [], hl('button.primary', { attrs: { 'data-command': 'resume' } }, 'Resume'))
            : form(
                ctrl,
                b,
                'pause',
                'pause',
                'Clock',
                [reasonInput('arbiter intervention')],
                hl('button.primary', { attrs: { 'data-command': 'pause' } }, 'Pause'),
              ),
          form(
            ctrl,
            b,
            'addTime',
            'add time',
            'Add or remove time',
            [
              sideSelect(),
              hl('label', ['±', hl('select', { attrs: { name: 'sign' } }, [hl('option', '+'), hl('option', '-')])]),
              number('minutes', 'min', 2, 600),
              number('seconds', 's', 0, 59),
              reasonInput('Art. 12.5 external disturbance'),
            ],
            hl('button', { attrs: { 'data-command': 'addTime' } }, 'Add time'),
          ),
          form(
            ctrl,
            b,
            'setTime',
            'set time',
            'Set time',
            [sideSelect(), number('minutes', 'min', 30, 600), number('seconds', 's', 0, 59), reasonInput('Art. 6.10.2 clock correction')],
            hl('button', { attrs: { 'data-command': 'setTime' } }, 'Set time'),
          ),
          form(
            ctrl,
            b,
            'setMoveCounter',
            'set move counter',
            'Move counter',
            [
              sideSelect(),
              hl('select', { attrs: { name: 'counter', 'aria-label': 'counter' } }, [
                hl('option', { attrs: { value: 'presses' } }, 'clock presses'),
                hl('option', { attrs: { value: 'moves' } }, 'scoresheet moves'),
              ]),
              number('moves', 'moves', b.presses.white, 999),
              reasonInput('Art. 6.10.2 move counter corrected'),
            ],
            hl('button', { attrs: { 'data-command': 'setMoveCounter' } }, 'Set counter'),
          ),
          form(
            ctrl,
            b,
            'penalty',
            'penalty',
            'Penalty (the opponent gets time)',
            [
              sideSelect('offender'),
              hl('select', { attrs: { name: 'offence', 'aria-label': 'offence' } }, [
                hl('option', { attrs: { value: 'illegal-move' } }, 'illegal move (7.5)'),
                hl('option', { attrs: { value: 'false-claim' } }, 'incorrect claim (9.5)'),
              ]),
              reasonInput('Art. 7.5.5'),
            ],
            hl('button', { attrs: { 'data-command': 'penalty' } }, 'Apply penalty'),
          ),
          ...claimsForms(ctrl, b),
          (!b.arrived.white || !b.arrived.black) &&
            form(ctrl, b, 'arrive', 'player arrived', 'Arrival', [sideSelect()], hl('button', { attrs: { 'data-command': 'arrive' } }, 'Player arrived')),
          form(
            ctrl,
            b,
            'setPosition',
            "set the board's position",
            "Board's position (what the board's reading cannot explain)",
            [
              hl('input.fen', {
                attrs: {
                  name: 'fen',
                  required: true,
                  maxlength: '100',
                  spellcheck: 'false',
                  placeholder: 'FEN, e.g. rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
                  'aria-label': 'FEN',
                },
              }),
              reasonInput('pieces set up again after they were knocked over'),
            ],
            hl('button', { attrs: { 'data-command': 'setPosition' } }, 'Set position'),
          ),
          b.unreadStretch &&
            form(
              ctrl,
              b,
              'enterMissedMoves',
              'enter the missed moves',
              `Missed moves (played while the board was not read, from ${b.unreadStretch.before} to ${b.unreadStretch.after})`,
              [
                hl('input.moves', {
                  attrs: {
                    name: 'moves',
                    required: true,
                    maxlength: '2000',
                    spellcheck: 'false',
                    placeholder: 'SAN from the position before, e.g. Nf3 Nc6 Bb5',
                    'aria-label': 'missed moves',
                  },
                }),
              ],
              hl('button', { attrs: { 'data-command': 'enterMissedMoves' } }, 'Enter moves'),
            ),
          form(
            ctrl,
            b,
            'forfeit',
            'forfeit',
            'Forfeit',
            [sideSelect(), reasonInput('Art. 6.7.1 default time expired')],
            hl('button.danger', { attrs: { 'data-command': 'forfeit' } }, 'Forfeit…'),
          ),
          form(
            ctrl,
            b,
            'result',
            'result',
            'Result',
            [
              hl('select', { attrs: { name: 'result', 'aria-label': 'result' } }, [
                hl('option', '1-0'),
                hl('option', '0-1'),
                hl('option', { attrs: { value: '1/2-1/2' } }, '½-½'),
              ]),
              hl('input', { attrs: { name: 'termination', required: true, maxlength: '100', 'aria-label': 'termination' }, props: { value: 'normal' } }),
            ],
            hl('button.danger', { attrs: { 'data-command': 'result' } }, 'Record result…'),
          ),
        ]),
      hl('section.history', [
        hl('h3', 'History of this board'),
        history === undefined
          ? hl('p.hint', 'loading…')
          : history.length === 0
            ? hl('p.hint', 'nothing journaled yet')
            : hl(
                'ol',
                [...history]
                  .reverse()
                  .map((h) =>
                    hl('li', { key: h.seq }, [
                      hl('span.when', new Date(h.wallMs).toLocaleTimeString()),
                      ' ',
                      hl('strong', h.what),
                      ` · ${h.by}`,
                      h.why && hl('span.why', ` — ${h.why}`),
                    ]),
                  ),
              ),
      ]),
    ],
  );
}
