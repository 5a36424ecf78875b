// Virtual players at a virtual line clock: Black's button starts the clock, then each scripted move is a
// press of the mover's button after its think time.
import { runGameScript, type ScriptRun } from '../players/run-script.ts';
import type { GameScript } from '../players/game-script.ts';
import type { Scheduler } from '../players/scheduler.ts';
import type { VirtualLineClock } from './virtual-line-clock.ts';

export function playOnLineClock(script: GameScript, clock: VirtualLineClock, scheduler: Scheduler): ScriptRun {
  clock.press('black');
  return runGameScript(script, { scheduler, onMove: (move) => clock.press(move.side) });
}
