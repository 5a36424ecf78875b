// Donostia 2009 in one hall: four round-robin groups, two at 16:30 and two at 17:00 (Art. 3-5; the last
// round at 16:00), each on its own hall boards with its own start and default time, in one console.
// The preset's dates are moved to tomorrow so that every start is still ahead (a past start is
// rescheduled to the publication).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualSource, roundFromEvent, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { loadEvent, presetJson, type ZeitnotEvent } from '../../tournament/index.ts';

const MIN = 60_000;
/** A round's start as San Sebastian's clocks showed it in July (+02:00). */
const local = (iso: string): string => new Date(Date.parse(iso) + 2 * 60 * MIN).toISOString().slice(11, 16);

/** The Donostia preset with every start moved by whole days so that round 1 is tomorrow (times and offsets kept). */
function donostiaFromTomorrow(): ZeitnotEvent {
  const json = JSON.parse(presetJson('donostia-2009')) as { sections: { schedule: string[]; defaultTimeMinutes: number }[] };
  const first = Date.parse('2009-07-07T00:00:00Z');
  const days = Math.ceil((Date.now() - first) / 86_400_000) + 1;
  const shift = (start: string): string =>
    new Date(Date.parse(`${start.slice(0, 10)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10) + start.slice(10);
  for (const section of json.sections) section.schedule = section.schedule.map(shift);
  // Donostia gives every group 60 minutes; an event file may give each section its own (here Kutxa 45).
  json.sections[3]!.defaultTimeMinutes = 45;
  return loadEvent(json);
}

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });

describe('Donostia 2009: four groups in one hall at their two start times', () => {
  it('seats each group on its own hall boards and starts each at its own time (16:30, 17:00), with its own default time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-donostia-'));
    dirs.push(dir);
    const event = donostiaFromTomorrow();
    const source = manualSource(0);
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, source });
    const ids = event.sections.map((s) => s.id);
    expect(ids).toEqual(['diputacion-foral', 'euskal-xake-eskola', 'donostia-2016', 'kutxa']);
    for (const section of ids) {
      ok(run.desks.get(section)!.command({ type: 'pairNextRound', section }, 'IA'));
      ok(run.desks.get(section)!.command({ type: 'publishRound', section }, 'IA'));
    }
    // 10 players a group: 5 boards each, hall boards 1-5, 6-10, 11-15, 16-20.
    const seated = ids.map((s) => run!.hall.seated.get(s)!);
    expect(seated.map((r) => r.boards.map((b) => b.id).join(','))).toEqual(['1,2,3,4,5', '6,7,8,9,10', '11,12,13,14,15', '16,17,18,19,20']);
    expect(seated.map((r) => local(r.scheduledStart))).toEqual(['16:30', '16:30', '17:00', '17:00']);
    const starts = seated.map((r) => r.game.scheduledStart);
    expect(starts[1]).toBe(starts[0]);
    expect(starts[2]! - starts[0]!).toBe(30 * MIN);
    expect(starts[3]).toBe(starts[2]);
    expect(seated.map((r) => r.game.defaultTimeMs)).toEqual([60 * MIN, 60 * MIN, 60 * MIN, 45 * MIN]);

    ok(run.hall.command({ type: 'arriveAll' }, 'IA'));
    ok(run.hall.command({ type: 'startAll' }, 'IA'));
    const status = () => ids.map((s) => [...new Set(run!.hall.seated.get(s)!.boards.map((b) => run!.hall.boards.get(b.id)!.state.status))].join());
    source.set(starts[0]! - 1);
    expect(status()).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);
    source.set(starts[0]!);
    expect(status()).toEqual(['running', 'running', 'waiting', 'waiting']);
    source.set(starts[2]!);
    expect(status()).toEqual(['running', 'running', 'running', 'running']);
    // Each board's clock started at its group's time, not at the first group's.
    expect(run.hall.boards.get('16')!.startedAt).toBe(starts[2]);
    expect(run.hall.boards.get('1')!.startedAt).toBe(starts[0]);
  });

  it('plays the last round at 16:00 in every group', () => {
    const event = donostiaFromTomorrow();
    for (const section of event.sections) {
      const last = roundFromEvent(event, { section: section.id, round: 9 }, (wall) => wall);
      expect(local(last.scheduledStart)).toBe('16:00');
      const first = roundFromEvent(event, { section: section.id, round: 1 }, (wall) => wall);
      expect(local(first.scheduledStart)).toBe(section.id === 'diputacion-foral' || section.id === 'euskal-xake-eskola' ? '16:30' : '17:00');
    }
  });
});
