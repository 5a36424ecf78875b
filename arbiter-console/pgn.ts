// Live PGN: every completed move with [%clk] (the display after the press, increment included) and
// [%emt] (time used on the move), arbiter corrections as comments, WhiteClock/BlackClock as of now.
import type { GameResult } from '../clock-engine/index.ts';
import type { Board } from './board.ts';
import type { Round } from './round.ts';
import { pgnTimeControl } from './round.ts';

export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const pgnResult = (r: GameResult | undefined): string =>
  r === '+--' ? '1-0' : r === '--+' ? '0-1' : r === '1-0' || r === '0-1' || r === '1/2-1/2' ? r : '*';

const escapeTag = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
const escapeComment = (s: string): string => s.replace(/[{}]/g, '');

export function boardPgn(round: Round, board: Board, now: number): string {
  const remaining = board.remainingAt(now);
  const result = pgnResult(board.state.result?.result);
  const tags: [string, string][] = [
    ['Event', round.event],
    ['Site', round.site],
    ['Date', round.date],
    ['Round', `${round.round}.${board.id}`],
    ['White', board.info.white],
    ['Black', board.info.black],
    ['Result', result],
    ['Board', board.id],
    ['TimeControl', pgnTimeControl(round.game.timeControl)],
    ['WhiteClock', clockText(remaining.white)],
    ['BlackClock', clockText(remaining.black)],
  ];
  if (board.state.result) tags.push(['Termination', board.state.result.termination]);
  const tokens: string[] = [];
  for (const item of board.score) {
    if (item.kind === 'comment') {
      tokens.push(`{${escapeComment(item.text)}}`);
      continue;
    }
    // Every move is followed by its clock comment, so Black's moves always carry "N...".
    tokens.push(item.side === 'white' ? `${item.number}.` : `${item.number}...`);
    // A press without a board move (clock-only boards) is written as a null move.
    tokens.push(item.san ?? '--', `{[%clk ${clockText(item.clockMs)}] [%emt ${clockText(item.elapsedMs)}]}`);
  }
  if (board.state.result?.result === '---') tokens.push('{double forfeit}');
  tokens.push(result);
  const header = tags.map(([k, v]) => `[${k} "${escapeTag(v)}"]`).join('\n');
  return `${header}\n\n${wrap(tokens)}\n`;
}

function wrap(tokens: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line && line.length + 1 + t.length > 79) {
      lines.push(line);
      line = t;
    } else line = line ? `${line} ${t}` : t;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
