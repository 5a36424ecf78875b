// The desk's controls: each shows what the arbiter picked (kept in TournamentCtrl until sent), else
// the console's value, so a delta that redraws the row never undoes his choice.
import type { TournamentView } from '../../contract/page.ts';
import type { TournamentCtrl } from '../tournament-ctrl.ts';
import type { Attrs } from 'snabbdom';
import { hl, type VNode } from '../snabbdom.ts';

export function choiceSelect(
  ctrl: TournamentCtrl,
  key: string,
  options: readonly (readonly [value: string, text: string])[],
  current: string,
  attrs: Attrs = {},
): VNode {
  const value = ctrl.chosen(key, current);
  return hl(
    'select',
    { attrs, on: { change: (e: Event) => ctrl.choose(key, (e.target as HTMLSelectElement).value) } },
    options.map(([v, text]) => hl('option', { attrs: { value: v }, props: { selected: v === value } }, text)),
  );
}

export function choiceInput(ctrl: TournamentCtrl, key: string, current: string, attrs: Attrs): VNode {
  return hl('input', {
    attrs,
    props: { value: ctrl.chosen(key, current) },
    on: { input: (e: Event) => ctrl.choose(key, (e.target as HTMLInputElement).value) },
  });
}

export function choiceCheckbox(ctrl: TournamentCtrl, key: string, current: boolean, attrs: Attrs): VNode {
  return hl('input', {
    attrs: { type: 'checkbox', ...attrs },
    props: { checked: ctrl.chosen(key, current ? 'on' : '') === 'on' },
    on: { change: (e: Event) => ctrl.choose(key, (e.target as HTMLInputElement).checked ? 'on' : '') },
  });
}

/** The section's players by number, for the forms that name one. */
export function playerOptions(v: TournamentView): (readonly [string, string])[] {
  return v.crosstable.rows
    .slice()
    .sort((a, b) => a.id - b.id)
    .map((r) => [String(r.id), `${r.id} ${r.name}`] as const);
}
