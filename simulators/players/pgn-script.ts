// Replays recorded games: a PGN's moves with the think times its [%emt] comments recorded.
import { Chess } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import type { GameScript, Promotion, ScriptedMove, ScriptResult } from './game-script.ts';

export class PgnScriptError extends Error {
  override readonly name = 'PgnScriptError';
}

export interface PgnScriptOptions {
  /**
   * Think time for a move without [%emt] (DGT LiveChess omits it on the first moves). Without this
   * option such a move is an error: a replay should not invent times silently.
   */
  readonly missingThinkMs?: number;
}

/** The game in `pgn` (one game; tags optional) as a script with its recorded think times. */
export function pgnGameScript(pgn: string, options: PgnScriptOptions = {}): GameScript {
  const { tags, movetext } = splitTags(pgn);
  const chess = new Chess();
  if (tags.FEN) {
    try {
      chess.load(tags.FEN);
    } catch (error) {
      throw new PgnScriptError(`bad [FEN] tag: ${(error as Error).message}`);
    }
  }
  const startFen = chess.fen();
  const moves: Array<Omit<ScriptedMove, 'thinkMs'> & { emtMs?: number }> = [];
  let result: ScriptResult = '*';
  for (const token of movetextTokens(movetext)) {
    if (token.kind === 'result') {
      // The termination marker ends the movetext; anything after it belongs to no move.
      result = token.text as ScriptResult;
      break;
    } else if (token.kind === 'comment') {
      const last = moves.at(-1);
      if (!last) continue;
      const emtMs = commandDuration(token.text, 'emt');
      const clockMs = commandDuration(token.text, 'clk');
      if (emtMs !== undefined) last.emtMs = emtMs;
      if (clockMs !== undefined) moves[moves.length - 1] = { ...last, clockMs };
    } else {
      const side: Side = chess.turn() === 'w' ? 'white' : 'black';
      const fenBefore = chess.fen();
      let played;
      try {
        played = chess.move(token.text.replace(/[!?]+$/, ''), { strict: false });
      } catch {
        throw new PgnScriptError(`illegal or unreadable move "${token.text}" at ply ${moves.length + 1}`);
      }
      moves.push({
        ply: moves.length,
        side,
        san: played.san,
        from: played.from,
        to: played.to,
        ...(played.promotion ? { promotion: played.promotion as Promotion } : {}),
        fenBefore,
        fenAfter: chess.fen(),
      });
    }
  }
  const scripted = moves.map(({ emtMs, ...move }): ScriptedMove => {
    const thinkMs = emtMs ?? options.missingThinkMs;
    if (thinkMs === undefined) {
      throw new PgnScriptError(`move ${move.san} (ply ${move.ply + 1}) has no [%emt]; pass missingThinkMs to allow it`);
    }
    return { ...move, thinkMs };
  });
  if (result === '*' && tags.Result && ['1-0', '0-1', '1/2-1/2'].includes(tags.Result)) {
    result = tags.Result as ScriptResult;
  }
  return { startFen, moves: scripted, result, termination: tags.Termination ?? 'pgn', tags };
}

/** Every game in a PGN file, each as its own text (a new game starts at a tag after movetext). */
export function splitPgnGames(text: string): string[] {
  const games: string[] = [];
  let current: string[] = [];
  let seenMovetext = false;
  for (const line of text.split(/\r?\n/)) {
    // A tag pair, not a comment's continuation line such as "[%clk 1:31:21]}".
    const isTag = /^\s*\[\w+\s+"/.test(line);
    if (isTag && seenMovetext) {
      games.push(current.join('\n'));
      current = [];
      seenMovetext = false;
    }
    if (!isTag && line.trim() !== '') seenMovetext = true;
    current.push(line);
  }
  if (current.some((line) => line.trim() !== '')) games.push(current.join('\n'));
  return games;
}

/** Parses "[%emt 0:01:02.5]" style durations (h:mm:ss[.f] or mm:ss) to integer ms. */
export function commandDuration(comment: string, command: string): number | undefined {
  const match = new RegExp(`\\[%${command}\\s+((?:\\d+:)?\\d+:\\d+(?:\\.\\d+)?)\\s*\\]`).exec(comment);
  if (!match?.[1]) return undefined;
  const parts = match[1].split(':').map(Number);
  const seconds = parts.reduce((total, part) => total * 60 + part, 0);
  return Math.round(seconds * 1000);
}

function splitTags(pgn: string): { tags: Record<string, string>; movetext: string } {
  const tags: Record<string, string> = {};
  const movetext: string[] = [];
  for (const line of pgn.split(/\r?\n/)) {
    const tag = /^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$/.exec(line);
    if (tag?.[1] !== undefined && tag[2] !== undefined && movetext.length === 0) {
      tags[tag[1]] = tag[2].replace(/\\(.)/g, '$1');
    } else {
      movetext.push(line);
    }
  }
  return { tags, movetext: movetext.join('\n') };
}

type Token = { kind: 'move' | 'comment' | 'result'; text: string };

function* movetextTokens(movetext: string): Generator<Token> {
  let i = 0;
  let variationDepth = 0;
  while (i < movetext.length) {
    const char = movetext[i] as string;
    if (char === '{') {
      const end = movetext.indexOf('}', i);
      const stop = end === -1 ? movetext.length : end;
      if (variationDepth === 0) yield { kind: 'comment', text: movetext.slice(i + 1, stop) };
      i = stop + 1;
    } else if (char === ';') {
      const end = movetext.indexOf('\n', i);
      i = end === -1 ? movetext.length : end + 1;
    } else if (char === '(') {
      variationDepth++;
      i++;
    } else if (char === ')') {
      variationDepth = Math.max(0, variationDepth - 1);
      i++;
    } else if (/\s/.test(char)) {
      i++;
    } else {
      const word = /^[^\s{}();]+/.exec(movetext.slice(i))?.[0] ?? char;
      i += word.length;
      if (variationDepth > 0) continue;
      // "12." / "12..." / "12.e4": drop the move number, keep what follows it.
      const san = word.replace(/^\d+\.+/, '');
      // "1. ... Nf6" writes the ellipsis as a token of its own.
      if (san === '' || san.startsWith('$') || /^\.+$/.test(san)) continue;
      if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(san)) yield { kind: 'result', text: san };
      else yield { kind: 'move', text: san };
    }
  }
}
