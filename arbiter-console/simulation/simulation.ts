// A simulated round: seeded virtual players (simulators part) make legal moves and press the clocks of
// boards that have no device, in the console's (possibly accelerated) time. A player may arrive late.
// Everything they do goes through the journal like a device's events, so a restarted console picks up
// the games where the journal left them.
import { Chess } from 'chess.js';
import type { Side } from '../../clock-engine/index.ts';
import { createDgtDevice, type DgtDevice } from '../../device-bridge/index.ts';
import { mockBoardLink, startSeededGame, VirtualDgtBoard, type ThinkTime, type VirtualGame } from '../../simulators/index.ts';
import type { Board } from '../hall/index.ts';
import { pressWithoutMove, unreadPresses } from '../devices/index.ts';
import type { PlayingHall } from '../hall/index.ts';
import { schedulerOf } from '../hall/index.ts';

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
}

export interface Simulation {
  stop(): Promise<void>;
}

/** Classical-looking thinking: mostly a minute or so, a long tail of deep thinks. */
const CLASSICAL_MAX_MS = 15 * 60_000;
export const classicalThink: ThinkTime = { kind: 'lognormal', medianMs: 45_000, sigma: 0.9, minMs: 2_000, maxMs: CLASSICAL_MAX_MS };

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

/** A late player's first move comes this long after they sit down. */
const SETTLE_MS = 20_000;

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
  const hardware = new Map<string, { board: VirtualDgtBoard; device: DgtDevice; detach: () => void; sentPly: number }>();
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
    const think = options.thinkMs ?? (options.hardware === 'dgt' ? dgtThink : classicalThink);
    scripts.set(id, startSeededGame({ seed: `${options.seed}/${id}`, thinkMs: think, style: 'random', maxPlies: 220 }));
    const board = hall.boards.get(id)!;
    if (options.hardware === 'dgt') {
      // White on the left; the lever stands up on the side to move (a resumed game: the journal's).
      const leverHigh = board.state.toMove === 'white' ? 'left' : 'right';
      const vboard = new VirtualDgtBoard({ scheduler, clock: 'dgt3000', clockPeriodMs: x(1000), ackDelayMs: x(20), leverHigh });
      const link = mockBoardLink(vboard, `/dev/zeitnot-sim-dgt-${id}-${process.pid}-${Date.now()}`);
      // A resumed game: the pieces stand where the players left them: the journal's position, or one
      // move per press when the journal lacks the last board move (killed between its press and its
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
      hardware.set(id, { board: vboard, device, detach, sentPly: -1 });
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

  await Promise.all([...hardware.values()].map((h) => h.device.open()));

  const pump = (id: string): void => {
    const board = hall.boards.get(id)!;
    const script = scripts.get(id);
    clearTimeout(timers.get(id));
    timers.delete(id);
    if (board !== games.get(id)) return;
    if (!script || stopped || board.state.status !== 'running' || board.startedAt === undefined) return;
    const now = hall.source.now();
    const played = board.state.presses.white + board.state.presses.black;
    const move = script.move(played);
    if (!move) {
      const end = script.outcome;
      if (end && end.result !== '*' && board.state.status === 'running') {
        hall.record({
          kind: 'clock',
          board: id,
          event: { type: 'result', result: end.result, termination: end.termination, at: now, by: { kind: 'device', deviceId: deviceId(id) } },
        });
      }
      return;
    }
    const side = move.side;
    const late = options.late?.find((l) => l.board === id && l.side === side);
    const arriveAt = late ? board.startedAt + late.afterMs : undefined;
    if (arriveAt !== undefined && !board.state.arrived[side] && now >= arriveAt) {
      hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: arriveAt, by: { kind: 'player', side } } });
    }
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
    hall.record({ kind: 'clock', board: board.id, event: { type: 'boardMove', side, san, fen, at, by } });
    hall.record({ kind: 'clock', board: board.id, event: { type: 'press', side, at, by } });
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
