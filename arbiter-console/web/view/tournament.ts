// The tournament pages' frame: the arbiter's reason (journaled with what he enters), the section
// selector of an event console, and the page shown (pairings, crosstable, playoffs, fines and
// prizes, regulations), each keyed so that switching pages builds the new one and a delta only patches.
import type { TournamentView } from '../../contract/page.ts';
import { hl, type VNode } from '../snabbdom.ts';
import type { TournamentCtrl, TournamentPageId } from '../tournament-ctrl.ts';
import { crosstablePage } from './crosstable.ts';
import { pairingsPage } from './pairings.ts';
import { playoffsPage } from './playoffs.ts';
import { finesPage } from './prizes.ts';
import { regulationsPage } from './regulations.ts';

const PAGES: Record<TournamentPageId, (ctrl: TournamentCtrl, v: TournamentView) => VNode[]> = {
  pairings: pairingsPage,
  crosstable: crosstablePage,
  playoffs: playoffsPage,
  fines: finesPage,
  regulations: regulationsPage,
};

/** Pages with commands that journal a reason. */
const REASONED: readonly TournamentPageId[] = ['pairings', 'playoffs', 'regulations'];

export function tournamentView(ctrl: TournamentCtrl): VNode {
  const v = ctrl.view();
  const sections = ctrl.sections();
  return hl('div.tournament', [
    ctrl.arbiter &&
      REASONED.includes(ctrl.page) &&
      hl('div#t-reason-bar.round-actions', [
        hl('label', [
          'Reason (journal) ',
          hl('input#t-reason', {
            attrs: { maxlength: '200' },
            props: { value: ctrl.reason },
            on: { input: (e: Event) => ctrl.setReason((e.target as HTMLInputElement).value) },
          }),
        ]),
      ]),
    sections.length > 1 &&
      hl('div#t-sections.round-actions', [
        hl('label', [
          'Section ',
          hl(
            'select#t-section',
            { on: { change: (e: Event) => ctrl.pickSection((e.target as HTMLSelectElement).value) } },
            sections.map((t) => hl('option', { attrs: { value: t.section.id }, props: { selected: t.section.id === v?.section.id } }, t.section.name)),
          ),
        ]),
      ]),
    hl(
      'div#t-content',
      { key: `${ctrl.page} ${v?.section.id ?? ''}`, attrs: { 'data-section': v?.section.id ?? '' } },
      v ? PAGES[ctrl.page](ctrl, v) : [hl('p.placeholder', 'This console runs no tournament section (start it with --event).')],
    ),
  ]);
}
