// TRF-16 (FIDE C.04 Annex 2) with the JaVaFo / bbpPairings XX* and BB* extensions.
// The model is the file's own vocabulary (starting ranks, result codes); standings, tie-breaks and
// the pairing engine all read it. Columns below are 1-based and inclusive, as in the spec.

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

export class TrfError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`TRF line ${line}: ${message}`);
    this.name = 'TrfError';
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

export const totalPoints = (player: TrfPlayer, scoring: TrfScoring = standardScoring): number =>
  player.rounds.reduce((sum, entry) => sum + entryPoints(entry, scoring), 0);

const field = (line: string, from: number, to: number): string => line.slice(from - 1, to).trim();

function parseNumber(text: string, line: number, what: string): number {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new TrfError(line, `${what} '${text}' is not a number`);
  return value;
}

function parseRoundEntry(slot: string, lineNo: number, round: number): TrfRoundEntry {
  const opponentText = slot.slice(0, 4).trim();
  const colourText = slot.slice(5, 6).trim().toLowerCase();
  const resultText = slot.slice(7, 8).trim().toUpperCase() || 'Z';
  if (!resultCodes.has(resultText)) throw new TrfError(lineNo, `round ${round}: unknown result code '${resultText}'`);
  if (colourText !== '' && colourText !== '-' && colourText !== 'w' && colourText !== 'b') {
    throw new TrfError(lineNo, `round ${round}: unknown colour '${colourText}'`);
  }
  const opponentNumber = opponentText === '' ? 0 : Number(opponentText);
  if (!Number.isInteger(opponentNumber) || opponentNumber < 0) {
    throw new TrfError(lineNo, `round ${round}: opponent '${opponentText}' is not a starting rank`);
  }
  const result = resultText as TrfResultCode;
  const opponent = opponentNumber === 0 ? null : opponentNumber;
  const needsOpponent = '1=0WDL'.includes(result);
  if (needsOpponent && opponent === null) throw new TrfError(lineNo, `round ${round}: result '${result}' needs an opponent`);
  if ('HFUZ'.includes(result) && opponent !== null) {
    throw new TrfError(lineNo, `round ${round}: bye '${result}' cannot have an opponent`);
  }
  const colour = colourText === 'w' || colourText === 'b' ? colourText : null;
  if (needsOpponent && colour === null) throw new TrfError(lineNo, `round ${round}: a played game needs a colour`);
  return { opponent, colour, result };
}

/** A player line; `entered`, `paired`: its last round with a non-blank slot, with a pairing (0: none). */
function parsePlayer(line: string, lineNo: number): { player: TrfPlayer; entered: number; paired: number } {
  const id = parseNumber(field(line, 5, 8), lineNo, 'starting rank');
  if (!Number.isInteger(id) || id < 1 || id > 9999) throw new TrfError(lineNo, `starting rank ${id} is outside 1..9999`);
  const sexText = field(line, 10, 10).toLowerCase();
  if (sexText !== '' && sexText !== 'm' && sexText !== 'w' && sexText !== 'f') {
    throw new TrfError(lineNo, `sex '${sexText}' is not m or w`);
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
    rating: ratingText === '' || ratingText === '0' ? null : parseNumber(ratingText, lineNo, 'rating'),
    federation: field(line, 54, 56),
    fideId: field(line, 58, 68),
    birthDate: field(line, 70, 79),
    // A registration-time file may leave the points blank before round 1.
    points: field(line, 81, 84) === '' && entered === 0 ? 0 : parseNumber(field(line, 81, 84), lineNo, 'points'),
    rank: rankText === '' ? null : parseNumber(rankText, lineNo, 'rank'),
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
 * Parses a TRF. Rejects (TrfError naming the line) a malformed line, a duplicate starting rank,
 * points that differ from the sum of the results, and a game whose two sides disagree.
 */
export function parseTrf(text: string): TrfTournament {
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
  const scoring: { -readonly [K in keyof TrfScoring]: number } = { ...standardScoring };
  let customScoring = false;

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.trim() === '') return;
    const code = line.slice(0, 3);
    const rest = line.slice(4).trim();
    switch (code) {
      case '001': {
        const parsed = parsePlayer(line, lineNo);
        const { player } = parsed;
        // A slot with an entry makes the rounds before it real, as bbpPairings counts them.
        lastRound = Math.max(lastRound, parsed.paired, parsed.entered - 1);
        entered.push(parsed.entered);
        if (playerLines.has(player.id)) {
          throw new TrfError(lineNo, `starting rank ${player.id} already used on line ${playerLines.get(player.id)}`);
        }
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
        header.playerCount = parseNumber(rest, lineNo, 'number of players');
        return;
      case '072':
        header.ratedPlayerCount = parseNumber(rest, lineNo, 'number of rated players');
        return;
      case '082':
        header.teamCount = parseNumber(rest, lineNo, 'number of teams');
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
          if (idText !== '') ids.push(parseNumber(idText, lineNo, 'team member'));
        }
        teams.push({ name: field(line, 5, 36), playerIds: ids });
        return;
      }
      case 'XXR':
      case '142': {
        const rounds = parseNumber(rest, lineNo, 'number of rounds');
        if (!Number.isInteger(rounds) || rounds < 1) throw new TrfError(lineNo, `number of rounds ${rest} is not a positive integer`);
        header.totalRounds = rounds;
        return;
      }
      case 'XXC':
        configuration.push(...rest.split(/\s+/).filter((word) => word !== ''));
        return;
      case 'XXS':
        for (const assignment of rest.split(/\s+/).filter((word) => word !== '')) {
          const [name, value] = assignment.split('=');
          const keys = scoringCodes[(name ?? '').toUpperCase()];
          if (!keys || value === undefined) throw new TrfError(lineNo, `unknown scoring entry '${assignment}'`);
          for (const key of keys) scoring[key] = parseNumber(value, lineNo, `score ${name}`);
        }
        customScoring = true;
        return;
    }
    const bbKey = bbCodes[code];
    if (bbKey) {
      scoring[bbKey] = parseNumber(rest, lineNo, code);
      customScoring = true;
      return;
    }
    otherLines.push({ code, text: line });
  });

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
  checkTrf(tournament, playerLines);
  return tournament;
}

function checkTrf(tournament: TrfTournament, playerLines: Map<number, number>): void {
  const byId = new Map(tournament.players.map((player) => [player.id, player]));
  for (const player of tournament.players) {
    const lineNo = playerLines.get(player.id) ?? 0;
    const sum = totalPoints(player, tournament.scoring);
    if (Math.abs(sum - player.points) > 1e-9) {
      throw new TrfError(lineNo, `player ${player.id} (${player.name}) has ${player.points} points but the results add up to ${sum}`);
    }
    player.rounds.forEach((entry, index) => {
      const round = index + 1;
      if (entry.opponent === null) return;
      const opponent = byId.get(entry.opponent);
      if (!opponent) throw new TrfError(lineNo, `round ${round}: opponent ${entry.opponent} has no 001 line`);
      if (entry.opponent === player.id) throw new TrfError(lineNo, `round ${round}: player ${player.id} is paired with himself`);
      const other = opponent.rounds[index];
      if (!other || other.opponent !== player.id) {
        throw new TrfError(lineNo, `round ${round}: player ${player.id} meets ${entry.opponent}, but ${entry.opponent}'s line does not say so`);
      }
      if (entry.colour !== null && other.colour === entry.colour) {
        throw new TrfError(lineNo, `round ${round}: players ${player.id} and ${entry.opponent} both have colour '${entry.colour}'`);
      }
      const pair = entry.result + other.result;
      const consistent = ['10', '01', '==', '+-', '-+', '--', 'WL', 'LW', 'DD'].includes(pair);
      if (!consistent) {
        throw new TrfError(lineNo, `round ${round}: results '${entry.result}' and '${other.result}' of players ${player.id} and ${entry.opponent} do not match`);
      }
    });
  }
}

const right = (value: string, width: number): string => value.slice(0, width).padStart(width);
const left = (value: string, width: number): string => value.slice(0, width).padEnd(width);
const formatPoints = (points: number): string => right(points.toFixed(1), 4);

function formatRoundEntry(entry: TrfRoundEntry): string {
  return `${right(String(entry.opponent ?? 0), 4)} ${entry.colour ?? '-'} ${entry.result}`;
}

/** The 001 line of one player (trailing blanks trimmed). */
export function formatPlayerLine(player: TrfPlayer): string {
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
    player.rounds.map((entry) => '  ' + formatRoundEntry(entry)).join('');
  return line.trimEnd();
}

export interface TrfExportOptions {
  /** The spec says CR; most files in the wild use LF. Default '\n'. */
  readonly lineEnding?: '\r' | '\n' | '\r\n';
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
  tag('082', tournament.teamCount);
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
    tag('XXS', `WW=${s.win} BW=${s.win} WD=${s.draw} BD=${s.draw} WL=${s.loss} BL=${s.loss} ZPB=${s.zeroBye} HPB=${s.halfBye} FPB=${s.fullBye} PAB=${s.pairingBye} FW=${s.forfeitWin} FL=${s.forfeitLoss}`);
  }
  for (const other of tournament.otherLines) out.push(other.text);
  for (const player of tournament.players) out.push(formatPlayerLine(player));
  for (const team of tournament.teams) {
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
