// Clock comments in PGN: reading `[%clk]` / `[%emt]` from real-world files and writing them back.
// Robust to what broadcasts produce: comments wrapped over lines (`{[%clk\n00:15:27]}`), spaces inside
// braces, two-digit hours, tenths (`0:02:58.9`), several comments per move, `1. ...` for Black, variations,
// NAGs, `;` comments, and a FEN tag with Black to move; and to the PGN import format (standard 8.1):
// several tag pairs on one line, comments between tags and anywhere in the movetext, `%` escape lines.
// Pure: text in, data out.

export interface PgnPly {
  /** 1-based half-move index in the game as recorded. */
  readonly ply: number;
  readonly side: 'white' | 'black';
  /** Fullmove number of this move (PGN numbering). */
  readonly moveNumber: number;
  readonly san: string;
  /** `[%clk]`: the mover's clock right after this move, ms. */
  readonly clockMs?: number;
  /** `[%emt]`: time this move took, ms. */
  readonly emtMs?: number;
}

export interface PgnGame {
  readonly tags: Readonly<Record<string, string>>;
  readonly plies: readonly PgnPly[];
  /** The result token at the end of the movetext, if any. */
  readonly result?: string;
}

/** `1:30:00`, `01:30:00`, `0:02:58.9`, `15:19` (m:ss) -> ms; undefined if unreadable. */
export function parseClockValue(text: string): number | undefined {
  const m = /^\s*(?:(\d+):)?(\d{1,2}):(\d{2})(?:\.(\d{1,3}))?\s*$/.exec(text);
  if (!m) return undefined;
  const [, h = '0', min = '0', sec = '0', frac = ''] = m;
  const fracMs = frac === '' ? 0 : Math.round(Number(`0.${frac}`) * 1000);
  return ((Number(h) * 60 + Number(min)) * 60 + Number(sec)) * 1000 + fracMs;
}

/**
 * A PGN clock comment for `ms`: `[%clk 1:29:59]`. Whole seconds are truncated, as a clock display shows
 * them; `tenths` writes `0:02:58.9`. `kind: 'emt'` writes the elapsed move time `[%emt 0:00:12]`.
 */
export function formatClockComment(ms: number, options: { kind?: 'clk' | 'emt'; tenths?: boolean } = {}): string {
  const value = Math.max(0, Math.floor(ms));
  const tenthsTotal = Math.floor(value / 100);
  const seconds = Math.floor(value / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const body = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${options.tenths ? `.${tenthsTotal % 10}` : ''}`;
  return `[%${options.kind ?? 'clk'} ${body}]`;
}

function commandValue(comment: string, command: 'clk' | 'emt'): number | undefined {
  const m = new RegExp(`\\[%${command}\\s+([0-9:.]+)\\s*\\]`).exec(comment);
  return m ? parseClockValue(m[1]!) : undefined;
}

const sanPattern = /^(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?|--|Z0)[+#]?$/;
const resultTokens = new Set(['1-0', '0-1', '1/2-1/2', '*']);

/** A lexical item of PGN (export and import format alike). */
type Token =
  | { readonly kind: 'tag'; readonly name: string; readonly value: string }
  | { readonly kind: 'comment'; readonly text: string }
  | { readonly kind: 'open' | 'close' }
  | { readonly kind: 'symbol'; readonly text: string };

const tagPair = /\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;
// Real files lose the opening bracket of a tag at the start of a line (`Event "..."]`).
const bracketLost = /([A-Za-z]\w*)\s+"((?:[^"\\]|\\.)*)"\s*\]/y;
const symbol = /[^\s{}();[\]]+/y;

function at(pattern: RegExp, text: string, i: number): RegExpExecArray | null {
  pattern.lastIndex = i;
  return pattern.exec(text);
}

/**
 * PGN's tokens, wherever the import format allows them: several tag pairs on one line, brace comments
 * over several lines or between tags, `;` comments to the end of the line, `%` escape lines.
 */
function* tokens(text: string): Generator<Token> {
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      i++;
      lineStart = true;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\v' || ch === '\f') {
      i++;
      continue;
    }
    const atLineStart = lineStart;
    lineStart = false;
    if (ch === '%' && atLineStart) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (ch === '{' || ch === ';') {
      const end = text.indexOf(ch === '{' ? '}' : '\n', i + 1);
      yield { kind: 'comment', text: text.slice(i + 1, end < 0 ? text.length : end) };
      i = end < 0 ? text.length : ch === '{' ? end + 1 : end;
      continue;
    }
    if (ch === '(' || ch === ')') {
      yield { kind: ch === '(' ? 'open' : 'close' };
      i++;
      continue;
    }
    const tag = ch === '[' ? at(tagPair, text, i) : atLineStart ? at(bracketLost, text, i) : null;
    if (tag) {
      yield { kind: 'tag', name: tag[1]!, value: tag[2]!.replace(/\\(.)/g, '$1') };
      i += tag[0].length;
      continue;
    }
    const m = at(symbol, text, i);
    if (!m) {
      i++; // a stray `[` or `]`
      continue;
    }
    yield { kind: 'symbol', text: m[0] };
    i += m[0].length;
  }
}

/** One game's tags and movetext as they are read. */
class GameReader {
  readonly tags: Record<string, string> = {};
  readonly plies: (PgnPly & { clockMs?: number; emtMs?: number })[] = [];
  result: string | undefined;
  /** Whether any movetext was read (a move, a number, a variation): a tag after it starts the next game. */
  hasMovetext = false;
  private depth = 0; // variation nesting
  private side: 'white' | 'black' = 'white';
  private moveNumber = 1;

  get empty(): boolean {
    return Object.keys(this.tags).length === 0 && !this.hasMovetext;
  }

  tag(name: string, value: string): void {
    this.tags[name] = value;
  }

  read(token: Exclude<Token, { kind: 'tag' }>): void {
    // A comment among the tags (or before them) is not movetext yet.
    if (token.kind === 'comment' && !this.hasMovetext) return;
    if (!this.hasMovetext) this.startMoves();
    this.hasMovetext = true;
    switch (token.kind) {
      case 'open':
        this.depth++;
        return;
      case 'close':
        this.depth = Math.max(0, this.depth - 1);
        return;
      case 'comment':
        return this.comment(token.text);
      case 'symbol':
        return this.symbol(token.text);
    }
  }

  /** The movetext starts where the FEN tag says (Black to move, its move number). */
  private startMoves(): void {
    const fen = this.tags['FEN'];
    if (!fen) return;
    if (/ b /.test(fen)) this.side = 'black';
    this.moveNumber = Number(fen.trim().split(/\s+/)[5] ?? '1') || 1;
  }

  private comment(text: string): void {
    const last = this.plies[this.plies.length - 1];
    if (this.depth > 0 || !last) return;
    const clk = commandValue(text, 'clk');
    const emt = commandValue(text, 'emt');
    if (clk !== undefined && last.clockMs === undefined) last.clockMs = clk;
    if (emt !== undefined && last.emtMs === undefined) last.emtMs = emt;
  }

  private symbol(token: string): void {
    if (this.depth > 0) return;
    if (resultTokens.has(token)) {
      this.result = token;
      return;
    }
    // Move numbers: `12.`, `12...`, `12.e4` (glued), `...` alone (from `1. ...`).
    const numbered = /^(\d+)\.+(.*)$/.exec(token);
    const san = (numbered ? numbered[2]! : token).replace(/[!?]+$/, '');
    // Anything else that is not a move (NAGs `$1`, `...`, stray words) is skipped, not counted as a ply.
    if (san === '' || !sanPattern.test(san)) return;
    this.plies.push({ ply: this.plies.length + 1, side: this.side, moveNumber: this.moveNumber, san });
    if (this.side === 'black') this.moveNumber++;
    this.side = this.side === 'white' ? 'black' : 'white';
  }

  game(): PgnGame {
    return this.result === undefined ? { tags: this.tags, plies: this.plies } : { tags: this.tags, plies: this.plies, result: this.result };
  }
}

/**
 * Splits a PGN file into games and reads each game's moves with their clock comments. A game ends at
 * its result, or where a tag pair follows its movetext.
 */
export function readPgnGames(text: string): PgnGame[] {
  const games: PgnGame[] = [];
  let game = new GameReader();
  const finish = () => {
    if (!game.empty) games.push(game.game());
    game = new GameReader();
  };
  for (const token of tokens(text.replace(/\r\n?/g, '\n'))) {
    if (token.kind === 'tag') {
      if (game.hasMovetext) finish();
      game.tag(token.name, token.value);
      continue;
    }
    // A comment after the result (or between games) belongs to no game's moves.
    if (game.result !== undefined && token.kind === 'comment') continue;
    // The result ends the movetext: what follows (tags, or moves without tags) is the next game.
    if (game.result !== undefined) finish();
    game.read(token);
  }
  finish();
  return games;
}
