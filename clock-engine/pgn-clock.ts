// Clock comments in PGN: reading `[%clk]` / `[%emt]` from real-world files and writing them back.
// Robust to what broadcasts produce: comments wrapped over lines (`{[%clk\n00:15:27]}`), spaces inside
// braces, two-digit hours, tenths (`0:02:58.9`), several comments per move, `1. ...` for Black, variations,
// NAGs, `;` comments, and a FEN tag with Black to move. Pure: text in, data out.

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

function parseMovetext(text: string, tags: Record<string, string>): { plies: PgnPly[]; result?: string } {
  const plies: (PgnPly & { clockMs?: number; emtMs?: number })[] = [];
  const fen = tags['FEN'];
  let side: 'white' | 'black' = fen && / b /.test(fen) ? 'black' : 'white';
  let moveNumber = fen ? Number(fen.trim().split(/\s+/)[5] ?? '1') || 1 : 1;
  let depth = 0; // variation nesting
  let result: string | undefined;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '{') {
      const end = text.indexOf('}', i + 1);
      const comment = text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 1;
      const last = plies[plies.length - 1];
      if (depth === 0 && last) {
        const clk = commandValue(comment, 'clk');
        const emt = commandValue(comment, 'emt');
        if (clk !== undefined && last.clockMs === undefined) last.clockMs = clk;
        if (emt !== undefined && last.emtMs === undefined) last.emtMs = emt;
      }
      continue;
    }
    if (ch === ';') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (ch === '(') {
      depth++;
      i++;
      continue;
    }
    if (ch === ')') {
      depth = Math.max(0, depth - 1);
      i++;
      continue;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const m = /^[^\s{}();]+/.exec(text.slice(i, i + 64));
    const token = m ? m[0] : ch;
    i += token.length;
    if (depth > 0) continue;
    if (resultTokens.has(token)) {
      result = token;
      continue;
    }
    // Move numbers: `12.`, `12...`, `12.e4` (glued), `...` alone (from `1. ...`).
    const numbered = /^(\d+)\.+(.*)$/.exec(token);
    let san = token;
    if (numbered) {
      san = numbered[2]!;
      if (san === '') continue;
    }
    san = san.replace(/[!?]+$/, '');
    // Anything else that is not a move (NAGs `$1`, `...`, stray words) is skipped, not counted as a ply.
    if (!sanPattern.test(san)) continue;
    plies.push({ ply: plies.length + 1, side, moveNumber, san });
    if (side === 'black') moveNumber++;
    side = side === 'white' ? 'black' : 'white';
  }
  return result === undefined ? { plies } : { plies, result };
}

/** Splits a PGN file into games and reads each game's moves with their clock comments. */
export function readPgnGames(text: string): PgnGame[] {
  const games: PgnGame[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let tags: Record<string, string> = {};
  let movetext: string[] = [];
  let inMoves = false;
  const flush = () => {
    if (Object.keys(tags).length > 0 || movetext.some((l) => l.trim() !== '')) {
      games.push({ tags, ...parseMovetext(movetext.join('\n'), tags) });
    }
    tags = {};
    movetext = [];
    inMoves = false;
  };
  let braceDepth = 0;
  for (const line of lines) {
    // A tag pair; the opening bracket is optional because real files lose it (`Event "..."]`).
    const tag = braceDepth === 0 ? /^\s*\[?([A-Za-z]\w*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/.exec(line) : null;
    if (tag) {
      if (inMoves) flush();
      tags[tag[1]!] = tag[2]!.replace(/\\(.)/g, '$1');
      continue;
    }
    if (line.trim() !== '') inMoves = true;
    if (inMoves) movetext.push(line);
    for (const ch of line) {
      if (ch === '{') braceDepth++;
      else if (ch === '}') braceDepth = Math.max(0, braceDepth - 1);
    }
  }
  flush();
  return games;
}
