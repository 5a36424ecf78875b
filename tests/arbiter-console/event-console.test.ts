// The whole event in one console: two sections in one hall and one journal, each paired, published
// (seated on its own hall boards), played and confirmed round after round in place, and the event
// rebuilt identically from the journal after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventSummary, Journal, manualSource, startConsole, type EventSummary, type RunningConsole } from '../../arbiter-console/internal.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { cairnsRound } from './fixtures.ts';
import { twoSections } from './tournament-fixtures.ts';

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function open(dataDir: string, event: ZeitnotEvent, at = 0): Promise<RunningConsole> {
  return startConsole({ dataDir, port: 0, noPage: true, event, source: manualSource(at) });
}

const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });

/** Plays the seated round of a section: White wins every game by a result on the board. */
function playRound(c: RunningConsole, section: string): void {
  const round = c.hall.seated.get(section)!;
  for (const board of round.boards) {
    ok(c.hall.command({ type: 'arrive', board: board.id, side: 'white' }, 'IA'));
    ok(c.hall.command({ type: 'arrive', board: board.id, side: 'black' }, 'IA'));
  }
  ok(c.hall.command({ type: 'startAll', section }, 'IA'));
  for (const board of round.boards) ok(c.hall.command({ type: 'result', board: board.id, result: '1-0', termination: 'resignation' }, 'IA'));
}

describe('the whole event in one console', () => {
  it('runs two sections on their own hall boards, round after round in place, and rebuilds them after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-event-'));
    dirs.push(dir);
    const event = twoSections();
    run = await open(dir, event);
    const open1 = run.desks.get('open')!;
    const rr = run.desks.get('rr')!;
    expect(open1.liveRound).toBe(0);
    expect(run.hall.boards.size).toBe(0);
    // Round 1 of both: pair, publish: the Swiss on hall boards 1-3, the round robin on 4-5.
    for (const section of ['open', 'rr']) {
      ok(run.desks.get(section)!.command({ type: 'pairNextRound', section }, 'IA'));
      expect(run.hall.phaseOf(section, 1)).toBe('drafted');
      ok(run.desks.get(section)!.command({ type: 'publishRound', section }, 'IA'));
      expect(run.hall.phaseOf(section, 1)).toBe('published');
    }
    expect([...run.hall.boards.keys()]).toEqual(['1', '2', '3', '4', '5']);
    expect(run.hall.roundOf('4')).toMatchObject({ section: 'rr', round: 1 });
    playRound(run, 'open');
    expect(run.hall.phaseOf('open', 1)).toBe('confirming');
    // The next round waits for the confirmed results.
    expect(open1.command({ type: 'pairNextRound', section: 'open' }, 'IA')).toMatchObject({ ok: false, reason: expect.stringContaining('confirmed results') });
    ok(open1.command({ type: 'confirmRound', section: 'open' }, 'IA'));
    expect(run.hall.phaseOf('open', 1)).toBe('closed');
    ok(open1.command({ type: 'pairNextRound', section: 'open' }, 'IA'));
    ok(open1.command({ type: 'publishRound', section: 'open' }, 'IA'));
    expect(open1.liveRound).toBe(2);
    expect(run.hall.roundOf('1')).toMatchObject({ section: 'open', round: 2 });
    // The round robin is untouched: still its round 1, waiting for its clocks.
    expect(run.hall.roundOf('4')).toMatchObject({ section: 'rr', round: 1 });
    expect(run.hall.boards.get('4')!.state.status).toBe('waiting');
    // A round robin round cannot be published over a round still on the boards.
    ok(rr.command({ type: 'pairNextRound', section: 'rr' }, 'IA'));
    expect(rr.command({ type: 'publishRound', section: 'rr' }, 'IA')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('confirm its results first'),
    });
    const standings = await (await fetch(`${run.url}/api/standings?section=open`)).json();
    const summary = await (await fetch(`${run.url}/api/event`)).json();
    expect(summary).toEqual({
      finished: false,
      sections: [
        { id: 'open', format: 'swiss', rounds: 3, roundsPlayed: 1, finished: false },
        { id: 'rr', format: 'round-robin', rounds: 3, roundsPlayed: 0, finished: false },
      ],
    });
    const pgn = await (await fetch(`${run.url}/api/pgn?section=open&round=1`)).text();
    expect(pgn.match(/\[Result "1-0"\]/g)).toHaveLength(3);
    const views = { open: open1.view('arbiter'), rr: rr.view('arbiter') };
    const boards = run.hall.views();
    const at = run.hall.source.now();
    await run.stop();

    run = await open(dir, event, at);
    expect(run.resumed).toBe(true);
    expect(run.hall.views()).toEqual(boards);
    expect(run.desks.get('open')!.view('arbiter')).toEqual(views.open);
    expect(run.desks.get('rr')!.view('arbiter')).toEqual(views.rr);
    expect(run.hall.phaseOf('open', 2)).toBe('published');
    expect(run.hall.phaseOf('rr', 2)).toBe('drafted');
    expect(await (await fetch(`${run.url}/api/standings?section=open`)).json()).toEqual(standings);
    expect((await fetch(`${run.url}/api/standings?section=nope`)).status).toBe(404);
  });
});

describe('a simulated event', () => {
  it('plays every round of both sections by itself: virtual players, a simulated arbiter that publishes and confirms', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-simulated-event-'));
    dirs.push(dir);
    const event = twoSections();
    run = await startConsole({
      dataDir: dir,
      port: 0,
      noPage: true,
      event,
      scale: 5000,
      autoStart: true,
      autopilot: { confirm: true, playoff: true },
      simulate: { boards: 'all', seed: 'simulated-event', hardware: 'none' },
    });
    let summary: EventSummary | undefined;
    const end = Date.now() + 150_000;
    while (Date.now() < end) {
      summary = eventSummary(run.desks);
      if (summary.sections.every((s) => s.roundsPlayed === 3)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await (await fetch(`${run.url}/api/event`)).json()).toEqual(summary);
    expect(summary!.sections.map((s) => [s.id, s.roundsPlayed])).toEqual([
      ['open', 3],
      ['rr', 3],
    ]);
    // Every result was confirmed by the simulated arbiter, through the journal.
    const confirmed = [...run.journal.entries(0, 'tournament')].filter((e) => e.record.kind === 'tournament' && e.record.action.type === 'result');
    expect(confirmed.length).toBe(3 * 3 + 3 * 2);
    for (const round of [1, 2, 3]) {
      const pgn = await (await fetch(`${run.url}/api/pgn?section=open&round=${round}`)).text();
      expect(pgn.match(/\[Round "/g)).toHaveLength(3);
    }
  }, 180_000);
});

describe('what the console does not start', () => {
  it("refuses a new data directory without an event, and the journal of an earlier version's single-round console", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-no-event-'));
    dirs.push(dir);
    await expect(startConsole({ dataDir: dir, port: 0, noPage: true })).rejects.toMatchObject({
      code: 'no-event',
      message: `${dir} holds no event yet: give an event (--event FILE|PRESET)`,
    });
    // Such a journal's meta holds the round it ran, no event (journal format kept).
    const journal = new Journal(join(dir, 'journal.sqlite'));
    journal.setMeta({ round: cairnsRound(), epochWallMs: 0, scale: 1 });
    journal.close();
    await expect(startConsole({ dataDir: dir, port: 0, noPage: true, event: twoSections() })).rejects.toMatchObject({
      code: 'round-journal',
      message: `${dir} holds the journal of a single round (an earlier zeitnot's), not of an event: start a new data directory with --event`,
    });
  });
});
