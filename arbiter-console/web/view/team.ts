// The chief arbiter's team page: sectors of the hall and the named tokens of deputies and sector
// arbiters (issued, shown once, listed, revoked).
import type { ConsoleCtrl } from '../ctrl.ts';
import { askConfirm } from '../dialogs.ts';
import { hl, type VNode } from '../snabbdom.ts';

const field = (form: HTMLFormElement, name: string): string => String(new FormData(form).get(name) ?? '').trim();

export function teamView(ctrl: ConsoleCtrl): VNode {
  const sectors = ctrl.conn.state.sectors;
  const sections = ctrl.sections();
  const credentials = ctrl.credentials;
  const issued = ctrl.issued;
  return hl('div.team', [
    hl('p.answer', { class: { refused: ctrl.teamAnswer?.ok === false }, attrs: { role: 'status', 'aria-live': 'polite' } }, ctrl.teamAnswer?.text ?? ''),
    hl('section', { attrs: { 'aria-label': 'Sectors' } }, [
      hl('h2', 'Sectors'),
      sectors.length === 0
        ? hl('p.hint', 'No sectors yet: every arbiter sees the whole hall.')
        : hl('table.t-table', [
            hl(
              'thead',
              hl(
                'tr',
                ['Sector', 'Name', 'Section', 'Boards', 'Covers', ''].map((t) => hl('th', t)),
              ),
            ),
            hl(
              'tbody',
              sectors.map((s) =>
                hl('tr', { key: s.id, attrs: { 'data-sector': s.id } }, [
                  hl('td', s.id),
                  hl('td', s.name),
                  hl('td', s.section === undefined ? 'whole hall' : (sections.find((x) => x.id === s.section)?.name ?? s.section)),
                  hl('td', s.boards),
                  hl('td', { attrs: { title: `hall boards ${s.members.join(', ')}` } }, `${s.members.length} boards`),
                  hl('td', hl('button', { on: { click: () => ctrl.sendTeam({ type: 'removeSector', sector: s.id }, `Remove sector ${s.id}`) } }, 'Remove')),
                ]),
              ),
            ),
          ]),
      hl(
        'form#define-sector.t-form',
        {
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              const f = e.target as HTMLFormElement;
              const section = field(f, 'section');
              ctrl.sendTeam(
                { type: 'defineSector', sector: field(f, 'sector'), name: field(f, 'name'), boards: field(f, 'boards'), ...(section ? { section } : {}) },
                `Sector ${field(f, 'sector')}`,
              );
            },
          },
        },
        [
          hl('label', ['Sector ', hl('input', { attrs: { name: 'sector', required: true, maxlength: '32', placeholder: 'A' } })]),
          hl('label', ['Name ', hl('input', { attrs: { name: 'name', required: true, maxlength: '60', placeholder: 'North wing' } })]),
          // A section's sector counts boards as that section does (its board 1 is wherever it sits in the hall).
          sections.length > 1 &&
            hl('label', [
              'Of ',
              hl('select', { attrs: { name: 'section' } }, [
                hl('option', { attrs: { value: '' } }, 'the whole hall (hall board numbers)'),
                ...sections.map((x) => hl('option', { attrs: { value: x.id } }, `${x.name} (its board numbers)`)),
              ]),
            ]),
          hl('label', ['Boards ', hl('input', { attrs: { name: 'boards', required: true, maxlength: '200', placeholder: '1-50, 61' } })]),
          hl('button.primary', { attrs: { type: 'submit' } }, 'Define sector'),
        ],
      ),
    ]),
    hl('section', { attrs: { 'aria-label': 'Arbiters' } }, [
      hl('h2', 'Arbiters'),
      issued &&
        hl('div.issued', { attrs: { role: 'alert' } }, [
          hl('p', `Token for ${issued.name} (shown this once; only its hash is kept):`),
          hl('code#issued-token', issued.token),
          hl('p', ['Page: ', hl('code#issued-url', `${location.origin}/#token=${issued.token}`)]),
        ]),
      hl(
        'form#issue-credential.t-form',
        {
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              const f = e.target as HTMLFormElement;
              const role = field(f, 'role') as 'deputy' | 'sector';
              const sector = field(f, 'sector');
              ctrl.sendTeam(
                { type: 'issueCredential', name: field(f, 'name'), role, ...(role === 'sector' ? { sector } : {}) },
                `Token for ${field(f, 'name')}`,
              );
            },
          },
        },
        [
          hl('label', ['Name ', hl('input', { attrs: { name: 'name', required: true, maxlength: '40', placeholder: 'IA Jane Doe' } })]),
          hl('label', [
            'Role ',
            hl('select', { attrs: { name: 'role' } }, [
              hl('option', { attrs: { value: 'sector' } }, 'sector arbiter'),
              hl('option', { attrs: { value: 'deputy' } }, 'deputy'),
            ]),
          ]),
          hl('label', [
            'Sector ',
            hl(
              'select',
              { attrs: { name: 'sector' } },
              sectors.map((s) => hl('option', { attrs: { value: s.id } }, s.id)),
            ),
          ]),
          hl('button.primary', { attrs: { type: 'submit' } }, 'Issue token'),
        ],
      ),
      hl(
        'button',
        { attrs: { id: 'list-credentials' }, on: { click: () => ctrl.sendTeam({ type: 'listCredentials' }, 'List tokens') } },
        credentials ? 'Refresh the list' : 'List tokens',
      ),
      credentials &&
        hl('table#credentials.t-table', [
          hl(
            'thead',
            hl(
              'tr',
              ['Name', 'Role', 'Sector', 'Issued', 'By', ''].map((t) => hl('th', t)),
            ),
          ),
          hl(
            'tbody',
            credentials.map((c) =>
              hl('tr', { key: c.id, attrs: { 'data-credential': c.id }, class: { revoked: c.revokedAt !== undefined } }, [
                hl('td', c.name),
                hl('td', c.role),
                hl('td', c.sector ?? ''),
                hl('td', new Date(c.issuedAt).toLocaleString()),
                hl('td', c.issuedBy),
                hl(
                  'td',
                  c.revokedAt
                    ? `revoked ${new Date(c.revokedAt).toLocaleString()}`
                    : hl(
                        'button.danger',
                        {
                          on: {
                            click: async () => {
                              if (!(await askConfirm(`Revoke ${c.name}'s token? Their tablets are cut off at once.`, 'Revoke'))) return;
                              ctrl.sendTeam({ type: 'revokeCredential', credential: c.id }, `Revoke ${c.name}`);
                              ctrl.sendTeam({ type: 'listCredentials' }, 'List tokens');
                            },
                          },
                        },
                        'Revoke',
                      ),
                ),
              ]),
            ),
          ),
        ]),
    ]),
  ]);
}
