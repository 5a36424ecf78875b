// A section's games in the LiveChessCloud layout (docs/console.md, "For broadcasters"), the files DGT
// LiveChess publishes and the lichess relay, pgn-mule and the LCC viewers read:
//   /api/lcc/<section>/tournament.json           the section, its rounds (games, games live)
//   /api/lcc/<section>/round-N/index.json        the round's pairings with results
//   /api/lcc/<section>/round-N/game-M.json       game M (the section's board M): moves with clock times
// Each move is `SAN clock+used` in whole seconds ("e4 5436+23": 1:30:36 left after the move, 23 s
// used on it), as LiveChess writes it and the readers split it; a move whose press the console did not
// see is the SAN alone. Built from the same boards as the PGN (the live hall's, or the journal's for a
// round no longer on the boards), so the two say the same.
import type { GameResult } from '../../clock-engine/index.ts';
import type { Round, RoundBoard } from '../contract/index.ts';
import type { Board, PlayingHall } from '../hall/index.ts';
import { seatedRound, replayRound } from './event-http.ts';
import type { ApiAnswer } from './tournament-http.ts';
import type { TournamentDesk } from './tournament-desk.ts';

export const LCC_PREFIX = '/api/lcc/';
const LCC_PATH = /^\/api\/lcc\/([^/]+)\/(?:tournament\.json|round-([1-9]\d{0,3})\/(?:index\.json|game-([1-9]\d{0,4})\.json))$/;

/** A player as LiveChess describes him: the event file's name in its parts, title, federation, FIDE id (a number). */
export interface LccPlayer {
  readonly fname: string | null;
  readonly mname: string | null;
  readonly lname: string | null;
  readonly title: string | null;
  readonly federation: string | null;
  readonly gender: 'MALE' | 'FEMALE' | null;
  readonly fideid: number | null;
}

export interface LccTournament {
  readonly id: string;
  readonly name: string;
  readonly location: string | null;
  readonly country: string | null;
  readonly website: null;
  readonly rules: 'STANDARD';
  readonly chess960: 'STANDARD';
  readonly timecontrol: string;
  /** Every round of the section: its games on the boards here (0 before it is published), and how many are in progress. */
  readonly rounds: readonly { readonly count: number; readonly live: number }[];
  /** The hall boards of the section's round on the boards (what LiveChess lists as its e-boards' serial numbers). */
  readonly eboards: readonly string[];
}

export type LccResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface LccPairing {
  readonly white: LccPlayer;
  readonly black: LccPlayer;
  readonly result: LccResult;
  readonly live: boolean;
}

export interface LccRound {
  /** The round's scheduled day (as rescheduled when seated late), ISO. */
  readonly date: string;
  readonly pairings: readonly LccPairing[];
}

/** A finished game's result in the words LiveChess uses in a game file (a forfeit: the side that wins by it). */
export type LccGameResult = 'WHITEWIN' | 'BLACKWIN' | 'DRAW' | 'WHITEFORFAIT' | 'BLACKFORFAIT' | 'NOTPLAYED';

export interface LccGame {
  readonly live: boolean;
  /** The hall board the game is played on. */
  readonly serialNr: string;
  /** When the game's clock started (epoch ms), null before. */
  readonly firstMove: number | null;
  /** The Chess960 start position number; 518 is the standard start. */
  readonly chess960: 518;
  readonly result: LccGameResult | null;
  readonly comment: string | null;
  /**
   * While the game is on: each side's time (whole seconds) at `time` (epoch ms, the clock's last event),
   * and whether a clock runs (the side to move's, from `time` on). Null before the start and after the end.
   */
  readonly clock: { readonly white: number; readonly black: number; readonly run: boolean; readonly time: number } | null;
  readonly moves: readonly string[];
}

/** What the feed reads: the hall (its boards and journal) and the sections' desks. */
export interface LccContext {
  readonly hall: PlayingHall;
  readonly desks: ReadonlyMap<string, TournamentDesk>;
}

/** The section, round and game a feed path names, or undefined when it is no LCC path. */
export function lccPath(path: string): { readonly section: string; readonly round?: number; readonly game?: number } | undefined {
  const match = LCC_PATH.exec(path);
  if (!match) return undefined;
  return {
    section: decodeURIComponent(match[1]!),
    ...(match[2] !== undefined ? { round: Number(match[2]) } : {}),
    ...(match[3] !== undefined ? { game: Number(match[3]) } : {}),
  };
}

/** The answer to an LCC path (a 404 for an unknown section, round or game); undefined for any other path. */
export function lccApi(ctx: LccContext, path: string): ApiAnswer | undefined {
  if (!path.startsWith(LCC_PREFIX)) return undefined;
  const asked = lccPath(path);
  if (!asked) return notFound(`no such LCC file: ${path} (tournament.json, round-N/index.json, round-N/game-M.json)`);
  const desk = ctx.desks.get(asked.section);
  if (!desk) return notFound(`no section '${asked.section}'`, { sections: [...ctx.desks.keys()] });
  if (asked.round === undefined) return { status: 200, body: lccTournament(ctx.hall, desk) };
  const round = roundGames(ctx.hall, desk.section.id, asked.round);
  if (!round) return notFound(`section '${desk.section.id}' has no round ${asked.round} on the boards yet`);
  const players = new Map(desk.section.players.map((p) => [p.id, p]));
  if (asked.game === undefined) {
    const pairings = round.boards.map((b) => lccPairing(b, players));
    return { status: 200, body: { date: round.seated.scheduledStart.slice(0, 10), pairings } satisfies LccRound };
  }
  const board = round.boards[asked.game - 1];
  if (!board) return notFound(`round ${asked.round} of section '${desk.section.id}' has ${round.boards.length} games`);
  return { status: 200, body: lccGame(board, wallOf(ctx.hall)) };
}

const notFound = (error: string, more: object = {}): ApiAnswer => ({ status: 404, body: { error, ...more } });

function lccTournament(hall: PlayingHall, desk: TournamentDesk): LccTournament {
  const section = desk.section;
  const event = desk.event;
  const onBoards = hall.seated.get(section.id);
  const live = onBoards ? boardsOf(hall, onBoards) : [];
  const rounds = Array.from({ length: desk.totalRounds }, (_, i) => {
    const number = i + 1;
    const seated = onBoards?.round === number ? onBoards : seatedRound(hall.journal, section.id, number);
    return { count: seated?.boards.length ?? 0, live: onBoards?.round === number ? live.filter(inProgress).length : 0 };
  });
  return {
    id: section.id,
    name: onBoards?.event ?? (event.sections.length > 1 ? `${event.name} – ${section.name}` : event.name),
    location: event.city ?? null,
    // LiveChess gives an ISO country code; the event file has the FIDE federation, which is not always one.
    country: null,
    website: null,
    rules: 'STANDARD',
    chess960: 'STANDARD',
    timecontrol: section.timeControl,
    rounds,
    eboards: onBoards?.boards.map((b) => b.id) ?? [],
  };
}

/** The games of a section's round in the section's board order: the hall's boards while it is on them, else replayed from the journal. */
function roundGames(hall: PlayingHall, section: string, round: number): { readonly seated: Round; readonly boards: readonly Board[] } | undefined {
  const onBoards = hall.seated.get(section);
  const found = onBoards?.round === round ? { seated: onBoards, boards: boardsOf(hall, onBoards) } : replayed(hall, section, round);
  if (!found) return undefined;
  const number = (b: Board): number => b.info.sectionBoard ?? Number(b.id);
  return { seated: found.seated, boards: [...found.boards].sort((a, b) => number(a) - number(b)) };
}

const boardsOf = (hall: PlayingHall, round: Round): Board[] => round.boards.flatMap((info) => hall.boards.get(info.id) ?? []);

/**
 * A round no longer on the boards, replayed from the journal once per journal position: a relay polls
 * the round's index and each of its games after a change, and they all come from one replay.
 */
const replays = new WeakMap<PlayingHall, Map<string, { readonly version: number; readonly round: { seated: Round; boards: readonly Board[] } | undefined }>>();
function replayed(hall: PlayingHall, section: string, round: number): { seated: Round; boards: readonly Board[] } | undefined {
  let kept = replays.get(hall);
  if (!kept) replays.set(hall, (kept = new Map()));
  const key = `${section}\u0000${round}`;
  const hit = kept.get(key);
  if (hit && hit.version === hall.version) return hit.round;
  const made = replayRound(hall.journal, section, round);
  const value = made ? { seated: made.seated, boards: [...made.boards.values()] } : undefined;
  // A relay reads one round at a time: the latest few replays are enough.
  if (kept.size >= 16) kept.delete(kept.keys().next().value!);
  kept.set(key, { version: hall.version, round: value });
  return value;
}

const inProgress = (b: Board): boolean => b.state.status !== 'waiting' && b.state.status !== 'finished';

const resultOf = (b: Board): GameResult | undefined => b.correctedResult ?? b.state.result?.result;

/** As the PGN's Result tag: a forfeit is its score, a double forfeit (or an unfinished game) `*`. */
function pairingResult(r: GameResult | undefined): LccResult {
  if (r === '+--') return '1-0';
  if (r === '--+') return '0-1';
  if (r === '1-0' || r === '0-1' || r === '1/2-1/2') return r;
  return '*';
}

const GAME_RESULT: Record<GameResult, LccGameResult> = {
  '1-0': 'WHITEWIN',
  '0-1': 'BLACKWIN',
  '1/2-1/2': 'DRAW',
  '+--': 'WHITEFORFAIT',
  '--+': 'BLACKFORFAIT',
  '---': 'NOTPLAYED',
};

function lccPairing(board: Board, players: ReadonlyMap<number, { readonly sex?: 'm' | 'w' }>): LccPairing {
  const info = board.info;
  return {
    white: lccPlayer(info, 'white', info.whiteId !== undefined ? players.get(info.whiteId)?.sex : undefined),
    black: lccPlayer(info, 'black', info.blackId !== undefined ? players.get(info.blackId)?.sex : undefined),
    result: pairingResult(resultOf(board)),
    live: inProgress(board),
  };
}

/**
 * The name in LiveChess's parts: "Surname, Given names" (the FIDE form) as last and first name; a name
 * without a comma whole as the first name, so readers that join the parts show it as the event file
 * has it (pgn-mule joins `fname`, then ` lname`: a last name alone would start with a space).
 */
function lccPlayer(info: RoundBoard, side: 'white' | 'black', sex: 'm' | 'w' | undefined): LccPlayer {
  const name = side === 'white' ? info.white : info.black;
  const comma = name.indexOf(',');
  const [lname, fname] = comma > 0 ? [name.slice(0, comma).trim(), name.slice(comma + 1).trim() || null] : [null, name.trim()];
  const fideId = side === 'white' ? info.whiteFideId : info.blackFideId;
  return {
    fname,
    mname: null,
    lname,
    title: (side === 'white' ? info.whiteTitle : info.blackTitle) ?? null,
    federation: (side === 'white' ? info.whiteFed : info.blackFed) ?? null,
    gender: sex === 'm' ? 'MALE' : sex === 'w' ? 'FEMALE' : null,
    fideid: fideId !== undefined && /^\d+$/.test(fideId) ? Number(fideId) : null,
  };
}

/** Console time → wall time (epoch ms): the journal's epoch and time scale. */
function wallOf(hall: PlayingHall): (at: number) => number {
  const meta = hall.journal.meta();
  const epoch = meta?.epochWallMs ?? 0;
  const scale = meta?.scale ?? 1;
  return (at) => Math.round(epoch + at / scale);
}

function lccGame(board: Board, wall: (at: number) => number): LccGame {
  const s = board.state;
  const result = resultOf(board);
  // A board that had to re-read its position restarts the PGN from there (SetUp/FEN); this layout has
  // no start position but Chess960's, so it carries the moves read from the start and says where they stop.
  const restarted = board.lines.length > 1;
  const line = board.lines[0]!;
  const moves = line.plies.map((p) => (p.clock ? `${p.san} ${Math.floor(p.clock.clockMs / 1000)}+${Math.floor(p.clock.elapsedMs / 1000)}` : p.san));
  const comment = [
    ...(restarted ? [`the board re-read its position after move ${Math.ceil(line.plies.length / 2)}: the PGN has the moves from there`] : []),
    ...(s.result ? [s.result.termination] : []),
  ];
  const on = inProgress(board);
  return {
    live: on,
    serialNr: board.id,
    firstMove: board.startedAt !== undefined ? wall(board.startedAt) : null,
    chess960: 518,
    result: result ? GAME_RESULT[result] : null,
    comment: comment.length > 0 ? comment.join('; ') : null,
    clock: on
      ? {
          white: Math.max(0, Math.floor(s.remainingMs.white / 1000)),
          black: Math.max(0, Math.floor(s.remainingMs.black / 1000)),
          run: s.status === 'running',
          time: wall(s.asOf),
        }
      : null,
    moves,
  };
}
