// The tournament desk on a large Swiss: what a finished board costs the console (the pages' view is
// rebuilt: crosstable, tie-breaks, prizes), pairing the next round as a draft, and rebuilding the
// desk from the journal after a restart. 300 players, results of rounds 1-5 entered, round 6 paired.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { GameResult } from '../clock-engine/index.ts';
import { Journal, PlayingHall, TournamentDesk, manualSource, seatFor } from '../arbiter-console/index.ts';
import { drawingOfLots, loadEvent, presetJson } from '../tournament/index.ts';
import type { BenchRow } from './table.ts';

const PLAYERS = 300;
const ROUNDS_PLAYED = 5;

function largeSwiss() {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
  const section = json.sections[0]!;
  section.format = { kind: 'swiss', system: 'dutch', rounds: 9 };
  section.players = Array.from({ length: PLAYERS }, (_, i) => ({
    id: i + 1,
    name: `Player ${String(i + 1).padStart(3, '0')}`,
    federation: 'USA',
    fideRating: 2600 - i * 3,
  }));
  section.schedule = Array.from({ length: 9 }, (_, i) => `2019-03-${String(i + 1).padStart(2, '0')}T13:00:00-06:00`);
  section.playoff = { kind: 'none' };
  section.tiebreaks = ['BH-C1', 'BH', 'SB', 'PS'];
  return loadEvent(json);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Publishes the draft of round `round`: it goes on the hall's boards. */
function publish(desk: TournamentDesk, round: number): void {
  const published = desk.command({ type: 'publishRound' }, 'bench');
  if (!published.ok) throw new Error(`bench: round ${round} not published: ${published.reason}`);
}

export async function run(): Promise<BenchRow[]> {
  const part = 'tournament-desk';
  const event = largeSwiss();
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-bench-desk-'));
  const journal = new Journal(join(dir, 'journal.sqlite'));
  try {
    const epochWallMs = Date.now();
    journal.setMeta({ event, epochWallMs, scale: 1 });
    const source = manualSource(0);
    // As an event console builds a section's desk: each published round goes on the hall's boards.
    const sectionDesk = (): TournamentDesk => {
      const hall = new PlayingHall(journal, source, ['main']);
      const seat = seatFor(event, 'main', {
        toMonotonic: (wallMs) => wallMs - epochWallMs,
        now: () => source.now(),
        wallNow: () => epochWallMs + source.now(),
        scale: 1,
        lateStartMs: 10_000,
        devices: [],
      });
      return TournamentDesk.forSection(hall, event, 'main', seat);
    };
    const desk = sectionDesk();
    const first = desk.command({ type: 'pairNextRound' }, 'bench');
    if (!first.ok) throw new Error(`bench: round 1 not paired: ${first.reason}`);
    publish(desk, 1);
    const lots = drawingOfLots(2019);
    const result = (): GameResult => (['1-0', '0-1', '1/2-1/2'] as const)[Math.floor(lots() * 3)]!;
    const enterRound = (r: number) => {
      for (const g of desk.view('spectator').rounds.find((x) => x.round === r)!.games) {
        desk.command({ type: 'enterResult', round: r, white: g.white.id, black: g.black.id, result: result(), reason: 'bench' }, 'bench');
      }
    };
    enterRound(1);
    const pairTimes: number[] = [];
    for (let r = 2; r <= ROUNDS_PLAYED; r += 1) {
      const t0 = performance.now();
      const paired = desk.command({ type: 'pairNextRound' }, 'bench');
      pairTimes.push(performance.now() - t0);
      if (!paired.ok) throw new Error(`bench: round ${r} not paired: ${paired.reason}`);
      publish(desk, r);
      enterRound(r);
    }
    // A board's result changes: the console rebuilds the pages' view once (then serves it to every client).
    const viewTimes: number[] = [];
    const games = desk.view('spectator').rounds.find((x) => x.round === ROUNDS_PLAYED)!.games;
    for (let i = 0; i < 9; i += 1) {
      const g = games[i]!;
      desk.command(
        { type: 'enterResult', round: ROUNDS_PLAYED, white: g.white.id, black: g.black.id, result: i % 2 ? '1-0' : '0-1', reason: 'bench correction' },
        'bench',
      );
      const t0 = performance.now();
      const json = JSON.stringify(desk.view('arbiter'));
      viewTimes.push(performance.now() - t0);
      if (json.length < 1000) throw new Error('bench: empty view');
    }
    const t0 = performance.now();
    const outcome = desk.command({ type: 'pairNextRound' }, 'bench');
    const pairMs = performance.now() - t0;
    if (!outcome.ok) throw new Error(`bench: round ${ROUNDS_PLAYED + 1} not paired: ${outcome.reason}`);
    const size = JSON.stringify(desk.view('arbiter')).length;
    const r0 = performance.now();
    desk.hall.stop();
    const again = sectionDesk();
    again.view('arbiter');
    const replayMs = performance.now() - r0;
    again.hall.stop();
    return [
      {
        part,
        measure: `view rebuilt after a result (${PLAYERS} players, round ${ROUNDS_PLAYED}), median`,
        value: `${median(viewTimes).toFixed(0)} ms`,
        target: '< 250 ms',
        ok: median(viewTimes) < 250,
      },
      { part, measure: 'view size sent to each client', value: `${(size / 1024).toFixed(0)} KiB` },
      {
        part,
        measure: `pair round ${ROUNDS_PLAYED + 1} as a draft (Dutch engine + checks)`,
        value: `${pairMs.toFixed(0)} ms`,
        target: '< 2 s',
        ok: pairMs < 2000,
      },
      {
        part,
        measure: `restart: desk rebuilt from ${journal.count()} journal entries + first view`,
        value: `${replayMs.toFixed(0)} ms`,
        target: '< 2 s',
        ok: replayMs < 2000,
      },
      { part, measure: `pair rounds 2-${ROUNDS_PLAYED}, median`, value: `${median(pairTimes).toFixed(0)} ms` },
    ];
  } finally {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
