// The page's HTML with the hall's first screen in it: a hall of 1,000 boards paints its first rows with
// the HTML and the style sheet, before app.js has run, opened its socket and had its snapshot (two thirds
// of the wait, docs/console.md "the hall page"). Static markup with the page's own classes (web/view/hall.ts),
// the public fields only (what a spectator's snapshot holds: board numbers, names, clocks, move, status),
// as the hall's board views stand when it is rendered; the page replaces it with its own rows at its first
// render with boards (web/main.ts). No script and no style in it: the CSP stays as strict.
import type { PlayingHall } from '../hall/index.ts';
import { byHallNumber, clockText, COMPACT_HALL_ABOVE, isLow, movesToControl, rowsInWindow, statusText, type BoardView } from '../contract/index.ts';

/** Where the first screen goes: the page's one container (index.html). */
const PAGE_MAIN = '<main id="page"></main>';

/** The largest window the first screen is rendered for: the page asks for as many rows first at 1920x1080. */
const LARGEST_SCREEN = { width: 1920, height: 1080 } as const;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));

/** A custom property of the style sheet's :root in px (the hall's sizes the page reads too, web/ctrl.ts firstScreenRows). */
function cssPx(css: string, name: string): number | undefined {
  const match = new RegExp(`${name}:\\s*([0-9.]+)px`).exec(css);
  return match ? Number(match[1]) : undefined;
}

/** The rows the page shows first in the largest window (contract's rowsInWindow over the style sheet's sizes); none without them. */
export function firstScreenBoards(css: string): number {
  const [rowHeight, columnWidth, queueWidth] = ['--hall-row-height', '--hall-column-width', '--hall-queue-width'].map((n) => cssPx(css, n) ?? NaN);
  return rowsInWindow(LARGEST_SCREEN, { rowHeight: rowHeight!, columnWidth: columnWidth!, queueWidth: queueWidth! }) ?? 0;
}

/** The first screen's boards: the first `n` in the hall's order, none for a hall the page shows as cards. */
export function firstScreenIds(hall: PlayingHall, n: number): string[] {
  if (hall.boards.size <= COMPACT_HALL_ABOVE) return [];
  return [...hall.boards.keys()].sort(byHallNumber).slice(0, n);
}

/** Whether a clock runs on one of these boards: the HTML is then rendered again as its time moves. */
export const clockRuns = (hall: PlayingHall, ids: readonly string[]): boolean => ids.some((id) => hall.boards.get(id)?.state.status === 'running');

interface RowContext {
  readonly sections: boolean;
  readonly periodMoves: readonly (number | null)[] | undefined;
  readonly remaining: (id: string) => { readonly white: number; readonly black: number };
}

const span = (cls: string, text: string, title?: string): string =>
  `<span class="${cls}"${title !== undefined ? ` title="${escapeHtml(title)}"` : ''}>${escapeHtml(text)}</span>`;

/** One row as web/view/hall.ts draws it, without what only the live page adds (device, alerts, its handlers). */
function rowHtml(b: BoardView, ctx: RowContext, first: boolean): string {
  const left = ctx.remaining(b.id);
  const side = (s: 'white' | 'black'): string => {
    const name = `name ${s}${b.arrived[s] ? '' : ' absent'}`;
    const title = `${s === 'white' ? 'White' : 'Black'}: ${b[s]}${b.arrived[s] ? '' : ' (not at the board)'}`;
    // The first row's name is the one the page's first paint is timed by (Element Timing, bench/hall-page.ts).
    const timing = first && s === 'white' ? ' elementtiming="first-row"' : '';
    const clock = ['clock', s, b.status === 'running' && b.toMove === s ? 'running' : '', b.flag?.side === s ? 'flagged' : '', isLow(left[s]) ? 'low' : '']
      .filter(Boolean)
      .join(' ');
    return (
      `<span class="${name}" title="${escapeHtml(title)}"${timing}>${escapeHtml(b[s])}</span>` +
      `<span class="${clock}" data-clock="${s}" aria-label="${s} clock">${clockText(left[s])}</span>`
    );
  };
  const toControl = movesToControl(b, b.toMove, ctx.periodMoves);
  const section = ctx.sections
    ? `<span class="section" title="${b.section === undefined ? '' : escapeHtml(`section ${b.section}, board ${b.sectionBoard ?? '?'}`)}">` +
      `${span('section-id', b.section ?? '')} ${span('section-board', b.sectionBoard === undefined ? '' : String(b.sectionBoard))}</span>`
    : '';
  // No data-board: the live page's rows are the ones a board is found and opened by.
  return (
    `<div class="hall-row ${b.status}" role="row" data-first-board="${escapeHtml(b.id)}" aria-label="Board ${escapeHtml(b.id)}">` +
    span('no', b.id, `hall board ${b.id}`) +
    section +
    side('white') +
    side('black') +
    span('move', String(b.moveNumber), 'move') +
    span('tc', toControl === undefined ? '' : String(toControl), 'moves to the next time control') +
    span('status', statusText(b), b.paused?.reason ?? b.result?.termination ?? '') +
    '<span class="device"></span><span class="alert"></span></div>'
  );
}

/**
 * index.html with the first screen's rows in its main, as the hall stands at `now` (the hall clock's
 * ms): each clock's time from the hall's own projection of its board, in whole ms. Unchanged for a
 * hall the page shows as cards, or an HTML without the page's container.
 */
export function pageWithFirstScreen(indexHtml: string, hall: PlayingHall, ids: readonly string[], now: number): string {
  if (ids.length === 0 || !indexHtml.includes(PAGE_MAIN)) return indexHtml;
  const views = ids.map((id) => hall.view(id)!);
  const sections = new Set([...hall.boards.values()].map((b) => b.round.section).filter((s) => s !== undefined)).size > 1;
  const ctx: RowContext = {
    sections,
    periodMoves: hall.roundView().periodMoves,
    remaining: (id) => {
      const left = hall.boards.get(id)!.remainingAt(now);
      return { white: Math.round(left.white), black: Math.round(left.black) };
    },
  };
  const rows = views.map((b, i) => rowHtml(b, ctx, i === 0)).join('');
  const legend = `hall board · ${sections ? 'section and its board · ' : ''}White above Black, each with the clock · move, moves to the time control · status`;
  const screen =
    `<div id="first-screen" data-rendered-at="${Math.round(now)}" data-boards="${ids.length}" aria-busy="true">` +
    `<div class="layout compact"><section aria-label="Boards"><div class="hall${sections ? ' sections' : ''}" role="table" aria-label="Every board">` +
    `<p class="hall-legend">${escapeHtml(legend)}</p><div class="hall-rows">${rows}</div></div></section></div></div>`;
  return withFirstScreen(indexHtml, screen);
}

/**
 * index.html with `screen` in its main. Replaced by a function: a string replacement would read `$&`,
 * `$'` and the like in a player's name as patterns and put parts of the HTML there instead.
 */
export function withFirstScreen(indexHtml: string, screen: string): string {
  return indexHtml.replace(PAGE_MAIN, () => `<main id="page">${screen}</main>`);
}
