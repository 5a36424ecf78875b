// What the 16x2 LCD shows. Row 1: both clocks, White on the left as on the board. Row 2: a marker under
// the running clock and one status word (a notice, FLAG, PAUSE, the result or the move number).
import { remainingAt, type GameState, type Side } from '../../clock-engine/index.ts';

export const LCD_COLUMNS = 16;

/** h:mm:ss from an hour, m:ss below, and seconds with tenths in the last ten seconds; 7 characters. */
export function formatClockTime(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return `${Math.floor(clamped / 1000)}.${Math.floor((clamped % 1000) / 100)}`.padStart(7);
  const totalSeconds = Math.floor(clamped / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = String(totalSeconds % 60).padStart(2, '0');
  // Ten hours and more (never in a real game) would not fit in seven columns: drop the seconds.
  if (hours >= 10) return `${hours}h${String(minutes).padStart(2, '0')}`.padStart(7);
  return (hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`).padStart(7);
}

/** How long until `formatClockTime` of a running clock changes (so the display refreshes exactly then). */
export function untilDisplayChange(ms: number): number {
  if (ms <= 0) return Infinity;
  const step = ms <= 10_000 ? 100 : 1000;
  return (ms % step) + 1;
}

export function lcdRows(state: GameState, now: number, notice?: string): [string, string] {
  const times = remainingAt(state, now);
  const top = `${formatClockTime(times.white)}  ${formatClockTime(times.black)}`;
  const running: Side | undefined = state.status === 'running' ? state.toMove : undefined;
  const word = notice ?? statusWord(state);
  const middle = center(word.slice(0, LCD_COLUMNS - 2), LCD_COLUMNS - 2);
  const bottom = `${running === 'white' ? '^' : ' '}${middle}${running === 'black' ? '^' : ' '}`;
  return [top, bottom];
}

function statusWord(state: GameState): string {
  const flagged = (['white', 'black'] as const).filter((side) => state.flags[side] !== undefined);
  const flag = flagged.length > 0 ? `FLAG ${flagged.map((side) => (side === 'white' ? 'W' : 'B')).join('+')}` : undefined;
  // "FLAG W 1/2-1/2" is 14 characters: it fits between the two markers.
  if (state.result) return flag ? `${flag} ${state.result.result}` : state.result.result;
  if (flag) return flag;
  if (state.status === 'paused') return 'PAUSE';
  if (state.status === 'waiting') return 'READY';
  if (state.status === 'finished') return 'END';
  return `MOVE ${state.presses.white + (state.toMove === 'white' ? 1 : 0)}`;
}

function center(text: string, width: number): string {
  const left = Math.floor((width - text.length) / 2);
  return `${' '.repeat(left)}${text}`.padEnd(width);
}
