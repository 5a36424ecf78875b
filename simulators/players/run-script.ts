// Plays a script against a scheduler: each move happens `thinkMs` after the previous one (after the
// start for the first), in real, accelerated or simulated time.
import type { GameScript, ScriptedMove } from './game-script.ts';
import type { Scheduler } from './scheduler.ts';

export interface ScriptRun {
  /** Resolves after the last move (or at `stop()`). */
  readonly finished: Promise<void>;
  /** Moves played so far. */
  readonly played: number;
  stop(): void;
}

export interface RunScriptOptions {
  readonly scheduler: Scheduler;
  /**
   * Called at each move. `at` is the instant the move is due (start + the think times so far), exact even
   * when a simulated clock jumps past several moves at once or a real timer fires late.
   */
  readonly onMove: (move: ScriptedMove, at: number) => void;
  /** When White's clock started; default `scheduler.now()`. */
  readonly startAt?: number;
}

export function runGameScript(script: GameScript, options: RunScriptOptions): ScriptRun {
  const { scheduler, onMove } = options;
  let dueAt = options.startAt ?? scheduler.now();
  let played = 0;
  let timer: unknown;
  let stopped = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const scheduleNext = (): void => {
    const move = script.moves[played];
    if (stopped || !move) {
      finish();
      return;
    }
    dueAt += move.thinkMs;
    timer = scheduler.setTimeout(() => {
      played++;
      onMove(move, dueAt);
      scheduleNext();
    }, dueAt - scheduler.now());
  };
  scheduleNext();

  return {
    finished,
    get played() {
      return played;
    },
    stop() {
      stopped = true;
      scheduler.clearTimeout(timer);
      finish();
    },
  };
}
