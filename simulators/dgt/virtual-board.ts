// A virtual DGT e-board with a DGT 3000 / XL clock on its cable. It answers every single-board command,
// reports field updates as the virtual players move pieces, sends the clock every second in update mode
// (only on change in update-nice mode), acknowledges clock commands after a delay, and injects faults.
import { Chess } from 'chess.js';
import {
  ClockCommand,
  ClockStatus,
  DgtCommand,
  HostCommandDecoder,
  batteryMessage,
  boardDumpMessage,
  boardMessage,
  busAddressMessage,
  clockAckMessage,
  clockTimesMessage,
  eeMovesMessage,
  fieldUpdateMessage,
  longSerialNumberMessage,
  serialNumberMessage,
  squareIndex,
  trademarkMessage,
  versionMessage,
  type HostCommand,
  type PieceLetter,
  type Scheduler,
} from '../../device-bridge/index.ts';
import { VirtualClock, type ClockModel, type ClockSide } from './virtual-clock.ts';

export type BoardMode = 'idle' | 'update' | 'update-board' | 'update-nice' | 'bus';
export type Delivery = 'whole' | 'split' | 'merged';

export interface VirtualDgtBoardOptions {
  readonly scheduler: Scheduler;
  readonly clock?: ClockModel;
  readonly version?: { readonly major: number; readonly minor: number };
  readonly serial?: string;
  /** White sits on the side of the board's connector: every square maps to 63 - index. */
  readonly rotated?: boolean;
  readonly leftMs?: number;
  readonly rightMs?: number;
  readonly incrementMs?: number;
  /** The clock's second period (VirtualClockOptions.nextPeriod). */
  readonly nextPeriod?: { readonly moves: number; readonly addMs: number };
  readonly leverHigh?: ClockSide;
  /** How long the clock takes to acknowledge a clock command. */
  readonly ackDelayMs?: number;
  /** Period of clock messages in update mode. */
  readonly clockPeriodMs?: number;
}

export interface ClockCommandRecord {
  readonly command: number;
  readonly data: readonly number[];
  readonly at: number;
  /** Clock commands the host had sent and the clock had not yet acknowledged, this one included. */
  readonly outstanding: number;
}

const pieceOf = (p: { type: string; color: string }): PieceLetter => (p.color === 'w' ? p.type.toUpperCase() : p.type) as PieceLetter;

export class VirtualDgtBoard {
  readonly clock: VirtualClock;
  readonly chess = new Chess();
  readonly model: ClockModel;
  /** Every host command received, in order. */
  readonly commands: HostCommand[] = [];
  readonly clockCommands: ClockCommandRecord[] = [];
  mode: BoardMode = 'idle';
  delivery: Delivery = 'whole';
  /** Fault: the clock sends nothing (no times, no acks). */
  clockSilent = false;
  bytesSent = 0;
  bytesReceived = 0;
  private readonly squares: PieceLetter[] = Array.from({ length: 64 }, () => '.');
  private readonly decoder = new HostCommandDecoder();
  private sink: ((bytes: Uint8Array) => void) | undefined;
  private outstanding = 0;
  private tick: unknown;
  private lastClockBytes = '';
  private merged: number[] = [];
  private mergeTimer: unknown;
  private splitChunks: Uint8Array[] = [];
  private splitTimer: unknown;
  private readonly options: VirtualDgtBoardOptions;

  constructor(options: VirtualDgtBoardOptions) {
    this.options = options;
    this.model = options.clock ?? 'dgt3000';
    this.clock = new VirtualClock({
      scheduler: options.scheduler,
      ...(options.leftMs !== undefined ? { leftMs: options.leftMs } : {}),
      ...(options.rightMs !== undefined ? { rightMs: options.rightMs } : {}),
      ...(options.incrementMs !== undefined ? { incrementMs: options.incrementMs } : {}),
      ...(options.nextPeriod ? { nextPeriod: options.nextPeriod } : {}),
      ...(options.leverHigh ? { leverHigh: options.leverHigh } : {}),
      onChange: () => this.clockChanged(),
    });
    this.setPosition(this.chess.fen());
  }

  /** The most clock commands ever outstanding at once: a host that waits for acks keeps this at 1. */
  get maxOutstanding(): number {
    return Math.max(0, ...this.clockCommands.map((c) => c.outstanding));
  }

  /** Wires the board to a transport; bytes for the host go to `sink`. Power-up: IDLE, as a real board. */
  connect(sink: (bytes: Uint8Array) => void): void {
    this.sink = sink;
    this.mode = 'idle';
  }

  /** The cable is gone: nothing is sent; the clock (on its own batteries) keeps running. */
  disconnect(): void {
    this.sink = undefined;
    this.mode = 'idle';
    this.outstanding = 0;
    this.stopTick();
  }

  get connected(): boolean {
    return this.sink !== undefined;
  }

  /** Bytes from the host. */
  receive(bytes: ArrayLike<number>): void {
    this.bytesReceived += bytes.length;
    for (const command of this.decoder.push(bytes)) {
      this.commands.push(command);
      this.execute(command);
    }
  }

  // --- the players ---------------------------------------------------------------------------

  /** Sets up a position (FEN), reporting every square that changes. */
  setPosition(fen: string): void {
    // load() checks the FEN before it changes anything: a bad one throws with the board as it was.
    this.chess.load(fen);
    for (let i = 0; i < 64; i++) {
      const name = `${'abcdefgh'[i % 8]}${8 - Math.floor(i / 8)}`;
      const piece = this.chess.get(name as Parameters<Chess['get']>[0]);
      this.put(name, piece ? pieceOf(piece) : '.');
    }
  }

  /** Plays a legal move the way hands do it: captured piece off, piece lifted, piece put down. */
  move(move: string | { from: string; to: string; promotion?: string }): string {
    const played = this.chess.move(move);
    const mover = pieceOf({ type: played.promotion ?? played.piece, color: played.color });
    if (played.isEnPassant()) this.put(`${played.to[0]}${played.from[1]}`, '.');
    else if (played.captured) this.put(played.to, '.');
    this.put(played.from, '.');
    this.put(played.to, mover);
    if (played.isKingsideCastle() || played.isQueensideCastle()) {
      const rank = played.from[1];
      const [rookFrom, rookTo] = played.isKingsideCastle() ? [`h${rank}`, `f${rank}`] : [`a${rank}`, `d${rank}`];
      const rook: PieceLetter = played.color === 'w' ? 'R' : 'r';
      this.put(rookFrom, '.');
      this.put(rookTo, rook);
    }
    return played.san;
  }

  /** Puts a piece on a square (chess name) or lifts it ('.'), as a hand would; no rules applied. */
  put(square: string, piece: PieceLetter): void {
    const index = this.index(square);
    if (this.squares[index] === piece) return;
    this.squares[index] = piece;
    if (this.mode === 'update' || this.mode === 'update-board' || this.mode === 'update-nice') {
      this.send(fieldUpdateMessage(index, piece));
    }
  }

  /** The player on `side` presses the lever. */
  press(side: ClockSide): boolean {
    return this.clock.press(side);
  }

  // --- faults --------------------------------------------------------------------------------

  /** Raw bytes on the line, as noise would put them there. */
  sendGarbage(bytes: readonly number[]): void {
    this.write(Uint8Array.from(bytes));
  }

  /** The running side's flag falls now. */
  flagFall(side: ClockSide): void {
    this.clock.expire(side);
  }

  dispose(): void {
    this.stopTick();
    this.clock.dispose();
    if (this.mergeTimer !== undefined) this.options.scheduler.clearTimeout(this.mergeTimer);
    if (this.splitTimer !== undefined) this.options.scheduler.clearTimeout(this.splitTimer);
  }

  // --- protocol ------------------------------------------------------------------------------

  private index(square: string): number {
    const index = squareIndex(square);
    return this.options.rotated ? 63 - index : index;
  }

  private execute(command: HostCommand): void {
    if (command.kind === 'clock') {
      this.clockCommand(command.command, command.data);
      return;
    }
    if (command.kind !== 'board') return;
    switch (command.byte) {
      case DgtCommand.reset:
        this.setMode('idle');
        break;
      case DgtCommand.sendClock:
        this.sendClockTimes(true);
        break;
      case DgtCommand.sendBoard:
        this.send(boardDumpMessage(this.squares));
        break;
      case DgtCommand.updateMode:
        this.setMode('update');
        break;
      case DgtCommand.updateBoardMode:
        this.setMode('update-board');
        break;
      case DgtCommand.updateNiceMode:
        this.setMode('update-nice');
        break;
      case DgtCommand.serialNumber:
        this.send(serialNumberMessage(this.options.serial ?? '01025'));
        break;
      case DgtCommand.longSerialNumber:
        this.send(longSerialNumberMessage(`3.10${this.options.serial ?? '01025'}`));
        break;
      case DgtCommand.busAddress:
        this.send(busAddressMessage(Number(this.options.serial ?? '01025')));
        break;
      case DgtCommand.trademark:
        this.send(trademarkMessage('Digital Game Technology (virtual board, zeitnot)'));
        break;
      case DgtCommand.hardwareVersion:
        this.send(boardMessage(0x96, [1, 0]));
        break;
      case DgtCommand.version: {
        const { major, minor } = this.options.version ?? { major: 3, minor: 10 };
        this.send(versionMessage(major, minor));
        break;
      }
      case DgtCommand.batteryStatus:
        this.send(batteryMessage(88, false));
        break;
      case DgtCommand.eeMoves:
        // A short log: power-up, start position, e2 lifted, pawn on e4, end of log.
        this.send(eeMovesMessage([0x6a, 0x6f, 0x40, 0x34, 0x41, 0x24, 0x6b]));
        break;
      case DgtCommand.toBusMode:
        this.setMode('bus');
        break;
      case 0x50:
      case 0x52:
        this.send(
          boardMessage(
            command.byte === 0x50 ? 0x94 : 0x95,
            Array.from({ length: 50 }, () => 0),
          ),
        );
        break;
      default:
        // 0x4E (boot loader), 0x51/0x53/0x54 (draughts scans): accepted, nothing to answer.
        break;
    }
  }

  private setMode(mode: BoardMode): void {
    this.mode = mode;
    this.stopTick();
    if (mode === 'update' || mode === 'update-nice') this.startTick();
  }

  private startTick(): void {
    const period = this.options.clockPeriodMs ?? 1000;
    const run = () => {
      this.tick = this.options.scheduler.setTimeout(run, period);
      this.sendClockTimes(this.mode === 'update');
    };
    this.tick = this.options.scheduler.setTimeout(run, period);
  }

  private stopTick(): void {
    if (this.tick !== undefined) this.options.scheduler.clearTimeout(this.tick);
    this.tick = undefined;
  }

  private clockChanged(): void {
    if (this.mode === 'update' || this.mode === 'update-nice') this.sendClockTimes(false);
  }

  /** `always`: send even when nothing changed (update mode, 0x41); otherwise only on change (nice). */
  private sendClockTimes(always: boolean): void {
    if (this.clockSilent || !this.sink) return;
    const bytes = this.clockBytes();
    const key = Array.from(bytes).join(',');
    if (!always && key === this.lastClockBytes) return;
    this.lastClockBytes = key;
    this.send(bytes);
  }

  private clockBytes(): Uint8Array {
    if (this.model === 'none') return clockTimesMessage({ ms: 0 }, { ms: 0 }, ClockStatus.noClock);
    const c = this.clock;
    // The display shows a started second as a whole one.
    const face = (side: ClockSide) => {
      const s = c.side(side);
      return { ms: Math.ceil(s.ms / 1000) * 1000, finalFlag: s.finalFlag, timePerMove: c.incrementMs > 0 };
    };
    const rightHigh = c.leverHigh === 'right';
    // As in the real captures: D3 while the left clock has the turn, D4 while the right one has (on a
    // clock the host has not set, that is the side the lever is up on); D1 is the lever itself.
    const status =
      (c.isRunning ? ClockStatus.running : 0) | (rightHigh ? ClockStatus.leverRightHigh : 0) | (c.turn === 'right' ? ClockStatus.d4 : ClockStatus.d3);
    return clockTimesMessage(face('right'), face('left'), status);
  }

  private clockCommand(command: number, data: readonly number[]): void {
    if (this.model === 'none') return;
    this.outstanding++;
    const scheduler = this.options.scheduler;
    this.clockCommands.push({ command, data, at: scheduler.now(), outstanding: this.outstanding });
    // The clock acts on the command at once; the board polls it only a few times a second, so the ack
    // comes later.
    const ok = this.apply(command, data);
    scheduler.setTimeout(() => {
      this.outstanding = Math.max(0, this.outstanding - 1);
      // Acks come only in the update modes; a silent clock sends none.
      if ((this.mode === 'update' || this.mode === 'update-nice') && !this.clockSilent && this.sink) {
        const versionNibbles = this.model === 'dgt3000' ? 0x20 : 0x14;
        this.send(clockAckMessage([ok ? 0x10 : 0x40, command, command === ClockCommand.version ? versionNibbles : 0, 0]));
      }
    }, this.options.ackDelayMs ?? 120);
  }

  private apply(command: number, data: readonly number[]): boolean {
    switch (command) {
      case ClockCommand.setAndRun: {
        const [lh = 0, lm = 0, ls = 0, rh = 0, rm = 0, rs = 0, run = 4] = data;
        const ms = (h: number, m: number, s: number) => ((h * 60 + m) * 60 + s) * 1000;
        this.clock.setAndRun(ms(lh, lm, ls), ms(rh, rm, rs), run & 0x01 ? 'left' : run & 0x02 ? 'right' : 'pause', (run & 0x08) !== 0);
        return true;
      }
      case ClockCommand.ascii:
        if (this.model !== 'dgt3000') return false;
        this.clock.text = String.fromCharCode(...data.slice(0, 8)).trimEnd();
        return true;
      case ClockCommand.display:
        this.clock.text = `segments:${data.slice(0, 6).join(',')}`;
        return true;
      case ClockCommand.end:
        this.clock.text = undefined;
        return true;
      default:
        return true;
    }
  }

  private send(message: Uint8Array): void {
    if (!this.sink) return;
    if (this.delivery === 'merged') {
      this.merged.push(...message);
      this.mergeTimer ??= this.options.scheduler.setTimeout(() => {
        this.mergeTimer = undefined;
        const bytes = Uint8Array.from(this.merged);
        this.merged = [];
        this.write(bytes);
      }, 50);
    } else if (this.delivery === 'split') {
      // Each message in two pieces with a pause between, as a slow USB adapter delivers them.
      const cut = Math.max(1, Math.floor(message.length / 2));
      this.splitChunks.push(message.subarray(0, cut), message.subarray(cut));
      this.drainSplit();
    } else {
      this.write(message);
    }
  }

  /** One chunk now, the next 5 ms later, in order. */
  private drainSplit(): void {
    if (this.splitTimer !== undefined) return;
    const chunk = this.splitChunks.shift();
    if (!chunk) return;
    this.write(chunk);
    this.splitTimer = this.options.scheduler.setTimeout(() => {
      this.splitTimer = undefined;
      this.drainSplit();
    }, 5);
  }

  private write(bytes: Uint8Array): void {
    if (!this.sink || bytes.length === 0) return;
    this.bytesSent += bytes.length;
    this.sink(bytes);
  }
}
