// Live PGN, valid at every instant (chess.js and pgn-extract read every fetch): the moves the board
// has read, each with one comment holding [%clk] (the display after its press, increment included),
// [%emt] (time used on the move) and then the arbiter's notes; a press whose move the board has not
// read yet is no ply: its time shows in WhiteClock/BlackClock as of now, with ReferenceTime (the
// running side and the wall time those clocks refer to), which broadcasts read between moves.
// A position the board had to re-read starts the game again from it (SetUp/FEN), the moves before it
// kept in the opening comment.
import type { GameResult } from '../../clock-engine/index.ts';
import type { Board, BoardLine } from './board.ts';
import type { Round } from '../contract/index.ts';
import { pgnTimeControl } from '../contract/index.ts';

export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const pgnResult = (r: GameResult | undefined): string => (r === '+--' ? '1-0' : r === '--+' ? '0-1' : r === '1-0' || r === '0-1' || r === '1/2-1/2' ? r : '*');

// Free text (names, an arbiter's reason) reaches the PGN on one line: a line break in it could start a
// line with `[Result "0-1"]` that readers take for a tag, so every control character becomes a space.
// eslint-disable-next-line no-control-regex
const oneLine = (s: string): string => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
const escapeTag = (s: string): string => oneLine(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
/** A comment's text: no brace (PGN has no nested comments) and no `[%` command (a forged [%clk]). */
const escapeComment = (s: string): string => oneLine(s).replace(/[{}]/g, '').replace(/\[%/g, '[ %');

/** Each board's PGN as last made for the live feed: the board's version and the second it was made in. */
const madeForTheSecond = new WeakMap<Board, { readonly version: number; readonly second: number; readonly text: string }>();

/**
 * A board's live PGN (`boardPgn`, with ReferenceTime), made again only when the board changed (its
 * `version`, the hall's) or `second` turned (the caller's: the server keeps its whole-hall feeds for the
 * hall's second, http-routes.ts). The whole hall's feed is asked for after every press: made afresh it
 * was 1,000 games' PGN (about 20 ms) for one board's change, 15 times a second. Within the second a
 * board's clocks read as of its making, as the whole feed's did.
 */
export function boardPgnForTheSecond(board: Board, version: number, second: number, now: number, wallMs: number): string {
  const made = madeForTheSecond.get(board);
  if (made && made.version === version && made.second === second) return made.text;
  const text = boardPgn(board.round, board, now, wallMs);
  madeForTheSecond.set(board, { version, second, text });
  return text;
}

export function boardPgn(round: Round, board: Board, now: number, wallMs?: number): string {
  const remaining = board.remainingAt(now);
  const result = pgnResult(board.correctedResult ?? board.state.result?.result);
  const s = board.state;
  const lines = board.lines;
  const line = lines[lines.length - 1]!;
  const info = board.info;
  // The section's own board number: the hall's numbering is the arbiters', not the players'.
  const boardNumber = String(info.sectionBoard ?? board.id);
  const start = new Date(round.scheduledStart).toISOString();
  const tags: [string, string][] = [
    ['Event', round.event],
    ['Site', round.site],
    ['Date', round.date],
    ['Round', `${round.round}.${boardNumber}`],
    ['White', info.white],
    ['Black', info.black],
    ['Result', result],
    ['Board', boardNumber],
    // The round's start as scheduled (or as rescheduled when seated late), which the broadcasts order by.
    ['UTCDate', start.slice(0, 10).replace(/-/g, '.')],
    ['UTCTime', start.slice(11, 19)],
    ['TimeControl', pgnTimeControl(round.game.timeControl)],
    ['WhiteClock', clockText(remaining.white)],
    ['BlackClock', clockText(remaining.black)],
  ];
  if (wallMs !== undefined) {
    const running = s.status === 'running' ? (s.toMove === 'white' ? 'W' : 'B') : 'N';
    tags.push(['ReferenceTime', `${running}/${new Date(wallMs).toISOString()}`]);
  }
  // What a relay matches players by (FIDE ids: two entrants of one name stay two players) and shows.
  const optional: [string, string | number | undefined][] = [
    ['WhiteFideId', info.whiteFideId],
    ['BlackFideId', info.blackFideId],
    ['WhiteElo', info.whiteElo],
    ['BlackElo', info.blackElo],
    ['WhiteTitle', info.whiteTitle],
    ['BlackTitle', info.blackTitle],
    ['WhiteFed', info.whiteFed],
    ['BlackFed', info.blackFed],
  ];
  for (const [tag, value] of optional) if (value !== undefined) tags.push([tag, String(value)]);
  if (s.result) tags.push(['Termination', s.result.termination]);
  if (line.fen) tags.push(['SetUp', '1'], ['FEN', line.fen]);
  const opening = [...lines.slice(0, -1).map(earlierText), ...line.notes];
  const tokens: string[] = [];
  if (opening.length > 0) tokens.push(comment([], opening));
  const [, turn = 'w', , , , full = '1'] = (line.fen ?? 'x w - - 0 1').split(' ');
  let number = Number(full);
  let side = turn === 'b' ? 'black' : 'white';
  let first = true;
  for (const ply of line.plies) {
    if (side === 'white') tokens.push(`${number}.`);
    else if (first) tokens.push(`${number}...`);
    tokens.push(ply.san);
    const clock = ply.clock ? [`[%clk ${clockText(ply.clock.clockMs)}] [%emt ${clockText(ply.clock.elapsedMs)}]`] : [];
    if (clock.length + ply.notes.length > 0) tokens.push(comment(clock, ply.notes));
    if (side === 'black') number++;
    side = side === 'white' ? 'black' : 'white';
    first = false;
  }
  if (s.result?.result === '---') tokens.push('{double forfeit}');
  tokens.push(result);
  const header = tags.map(([k, v]) => `[${k} "${escapeTag(v)}"]`).join('\n');
  return `${header}\n\n${wrap(tokens)}\n`;
}

/** One comment: the console's own [%clk]/[%emt], then the notes' free text escaped, separated by "; ". */
const comment = (commands: readonly string[], notes: readonly string[]): string => `{${[...commands, ...notes.map(escapeComment)].join('; ')}}`;

/** A line the board read before it had to re-read the position, for the opening comment. */
function earlierText(line: BoardLine): string {
  const sans = line.plies.map((p) => p.san).join(' ');
  return [line.fen ? `from ${line.fen}` : '', sans ? `moves read before: ${sans}` : 'no moves read before', ...line.notes].filter(Boolean).join(', ');
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
