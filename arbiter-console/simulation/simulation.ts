// A simulated round: seeded virtual players (simulators part) make legal moves and press the clocks of
// boards that have no device, in the console's (possibly accelerated) time. A player may arrive late.
// Each game ends as its plan (simulators' planGame: the players' ratings, the time control, the event's
// draw-offer rule) says: the loser resigns, stops moving until his flag falls, or is mated, or the
// players agree a draw after move 30, unless the moves end the game on the board first.
// Everything they do goes through the journal like a device's events, so a restarted console picks up
// the games where the journal left them.
import { Chess } from 'chess.js';
import { flagNeedsClaim, type GameConfig, type Side } from '../../clock-engine/index.ts';
import { createDgtDevice, type DgtDevice } from '../../device-bridge/index.ts';
import {
  mockBoardLink,
  planGame,
  seededRandom,
  startPlannedGame,
  VirtualDgtBoard,
  WAITING_FOR_FLAG,
  type GamePosition,
  type ThinkTime,
  type VirtualGame,
} from '../../simulators/index.ts';
import type { Board } from '../hall/index.ts';
import { pressWithoutMove, unreadPresses } from '../devices/index.ts';
import type { PlayingHall } from '../hall/index.ts';
import { schedulerOf } from '../hall/index.ts';
import { JournalUnavailable } from '../journal/index.ts';

export interface LateArrival {
  readonly board: string;
  readonly side: Side;
  /** After the start of the clocks, in ms of round time. */
  readonly afterMs: number;
}

export interface SimulationOptions {
  readonly seed: string;
  /** Boards to play; default every board of the round. */
  readonly boards?: readonly string[];
  readonly late?: readonly LateArrival[];
  readonly thinkMs?: ThinkTime;
  /**
   * 'dgt': each board is a virtual DGT board with a DGT 3000 clock (simulators), reached through
   * serialport's mock binding by the real DGT bridge in host role: the players move pieces and press the
   * lever, and the console hears it the way it hears a real board. 'none': the players' moves and presses
   * are journaled directly.
   */
  readonly hardware?: 'dgt' | 'none';
  /** A player's rating by section and pairing number (the event's), for the games' plans; unknown: equal. */
  readonly ratingOf?: (section: string, player: number) => number | undefined;
  /** Virtual DGT boards connect once this has resolved (a console: once it answers); default at once. */
  readonly connectAfter?: Promise<void>;
}

export interface Simulation {
  stop(): Promise<void>;
}

/** Classical-looking thinking: mostly a minute or so, a long tail of deep thinks. */
const CLASSICAL_MAX_MS = 15 * 60_000;
export const classicalThink: ThinkTime = { kind: 'lognormal', medianMs: 45_000, sigma: 0.9, minMs: 2_000, maxMs: CLASSICAL_MAX_MS };

/**
 * Thinking that fits the time control: a classical game keeps classicalThink; a faster one thinks in
 * proportion to what the clock gives for some 70 moves (base plus 60 increments), half of that typical.
 */
function thinkFor(config: GameConfig, classical: ThinkTime): ThinkTime {
  if (config.category === 'standard') return classical;
  const first = config.timeControl.periods[0];
  const bonus = first?.bonus.kind === 'increment' || first?.bonus.kind === 'delay' ? first.bonus.ms : 0;
  const perMoveMs = (Math.min(first?.baseMs.white ?? 0, first?.baseMs.black ?? 0) + 60 * bonus) / 70;
  return {
    kind: 'lognormal',
    medianMs: Math.round(perMoveMs / 2),
    sigma: 0.9,
    minMs: Math.min(1_000, Math.round(perMoveMs / 4)),
    maxMs: Math.round(perMoveMs * 4),
  };
}

/** The typical move of a think time, in ms. */
const typicalMs = (think: ThinkTime): number =>
  think.kind === 'lognormal' ? think.medianMs : think.kind === 'fixed' ? think.ms : think.kind === 'uniform' ? (think.minMs + think.maxMs) / 2 : 0;

/** The DGT board's stability window, in real ms. */
const STABLE_MS = 400;
/** The shortest stability window the simulated serial link follows reliably, in real ms. */
const LINK_MS = 40;

/**
 * The simulated board's stability window in real ms: 400, or shorter where 400 real ms (stretched by
 * the time scale) would make every move longer than the classical thinker's longest (--time-scale
 * 5000: each move would take 33 minutes, and every game end in a flag before its first board move).
 */
const stableRealMs = (scale: number): number => Math.max(LINK_MS, Math.min(STABLE_MS, CLASSICAL_MAX_MS / 4 / scale));

/** Simulated DGT boards opened in one turn of the event loop (simulateRound). */
const OPEN_AT_ONCE = 50;

/** A late player's first move comes this long after they sit down. */
const SETTLE_MS = 20_000;

/**
 * Where a game the journal has begun stands, for its players to go on from there (instead of playing
 * every move again, a millisecond of chess.js each: a minute for 1,000 boards late in a round): the
 * position after the moves the board read. A move the journal has but not its press (killed between
 * the two, journaled directly) is the player's next move, made again. Undefined: a game not begun.
 */
export function resumeFrom(board: Board): GamePosition | undefined {
  const read = board.state.moves.white + board.state.moves.black;
  const played = board.state.presses.white + board.state.presses.black;
  if (read === 0 && played === 0) return undefined;
  const line = board.line;
  const last = line.plies.at(-1);
  if (read === played + 1 && last) {
    const before = line.plies.at(-2)?.fen ?? line.fen ?? new Chess().fen();
    return { ply: played, fen: before, forced: last.san };
  }
  return { ply: read, fen: board.state.fen ?? new Chess().fen() };
}

export async function simulateRound(hall: PlayingHall, options: SimulationOptions): Promise<Simulation> {
  const ids = options.boards ?? [...hall.boards.keys()];
  // The serial link runs on the round's (accelerated) clock like everything else, so its own timing
  // (acks, watchdogs, the board's stability window) is stretched by the same factor to stay real-time.
  const scheduler = schedulerOf(hall.source);
  const x = (ms: number): number => Math.round(ms * hall.source.scale);
  const stableMs = x(stableRealMs(hall.source.scale));
  // On a DGT board a move is read once the position has been still for the stability window; a
  // player never replies faster than that, or the board would see several moves at once.
  const dgtThink: ThinkTime = {
    kind: 'lognormal',
    medianMs: 45_000,
    sigma: 0.9,
    minMs: Math.round(stableMs * 1.25),
    maxMs: Math.max(CLASSICAL_MAX_MS, stableMs * 5),
  };
  /** `open`: the bridge has read the board (its players wait for it: a move made before would be read as a re-read position). */
  const hardware = new Map<string, { board: VirtualDgtBoard; device: DgtDevice; detach: () => void; sentPly: number; open: boolean }>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const queued = new Set<string>();
  const scripts = new Map<string, VirtualGame>();
  let stopped = false;
  const deviceId = (id: string) => `virtual-players-${id}`;

  // The games this simulation plays: a hall board that later holds another game (the section's
  // playoff on its boards) is no longer this simulation's.
  const games = new Map(ids.map((id) => [id, hall.boards.get(id)]));
  for (const id of ids) {
    if (!hall.boards.has(id)) throw new Error(`cannot simulate unknown board '${id}'`);
    const board = hall.boards.get(id)!;
    const think = options.thinkMs ?? thinkFor(board.config, classicalThink);
    // A virtual DGT board reads a move once the pieces have stood still for its window, stretched by the
    // time scale; where that is longer than the typical move this time control leaves (a 5-minute
    // playoff game at 40x, any game at 5000x), every game would end on a flag: those players' moves are
    // journaled directly.
    const onDgt = options.hardware === 'dgt' && dgtThink.minMs! <= typicalMs(think) * 2;
    const seated = board.round.boards.find((b) => b.id === id);
    const section = board.round.section ?? '';
    const rating = (player: number | undefined) => (player === undefined ? undefined : options.ratingOf?.(section, player));
    const whiteRating = rating(seated?.whiteId);
    const blackRating = rating(seated?.blackId);
    const plan = planGame(seededRandom(`${options.seed}/${id}/plan`), {
      ...(whiteRating !== undefined ? { whiteRating } : {}),
      ...(blackRating !== undefined ? { blackRating } : {}),
      category: board.config.category,
      drawOfferMinMove: board.config.drawOfferMinMove,
      flagFalls: !flagNeedsClaim(board.config),
    });
    const from = resumeFrom(board);
    scripts.set(
      id,
      startPlannedGame({ seed: `${options.seed}/${id}`, thinkMs: onDgt && !options.thinkMs ? dgtThink : think, plan, ...(from ? { from } : {}) }),
    );
    if (onDgt) {
      // White on the left; the lever stands up on the side to move (a resumed game: the journal's).
      const leverHigh = board.state.toMove === 'white' ? 'left' : 'right';
      const vboard = new VirtualDgtBoard({ scheduler, clock: 'dgt3000', clockPeriodMs: x(1000), ackDelayMs: x(20), leverHigh });
      const link = mockBoardLink(vboard, `/dev/zeitnot-sim-dgt-${id}-${process.pid}-${Date.now()}`);
      // A resumed game: the pieces stand where the players left them: the journal's position, or one
      // move on from it when the journal lacks the last board move (killed between its press and its
      // reading: the board reads it again from its position after the restart).
      const played = board.state.presses.white + board.state.presses.black;
      const read = board.state.moves.white + board.state.moves.black;
      const standing = played > read ? scripts.get(id)!.move(played - 1)?.fenAfter : undefined;
      if (standing ?? board.state.fen) vboard.setPosition((standing ?? board.state.fen)!);
      const pressed = pressWithoutMove(board.state);
      const unread = unreadPresses(board.state);
      const device = createDgtDevice({
        boardId: id,
        role: 'host',
        whiteSide: 'left',
        orientation: 'normal',
        // A resumed game: the board's moves go on from the journal's position, never from the start
        // (a tracker at the start position would read the whole game again).
        ...(board.state.fen ? { fen: board.state.fen } : {}),
        ...(pressed ? { pressed } : {}),
        ...(unread ? { unreadPresses: unread } : {}),
        path: link.path,
        binding: link.binding,
        scheduler,
        handshakeTimeoutMs: x(1500),
        reconnectInitialMs: x(500),
        reconnectMaxMs: x(8000),
        clockPollMs: x(1500),
        clockSilenceMs: x(3000),
        linkSilenceMs: x(6000),
        ackTimeoutMs: x(2000),
        stableMs,
        confirmMs: x(2500),
        noticeMs: x(3000),
      });
      const detach = hall.attachDevice(device);
      // A resumed game: the clock shows the journal's times and expects the lever of the side to move
      // (the hall shows a state only when it changes, and its first press would be an arbiter call).
      device.show(board.state, hall.source.now());
      hardware.set(id, { board: vboard, device, detach, sentPly: -1, open: false });
    }
    // Everyone who is not late is at the board before the clocks start, or as soon as the players are
    // there (a hall host that joins a round its console has started already: docs/hall.md).
    const unplayed = board.state.status === 'waiting' || (board.state.status === 'running' && board.state.presses.white + board.state.presses.black === 0);
    for (const side of ['white', 'black'] as const) {
      const late = options.late?.some((l) => l.board === id && l.side === side);
      if (!late && !board.state.arrived[side] && unplayed) {
        hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
      }
    }
  }

  // A journal that cannot write: the players wait; the hall tells every board when it writes again.
  const pump = (id: string): void => {
    try {
      playOn(id);
    } catch (err) {
      if (!(err instanceof JournalUnavailable)) throw err;
    }
  };

  const playOn = (id: string): void => {
    const board = hall.boards.get(id)!;
    const script = scripts.get(id);
    clearTimeout(timers.get(id));
    timers.delete(id);
    if (board !== games.get(id)) return;
    if (!script || stopped || board.state.status !== 'running' || board.startedAt === undefined) return;
    if (hardware.get(id)?.open === false) return;
    const now = hall.source.now();
    const played = board.state.presses.white + board.state.presses.black;
    const move = script.move(played);
    if (!move) {
      const end = script.outcome;
      if (end) finishGame(board, end, now);
      return;
    }
    const side = move.side;
    const late = options.late?.find((l) => l.board === id && l.side === side);
    const arriveAt = late ? board.startedAt + late.afterMs : undefined;
    if (arriveAt !== undefined && !board.state.arrived[side] && now >= arriveAt) {
      hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: arriveAt, by: { kind: 'player', side } } });
    }
    // Seated while the journal failed: the player's arrival was not journaled then.
    if (arriveAt === undefined && !board.state.arrived[side])
      hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: now, by: { kind: 'player', side } } });
    let dueAt = board.moveStartedAt + move.thinkMs;
    if (arriveAt !== undefined && board.state.presses[side] === 0) dueAt = Math.max(dueAt, arriveAt + SETTLE_MS);
    if (now >= dueAt && board.state.arrived[side]) {
      play(board, move.san, move.fenAfter, side, dueAt);
      if (!hardware.has(id)) schedulePump(id);
      return;
    }
    const next = arriveAt !== undefined && !board.state.arrived[side] ? Math.min(arriveAt, dueAt) : dueAt;
    timers.set(
      id,
      setTimeout(() => pump(id), Math.max(1, (next - now) / hall.source.scale)),
    );
  };

  /** The game's end as its plan (or the board) has it: an agreement is an offer and its acceptance. */
  const finishGame = (board: Board, end: NonNullable<VirtualGame['outcome']>, at: number): void => {
    // The loser stops moving, and his clock decides (the engine's flag, or 6.9's draw).
    if (end.result === '*' || end.termination === WAITING_FOR_FLAG || board.state.status !== 'running') return;
    const toMove = board.state.toMove;
    const other: Side = toMove === 'white' ? 'black' : 'white';
    if (end.termination === 'agreement') {
      // One batch: all or none (a journal that fails in between must not leave an offer alone).
      hall.recordBatch([
        { kind: 'clock', board: board.id, event: { type: 'drawOffer', side: other, at, by: { kind: 'player', side: other } } },
        { kind: 'clock', board: board.id, event: { type: 'drawAccept', side: toMove, at, by: { kind: 'player', side: toMove } } },
      ]);
      return;
    }
    const by = end.termination === 'resignation' ? ({ kind: 'player', side: toMove } as const) : ({ kind: 'device', deviceId: deviceId(board.id) } as const);
    hall.record({ kind: 'clock', board: board.id, event: { type: 'result', result: end.result, termination: end.termination, at, by } });
  };

  const play = (board: Board, san: string, fen: string, side: Side, at: number): void => {
    const dgt = hardware.get(board.id);
    if (dgt) {
      const ply = board.state.presses.white + board.state.presses.black;
      // The press comes back through the bridge; until it does, this move is on its way.
      if (dgt.sentPly === ply) return;
      dgt.sentPly = ply;
      try {
        dgt.board.move(san);
      } catch {
        // Not expected since the virtual clock's set-and-run no longer moves the lever (no phantom
        // presses), and a real board has no virtual players. Kept so that a simulation that ever loses
        // step cannot throw inside a timer and take the console down: the pieces go where the journal
        // says, the board's players stop, and the arbiter sees it in the queue.
        dgt.board.setPosition(board.state.fen ?? new Chess().fen());
        scripts.delete(board.id);
        hall.record({
          kind: 'note',
          board: board.id,
          note: { type: 'disagreement', at: hall.source.now(), detail: `simulated board out of step before ${san}: its virtual players stop` },
        });
        return;
      }
      dgt.board.press(side === 'white' ? 'left' : 'right');
      return;
    }
    const by = { kind: 'device', deviceId: deviceId(board.id) } as const;
    // One batch: a move journaled without its press would be played again.
    hall.recordBatch([
      { kind: 'clock', board: board.id, event: { type: 'boardMove', side, san, fen, at, by } },
      { kind: 'clock', board: board.id, event: { type: 'press', side, at, by } },
    ]);
  };

  // Hall listeners run inside `record`; pumping later keeps one move per turn of the event loop.
  const schedulePump = (id: string): void => {
    if (queued.has(id) || stopped) return;
    queued.add(id);
    setImmediate(() => {
      queued.delete(id);
      pump(id);
    });
  };

  const unsubscribe = hall.subscribe((change) => {
    for (const id of change.boards) if (scripts.has(id)) schedulePump(id);
  });
  for (const id of ids) schedulePump(id);
  // The boards connect as real ones do, after the console is up: each board's players start once its
  // bridge has read it. A board that cannot be opened says so itself (its connection note, the queue's
  // silent board). They open OPEN_AT_ONCE at a time, the next group once this one's handshakes are
  // over, so that a restart with 1,000 of them answers the arbiters meanwhile; each group's
  // 'connecting' notes are one transaction.
  const closed = [...hardware];
  const openSome = (): void => {
    if (stopped) return;
    const group = closed.splice(0, OPEN_AT_ONCE);
    const opened: Promise<void>[] = [];
    hall.batch(() =>
      hall.journal.transaction(() => {
        for (const [id, h] of group) {
          opened.push(
            h.device.open().then(
              () => {
                h.open = true;
                schedulePump(id);
              },
              () => {},
            ),
          );
        }
      }),
    );
    if (closed.length > 0) void Promise.all(opened).then(() => setImmediate(openSome));
  };
  void (options.connectAfter ?? Promise.resolve()).then(openSome);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const h of hardware.values()) {
        h.detach();
        await h.device.close();
        h.board.dispose();
      }
    },
  };
}
