// A large round is seated and started in parts, `chunk` boards a turn of the event loop, so that no
// turn holds the hall's clocks for long (hall.ts, HallOptions.chunk): the game clocks made part by
// part after the seat, the clocks started part by part after the start is journaled. The journal and
// the hall come out exactly as in one go, their deadlines too; a console stopped midway through the
// start (each part its own transaction) restarts into the same journal and hall.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, PlayingHall, gameSystemId, manualSource, type ManualSource } from '../../arbiter-console/internal.ts';
import { cairnsRound, MIN } from './fixtures.ts';

const BOARDS = 45;
const CHUNK = 7;
const SCHEDULED = 5_000;
const dirs: string[] = [];
const halls: { hall: PlayingHall; journal: Journal }[] = [];

afterEach(() => {
  for (const { hall, journal } of halls.splice(0)) {
    hall.stop();
    try {
      journal.close();
    } catch {
      // closed already (the restart closed it)
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  hall: PlayingHall;
  journal: Journal;
  readonly source: ManualSource;
  readonly file: string;
}

function openHall(chunk: number): Opened {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-round-in-parts-'));
  dirs.push(dir);
  const file = join(dir, 'journal.sqlite');
  const journal = new Journal(file);
  journal.setMeta({ epochWallMs: 0, scale: 1 });
  const source = manualSource(1_000);
  const hall = new PlayingHall(journal, source, [], { chunk });
  halls.push({ hall, journal });
  return { hall, journal, source, file };
}

/** Lets every part still to come run (each is one turn of the event loop). */
async function turns(n = 3 * Math.ceil(BOARDS / CHUNK)): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const withClock = (hall: PlayingHall): number => [...hall.boards.values()].filter((b) => b.clockState() !== undefined).length;
const running = (hall: PlayingHall): number => [...hall.boards.values()].filter((b) => b.state.status === 'running').length;

/** Seat, everyone present, the start (left in parts when `drain` is false). */
async function seatAndStart(o: Opened, drain: boolean): Promise<void> {
  expect(o.hall.seat(cairnsRound(BOARDS, SCHEDULED))).toMatchObject({ ok: true });
  await turns();
  expect(o.hall.command({ type: 'arriveAll' }, 'IA')).toMatchObject({ ok: true });
  o.source.set(SCHEDULED + 1_000);
  expect(o.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
  if (drain) await turns();
}

/** A few presses, then far enough for every clock still running to flag: the game clocks' deadlines. */
async function playOn(o: Opened): Promise<void> {
  for (const id of ['1', '8', '45']) {
    o.source.set(o.source.now() + 1_000);
    o.hall.record({ kind: 'clock', board: id, event: { type: 'press', side: 'white', at: o.source.now(), by: { kind: 'device', deviceId: 'test' } } });
  }
  o.source.set(SCHEDULED + 200 * MIN);
  await turns();
}

const journaled = (journal: Journal) => [...journal.entries()].map((e) => ({ seq: e.seq, record: e.record }));
const hallNow = (hall: PlayingHall) => ({ views: hall.views(), attention: hall.attention(), phase: hall.phaseOf('main', 1), startAt: hall.startOf('main') });

async function inOneGo(): Promise<{ journal: unknown; hall: unknown }> {
  const o = openHall(1_000);
  await seatAndStart(o, true);
  await playOn(o);
  return { journal: journaled(o.journal), hall: hallNow(o.hall) };
}

describe('a round seated and started in parts', () => {
  it('makes its clocks and starts them chunk by chunk, into the same journal and hall as in one go', async () => {
    const expected = await inOneGo();
    const o = openHall(CHUNK);
    expect(o.hall.seat(cairnsRound(BOARDS, SCHEDULED))).toMatchObject({ ok: true });
    // The seat is journaled and every board on the tables at once; the game clocks come part by part.
    expect(o.hall.boards.size).toBe(BOARDS);
    expect(withClock(o.hall)).toBe(CHUNK);
    await turns(1);
    expect(withClock(o.hall)).toBe(2 * CHUNK);
    await turns();
    expect(withClock(o.hall)).toBe(BOARDS);
    expect(o.hall.command({ type: 'arriveAll' }, 'IA')).toMatchObject({ ok: true });
    o.source.set(SCHEDULED + 1_000);
    const seqBefore = o.hall.version;
    expect(o.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true, journalSeq: seqBefore + 1 + CHUNK });
    // Acknowledged once the start is journaled: the first part has started, the rest follow a turn each.
    expect(running(o.hall)).toBe(CHUNK);
    expect(o.hall.phaseOf('main', 1)).toBe('published');
    await turns(1);
    expect(running(o.hall)).toBe(2 * CHUNK);
    await turns();
    expect(running(o.hall)).toBe(BOARDS);
    expect(o.hall.phaseOf('main', 1)).toBe('playing');
    await playOn(o);
    expect(journaled(o.journal)).toEqual(expected.journal);
    expect(hallNow(o.hall)).toEqual(expected.hall);
    // Each board's game clock follows its board, the flag each one journaled included.
    for (const board of o.hall.boards.values()) expect(board.clockState(), board.id).toEqual(board.state);
    expect([...o.hall.boards.values()].filter((b) => b.state.firstFlag !== undefined)).toHaveLength(BOARDS);
  });

  it('stopped midway through the start, restarts into the same journal and hall', async () => {
    const expected = await inOneGo();
    const o = openHall(CHUNK);
    await seatAndStart(o, false);
    expect(running(o.hall)).toBe(CHUNK);
    // What a SIGKILL leaves: the start and its first part journaled, the rest not.
    o.hall.stop();
    o.journal.close();
    o.journal = new Journal(o.file);
    o.hall = new PlayingHall(o.journal, o.source, [], { chunk: CHUNK });
    halls.push({ hall: o.hall, journal: o.journal });
    await turns();
    expect(running(o.hall)).toBe(BOARDS);
    await playOn(o);
    expect(journaled(o.journal)).toEqual(expected.journal);
    expect(hallNow(o.hall)).toEqual(expected.hall);
  });

  it('started before its clocks are all made: each clock is made from its board as it stands, the same deadlines', async () => {
    const run = async (chunk: number) => {
      const o = openHall(chunk);
      o.source.set(SCHEDULED + 1_000);
      expect(o.hall.seat(cairnsRound(BOARDS, SCHEDULED))).toMatchObject({ ok: true });
      expect(o.hall.command({ type: 'arriveAll' }, 'IA')).toMatchObject({ ok: true });
      expect(o.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
      if (chunk === CHUNK) {
        expect([withClock(o.hall), running(o.hall)]).toEqual([CHUNK, CHUNK]);
        // One part a turn, the clocks' and the start's in turn: never both in one turn.
        await turns(1);
        expect([withClock(o.hall), running(o.hall)]).toEqual([2 * CHUNK, CHUNK]);
        await turns(1);
        expect([withClock(o.hall), running(o.hall)]).toEqual([2 * CHUNK, 2 * CHUNK]);
      }
      await turns();
      await playOn(o);
      for (const board of o.hall.boards.values()) expect(board.clockState(), board.id).toEqual(board.state);
      return { journal: journaled(o.journal), hall: hallNow(o.hall) };
    };
    expect(await run(CHUNK)).toEqual(await run(1_000));
  });

  it('closed, stops its clocks in parts; a small round all at once', async () => {
    const clocks = (hall: PlayingHall) => [...hall.boards.keys()].filter((id) => hall.system.get(gameSystemId('main', 1, id)) !== undefined).length;
    for (const chunk of [CHUNK, 1_000]) {
      const o = openHall(chunk);
      await seatAndStart(o, true);
      await playOn(o);
      for (const [id, board] of o.hall.boards)
        if (board.state.status !== 'finished')
          expect(o.hall.command({ type: 'result', board: id, result: '1-0', termination: 'normal' }, 'IA')).toMatchObject({ ok: true });
      expect(o.hall.phaseOf('main', 1)).toBe('confirming');
      expect(clocks(o.hall)).toBe(BOARDS);
      o.hall.lifecycle('main', 1, { type: 'close' });
      expect(o.hall.phaseOf('main', 1)).toBe('closed');
      // In parts: a table group a turn (chunk 7 < 32 boards), the last one (its 3 boards) now.
      expect(clocks(o.hall)).toBe(chunk === CHUNK ? BOARDS - (BOARDS % CHUNK) : 0);
      await turns();
      expect(clocks(o.hall)).toBe(0);
    }
  });
});
