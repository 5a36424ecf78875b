// The hall driven by its game-clock actors: one injected clock for every timer (XState's SimulatedClock,
// the console's manual clock, real timers), flags and default-time forfeits journaled at their exact
// instant by the actors' own timers, and the actors' fold state equal to the journal's replay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { replayGame, type ClockEvent } from '../../clock-engine/index.ts';
import { Journal, PlayingHall, boardGameConfig, realClock, type HallClock } from '../../arbiter-console/index.ts';
import { MIN, cairnsRound, seatBare } from './fixtures.ts';

const dirs: string[] = [];
const halls: PlayingHall[] = [];
afterEach(() => {
  for (const h of halls.splice(0)) h.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openHall(clock: HallClock, boards = 3): { hall: PlayingHall; journal: Journal; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-actors-'));
  dirs.push(dir);
  const file = join(dir, 'journal.sqlite');
  const journal = new Journal(file);
  seatBare(journal, cairnsRound(boards, 10_000));
  const hall = new PlayingHall(journal, clock);
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
    expect(hall.attention().filter((a) => a.board === '3').map((a) => a.code)).toContain('default-time-expired');
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
