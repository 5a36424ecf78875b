// The WebSocket protocol between the console server and its pages (docs/protocol.md).
// Everything a client sends is validated here; the server trusts nothing else.
import { z } from 'zod';
import type { GameResult, GameState, GameStatus, Side } from '../../clock-engine/index.ts';
import { ATTENTION_KINDS, type Attention, type AttentionKind, type ConsoleStatus } from './attention.ts';
import type { TournamentView } from './tournament-view.ts';
import type { CredentialInfo } from './arbiter.ts';
import type { HostCommandOutcome, RefusalCode, SessionRefusalCode } from './refusal.ts';
import type { SectorView, StaffRole } from './staff.ts';
import type { ViewPatch } from './view-patch.ts';
import { MAX_FIRST_BOARDS } from './first-screen.ts';

/** 2: a delta carries the attention items of the boards whose items changed (`attentionByBoard`), not the whole queue. */
export const PROTOCOL_VERSION = 2;
/** Larger client messages are refused unread (an arbiter command is ~200 bytes). */
export const MAX_MESSAGE_BYTES = 4096;

const side = z.enum(['white', 'black']);
/** A FEN's six fields (the console checks the position itself with chess.js). */
const FEN_SHAPE = /^[pnbrqkPNBRQK1-8]+(\/[pnbrqkPNBRQK1-8]+){7} [wb] (-|[KQkq]{1,4}) (-|[a-h][36]) \d{1,3} \d{1,4}$/;
const boardId = z.string().min(1).max(32);
/** A hall host's id on the bus (a NATS subject token, bus/subjects.ts). */
const hostId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "a hall host's id: 1 to 64 letters, digits, '-' or '_'");
const reason = z.string().trim().min(1, 'a reason is required (it goes into the journal and the PGN)').max(200);
const HOUR = 3_600_000;

export const arbiterCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('pause'), board: boardId, reason }),
  z.strictObject({ type: z.literal('resume'), board: boardId }),
  z.strictObject({
    type: z.literal('addTime'),
    board: boardId,
    side,
    ms: z
      .number()
      .int()
      .min(-10 * HOUR)
      .max(10 * HOUR)
      .refine((ms) => ms !== 0, 'ms must not be 0'),
    reason,
  }),
  z.strictObject({
    type: z.literal('setTime'),
    board: boardId,
    side,
    ms: z
      .number()
      .int()
      .min(0)
      .max(10 * HOUR),
    reason,
  }),
  z.strictObject({
    type: z.literal('setMoveCounter'),
    board: boardId,
    side,
    counter: z.enum(['presses', 'moves']),
    moves: z.number().int().min(0).max(999),
    reason,
  }),
  z.strictObject({ type: z.literal('penalty'), board: boardId, offender: side, offence: z.enum(['illegal-move', 'false-claim']), reason }),
  z.strictObject({ type: z.literal('forfeit'), board: boardId, side, reason }),
  z
    .strictObject({
      type: z.literal('result'),
      board: boardId,
      result: z.enum(['1-0', '0-1', '1/2-1/2', '+--', '--+', '---']),
      termination: z.string().trim().min(1).max(100),
      /**
       * How a draw came about: by the players' agreement (the default: the event's move rule and Laws
       * 5.2.3 apply), or by a ruling of the arbiter (a claim upheld under 9.2/9.3, stalemate, a dead
       * position, both flags down), which the move rule does not restrict.
       */
      drawBy: z.enum(['agreement', 'ruling']).optional(),
    })
    .refine((c) => c.drawBy === undefined || c.result === '1/2-1/2', { message: 'drawBy is for a draw (1/2-1/2)', path: ['drawBy'] }),
  z.strictObject({ type: z.literal('arrive'), board: boardId, side }),
  /** Where the pieces stand (FEN), for what the board's reading cannot explain: the game goes on from there. */
  z.strictObject({
    type: z.literal('setPosition'),
    board: boardId,
    fen: z.string().trim().max(100).regex(FEN_SHAPE, 'a FEN: placement, side to move, castling, en passant, halfmove and move number'),
    reason,
  }),
  // The players' claims and offers as the arbiter records them, each ruled on by the clock engine under
  // the board's Laws edition and the event's rules (docs/console.md#claims-and-offers).
  /** `side` offers a draw (Laws 9.1): refused before the event's move rule allows one (journaled all the same). */
  z.strictObject({ type: z.literal('drawOffer'), board: boardId, side }),
  /** `side` accepts or declines the opponent's standing offer. */
  z.strictObject({ type: z.literal('drawAnswer'), board: boardId, side, accept: z.boolean() }),
  /** `claimant` claims the opponent's flag (what counts under Laws 2009 A.4 d / B.3 a, where the arbiter does not call flags). */
  z.strictObject({ type: z.literal('flagClaim'), board: boardId, claimant: side }),
  /** The player having the move claims a draw under Laws 2009 Art. 10.2 or Guidelines III.5, or asks for the III.4 increment. */
  z.strictObject({ type: z.literal('quickplayClaim'), board: boardId, side, request: z.enum(['draw', 'increment']).optional() }),
  /** The arbiter's decision on that claim; `extraTime`: two minutes to the opponent on a postponed claim (10.2 b, III.5 b "may"). */
  z
    .strictObject({
      type: z.literal('quickplayDecision'),
      board: boardId,
      decision: z.enum(['draw', 'postpone', 'reject', 'increment']),
      extraTime: z.boolean().optional(),
    })
    .refine((c) => c.extraTime === undefined || c.decision === 'postpone', {
      message: 'extraTime is for a postponed decision (a rejected claim and the increment always give two minutes)',
      path: ['extraTime'],
    }),
  /**
   * The moves played while the board was not read (unplugged, re-read at a position no move explains), in
   * SAN from the position before that stretch: checked with chess.js, the game's record whole again.
   */
  z.strictObject({
    type: z.literal('enterMissedMoves'),
    board: boardId,
    moves: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9=+#!?-]{2,10}$/, 'a move in SAN (e.g. Nf3, exd5, O-O, e8=Q)'),
      )
      .min(1)
      .max(300),
  }),
  z.strictObject({ type: z.literal('dismiss'), alertId: z.string().min(1).max(120) }),
  /** Every open item of one kind of the queue at once, each journaled as its own dismissal. */
  z.strictObject({ type: z.literal('dismissKind'), kind: z.enum(ATTENTION_KINDS.map((k) => k.id) as [AttentionKind, ...AttentionKind[]]) }),
  /** Every seated round's clocks (or one section's) at their scheduled start, or now if that has passed. */
  z.strictObject({ type: z.literal('startAll'), section: z.string().min(1).max(40).optional() }),
  /** Every player not yet marked present is at the board (the arbiter's check before the start). */
  z.strictObject({ type: z.literal('arriveAll') }),
  z.strictObject({ type: z.literal('pauseAll'), reason }),
  z.strictObject({ type: z.literal('resumeAll') }),
  /**
   * On the bus (docs/hall.md, "Replacing a hall host"): the boards of hall host `host`, silent past its
   * lease, handed to hall host `to`, which goes on with their games from the stream (the chief's alone).
   */
  z.strictObject({ type: z.literal('takeOverHost'), host: hostId, to: hostId }),
]);
export type ArbiterCommand = z.infer<typeof arbiterCommandSchema>;

// Tournament desk commands (arbiter-console/desk/tournament-desk.ts): results, next-round pairing drafts,
// playoffs, incidents. Players are event pairing numbers, boards the draft's board numbers.
const playerId = z.number().int().min(1).max(9999);
const roundNumber = z.number().int().min(1).max(99);
const draftBoard = z.number().int().min(1).max(999);
const gameResult = z.enum(['1-0', '0-1', '1/2-1/2', '+--', '--+', '---']);
/** Which section of the event a tournament command is for (default: the first). */
const section = z.string().min(1).max(40).optional();
/**
 * The chief arbiter's playoff format (tournament/playoff.ts PlayoffFormat): an optional cut to the best
 * `to` by some of the section's tie-breaks, then its stages. The desk checks it against the section
 * (tie-break codes, the cut's size, each time control through the clock engine's parser).
 */
const playoffFormat = z.strictObject({
  cut: z.strictObject({ to: z.number().int().min(2).max(99), tiebreaks: z.array(z.string().min(1).max(16)).min(1).max(10) }).optional(),
  stages: z
    .array(
      z.strictObject({
        kind: z.enum(['round-robin', 'knockout', 'armageddon']),
        /** Games per pairing (round robin) or per match (knockout); an Armageddon is one game. */
        games: z.number().int().min(1).max(10),
        timeControl: z.string().trim().min(1).max(40),
        onTie: z.enum(['next-stage', 'tiebreaks']),
      }),
    )
    .min(1)
    .max(8),
});
const tournamentCommandOptions = [
  /** Enters or corrects a game's result (any round up to the current one). */
  z.strictObject({ type: z.literal('enterResult'), section, round: roundNumber, white: playerId, black: playerId, result: gameResult, reason }),
  /** Confirms the result the clock gave (flag fall, result on the board, default-time forfeit). */
  z.strictObject({ type: z.literal('confirmResult'), section, round: roundNumber, white: playerId, black: playerId }),
  /**
   * A clock result that contradicts the desk's (alert `result-contradicts`): keep the entered result
   * (journaled as the board's correction) or take the clock's (a correction of the entered one).
   */
  z.strictObject({
    type: z.literal('resolveResultConflict'),
    section,
    round: roundNumber,
    white: playerId,
    black: playerId,
    keep: z.enum(['entered', 'clock']),
    reason,
  }),
  /** Confirms every result the clocks gave in the live round, in one journaled batch. */
  z.strictObject({ type: z.literal('confirmRound'), section }),
  z.strictObject({ type: z.literal('pairNextRound'), section }),
  z.strictObject({ type: z.literal('swapColours'), section, board: draftBoard, reason }),
  z
    .strictObject({ type: z.literal('exchangeOpponents'), section, board: draftBoard, otherBoard: draftBoard, reason })
    .refine((c) => c.board !== c.otherBoard, { message: 'two different boards are needed', path: ['otherBoard'] }),
  z.strictObject({ type: z.literal('discardDraft'), section, reason }),
  z.strictObject({ type: z.literal('publishRound'), section }),
  z.strictObject({ type: z.literal('startPlayoff'), section }),
  z.strictObject({ type: z.literal('playoffResult'), section, game: z.string().min(1).max(40), result: gameResult }),
  /** The chief arbiter's ruling where the regulations leave the playoff to him (more tied than the ladder covers, its stages run out). */
  z.strictObject({ type: z.literal('decidePlayoff'), section, winner: playerId, reason }),
  /** The chief arbiter's playoff format where the regulations leave it to him (Cairns Cup 7: more than four tied), before any game of it. */
  z.strictObject({ type: z.literal('setPlayoffFormat'), section, format: playoffFormat, reason }),
  /** A bye the player asked for in advance (Swiss): half a point or none; the engine leaves him out. */
  z.strictObject({ type: z.literal('requestBye'), section, round: roundNumber, player: playerId, kind: z.enum(['half', 'zero']), reason }),
  /** The player is not paired from `fromRound` on (and gets no prize where the rules say so). */
  z.strictObject({ type: z.literal('withdrawPlayer'), section, player: playerId, fromRound: roundNumber, reason }),
  /** Corrects a player's name (shown on the pages and exports from now on; seats already on the boards keep theirs). */
  z.strictObject({ type: z.literal('renamePlayer'), section, player: playerId, name: z.string().trim().min(1).max(80), reason }),
  z.strictObject({
    type: z.literal('recordIncident'),
    section,
    round: roundNumber,
    player: playerId,
    offence: z.enum(['late-arrival', 'electronic-device', 'device-noise', 'device-noise-after-game']),
    note: z.string().trim().max(200).optional(),
  }),
  /**
   * SA Open: "a player who does not arrive for a round, without prior notification, will be withdrawn".
   * `noNotification`: the arbiter confirms no notification came (withdrawn from the next round on);
   * false: the absence was notified (he stays paired; the console stops asking).
   */
  z.strictObject({ type: z.literal('recordNoShow'), section, round: roundNumber, player: playerId, noNotification: z.boolean(), reason }),
  /** The chief arbiter's rating for an unrated player (SA Open: "after round 4"). */
  z.strictObject({ type: z.literal('assignRating'), section, player: playerId, rating: z.number().int().min(100).max(3500), reason }),
  /** A written appeal received now, against an arbiter's decision in `round`, with the fee paid (the event's rule). */
  z.strictObject({
    type: z.literal('lodgeAppeal'),
    section,
    round: roundNumber,
    player: playerId,
    against: z.string().trim().min(1, 'say which decision is appealed').max(200),
    fee: z.number().int().min(0).max(1_000_000).optional(),
  }),
  /** The appeals committee's decision on an appeal of the log ("A1"): its members (players of the event by section and id, or names). */
  z.strictObject({
    type: z.literal('decideAppeal'),
    section,
    appeal: z.string().regex(/^A[1-9]\d{0,3}$/, 'an appeal of the log: A1, A2, ...'),
    upheld: z.boolean(),
    committee: z
      .array(z.union([z.strictObject({ section: z.string().min(1).max(40), player: playerId }), z.strictObject({ name: z.string().trim().min(1).max(80) })]))
      .min(1)
      .max(9),
    reason,
  }),
  /** The chief arbiter waives an incident's fine (the Cairns Cup's late arrival "may receive" one): `incident` its id on the Fines page. */
  z.strictObject({ type: z.literal('waiveFine'), section, incident: z.string().min(1).max(80), reason }),
] as const;
export const tournamentCommandSchema = z.discriminatedUnion('type', [...tournamentCommandOptions]);
export type TournamentCommand = z.infer<typeof tournamentCommandSchema>;
const tournamentCommandTypes: ReadonlySet<string> = new Set(tournamentCommandOptions.map((o) => o.shape.type.value));
export const isTournamentCommand = (command: ConsoleCommand): command is TournamentCommand => tournamentCommandTypes.has(command.type);

// The chief arbiter's commands for his team (staff.ts): sectors of the hall and named credentials.
const sectorId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,31}$/, 'a sector id is 1-32 letters, digits, spaces, _ or -');
const staffCommandOptions = [
  z.strictObject({
    type: z.literal('defineSector'),
    sector: sectorId,
    name: z.string().trim().min(1).max(60),
    boards: z.string().trim().min(1).max(200),
    section: z.string().min(1).max(32).optional(),
  }),
  z.strictObject({ type: z.literal('removeSector'), sector: sectorId }),
  z
    .strictObject({
      type: z.literal('issueCredential'),
      name: z.string().trim().min(1).max(40),
      role: z.enum(['deputy', 'sector']),
      sector: sectorId.optional(),
    })
    .refine((c) => (c.role === 'sector') === (c.sector !== undefined), { message: 'a sector arbiter needs a sector, a deputy none', path: ['sector'] }),
  z.strictObject({ type: z.literal('revokeCredential'), credential: z.string().min(1).max(16) }),
  z.strictObject({ type: z.literal('listCredentials') }),
] as const;
export const staffCommandSchema = z.discriminatedUnion('type', [...staffCommandOptions]);
export type StaffCommand = z.infer<typeof staffCommandSchema>;
const staffCommandTypes: ReadonlySet<string> = new Set(staffCommandOptions.map((o) => o.shape.type.value));
export const isStaffCommand = (command: ConsoleCommand): command is StaffCommand => staffCommandTypes.has(command.type);

/** Everything an arbiter can send in a `command` message: clock, tournament and staff commands. */
export const consoleCommandSchema = z.discriminatedUnion('type', [...arbiterCommandSchema.options, ...tournamentCommandOptions, ...staffCommandOptions]);
export type ConsoleCommand = z.infer<typeof consoleCommandSchema>;

export const clientMessageSchema = z.discriminatedUnion('type', [
  z
    .strictObject({
      type: z.literal('hello'),
      role: z.enum(['arbiter', 'spectator']),
      /** Required for the arbiter role. */
      token: z.string().min(1).max(200).optional(),
      name: z.string().trim().min(1).max(40).optional(),
      /** The last state version the client applied (sent after a reconnect). */
      since: z.number().int().nonnegative().optional(),
      /**
       * The page draws this many boards first: the snapshot after this hello carries only them and says how
       * many are still to come (`toCome`); the client asks for those with `rest` once it has drawn them.
       */
      firstBoards: z.number().int().min(1).max(MAX_FIRST_BOARDS).optional(),
    })
    .refine((m) => m.role === 'spectator' || m.token !== undefined, { message: 'the arbiter role needs the token', path: ['token'] }),
  z.strictObject({ type: z.literal('command'), id: z.string().min(1).max(64), command: consoleCommandSchema }),
  z.strictObject({ type: z.literal('resync') }),
  /** The boards a first-screen snapshot left out (`toCome`), and the tournament view after them. */
  z.strictObject({ type: z.literal('rest') }),
  z.strictObject({ type: z.literal('ping'), id: z.string().max(64).optional() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** A board as the page draws it. Remaining times refer to `asOf`; the running side keeps falling. */
export interface BoardView {
  /** The hall board number. */
  readonly id: string;
  /** An event console: the section of the game on this board and its board number there. */
  readonly section?: string;
  readonly sectionBoard?: number;
  readonly white: string;
  readonly black: string;
  readonly status: GameStatus;
  readonly toMove: Side;
  readonly remainingMs: { readonly white: number; readonly black: number };
  readonly asOf: number;
  readonly moveNumber: number;
  readonly presses: { readonly white: number; readonly black: number };
  readonly moves: { readonly white: number; readonly black: number };
  /** 1-based period per side. */
  readonly period: { readonly white: number; readonly black: number };
  readonly arrived: { readonly white: boolean; readonly black: boolean };
  readonly penalties: {
    readonly white: { readonly illegalMoves: number; readonly falseClaims: number };
    readonly black: { readonly illegalMoves: number; readonly falseClaims: number };
  };
  readonly paused?: { readonly reason: string; readonly at: number };
  readonly result?: { readonly result: GameResult; readonly termination: string };
  readonly flag?: { readonly side: Side; readonly at: number };
  /** A draw offer standing until the opponent answers it or moves (the engine's). */
  readonly drawOffer?: GameState['drawOffer'];
  /** A quickplay-finish claim waiting for the arbiter's decision (pending, or postponed), or the III.4 increment in force (the engine's). */
  readonly quickplay?: GameState['quickplay'];
  /** Laws 2009 A.4 d / B.3 a: a flag counts only when the opponent claims it (the arbiter does not call it). */
  readonly flagsOnClaim?: true;
  readonly device?: { readonly kind: string; readonly connection: string };
  /**
   * The clock that keeps this board's time cannot be heard since `since` (monotonic ms): the clocks shown
   * are the console's guess and no flag falls from it until the clock is heard again.
   */
  readonly clockUnreachable?: { readonly since: number };
  /**
   * The latest stretch of the game the board did not read (a re-read position): the position before it
   * and the one re-read after it, until the arbiter enters its moves (`enterMissedMoves`).
   */
  readonly unreadStretch?: { readonly before: string; readonly after: string };
  /** The last completed move as the board reported it ("23... Nf6"), when the board reports moves. */
  readonly lastMove?: string;
  /** On the bus: the hall host that runs the board, and whether the console hears it (docs/hall.md). */
  readonly host?: { readonly id: string; readonly reachable: boolean };
  /** Version of this board's state (the journal sequence number of its last entry). */
  readonly version: number;
}

export interface RoundView {
  readonly event: string;
  readonly site: string;
  readonly round: number;
  readonly date: string;
  readonly timeControl: string;
  /** Moves of each period of the time control (null for the last, rest-of-game one). */
  readonly periodMoves?: readonly (number | null)[];
  readonly defaultTimeMs: number;
  readonly scheduledStart: string;
  readonly startAt?: number;
}

/** The monotonic time `at` was read when the message was built; the page extrapolates with `scale`. */
export interface ClockReference {
  readonly at: number;
  readonly scale: number;
}

/** The arbiter a connection speaks for (absent for a spectator). */
export interface ArbiterView {
  readonly id: string;
  readonly name: string;
  readonly role: StaffRole;
  readonly sector?: string;
}

export type ServerMessage =
  | {
      readonly type: 'welcome';
      readonly protocol: number;
      readonly role: 'arbiter' | 'spectator';
      readonly arbiter?: ArbiterView;
      readonly heartbeatMs: number;
    }
  | {
      readonly type: 'snapshot';
      readonly seq: number;
      readonly version: number;
      readonly clock: ClockReference;
      readonly round: RoundView;
      readonly boards: readonly BoardView[];
      readonly attention: readonly Attention[];
      readonly sectors: readonly SectorView[];
      /** The journal's health and the console's incidents (absent from a console that keeps none). */
      readonly console?: ConsoleStatus;
      /**
       * After a hello with `firstBoards`: the boards left out of `boards` (the first screen's), sent as one
       * delta, then the tournament view, when the client asks with `rest`.
       */
      readonly toCome?: number;
    }
  | {
      readonly type: 'delta';
      readonly seq: number;
      readonly version: number;
      readonly clock: ClockReference;
      readonly boards: readonly BoardView[];
      /** Boards taken off the tables (a round seated on fewer of them): the page drops them. */
      readonly gone?: readonly string[];
      readonly round?: RoundView;
      /**
       * Each board whose items in the attention queue changed, with its items now (none: it has left
       * the queue); the page replaces those boards' items (`applyAttention`). Never the whole queue.
       */
      readonly attentionByBoard?: Readonly<Record<string, readonly Attention[]>>;
      /** The console's status, present when it or the attention queue changed. */
      readonly console?: ConsoleStatus;
      /** Every sector, present when the chief changed them. */
      readonly sectors?: readonly SectorView[];
    }
  /** `token`: the secret of a credential just issued, shown to the chief once. */
  /** `hosts`: a round-wide command on the bus, what each hall host did (docs/hall.md). */
  | { readonly type: 'ack'; readonly id: string; readonly journalSeq: number; readonly token?: string; readonly hosts?: readonly HostCommandOutcome[] }
  | { readonly type: 'credentials'; readonly id: string; readonly credentials: readonly CredentialInfo[] }
  /** `code`: what the page decides on (refusal.ts); `reason` for the arbiter; `article`: the rule, where one applies. */
  | {
      readonly type: 'refused';
      readonly id: string;
      readonly code: RefusalCode;
      readonly reason: string;
      readonly article?: string;
      readonly hosts?: readonly HostCommandOutcome[];
    }
  | { readonly type: 'error'; readonly code: ErrorCode; readonly reason: string }
  | { readonly type: 'pong'; readonly id?: string; readonly clock: ClockReference }
  /** The tournament pages' state, whole, after hello and whenever it changes (drafts only to arbiters). */
  | { readonly type: 'tournament'; readonly version: number; readonly view: TournamentView }
  /** What changed in the tournament view since `from` (view-patch.ts); a page at another version resyncs. */
  | { readonly type: 'tournamentDelta'; readonly from: number; readonly version: number; readonly patch: ViewPatch };

/** The codes of `error` messages: those of the refusals (refusal.ts) that concern a connection or a message as such. */
export type ErrorCode = SessionRefusalCode;

export type Parsed = { readonly ok: true; readonly message: ClientMessage } | { readonly ok: false; readonly code: ErrorCode; readonly reason: string };

/** Parses one raw WebSocket frame; never throws. */
export function parseClientMessage(raw: string | Buffer, maxBytes = MAX_MESSAGE_BYTES): Parsed {
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  if (size > maxBytes) return { ok: false, code: 'too-large', reason: `message of ${size} bytes exceeds ${maxBytes}` };
  let json: unknown;
  try {
    json = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return { ok: false, code: 'malformed', reason: 'not JSON' };
  }
  const result = clientMessageSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { ok: false, code: 'malformed', reason: `${where}${issue?.message ?? 'invalid message'}` };
  }
  return { ok: true, message: result.data };
}
