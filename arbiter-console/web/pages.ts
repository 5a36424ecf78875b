// The console's pages. The clocks page is the arbiter's screen; the tournament pages (pairings,
// crosstable, playoffs, fines and prizes, regulations: view/tournament.ts) exist when the console runs an event.
export interface PageEntry {
  readonly id: string;
  readonly title: string;
  /** Shown only when the console runs an event's section. */
  readonly tournament: boolean;
  /** Shown only to the chief arbiter. */
  readonly chief?: boolean;
}

export const pages: readonly PageEntry[] = [
  { id: 'clocks', title: 'Clocks', tournament: false },
  { id: 'pairings', title: 'Pairings', tournament: true },
  { id: 'crosstable', title: 'Crosstable', tournament: true },
  { id: 'playoffs', title: 'Playoffs', tournament: true },
  { id: 'fines', title: 'Fines & prizes', tournament: true },
  { id: 'regulations', title: 'Regulations', tournament: true },
  { id: 'team', title: 'Team', tournament: false, chief: true },
];

/** The page a location hash names ("#crosstable"); the clocks page otherwise. */
export function pageFromHash(hash: string): string {
  const id = hash.replace(/^#/, '');
  return pages.some((p) => p.id === id) ? id : 'clocks';
}

/**
 * `toConfirm`: clock results waiting for the arbiter, shown on the Pairings tab; `toDecide`: players
 * who lost by default and whose withdrawal waits for his decision (SA Open), on the Regulations tab.
 */
export function renderNav(nav: HTMLElement, current: string, tournament: boolean, toConfirm = 0, chief = false, toDecide = 0): void {
  nav.innerHTML = pages
    .filter((p) => (tournament || !p.tournament) && (chief || !p.chief))
    .map((p) => {
      const badge =
        p.id === 'pairings' && toConfirm > 0
          ? ` <span class="badge confirm" title="results from the clocks to confirm">${toConfirm}</span>`
          : p.id === 'regulations' && toDecide > 0
            ? ` <span class="badge confirm" title="players who did not come: withdraw or keep paired">${toDecide}</span>`
            : '';
      return `<a href="#${p.id}" data-page="${p.id}" ${p.id === current ? 'aria-current="page"' : ''}>${p.title}${badge}</a>`;
    })
    .join('');
}
