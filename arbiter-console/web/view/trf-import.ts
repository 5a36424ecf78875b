// The TRF import box of the Pairings page (arbiters, while the section has no round paired here): a
// file picked, its preview (what would change: players, rounds, how the event goes on), Import or
// Cancel. The box's state is TournamentCtrl's (`trfImport`), so a delta redraws it as it was.
import type { TournamentView, TrfImportPreview } from '../../contract/page.ts';
import { hl, type VNode } from '../snabbdom.ts';
import type { TournamentCtrl } from '../tournament-ctrl.ts';

/** A TRF import comes before the section's first round is paired here (the console refuses it after). */
export function importAllowed(v: TournamentView): boolean {
  return v.liveRound === 0 && v.draft === undefined && !v.rounds.some((r) => r.status === 'published' || r.status === 'live');
}

export function trfImportBox(ctrl: TournamentCtrl): VNode {
  const state = ctrl.trfImport;
  return hl('fieldset#t-import.t-form', { key: 'trf-import' }, [
    hl('legend', 'Import a TRF (registration list, rounds played elsewhere)'),
    hl('label', [
      'TRF-16 file ',
      hl('input#t-import-file', {
        attrs: { type: 'file', accept: '.trf,.txt,text/plain' },
        on: { change: (e: Event) => void ctrl.pickImportFile((e.target as HTMLInputElement).files?.[0]) },
      }),
    ]),
    hl('button#t-import-preview', { on: { click: () => void ctrl.previewImport() } }, 'Preview'),
    hl('div#t-import-result', { attrs: { role: 'status' } }, [
      state.preview !== undefined && importPreview(ctrl, state.preview),
      state.message !== undefined && hl(state.message.ok ? 'p' : 'p.warning', state.message.text),
    ]),
  ]);
}

/** What the import would change, for the arbiter to confirm. */
function importPreview(ctrl: TournamentCtrl, p: TrfImportPreview): VNode {
  const rounds = p.rounds > 0 ? `; rounds 1–${p.rounds} played elsewhere (${p.games} games, ${p.byes} byes)` : '; no rounds played';
  return hl('div.t-import-preview', [
    hl(
      'p',
      `${p.from} into section ${p.section}: ${p.players.inFile} players, ${p.players.changed.length} with new registration data${rounds}. Then ${p.next}.`,
    ),
    p.players.changed.length > 0 &&
      hl(
        'ul',
        p.players.changed.map((c) => hl('li', `${c.name}: ${c.changes.join(', ')}`)),
      ),
    p.players.notInFile.length > 0 && hl('p', `Not in the file (left as they are): ${p.players.notInFile.join(', ')}`),
    p.notImported.length > 0 && hl('p.warning', `Not imported: ${p.notImported.join('; ')}`),
    hl('p.hint', `SHA-256 ${p.digest}`),
    hl('div.round-actions', [
      hl('button.primary', { attrs: { 'data-import': 'confirm' }, on: { click: () => void ctrl.confirmImport() } }, 'Import'),
      ' ',
      hl('button', { attrs: { 'data-import': 'cancel' }, on: { click: () => ctrl.cancelImport() } }, 'Cancel'),
    ]),
  ]);
}
