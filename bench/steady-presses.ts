// A hall's clocks started and pressed at a steady rate, boards taken in a fixed stride: the load the
// feed and spectator benches measure under (the arbiter-console bench has its own, random, presser).
import type { PlayingHall } from '../arbiter-console/index.ts';

/** Arrives everyone, starts every clock and presses `perSecond` times a second; returns the stop. */
export function steadyPresses(hall: PlayingHall, boards: number, perSecond: number): () => void {
  hall.command({ type: 'arriveAll' }, 'bench');
  hall.command({ type: 'startAll' }, 'bench');
  let next = 0;
  const presser = setInterval(() => {
    const board = String(((next++ * 37) % boards) + 1);
    const b = hall.boards.get(board);
    if (b?.state.status !== 'running') return;
    hall.record({ kind: 'clock', board, event: { type: 'press', side: b.state.toMove, at: hall.source.now(), by: { kind: 'device', deviceId: 'bench' } } });
  }, 1000 / perSecond);
  return () => clearInterval(presser);
}
