// How many boards a page may ask to get first: the page sizes its request to its window, the server's
// schema refuses more (a wall of 8K screens still asks within it).

/** The most boards a page may ask to get first (`firstBoards` in hello): a 1080p window shows about 120 hall rows. */
export const MAX_FIRST_BOARDS = 1000;

/**
 * A hall of more boards than this opens in the compact hall view (one two-line row per board), unless the
 * arbiter chose the cards; the server puts such a hall's first screen in the page's HTML.
 */
export const COMPACT_HALL_ABOVE = 24;

/** The hall's sizes in the style sheet (its custom properties `--hall-row-height`, `--hall-column-width`, `--hall-queue-width`), px. */
export interface HallSizes {
  readonly rowHeight: number;
  readonly columnWidth: number;
  readonly queueWidth: number;
}

/**
 * The hall rows a window shows, as many as the page asks for first and the server puts in the HTML (for
 * the largest window); undefined when the style sheet gives no usable sizes. Beside the queue the hall has
 * the window's width less the queue's (a narrow window, where the queue goes above, has room for one
 * column either way); a line more than fits, so the first scroll finds rows.
 */
export function rowsInWindow(window: { readonly width: number; readonly height: number }, sizes: HallSizes): number | undefined {
  const { rowHeight, columnWidth, queueWidth } = sizes;
  if (!(rowHeight > 0 && columnWidth > 0 && queueWidth >= 0)) return undefined;
  const columns = Math.max(1, Math.floor((window.width - queueWidth) / columnWidth));
  const lines = Math.ceil(window.height / rowHeight) + 1;
  return Math.min(MAX_FIRST_BOARDS, columns * lines);
}
