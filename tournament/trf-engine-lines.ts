// The lines of a TRF that tell a pairing engine more than the results: forbidden pairs (XXP, 260),
// players kept out of the round to pair (XXZ, 240), accelerations (250) and the initial colour (152).
// Read here once, at line:column, the way bbpPairings reads them: `trf check` reports what an engine
// would refuse or misread, and the pairing request (dutch/from-trf.ts) takes the same values.
import { TrfError } from './trf-error.ts';

/** A pairing number where the line gives it (1-based column). */
export interface PlayerRef {
  readonly id: number;
  readonly column: number;
}

export type EngineLine =
  | { readonly kind: 'forbidden'; readonly code: 'XXP'; readonly players: readonly PlayerRef[] }
  | { readonly kind: 'forbidden'; readonly code: '260'; readonly firstRound: number; readonly lastRound: number; readonly players: readonly PlayerRef[] }
  | { readonly kind: 'absent'; readonly code: 'XXZ'; readonly players: readonly PlayerRef[] }
  | { readonly kind: 'bye'; readonly code: '240'; readonly type: string; readonly round: number; readonly players: readonly PlayerRef[] }
  | {
      readonly kind: 'acceleration';
      readonly code: '250';
      readonly points: number;
      readonly firstRound: number;
      readonly lastRound: number;
      readonly firstPlayer: PlayerRef;
      readonly lastPlayer: PlayerRef;
    }
  | { readonly kind: 'initialColour'; readonly code: '152'; readonly colour: 'white' | 'black' };

export const ENGINE_LINE_CODES: ReadonlySet<string> = new Set(['XXP', '260', 'XXZ', '240', '250', '152']);

/** A number in the 1-based columns from..to of `line`. */
function numberAt(line: string, lineNo: number, from: number, to: number, what: string): number {
  const text = line.slice(from - 1, to).trim();
  if (!/^\d+(\.\d+)?$/.test(text)) throw new TrfError(lineNo, from, `${what} '${text}' in columns ${from}-${to} is not a number`);
  return Number(text);
}

function pairingNumber(text: string, lineNo: number, column: number): PlayerRef {
  const id = Number(text);
  if (!/^\d+$/.test(text) || id < 1) throw new TrfError(lineNo, column, `'${text}' is not a pairing number`);
  return { id, column };
}

/** Pairing numbers every 5 columns from column `from` (1-based) to the end of the line. */
function playersFrom(line: string, lineNo: number, from: number): PlayerRef[] {
  const players: PlayerRef[] = [];
  const end = line.trimEnd().length;
  for (let start = from; start <= end; start += 5) {
    players.push(pairingNumber(line.slice(start - 1, start + 3).trim(), lineNo, start));
  }
  return players;
}

/** Whitespace-separated pairing numbers after the code (XXP, XXZ). */
function playerWords(line: string, lineNo: number): PlayerRef[] {
  return [...line.slice(3).matchAll(/\S+/g)].map((m) => pairingNumber(m[0], lineNo, 4 + m.index));
}

/** The engine line on `line`, or undefined for another code; a line the engines would refuse throws TrfError. */
export function readEngineLine(line: string, lineNo: number): EngineLine | undefined {
  const code = line.slice(0, 3);
  switch (code) {
    case 'XXP':
      return { kind: 'forbidden', code, players: playerWords(line, lineNo) };
    case 'XXZ':
      return { kind: 'absent', code, players: playerWords(line, lineNo) };
    case '260': {
      const firstRound = numberAt(line, lineNo, 5, 7, '260: first round');
      const lastRound = numberAt(line, lineNo, 9, 11, '260: last round');
      if (lastRound < firstRound) throw new TrfError(lineNo, 9, `260: last round ${lastRound} is before the first round ${firstRound}`);
      const players = playersFrom(line, lineNo, 13);
      if (players.length < 2) throw new TrfError(lineNo, 13, '260: a forbidden pair needs at least two pairing numbers, from column 13');
      return { kind: 'forbidden', code, firstRound, lastRound, players };
    }
    case '240': {
      const type = line.slice(4, 5);
      if (!['H', 'F', 'Z', 'U'].includes(type)) throw new TrfError(lineNo, 5, `240: bye type '${type}' is not H, F, Z or U`);
      const round = numberAt(line, lineNo, 7, 9, '240: round');
      const players = playersFrom(line, lineNo, 11);
      if (players.length === 0) throw new TrfError(lineNo, 11, '240: no pairing number from column 11');
      return { kind: 'bye', code, type, round, players };
    }
    case '250': {
      const points = numberAt(line, lineNo, 10, 13, '250: game points');
      const firstRound = numberAt(line, lineNo, 15, 17, '250: first round');
      const lastRound = numberAt(line, lineNo, 19, 21, '250: last round');
      const firstPlayer = pairingNumber(line.slice(22, 26).trim(), lineNo, 23);
      const lastPlayer = pairingNumber(line.slice(27, 31).trim(), lineNo, 28);
      return { kind: 'acceleration', code, points, firstRound, lastRound, firstPlayer, lastPlayer };
    }
    case '152': {
      const value = line.slice(4).trim();
      if (value !== 'W' && value !== 'B') throw new TrfError(lineNo, 5, `152: the initial colour is W or B, not '${value}'`);
      return { kind: 'initialColour', code, colour: value === 'W' ? 'white' : 'black' };
    }
    default:
      return undefined;
  }
}

/**
 * What an engine does with `engine` against the players the file has: refuses it (a forbidden pair or an
 * acceleration naming a player without a 001 line: bbpPairings stops, or crashes), or reads it otherwise
 * than meant (a bye or absence for nobody, a "pair" of one: silently nothing).
 */
export function engineLineCheck(engine: EngineLine, known: (id: number) => boolean): { readonly refused: TrfProblemAt[]; readonly misread: TrfProblemAt[] } {
  const refused: TrfProblemAt[] = [];
  const misread: TrfProblemAt[] = [];
  const nobody = (p: PlayerRef): TrfProblemAt => ({ column: p.column, problem: `${engine.code}: player ${p.id} has no 001 line` });
  switch (engine.kind) {
    case 'acceleration':
      for (const end of [engine.firstPlayer, engine.lastPlayer]) if (!known(end.id)) refused.push(nobody(end));
      break;
    case 'forbidden':
      for (const p of engine.players) if (!known(p.id)) refused.push(nobody(p));
      if (engine.players.length < 2) misread.push({ column: 5, problem: `${engine.code}: one pairing number forbids nothing (a pair needs two)` });
      break;
    case 'bye':
    case 'absent':
      for (const p of engine.players) if (!known(p.id)) misread.push({ ...nobody(p), problem: `${nobody(p).problem}: the engines ignore it` });
      break;
    case 'initialColour':
      break;
  }
  return { refused, misread };
}

/** A problem on a line already known, at its 1-based column. */
export interface TrfProblemAt {
  readonly column: number;
  readonly problem: string;
}
