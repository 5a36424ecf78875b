// How a board reads on the hall's rows, one owner for the two places that write them: the page's rows
// (web/view/hall.ts, web/clocks.ts) and the first screen the server puts in the page's HTML
// (server/first-screen-html.ts), so the rows the server paints are the ones the page then draws.
import type { BoardView } from './protocol.ts';

/** Clock display: H:MM:SS, with tenths in the last ten seconds like a DGT clock. */
export function clockText(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `0:0${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${h}:${mm}:${ss}`;
}

/** Under five minutes a clock reads amber, the running one and the waiting one. */
const LOW_MS = 5 * 60_000;
export const isLow = (ms: number): boolean => ms < LOW_MS;

/** A row's status cell: the result of a finished game, else paused or waiting; nothing while it runs. */
export function statusText(b: Pick<BoardView, 'status' | 'result'>): string {
  if (b.status === 'finished') return b.result?.result === '1/2-1/2' ? '½-½' : (b.result?.result ?? 'finished');
  if (b.status === 'paused') return 'paused';
  if (b.status === 'waiting') return 'waiting';
  return '';
}

/** Moves a side has left until its next time control (none in the last period, or without the round's periods). */
export function movesToControl(
  b: Pick<BoardView, 'period' | 'presses'>,
  side: 'white' | 'black',
  periodMoves: readonly (number | null)[] | undefined,
): number | undefined {
  if (!periodMoves) return undefined;
  let quota = 0;
  for (let i = 0; i < b.period[side]; i++) {
    const moves = periodMoves[i];
    if (moves === null || moves === undefined) return undefined;
    quota += moves;
  }
  return Math.max(0, quota - b.presses[side]);
}

/** The hall's order of boards (by hall board number; ids that are not numbers after, by name): the page's and its first screen's. */
export const byHallNumber = (a: string, b: string): number => Number(a) - Number(b) || a.localeCompare(b);
