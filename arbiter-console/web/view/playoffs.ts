// The playoff page: its state, stage and games (on a hall board's clock, or entered here), the chief
// arbiter's format or ruling where the regulations leave the playoff to him, and its log.
import type { PlayoffView } from '../../contract/page.ts';
import type { TournamentView } from '../../contract/page.ts';
import { hl, type VNode } from '../snabbdom.ts';
import { FORMAT_STAGE_KINDS, formatDefaults, PLAYOFF_RESULTS, resultText, type TournamentCtrl } from '../tournament-ctrl.ts';
import { choiceCheckbox, choiceInput, choiceSelect } from './choice.ts';

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
      p.format && chiefFormat(p.format),
      ctrl.arbiter && p.formatOpen && formatForm(ctrl, p, v.crosstable.columns),
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

/** The format the chief arbiter set, in words. */
function chiefFormat(format: NonNullable<PlayoffView['format']>): VNode {
  return hl('div.playoff-format', [
    hl('p', `The chief arbiter's format (${format.reason}):`),
    hl(
      'ol',
      [...(format.cut !== undefined ? [`Cut: ${format.cut}`] : []), ...format.stages].map((line) => hl('li', line)),
    ),
  ]);
}

const STAGE_KIND_TEXT: Record<(typeof FORMAT_STAGE_KINDS)[number], string> = {
  'round-robin': 'round robin',
  knockout: 'knockout',
  armageddon: 'Armageddon (a draw to Black)',
};

/**
 * The chief arbiter composes the playoff's format where the regulations leave it to him: an optional
 * cut by some of the section's tie-breaks, then the stages with their time controls (the console
 * checks each with the clock engine), sent with the reason above.
 */
function formatForm(ctrl: TournamentCtrl, p: PlayoffView, tiebreaks: readonly string[]): VNode {
  const defaults = formatDefaults(ctrl.formatStages, p.remaining.length, tiebreaks);
  const value = (name: string): string => defaults[name] ?? '';
  const cutting = ctrl.chosen('format cut', value('cut')) === 'cut';
  return hl('fieldset.t-form', { key: 'playoff-format', attrs: { 'data-t': 'playoff-format' } }, [
    hl('legend', "The chief arbiter's playoff format"),
    hl('label', [
      'Math tie-breaks first ',
      choiceSelect(
        ctrl,
        'format cut',
        [
          ['none', 'no cut: every tied player plays'],
          ['cut', 'cut to the best by the tie-breaks'],
        ],
        value('cut'),
        { name: 'cut' },
      ),
    ]),
    cutting &&
      hl('label', [
        'Best ',
        choiceInput(ctrl, 'format cut to', value('cut to'), {
          name: 'cut-to',
          type: 'number',
          min: '2',
          max: String(p.remaining.length - 1),
          inputmode: 'numeric',
        }),
      ]),
    cutting &&
      hl('span.t-cut', { attrs: { role: 'group', 'aria-label': 'by the tie-breaks' } }, [
        'by',
        ...tiebreaks.map((code) =>
          hl('label.t-check', [choiceCheckbox(ctrl, `format cut ${code}`, value(`cut ${code}`) === 'on', { name: `cut-${code}` }), code]),
        ),
      ]),
    hl(
      'ol.format-stages',
      Array.from({ length: ctrl.formatStages }, (_, i) =>
        hl('li', { key: i, attrs: { 'data-stage': String(i + 1) } }, [
          hl('label', [
            `Stage ${i + 1} `,
            choiceSelect(
              ctrl,
              `format stage ${i} kind`,
              FORMAT_STAGE_KINDS.map((k) => [k, STAGE_KIND_TEXT[k]] as const),
              value(`stage ${i} kind`),
              {
                name: 'kind',
              },
            ),
          ]),
          hl('label', [
            'Games a pairing (a match) ',
            choiceInput(ctrl, `format stage ${i} games`, value(`stage ${i} games`), {
              name: 'games',
              type: 'number',
              min: '1',
              max: '10',
              inputmode: 'numeric',
            }),
          ]),
          hl('label', ['Time control ', choiceInput(ctrl, `format stage ${i} tc`, value(`stage ${i} tc`), { name: 'time-control', maxlength: '40' })]),
          hl('label', [
            'A tie at its end ',
            choiceSelect(
              ctrl,
              `format stage ${i} tie`,
              [
                ['next-stage', 'goes to the next stage'],
                ['tiebreaks', 'is decided by the tie-breaks'],
              ],
              value(`stage ${i} tie`),
              { name: 'tie' },
            ),
          ]),
        ]),
      ),
    ),
    hl('button', { attrs: { 'data-t': 'format-add-stage' }, on: { click: () => ctrl.addFormatStage() } }, 'Add a stage'),
    hl(
      'button',
      { attrs: { 'data-t': 'format-remove-stage', disabled: ctrl.formatStages <= 1 }, on: { click: () => ctrl.removeFormatStage() } },
      'Remove the last stage',
    ),
    hl('button.primary', { attrs: { 'data-t': 'format-send' }, on: { click: () => ctrl.setPlayoffFormat(defaults, tiebreaks) } }, 'Play this format'),
    hl('span.hint', 'with the reason above; time controls as in the event file (600+5, W300-B240)'),
  ]);
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
