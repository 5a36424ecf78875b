// Virtual players at a virtual DGT board: each scripted move is made on the board and the mover presses
// the clock at the instant the script says (start + the think times so far).
import { runGameScript, type GameScript, type ScriptRun, type Scheduler } from '../players/index.ts';
import type { ClockSide } from './virtual-clock.ts';
import type { VirtualDgtBoard } from './virtual-board.ts';

export interface PlayOnBoardOptions {
  readonly scheduler: Scheduler;
  /** The clock side White sits at (default left: a normally oriented board). */
  readonly whiteSide?: ClockSide;
  /** When White's clock started; default now. */
  readonly startAt?: number;
}

/** Plays `script` on `board` (the clock must already run: the arbiter starts it). */
export function playOnDgtBoard(board: VirtualDgtBoard, script: GameScript, options: PlayOnBoardOptions): ScriptRun {
  const white = options.whiteSide ?? 'left';
  const black: ClockSide = white === 'left' ? 'right' : 'left';
  return runGameScript(script, {
    scheduler: options.scheduler,
    ...(options.startAt !== undefined ? { startAt: options.startAt } : {}),
    onMove: (move) => {
      board.move({ from: move.from, to: move.to, ...(move.promotion ? { promotion: move.promotion } : {}) });
      board.press(move.side === 'white' ? white : black);
    },
  });
}
