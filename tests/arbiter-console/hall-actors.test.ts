// The hall driven by its game-clock actors: one injected clock for every timer (XState's SimulatedClock,
// the console's manual clock, real timers), flags and default-time forfeits journaled at their exact
// instant by the actors' own timers, and the actors' fold state equal to the journal's replay (the
// board's own state: each event folded once); a board another machine keeps time for has no actor.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { replayGame, type ClockEvent } from '../../clock-engine/internal.ts';
import {
  Journal,
  PlayingHall,
  boardGameConfig,
  gameSystemId,
  manualSource,
  realClock,
  type HallClock,
  type HallOptions,
  type JournalRecord,
} from '../../arbiter-console/internal.ts';
import { MIN, cairnsRound, seatBare } from './fixtures.ts';

const dirs: string[] = [];
const halls: PlayingHall[] = [];
afterEach(() => {
  for (const h of halls.splice(0)) h.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openHall(clock: HallClock, boards = 3, options: HallOptions = {}): { hall: PlayingHall; journal: Journal; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-actors-'));
  dirs.push(dir);
  const file = join(dir, 'journal.sqlite');
  const journal = new Journal(file);
  seatBare(journal, cairnsRound(boards, 10_000));
  const hall = new PlayingHall(journal, clock, [], options);
  halls.push(hall);
  return { hall, journal, file };
}

function clockEvents(journal: Journal, board: string): ClockEvent[] {
  return [...journal.entries()].flatMap((e) => (e.record.kind === 'clock' && e.record.board === board ? [e.record.event] : []));
}

function expectActorsEqualReplay(hall: PlayingHall, journal: Journal): void {
  for (const board of hall.boards.values()) {
    const replayed = replayGame(boardGameConfig(hall.round.game, board.info), clockEvents(journal, board.id));
    expect(board.state).toEqual(replayed);
    expect(board.clockState()).toEqual(replayed);
  }
}

function board1Replayed(hall: PlayingHall, journal: Journal) {
  return replayGame(boardGameConfig(hall.round.game, hall.boards.get('1')!.info), clockEvents(journal, '1'));
}

describe('hall on game-clock actors', () => {
  it("on XState's SimulatedClock: the start, a flag and a default-time forfeit at their exact instants, journaled before they apply", () => {
    const clock = Object.assign(new SimulatedClock(), { scale: 1 });
    const { hall, journal } = openHall(clock);
    for (const id of ['1', '2', '3']) hall.command({ type: 'arrive', board: id, side: 'white' }, 'IA');
    hall.command({ type: 'arrive', board: '1', side: 'black' }, 'IA');
    hall.command({ type: 'arrive', board: '2', side: 'black' }, 'IA');
    expect(hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
    clock.set(9_999);
    expect(hall.phase).toBe('published');
    clock.set(10_000);
    expect(hall.phase).toBe('playing');
    expect(hall.views().map((v) => [v.status, v.asOf])).toEqual([
      ['running', 10_000],
      ['running', 10_000],
      ['running', 10_000],
    ]);
    hall.command({ type: 'setTime', board: '1', side: 'white', ms: 4_321, reason: 'test' }, 'IA');
    clock.set(14_320);
    expect(hall.view('1')!.status).toBe('running');
    clock.set(14_321);
    expect(clockEvents(journal, '1').at(-1)).toEqual({ type: 'flag', side: 'white', at: 14_321, by: { kind: 'system' } });
    expect(hall.view('1')!.flag).toEqual({ side: 'white', at: 14_321 });
    // Black of board 3 never comes: "more than 30 minutes late" (the default boundary) ends the default
    // time 1 ms after 30 minutes from the scheduled start (docs/clock-rules.md).
    for (let t = 20_000; t <= 10_000 + 30 * MIN; t += 60_000) clock.set(t);
    clock.set(10_000 + 30 * MIN);
    expect(clockEvents(journal, '3').at(-1)?.type).not.toBe('defaultTimeExpired');
    clock.set(10_000 + 30 * MIN + 1);
    expect(clockEvents(journal, '3').at(-1)).toMatchObject({ type: 'defaultTimeExpired', absent: ['black'], at: 10_000 + 30 * MIN + 1 });
    // Laws 2018: the arbiter decides (6.7.1), so the clock raises the alert rather than a result.
    expect(
      hall
        .attention()
        .filter((a) => a.board === '3')
        .map((a) => a.code),
    ).toContain('default-time-expired');
    expectActorsEqualReplay(hall, journal);
  });

  it('restored from the journal after a restart, the actors take up the timers where the fold says', () => {
    const clock = Object.assign(new SimulatedClock(), { scale: 1 });
    const first = openHall(clock);
    first.hall.command({ type: 'arriveAll' }, 'IA');
    first.hall.command({ type: 'startAll' }, 'IA');
    clock.set(10_000);
    first.hall.command({ type: 'setTime', board: '2', side: 'white', ms: 60_000, reason: 'test' }, 'IA');
    first.hall.stop();
    first.journal.close();
    clock.set(30_000);
    const journal = new Journal(first.file);
    const hall = new PlayingHall(journal, clock);
    halls.push(hall);
    expect(hall.phase).toBe('playing');
    expectActorsEqualReplay(hall, journal);
    clock.set(70_000);
    expect(clockEvents(journal, '2').at(-1)).toEqual({ type: 'flag', side: 'white', at: 70_000, by: { kind: 'system' } });
    expectActorsEqualReplay(hall, journal);
    journal.close();
  });

  it("folds each clock event once: the board's state and its actor's are the same state", () => {
    const clock = Object.assign(new SimulatedClock(), { scale: 1 });
    const { hall, journal } = openHall(clock, 1);
    hall.command({ type: 'arriveAll' }, 'IA');
    hall.command({ type: 'startAll' }, 'IA');
    clock.set(10_000);
    const board = hall.boards.get('1')!;
    for (const [at, side] of [
      [12_000, 'white'],
      [15_000, 'black'],
      [16_500, 'white'],
    ] as const) {
      clock.set(at);
      hall.record({ kind: 'clock', board: '1', event: { type: 'press', side, at, by: { kind: 'device', deviceId: 'clock-1' } } });
      expect(board.clockState()).toBe(board.state);
    }
    expect(board.state.presses).toEqual({ white: 2, black: 1 });
    expectActorsEqualReplay(hall, journal);
  });

  it("a board another machine keeps time for (a console on the bus): no actor, no timer, no entry of its own; the fold of its owner's entries", () => {
    const clock = manualSource(0);
    const timers = { set: 0 };
    const counting: HallClock = { ...clock, now: () => clock.now(), setTimeout: (callback, ms) => (timers.set++, clock.setTimeout(callback, ms)) };
    const { hall, journal } = openHall(counting, 2, { owns: () => false });
    expect(hall.system.get(gameSystemId('main', 1, '1'))).toBeUndefined();
    expect(hall.system.get(gameSystemId('main', 1, '2'))).toBeUndefined();
    const by = { kind: 'system' } as const;
    const fromHost: JournalRecord[] = [
      { kind: 'clock', board: '1', event: { type: 'arrive', side: 'white', at: 0, by } },
      { kind: 'clock', board: '1', event: { type: 'arrive', side: 'black', at: 0, by } },
      { kind: 'clock', board: '1', event: { type: 'start', at: 10_000, by } },
      { kind: 'clock', board: '1', event: { type: 'setTime', side: 'white', ms: 4_321, at: 10_000, by, reason: 'test' } },
    ];
    fromHost.forEach((record, i) => hall.receive({ source: 'h1', sourceSeq: i + 1, wallMs: 0, record }));
    const own = journal.lastOwn();
    const before = timers.set;
    // Far past the flag, nothing happens here: the owner journals it.
    for (let t = 10_000; t <= 20_000; t += 1_000) clock.set(t);
    expect(timers.set - before).toBe(0);
    expect(journal.lastOwn()).toBe(own);
    expect(hall.view('1')).toMatchObject({ status: 'running', toMove: 'white', remainingMs: { white: 4_321 }, asOf: 10_000 });
    expect(hall.view('1')!.flag).toBeUndefined();
    expect(hall.boards.get('1')!.remainingAt(13_321).white).toBe(1_000);
    expect(hall.boards.get('1')!.clockState()).toBeUndefined();
    hall.receive({ source: 'h1', sourceSeq: 5, wallMs: 0, record: { kind: 'clock', board: '1', event: { type: 'flag', side: 'white', at: 14_321, by } } });
    expect(hall.view('1')!.flag).toEqual({ side: 'white', at: 14_321 });
    expect(journal.lastOwn()).toBe(own);
    expect(board1Replayed(hall, journal)).toEqual(hall.boards.get('1')!.state);
  });

  it('with real timers: the flag is journaled at its instant and announced within milliseconds, no poll', async () => {
    const clock = realClock(0, 1);
    const { hall, journal } = openHall(clock, 1);
    hall.command({ type: 'arriveAll' }, 'IA');
    // Start now (the scheduled start is 10 s away on this clock: start at once instead).
    hall.record({ kind: 'clock', board: '1', event: { type: 'start', at: clock.now(), by: { kind: 'system' } } });
    const deadline = clock.now() + 150;
    hall.command({ type: 'setTime', board: '1', side: 'white', ms: deadline - clock.now(), reason: 'test' }, 'IA');
    const flagAt = hall.view('1')!.asOf + hall.view('1')!.remainingMs.white;
    let announcedAt: number | undefined;
    hall.subscribe((change) => {
      if (change.boards.includes('1') && hall.view('1')!.flag) announcedAt ??= clock.now();
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(clockEvents(journal, '1').at(-1)).toEqual({ type: 'flag', side: 'white', at: flagAt, by: { kind: 'system' } });
    expect(announcedAt).toBeDefined();
    // Real timers on shared cores: the instant journaled is exact; when it is announced depends on the
    // machine's load (the bench measures it), so only a loose bound is asserted here.
    expect(announcedAt! - flagAt).toBeGreaterThanOrEqual(0);
    expect(announcedAt! - flagAt).toBeLessThan(2_000);
    expectActorsEqualReplay(hall, journal);
  });
});
