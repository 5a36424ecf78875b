// A DGT e-board with its clock as one `ClockDevice`: session (serial link) + clock role + board moves.
import type { ClockAlert, EventActor, GameState, Side, TimeControl } from '../../clock-engine/index.ts';
import type { ClockDevice, ClockRole, DeviceListener, DeviceMessage } from '../device.ts';
import { after, type CancelTimer } from '../scheduler.ts';
import { HostClock, MirrorClock, SideMap, type LastReading, type RoleOutput, type WhiteSide } from './clock-roles.ts';
import { asciiText, endDisplay, setAndRun, xlDisplay } from './commands.ts';
import { PositionTracker, type Orientation, type PositionEvent } from './positions.ts';
import { DgtSession, type BoardIdentity, type DgtSessionOptions, type SessionEvent } from './session.ts';
import { ClockCommand } from './protocol.ts';

export interface DgtDeviceOptions extends DgtSessionOptions {
  readonly boardId: string;
  readonly role: ClockRole;
  /** White's clock side; 'auto' (default): from the board's orientation, then from which clock starts. */
  readonly whiteSide?: WhiteSide;
  readonly orientation?: Orientation | 'auto';
  /** The game's position when the device is opened (a resumed game, from the journal). */
  readonly fen?: string;
  /** A resumed game: the side whose press the journal has without its move (PositionTracker's `pressed`). */
  readonly pressed?: Side;
  /** A resumed game: the presses the journal has without their board moves (PositionTracker's `unreadPresses`). */
  readonly unreadPresses?: number;
  /**
   * The time control of the game on the board now (mirror role; asked when needed, since the board's next
   * game may have another): the presses made while the clock could not be heard are counted from its first
   * reading after with it. Without it only the lever's press is seen.
   */
  readonly timeControl?: () => TimeControl | undefined;
  /** Board stability window before a position is read (ms). */
  readonly stableMs?: number;
  /** How long a stable move waits for its clock press (ms). */
  readonly confirmMs?: number;
  /** How long a notice stays on the clock before the times come back (ms). */
  readonly noticeMs?: number;
  /** An existing session (tests); otherwise one is made from these options. */
  readonly session?: DgtSession;
}

export interface DgtDevice extends ClockDevice {
  readonly session: DgtSession;
  readonly tracker: PositionTracker;
  /** The board's serial and version, and the clock's version, once known. */
  readonly identity: BoardIdentity | undefined;
  /** The clock's latest times as White/Black (mirror role). */
  readonly lastReading: LastReading | undefined;
  /** The arbiter says where the pieces stand (what no search explains); the board's moves go on from there (no event: the console journals the command). */
  setBoardPosition(fen: string): void;
  /** Mirror role: an alert when the engine and the DGT clock are more than `toleranceMs` (1 s) apart. */
  compareWithEngine(state: GameState, toleranceMs?: number): ClockAlert | undefined;
}

export function createDgtDevice(options: DgtDeviceOptions): DgtDevice {
  const session = options.session ?? new DgtSession(options);
  const scheduler = session.scheduler;
  const listeners = new Set<DeviceListener>();
  const emit = (message: DeviceMessage) => {
    for (const listener of [...listeners]) listener(message);
  };
  const actor: EventActor = { kind: 'device', deviceId: `dgt:${options.boardId}` };
  const sides = new SideMap(options.whiteSide ?? 'auto');
  const out: RoleOutput = {
    event: (event) => emit({ type: 'clockEvent', event }),
    arbiterCall: (at, detail) => emit({ type: 'arbiterCall', at, detail }),
  };
  let inputErrors = 0;
  const inputError = (at: number, detail: string) => emit({ type: 'inputError', at, detail, count: ++inputErrors });

  const onPosition = (e: PositionEvent) => {
    switch (e.type) {
      case 'move':
        out.event({ type: 'boardMove', side: e.side, san: e.san, fen: e.fen, at: e.at, by: actor });
        break;
      case 'takeback':
        out.event({
          type: 'boardPosition',
          fen: e.fen,
          plies: -e.plies,
          at: e.at,
          by: actor,
          detail: `the board took back ${e.plies} ${e.plies === 1 ? 'ply' : 'plies'}`,
        });
        out.arbiterCall(e.at, `the board took back ${e.plies} ${e.plies === 1 ? 'ply' : 'plies'} (a takeback, or a move replaced before the next)`);
        break;
      case 'reseed': {
        const r = e.reseed;
        // The arbiter's position is journaled by the console with the arbiter's name and reason.
        if (r.reason === 'arbiter') break;
        const why =
          r.reason === 'ambiguous'
            ? `${r.plies ?? 'some'} plies the board cannot tell apart: ${(r.candidates ?? []).join(' | ')}`
            : 'no legal moves lead to the position on the board';
        out.event({ type: 'boardPosition', fen: r.fen, plies: r.plies ?? 0, at: e.at, by: actor, detail: why });
        out.arbiterCall(e.at, `board re-read: ${why}; the game goes on from ${r.fen} (set the position if it is wrong)`);
        break;
      }
      case 'resultSignal':
        out.arbiterCall(e.at, `result signal on the board (kings on the centre squares): ${e.result}`);
        break;
      case 'ambiguous':
        inputError(e.at, `ambiguous board position, quarantined: ${e.candidates.join(' | ')}`);
        break;
      case 'unrecognised':
        inputError(e.at, `board position no legal move explains: ${e.placement}`);
        break;
      case 'orientation':
        sides.learn(e.orientation === 'rotated' ? 'right' : 'left');
        break;
      case 'newGame':
        mirror?.newGame();
        out.arbiterCall(e.at, 'the start position was set up again on the board');
        break;
    }
  };
  const tracker = new PositionTracker({
    scheduler,
    onEvent: onPosition,
    ...(options.stableMs !== undefined ? { stableMs: options.stableMs } : {}),
    ...(options.confirmMs !== undefined ? { confirmMs: options.confirmMs } : {}),
    ...(options.orientation ? { orientation: options.orientation } : {}),
    ...(options.fen ? { fen: options.fen } : {}),
    ...(options.pressed ? { pressed: options.pressed } : {}),
    ...(options.unreadPresses ? { unreadPresses: options.unreadPresses } : {}),
  });
  const pressed = (side: Side) => tracker.clockPressed(side);
  const mirror = options.role === 'mirror' ? new MirrorClock(sides, actor, out, pressed, undefined, options.timeControl) : undefined;
  const host = options.role === 'host' ? new HostClock(sides, actor, out, pressed) : undefined;

  const onSession = (e: SessionEvent) => {
    if (e.type === 'connection') {
      // The engine hears first that the clock keeping the time is out of reach (no flag from its guess).
      if (e.state === 'silent' || e.state === 'disconnected') mirror?.lost(e.at, e.detail);
      emit({ type: 'connection', state: e.state, ...(e.detail ? { detail: e.detail } : {}) });
    } else if (e.type === 'decodeError') {
      inputError(e.at, `DGT ${e.error.reason}: ${e.error.detail} [${e.error.bytes}]`);
    } else if (e.type === 'clockQueue' && e.event.type === 'gaveUp') {
      emit({ type: 'connection', state: session.connection, detail: `clock command '${e.event.label}' failed: ${e.event.reason}` });
    } else if (e.type === 'message') {
      const m = e.message;
      if (m.type === 'boardDump') tracker.boardDump(m.squares);
      else if (m.type === 'fieldUpdate') tracker.fieldUpdate(m.square, m.piece);
      else if (m.type === 'clock') {
        mirror?.clock(m, e.at);
        host?.clock(m, e.at);
      }
    }
  };
  const stopSession = session.subscribe(onSession);
  let cancelNotice: CancelTimer | undefined;

  return {
    boardId: options.boardId,
    kind: 'dgt',
    role: options.role,
    session,
    tracker,
    get identity() {
      return session.board;
    },
    get lastReading() {
      return mirror?.lastReading;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    show(state) {
      mirror?.follow(state);
      if (!host) return;
      host.follow(state);
      // The times are computed when the command goes out (it may wait for an earlier command's ack).
      session.sendClock({
        frame: () => {
          const display = host.display(state, scheduler.now());
          return setAndRun({ leftMs: display.leftMs, rightMs: display.rightMs, run: display.run });
        },
        command: ClockCommand.setAndRun,
        key: 'time',
        label: `set-and-run (${state.status}, ${state.toMove} to move)`,
      });
    },
    notify(text) {
      const dgt3000 = (session.board?.clockVersion?.major ?? 2) >= 2;
      session.sendClock({
        frame: dgt3000 ? asciiText(text) : xlDisplay(text),
        command: dgt3000 ? ClockCommand.ascii : ClockCommand.display,
        key: 'text',
        label: `text ${text}`,
      });
      cancelNotice?.();
      cancelNotice = after(scheduler, options.noticeMs ?? 3000, () => {
        session.sendClock({ frame: endDisplay(), command: ClockCommand.end, key: 'text', label: 'end text' });
      });
    },
    setBoardPosition(fen) {
      tracker.setPosition(fen);
    },
    compareWithEngine(state, toleranceMs) {
      return mirror?.compare(state, toleranceMs);
    },
    async open() {
      await session.open();
    },
    async close() {
      cancelNotice?.();
      tracker.dispose();
      await session.close();
      stopSession();
    },
  };
}
