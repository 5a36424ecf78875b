// TRF-16 (FIDE C.04 Annex 2) with the JaVaFo / bbpPairings XX* and BB* extensions.
// The model is the file's own vocabulary (starting ranks, result codes); standings, tie-breaks and
// the pairing engine all read it. Columns below are 1-based and inclusive, as in the spec.
import { ENGINE_LINE_CODES, engineLineCheck, readEngineLine, type EngineLine } from './trf-engine-lines.ts';
import { TrfError } from './trf-error.ts';

export { TrfError };

export type TrfColour = 'w' | 'b';

/**
 * One round of one player:
 * 1 = 0 played; + - forfeit; W D L game of less than one move (not rated);
 * H half-point bye, F full-point bye, U pairing-allocated bye, Z zero-point bye (blank = Z).
 * Blank slots after the last round anyone was paired in are not rounds (as bbpPairings reads them);
 * an entry there (a requested bye for the next round) is kept.
 */
export type TrfResultCode = '1' | '=' | '0' | '+' | '-' | 'W' | 'D' | 'L' | 'H' | 'F' | 'U' | 'Z';

export interface TrfRoundEntry {
  /** Opponent's starting rank; null for a bye or an absence. */
  readonly opponent: number | null;
  readonly colour: TrfColour | null;
  readonly result: TrfResultCode;
}

export interface TrfPlayer {
  /** Starting rank (pairing id), 1..9999. */
  readonly id: number;
  readonly sex: 'm' | 'w' | '';
  readonly title: string;
  /** "Lastname, Firstname". */
  readonly name: string;
  /** FIDE rating; null when unrated (blank). */
  readonly rating: number | null;
  readonly federation: string;
  /** FIDE id as written (digits), '' when blank. */
  readonly fideId: string;
  /** YYYY/MM/DD as written, '' when blank. */
  readonly birthDate: string;
  /** Points as written in columns 81-84 (checked against the results). */
  readonly points: number;
  /** Rank as written; null when blank. */
  readonly rank: number | null;
  /** Round 1 first. */
  readonly rounds: readonly TrfRoundEntry[];
}

export interface TrfTeam {
  readonly name: string;
  readonly playerIds: readonly number[];
}

/** Points per result, as XXS / BB* lines may set them. */
export interface TrfScoring {
  readonly win: number;
  readonly draw: number;
  readonly loss: number;
  readonly forfeitWin: number;
  readonly forfeitLoss: number;
  readonly fullBye: number;
  readonly halfBye: number;
  readonly zeroBye: number;
  readonly pairingBye: number;
}

export const standardScoring: TrfScoring = {
  win: 1,
  draw: 0.5,
  loss: 0,
  forfeitWin: 1,
  forfeitLoss: 0,
  fullBye: 1,
  halfBye: 0.5,
  zeroBye: 0,
  pairingBye: 1,
};

/** A line the model does not interpret, kept verbatim (XXA, XXP, XXZ, ###, 2026 records…). */
export interface TrfOtherLine {
  readonly code: string;
  readonly text: string;
}

export interface TrfTournament {
  /** 012 */ readonly name?: string;
  /** 022 */ readonly city?: string;
  /** 032 */ readonly federation?: string;
  /** 042 */ readonly startDate?: string;
  /** 052 */ readonly endDate?: string;
  /** 062 */ readonly playerCount?: number;
  /** 072 */ readonly ratedPlayerCount?: number;
  /** 082 */ readonly teamCount?: number;
  /** 092 */ readonly type?: string;
  /** 102 */ readonly chiefArbiter?: string;
  /** 112, one per line */ readonly deputyArbiters: readonly string[];
  /** 122 */ readonly timeControl?: string;
  /** 132: round dates YY/MM/DD, round 1 first. */
  readonly roundDates: readonly string[];
  /** XXR (or 2026 tag 142). */
  readonly totalRounds?: number;
  /** XXC words: rank, white1, black1. */
  readonly configuration: readonly string[];
  readonly scoring: TrfScoring;
  /** True when an XXS or BB* line set the scoring (so export writes it back). */
  readonly customScoring: boolean;
  /** Players in file order. */
  readonly players: readonly TrfPlayer[];
  /** 013 */ readonly teams: readonly TrfTeam[];
  readonly otherLines: readonly TrfOtherLine[];
}

/**
 * Point deductions (a regulation's sanction, SA Open: "one point deducted from their final scores")
 * cannot be carried by TRF-16 itself: a 001 line's points must equal its results (bbpPairings refuses
 * the file otherwise, and a pairing engine must pair on the scores the games gave). The export says
 * so in a comment line the engines skip (`###`): `### zeitnot deductions 5=1 12=1 ...`, pairing
 * number = points off; `zeitnot standings` reads it (or takes --deduct for a file without it).
 */
const deductionsTag = '### zeitnot deductions';

/** The comment line of a TRF that carries its point deductions (by pairing number); undefined when there are none. */
export function deductionsLine(deductions: ReadonlyMap<number, number>): TrfOtherLine | undefined {
  const entries = [...deductions].filter(([, points]) => points !== 0).sort(([a], [b]) => a - b);
  if (entries.length === 0) return undefined;
  const list = entries.map(([id, points]) => `${id}=${points}`).join(' ');
  return { code: '###', text: `${deductionsTag} ${list} (points off the final score, by pairing number: TRF-16's points must equal the results)` };
}

/** The point deductions a TRF's comment line carries (deductionsLine), by pairing number; undefined when it has none. */
export function readDeductions(tournament: TrfTournament): Map<number, number> | undefined {
  const line = tournament.otherLines.find((l) => l.text.startsWith(`${deductionsTag} `));
  if (!line) return undefined;
  return parseDeductions(
    line.text
      .slice(deductionsTag.length + 1)
      .split(' (')[0]!
      .trim()
      .split(/\s+/),
  );
}

/** `5=1` `12=0.5`: pairing number and points off; throws a RangeError naming the first entry that is neither. */
export function parseDeductions(entries: readonly string[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of entries.filter((e) => e !== '')) {
    const match = /^(\d+)=(\d+(?:\.\d+)?)$/.exec(entry);
    if (!match) throw new RangeError(`'${entry}' is no deduction (pairing number=points, as 5=1)`);
    const id = Number(match[1]);
    out.set(id, (out.get(id) ?? 0) + Number(match[2]));
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Line and column (1-based) of byte `index` of `bytes` (the file is 8-bit text up to there). */
function positionOf(bytes: Uint8Array, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < index; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: index - start + 1 };
}

/**
 * The text of a TRF file's bytes. TRF is 8-bit text: UTF-8 (a BOM allowed) or, as many pairing
 * programs write it, Latin-1. Refused (TrfError at the first offending byte): an empty file, UTF-16
 * (a byte-order mark, or the NUL bytes every other byte that UTF-16 without one has), and binary
 * data (NUL or other control bytes).
 */
export function decodeTrf(bytes: Uint8Array): string {
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) throw new TrfError(1, 1, 'the file is empty');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new TrfError(1, 1, 'the file is UTF-16 (byte-order mark): save it as UTF-8 or Latin-1 text');
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const sample = bytes.subarray(0, Math.min(bytes.length, 200));
    const oddNuls = sample.filter((b, i) => i % 2 === 1 && b === 0).length;
    const evenNuls = sample.filter((b, i) => i % 2 === 0 && b === 0).length;
    const half = Math.floor(sample.length / 2) * 0.8;
    if (oddNuls >= half || evenNuls >= half) throw new TrfError(1, 1, 'the file is UTF-16 (a NUL byte every other byte): save it as UTF-8 or Latin-1 text');
  }
  const control = bytes.findIndex((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a);
  if (control >= 0) {
    const { line, column } = positionOf(bytes, control);
    throw new TrfError(line, column, `not a text file: control byte 0x${bytes[control]!.toString(16).padStart(2, '0')}`);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

const resultCodes = new Set<string>(['1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z']);

/** Points the player gets for one round under `scoring`. */
export function entryPoints(entry: TrfRoundEntry, scoring: TrfScoring = standardScoring): number {
  switch (entry.result) {
    case '1':
    case 'W':
      return scoring.win;
    case '=':
    case 'D':
      return scoring.draw;
    case '0':
    case 'L':
      return scoring.loss;
    case '+':
      return scoring.forfeitWin;
    case '-':
      return scoring.forfeitLoss;
    case 'H':
      return scoring.halfBye;
    case 'F':
      return scoring.fullBye;
    case 'U':
      return scoring.pairingBye;
    case 'Z':
      return scoring.zeroBye;
  }
}

/** Played over the board (including games of less than one move). */
export const isPlayed = (entry: TrfRoundEntry): boolean => entry.opponent !== null && '1=0WDL'.includes(entry.result);

/** Paired in that round: an opponent, a pairing-allocated bye (U) or a forfeit win (+), as opposed to a requested bye. */
export const paired = (entry: TrfRoundEntry): boolean => entry.opponent !== null || entry.result === 'U' || entry.result === '+';

/** Rounds of `tournament` already paired: the last column in which anyone was paired. */
export function pairedRounds(tournament: TrfTournament): number {
  let rounds = 0;
  for (const player of tournament.players) {
    player.rounds.forEach((entry, index) => {
      if (paired(entry) || index < player.rounds.length - 1) rounds = Math.max(rounds, index + 1);
    });
  }
  return rounds;
}

export const totalPoints = (player: TrfPlayer, scoring: TrfScoring = standardScoring): number =>
  player.rounds.reduce((sum, entry) => sum + entryPoints(entry, scoring), 0);

const field = (line: string, from: number, to: number): string => line.slice(from - 1, to).trim();

function parseNumber(text: string, line: number, column: number, what: string): number {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || !/^[+-]?\d*\.?\d+$/.test(text)) throw new TrfError(line, column, `${what} '${text}' is not a number`);
  return value;
}

/** Column of round `round`'s slot (opponent; colour +5, result +7). */
export const roundColumn = (round: number): number => 92 + 10 * (round - 1);

function parseRoundEntry(slot: string, lineNo: number, round: number): TrfRoundEntry {
  const at = roundColumn(round);
  const opponentText = slot.slice(0, 4).trim();
  const colourText = slot.slice(5, 6).trim().toLowerCase();
  const resultText = slot.slice(7, 8).trim().toUpperCase() || 'Z';
  if (!resultCodes.has(resultText)) throw new TrfError(lineNo, at + 7, `round ${round}: unknown result code '${resultText}'`);
  if (colourText !== '' && colourText !== '-' && colourText !== 'w' && colourText !== 'b') {
    throw new TrfError(lineNo, at + 5, `round ${round}: unknown colour '${colourText}'`);
  }
  const opponentNumber = opponentText === '' ? 0 : Number(opponentText);
  if (!/^\d*$/.test(opponentText) || !Number.isInteger(opponentNumber) || opponentNumber < 0) {
    throw new TrfError(lineNo, at, `round ${round}: opponent '${opponentText}' is not a starting rank`);
  }
  const result = resultText as TrfResultCode;
  const opponent = opponentNumber === 0 ? null : opponentNumber;
  const needsOpponent = '1=0WDL'.includes(result);
  if (needsOpponent && opponent === null) throw new TrfError(lineNo, at, `round ${round}: result '${result}' needs an opponent`);
  if ('HFUZ'.includes(result) && opponent !== null) {
    throw new TrfError(lineNo, at, `round ${round}: bye '${result}' cannot have an opponent`);
  }
  const colour = colourText === 'w' || colourText === 'b' ? colourText : null;
  if (needsOpponent && colour === null) throw new TrfError(lineNo, at + 5, `round ${round}: a played game needs a colour`);
  return { opponent, colour, result };
}

/** A player line; `entered`, `paired`: its last round with a non-blank slot, with a pairing (0: none). */
function parsePlayer(line: string, lineNo: number): { player: TrfPlayer; entered: number; paired: number } {
  const id = parseNumber(field(line, 5, 8), lineNo, 5, 'starting rank');
  if (!Number.isInteger(id) || id < 1 || id > 9999) throw new TrfError(lineNo, 5, `starting rank ${id} is outside 1..9999`);
  const sexText = field(line, 10, 10).toLowerCase();
  if (sexText !== '' && sexText !== 'm' && sexText !== 'w' && sexText !== 'f') {
    throw new TrfError(lineNo, 10, `sex '${sexText}' is not m or w`);
  }
  const ratingText = field(line, 49, 52);
  const rankText = field(line, 86, 89);
  const rounds: TrfRoundEntry[] = [];
  let entered = 0;
  let paired = 0;
  for (let start = 92, round = 1; start <= line.length; start += 10, round += 1) {
    const slot = line.slice(start - 1, start + 7).padEnd(8);
    const entry = parseRoundEntry(slot, lineNo, round);
    rounds.push(entry);
    if (slot.trim() !== '') entered = round;
    if (entry.opponent !== null || entry.result === 'U' || entry.result === '+') paired = round;
  }
  const player: TrfPlayer = {
    id,
    sex: sexText === '' ? '' : sexText === 'm' ? 'm' : 'w',
    title: field(line, 11, 13),
    name: field(line, 15, 47),
    rating: ratingText === '' || ratingText === '0' ? null : parseNumber(ratingText, lineNo, 49, 'rating'),
    federation: field(line, 54, 56),
    fideId: field(line, 58, 68),
    birthDate: field(line, 70, 79),
    // A registration-time file may leave the points blank before round 1.
    points: field(line, 81, 84) === '' && entered === 0 ? 0 : parseNumber(field(line, 81, 84), lineNo, 81, 'points'),
    rank: rankText === '' ? null : parseNumber(rankText, lineNo, 86, 'rank'),
    rounds,
  };
  return { player, entered, paired };
}

const scoringCodes: Record<string, readonly (keyof TrfScoring)[]> = {
  WW: ['win'],
  BW: ['win'],
  WD: ['draw'],
  BD: ['draw'],
  WL: ['loss'],
  BL: ['loss'],
  ZPB: ['zeroBye'],
  HPB: ['halfBye'],
  FPB: ['fullBye'],
  PAB: ['pairingBye'],
  FW: ['forfeitWin'],
  FL: ['forfeitLoss'],
  W: ['win', 'forfeitWin', 'fullBye'],
  D: ['draw', 'halfBye'],
};
const bbCodes: Record<string, keyof TrfScoring> = {
  BBW: 'win',
  BBD: 'draw',
  BBL: 'loss',
  BBZ: 'zeroBye',
  BBF: 'forfeitLoss',
  BBU: 'pairingBye',
};

/**
 * TRF-2026 tag 162, as bbpPairings reads it: from column 6, every 9 columns a result code and its
 * points in the next 4 columns (`162  W 3.0    D 1.0`). W sets a win (and a forfeit win, a full-point
 * bye and, unless P is given, the pairing-allocated bye), D a draw (and a half-point bye), L a loss,
 * Z a zero-point bye and a forfeit loss, P the pairing-allocated bye.
 */
function readPointSystem(line: string, lineNo: number, scoring: { -readonly [K in keyof TrfScoring]: number }): boolean {
  let pairingBye = false;
  let column = 6;
  for (; column + 4 <= line.length; column += 9) {
    const code = line[column - 1]!;
    const points = parseNumber(line.slice(column, column + 4).trim(), lineNo, column + 1, `points for '${code}'`);
    switch (code) {
      case 'W':
        scoring.win = scoring.forfeitWin = scoring.fullBye = points;
        if (!pairingBye) scoring.pairingBye = points;
        break;
      case 'D':
        scoring.draw = scoring.halfBye = points;
        break;
      case 'L':
        scoring.loss = points;
        break;
      case 'Z':
        scoring.zeroBye = scoring.forfeitLoss = points;
        break;
      case 'P':
        scoring.pairingBye = points;
        pairingBye = true;
        break;
      default:
        throw new TrfError(lineNo, column, `tag 162: result code '${code}' is not one of W D L Z P`);
    }
  }
  if (column === 6 || line.slice(column - 1).trim() !== '')
    throw new TrfError(lineNo, Math.min(column, line.length), 'tag 162: expected a result code every 9 columns from column 6, each with its points');
  return true;
}

/** What reading a TRF found: the tournament as far as it could be read, and every problem. */
export interface TrfReading {
  readonly tournament: TrfTournament;
  /** In file order (lines first, then the cross-checks); empty for a valid file. */
  readonly problems: readonly TrfError[];
  /** What the pairing engines read otherwise than it looks meant (a bye for a player the file lacks): not refused. */
  readonly warnings: readonly TrfError[];
}

/**
 * Reads a TRF and reports every problem (TrfError at line:column): a malformed line, a duplicate
 * starting rank, points that differ from the sum of the results, a game whose two sides disagree,
 * a file with no player.
 */
export function readTrf(text: string): TrfReading {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const header: { -readonly [K in keyof TrfTournament]?: TrfTournament[K] } = {};
  const deputyArbiters: string[] = [];
  let roundDates: string[] = [];
  const configuration: string[] = [];
  const players: TrfPlayer[] = [];
  const entered: number[] = [];
  let lastRound = 0;
  const playerLines = new Map<number, number>();
  const teams: TrfTeam[] = [];
  const otherLines: TrfOtherLine[] = [];
  const engineLines: { readonly engine: EngineLine; readonly lineNo: number }[] = [];
  let roundsLine = 0;
  const scoring: { -readonly [K in keyof TrfScoring]: number } = { ...standardScoring };
  let customScoring = false;
  const problems: TrfError[] = [];

  const readLine = (line: string, lineNo: number): void => {
    if (line.trim() === '') return;
    const code = line.slice(0, 3);
    const rest = line.slice(4).trim();
    const number = (what: string): number => parseNumber(rest, lineNo, 5, what);
    switch (code) {
      case '001': {
        const parsed = parsePlayer(line, lineNo);
        const { player } = parsed;
        if (playerLines.has(player.id)) {
          throw new TrfError(lineNo, 5, `starting rank ${player.id} already used on line ${playerLines.get(player.id)}`);
        }
        // A slot with an entry makes the rounds before it real, as bbpPairings counts them.
        lastRound = Math.max(lastRound, parsed.paired, parsed.entered - 1);
        entered.push(parsed.entered);
        playerLines.set(player.id, lineNo);
        players.push(player);
        return;
      }
      case '012':
        header.name = rest;
        return;
      case '022':
        header.city = rest;
        return;
      case '032':
        header.federation = rest;
        return;
      case '042':
        header.startDate = rest;
        return;
      case '052':
        header.endDate = rest;
        return;
      case '062':
        header.playerCount = number('number of players');
        return;
      case '072':
        header.ratedPlayerCount = number('number of rated players');
        return;
      case '082':
        header.teamCount = number('number of teams');
        return;
      case '092':
        header.type = rest;
        return;
      case '102':
        header.chiefArbiter = rest;
        return;
      case '112':
        deputyArbiters.push(rest);
        return;
      case '122':
        header.timeControl = rest;
        return;
      case '132':
        roundDates = [];
        for (let start = 92; start <= line.length; start += 10) roundDates.push(line.slice(start - 1, start + 7).trim());
        return;
      case '013': {
        const ids: number[] = [];
        for (let start = 37; start <= line.length; start += 5) {
          const idText = line.slice(start - 1, start + 3).trim();
          if (idText !== '') ids.push(parseNumber(idText, lineNo, start, 'team member'));
        }
        teams.push({ name: field(line, 5, 36), playerIds: ids });
        return;
      }
      case 'XXR':
      case '142': {
        const rounds = number('number of rounds');
        if (!Number.isInteger(rounds) || rounds < 1) throw new TrfError(lineNo, 5, `number of rounds ${rest} is not a positive integer`);
        header.totalRounds = rounds;
        roundsLine = lineNo;
        return;
      }
      case 'XXC':
        configuration.push(...rest.split(/\s+/).filter((word) => word !== ''));
        return;
      case 'XXS': {
        let from = 4;
        for (const assignment of rest.split(/\s+/).filter((word) => word !== '')) {
          const column = line.indexOf(assignment, from) + 1;
          from = column + assignment.length - 1;
          const [name, value] = assignment.split('=');
          const keys = scoringCodes[(name ?? '').toUpperCase()];
          if (!keys || value === undefined) throw new TrfError(lineNo, column, `unknown scoring entry '${assignment}'`);
          for (const key of keys) scoring[key] = parseNumber(value, lineNo, column + name!.length + 1, `score ${name}`);
        }
        customScoring = true;
        return;
      }
      case '162':
        // Written back as XXS (JaVaFo) and BB* (bbpPairings) lines, which say the same.
        customScoring = readPointSystem(line, lineNo, scoring);
        return;
    }
    const bbKey = bbCodes[code];
    if (bbKey) {
      scoring[bbKey] = number(code);
      customScoring = true;
      return;
    }
    if (ENGINE_LINE_CODES.has(code)) {
      const engine = readEngineLine(line, lineNo);
      if (engine) engineLines.push({ engine, lineNo });
    }
    otherLines.push({ code, text: line });
  };

  // Players whose 001 line has a problem: the cross-checks do not report them a second time.
  const unreadable = new Set<number>();
  lines.forEach((line, index) => {
    try {
      readLine(line, index + 1);
    } catch (error) {
      if (!(error instanceof TrfError)) throw error;
      problems.push(error);
      const id = Number(field(line, 5, 8));
      if (line.startsWith('001') && Number.isInteger(id)) unreadable.add(id);
    }
  });
  if (players.length === 0 && problems.length === 0) problems.push(new TrfError(1, 1, 'no player (001) line'));

  // Trailing blanks (a padded line) would otherwise read as zero-point byes in rounds never played.
  const trimmed = players.map((p, i) => {
    const keep = Math.max(lastRound, entered[i]!);
    return p.rounds.length > keep ? { ...p, rounds: p.rounds.slice(0, keep) } : p;
  });
  const tournament: TrfTournament = {
    ...header,
    deputyArbiters,
    roundDates,
    configuration,
    scoring,
    customScoring,
    players: trimmed,
    teams,
    otherLines,
  };
  const engine = engineCheck(tournament, engineLines, roundsLine);
  problems.push(...crossCheck(tournament, playerLines, unreadable), ...engine.problems);
  return { tournament, problems, warnings: engine.warnings };
}

/**
 * What a pairing engine would refuse or misread beyond single lines (trf-engine-lines.ts): a player
 * named on an engine line who has no 001 line; fewer rounds (XXR) than the file has paired.
 */
function engineCheck(
  tournament: TrfTournament,
  engineLines: readonly { readonly engine: EngineLine; readonly lineNo: number }[],
  roundsLine: number,
): { problems: TrfError[]; warnings: TrfError[] } {
  const problems: TrfError[] = [];
  const warnings: TrfError[] = [];
  const ids = new Set(tournament.players.map((player) => player.id));
  for (const { engine, lineNo } of engineLines) {
    const { refused, misread } = engineLineCheck(engine, (id) => ids.has(id));
    for (const p of refused) problems.push(new TrfError(lineNo, p.column, p.problem));
    for (const p of misread) warnings.push(new TrfError(lineNo, p.column, p.problem));
  }
  // A column with a requested bye counts: it is the round about to be paired (bbpPairings refuses it too).
  const columns = Math.max(0, ...tournament.players.map((player) => player.rounds.length));
  if (tournament.totalRounds !== undefined && tournament.totalRounds < columns) {
    problems.push(new TrfError(roundsLine, 5, `the tournament has ${tournament.totalRounds} rounds (XXR), but the file has entries for ${columns}`));
  }
  return { problems, warnings };
}

/** Parses a TRF; throws the first problem readTrf finds (TrfError naming line and column). */
export function parseTrf(text: string): TrfTournament {
  const { tournament, problems } = readTrf(text);
  if (problems[0]) throw problems[0];
  return tournament;
}

function crossCheck(tournament: TrfTournament, playerLines: Map<number, number>, unreadable: ReadonlySet<number>): TrfError[] {
  const problems: TrfError[] = [];
  const byId = new Map(tournament.players.map((player) => [player.id, player]));
  const playedRounds = pairedRounds(tournament);
  for (const player of tournament.players) {
    const lineNo = playerLines.get(player.id) ?? 0;
    const sum = totalPoints(player, tournament.scoring);
    // A bye requested for the round about to be paired may be left out of the points, as the pairing
    // engines read it (bbpPairings: the score of the rounds played, or with the next round's points).
    const played = player.rounds.slice(0, playedRounds).reduce((total, entry) => total + entryPoints(entry, tournament.scoring), 0);
    if (Math.abs(sum - player.points) > 1e-9 && Math.abs(played - player.points) > 1e-9) {
      problems.push(new TrfError(lineNo, 81, `player ${player.id} (${player.name}) has ${player.points} points but the results add up to ${sum}`));
    }
    player.rounds.forEach((entry, index) => {
      const round = index + 1;
      const at = roundColumn(round);
      if (entry.opponent === null || unreadable.has(entry.opponent)) return;
      const opponent = byId.get(entry.opponent);
      const problem = (column: number, message: string) => problems.push(new TrfError(lineNo, column, `round ${round}: ${message}`));
      if (!opponent) return problem(at, `opponent ${entry.opponent} has no 001 line`);
      if (entry.opponent === player.id) return problem(at, `player ${player.id} is paired with himself`);
      const other = opponent.rounds[index];
      if (!other || other.opponent !== player.id)
        return problem(at, `player ${player.id} meets ${entry.opponent}, but ${entry.opponent}'s line does not say so`);
      if (entry.colour !== null && other.colour === entry.colour)
        return problem(at + 5, `players ${player.id} and ${entry.opponent} both have colour '${entry.colour}'`);
      const pair = entry.result + other.result;
      const consistent = ['10', '01', '==', '+-', '-+', '--', 'WL', 'LW', 'DD'].includes(pair);
      if (!consistent) problem(at + 7, `results '${entry.result}' and '${other.result}' of players ${player.id} and ${entry.opponent} do not match`);
    });
  }
  return problems;
}

const right = (value: string, width: number): string => value.slice(0, width).padStart(width);
const left = (value: string, width: number): string => value.slice(0, width).padEnd(width);
const formatPoints = (points: number): string => right(points.toFixed(1), 4);

function formatRoundEntry(entry: TrfRoundEntry, noOpponent: NoOpponent): string {
  return `${entry.opponent === null ? noOpponent : right(String(entry.opponent), 4)} ${entry.colour ?? '-'} ${entry.result}`;
}

/**
 * How a round without an opponent (a bye, an absence) is written: TRF-16's 0000, which bbpPairings
 * requires ("player ID of 0" for '   0'); '   0' where a file is to be written back as some programs
 * wrote it (FIDE's tie-break exercises).
 */
export type NoOpponent = '0000' | '   0';

/** The 001 line of one player (trailing blanks trimmed). */
export function formatPlayerLine(player: TrfPlayer, noOpponent: NoOpponent = '0000'): string {
  const line =
    '001 ' +
    right(String(player.id), 4) +
    ' ' +
    left(player.sex, 1) +
    right(player.title, 3) +
    ' ' +
    left(player.name, 33) +
    ' ' +
    right(player.rating === null ? '' : String(player.rating), 4) +
    ' ' +
    left(player.federation, 3) +
    ' ' +
    right(player.fideId, 11) +
    ' ' +
    left(player.birthDate, 10) +
    ' ' +
    formatPoints(player.points) +
    ' ' +
    right(player.rank === null ? '' : String(player.rank), 4) +
    player.rounds.map((entry) => '  ' + formatRoundEntry(entry, noOpponent)).join('');
  return line.trimEnd();
}

export interface TrfExportOptions {
  /** The spec says CR; most files in the wild use LF. Default '\n'. */
  readonly lineEnding?: '\r' | '\n' | '\r\n';
  /** Default 0000 (NoOpponent). */
  readonly noOpponent?: NoOpponent;
  /** The team lines (082, 013); default true. The pairing engines (bbpPairings, JaVaFo) refuse a file that has them. */
  readonly teams?: boolean;
}

/** Writes a TRF-16 file: headers, XX* extensions, kept lines, players, teams. */
export function exportTrf(tournament: TrfTournament, options: TrfExportOptions = {}): string {
  const out: string[] = [];
  const tag = (code: string, value: string | number | undefined): void => {
    if (value !== undefined) out.push(`${code} ${value}`);
  };
  tag('012', tournament.name);
  tag('022', tournament.city);
  tag('032', tournament.federation);
  tag('042', tournament.startDate);
  tag('052', tournament.endDate);
  tag('062', tournament.playerCount);
  tag('072', tournament.ratedPlayerCount);
  const teams = options.teams ?? true;
  if (teams) tag('082', tournament.teamCount);
  tag('092', tournament.type);
  tag('102', tournament.chiefArbiter);
  for (const deputy of tournament.deputyArbiters) tag('112', deputy);
  tag('122', tournament.timeControl);
  if (tournament.roundDates.length > 0) {
    out.push(('132' + ' '.repeat(88) + tournament.roundDates.map((date) => left(date, 8)).join('  ')).trimEnd());
  }
  tag('XXR', tournament.totalRounds);
  if (tournament.configuration.length > 0) tag('XXC', tournament.configuration.join(' '));
  if (tournament.customScoring) {
    const s = tournament.scoring;
    tag(
      'XXS',
      `WW=${s.win} BW=${s.win} WD=${s.draw} BD=${s.draw} WL=${s.loss} BL=${s.loss} ZPB=${s.zeroBye} HPB=${s.halfBye} FPB=${s.fullBye} PAB=${s.pairingBye} FW=${s.forfeitWin} FL=${s.forfeitLoss}`,
    );
    // bbpPairings reads BB* (not XXS): a win, draw, played loss, zero-point bye, forfeit loss and PAB.
    const points = (value: number): string => value.toFixed(1).padStart(4);
    for (const [code, key] of Object.entries(bbCodes)) out.push(`${code} ${points(s[key])}`);
  }
  for (const other of tournament.otherLines) out.push(other.text);
  for (const player of tournament.players) out.push(formatPlayerLine(player, options.noOpponent));
  for (const team of teams ? tournament.teams : []) {
    out.push(('013 ' + left(team.name, 32) + team.playerIds.map((id) => right(String(id), 4)).join(' ')).trimEnd());
  }
  const eol = options.lineEnding ?? '\n';
  return out.join(eol) + eol;
}

/** Points after each round (index r = after round r+1). */
export function runningScores(player: TrfPlayer, scoring: TrfScoring = standardScoring): number[] {
  let sum = 0;
  return player.rounds.map((entry) => (sum += entryPoints(entry, scoring)));
}
