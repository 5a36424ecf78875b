// The console's pages. The clocks page is the arbiter's screen; tournament pages (pairings,
// crosstable, playoffs) are added here as entries, each rendering into the main element.
export interface PageEntry {
  readonly id: string;
  readonly title: string;
  /** False until the page exists: it is listed but not linked. */
  readonly available: boolean;
}

export const pages: readonly PageEntry[] = [
  { id: 'clocks', title: 'Clocks', available: true },
  // Tournament pages: rendered from tournament/index.ts exports when they are added.
  { id: 'pairings', title: 'Pairings', available: false },
  { id: 'crosstable', title: 'Crosstable', available: false },
  { id: 'playoffs', title: 'Playoffs', available: false },
];

export function renderNav(nav: HTMLElement, current: string): void {
  nav.innerHTML = pages
    .filter((p) => p.available)
    .map((p) => `<a href="#${p.id}" ${p.id === current ? 'aria-current="page"' : ''}>${p.title}</a>`)
    .join('');
}
