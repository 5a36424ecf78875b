// The event's actor system (arbiter-console/hall/round-actor.ts + the game-clock actors): how late a flag
// is announced with real timers at 1,000 running boards, the memory of a board (its Board and its
// game-clock actor), and presses per second through the whole path: a device event, the hall, the
// journal (a real SQLite file), the board's fold and actor, and the clients' delta queues.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gameConfig } from '../clock-engine/index.ts';
import type { ClockDevice, DeviceListener } from '../device-bridge/index.ts';
import { Coalescer, Journal, PlayingHall, manualSource, realClock, type HallClock, type Round } from '../arbiter-console/index.ts';
import type { BenchRow } from './table.ts';

const BOARDS = 1000;

function hallRound(boards: number, scheduledStart = 0): Round {
  return {
    event: 'Bench Open',
    site: 'loopback',
    round: 1,
    date: '2026.01.01',
    scheduledStart: new Date().toISOString(),
    game: gameConfig('40/5400+30:1800+30', { scheduledStart, defaultTimeMs: 30 * 60_000, lateArrival: 'arbiter-decides' }),
    boards: Array.from({ length: boards }, (_, i) => ({ id: String(i + 1), white: `W${i + 1}`, black: `B${i + 1}` })),
  };
}

function openHall(boards: number, clock: HallClock): { hall: PlayingHall; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-event-'));
  const journal = new Journal(join(dir, 'journal.sqlite'));
  const round = hallRound(boards, clock.now());
  // The round seated as an event console seats a section's round: a `seat` record the hall replays.
  journal.setMeta({ epochWallMs: 0, scale: 1 });
  journal.appendAll([{ kind: 'seat', at: 0, round }]);
  const hall = new PlayingHall(journal, clock);
  hall.command({ type: 'arriveAll' }, 'bench');
  hall.command({ type: 'startAll' }, 'bench');
  return {
    hall,
    close() {
      hall.stop();
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Every board gets a flag at its own instant over 4 s; lateness = when the hall's listeners hear it − the flag's instant. */
async function flagLateness(): Promise<number[]> {
  const clock = realClock(0, 1);
  const { hall, close } = openHall(BOARDS, clock);
  const flagAt = new Map<string, number>();
  const late: number[] = [];
  hall.subscribe((change) => {
    for (const id of change.boards) {
      const flag = hall.boards.get(id)!.state.firstFlag;
      if (flag && !flagAt.has(id)) {
        flagAt.set(id, flag.at);
        late.push(clock.now() - flag.at);
      }
    }
  });
  const base = clock.now() + 3_000;
  for (const [i, id] of [...hall.boards.keys()].entries()) {
    const at = clock.now();
    const target = base + Math.floor((i * 4_000) / BOARDS);
    hall.command({ type: 'setTime', board: id, side: 'white', ms: target - at, reason: 'bench' }, 'bench');
  }
  if (clock.now() >= base) throw new Error('setting 1,000 clocks took longer than 3 s: the flags would be late before they were set');
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  close();
  return late.sort((a, b) => a - b);
}

function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    for (let i = 0; i < 3; i++) gc();
  };
}

function bytesPerBoard(): number {
  const gc = collector();
  openHall(100, manualSource(0)).close();
  gc();
  const before = process.memoryUsage().heapUsed;
  const opened = openHall(BOARDS, manualSource(0));
  gc();
  const after = process.memoryUsage().heapUsed;
  opened.close();
  return (after - before) / BOARDS;
}

/** A device that hands the hall what the bench tells it to, as a DGT bridge hands it a press. */
function benchDevice(boardId: string): ClockDevice & { press(side: 'white' | 'black', at: number): void } {
  const listeners = new Set<DeviceListener>();
  return {
    boardId,
    kind: 'line',
    role: 'host',
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    show() {},
    notify() {},
    open: async () => {},
    close: async () => {},
    press(side, at) {
      for (const l of listeners) l({ type: 'clockEvent', event: { type: 'press', side, at, by: { kind: 'device', deviceId: boardId } } });
    },
  };
}

export function pressesPerSecond(clients: number): number {
  const clock = manualSource(0);
  const { hall, close } = openHall(BOARDS, clock);
  const devices = [...hall.boards.keys()].map((id) => {
    const d = benchDevice(id);
    hall.attachDevice(d);
    return d;
  });
  let flushed = 0;
  const timers = { now: () => performance.now(), schedule: () => () => {} };
  const queues = Array.from({ length: clients }, () => new Coalescer(timers, () => (flushed += 1), 1_000_000, 1000));
  hall.subscribe((change) => {
    for (const q of queues) q.mark(change.boards, change);
  });
  const presses = 20_000;
  const t0 = performance.now();
  for (let i = 0; i < presses; i++) {
    const at = clock.advance(1);
    const board = devices[i % BOARDS]!;
    board.press(hall.boards.get(board.boardId)!.state.toMove, at);
  }
  const seconds = (performance.now() - t0) / 1000;
  close();
  if (flushed === 0) throw new Error('no client queue was reached');
  return presses / seconds;
}

export async function run(): Promise<BenchRow[]> {
  const late = await flagLateness();
  const bytes = bytesPerBoard();
  const rate = pressesPerSecond(200);
  const p99 = percentile(late, 99);
  return [
    {
      part: 'event actors',
      measure: `flag announced after its instant, ${BOARDS} running boards, real timers: p50 / p99 / max`,
      value: `${percentile(late, 50)} / ${p99} / ${late.at(-1)} ms (${late.length} flags; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
      target: 'p99 <= 5 ms',
      ok: p99 <= 5 && late.length === BOARDS,
    },
    { part: 'event actors', measure: `memory per board (Board + game-clock actor), ${BOARDS} boards`, value: `${Math.round(bytes)} bytes` },
    {
      part: 'event actors',
      measure: 'presses/s: device event → hall → journal (SQLite) → fold + actor → 200 client queues',
      value: `${Math.round(rate).toLocaleString('en')}/s`,
    },
  ];
}
