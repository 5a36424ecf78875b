// How many boards a page may ask to get first: the page sizes its request to its window, the server's
// schema refuses more (a wall of 8K screens still asks within it).

/** The most boards a page may ask to get first (`firstBoards` in hello): a 1080p window shows about 120 hall rows. */
export const MAX_FIRST_BOARDS = 1000;

/**
 * A hall of more boards than this opens in the compact hall view (one two-line row per board), unless the
 * arbiter chose the cards; the server puts such a hall's first screen in the page's HTML.
 */
export const COMPACT_HALL_ABOVE = 24;
