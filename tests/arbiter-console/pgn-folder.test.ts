// `zeitnot serve --pgn-dir DIR` (docs/console.md, "For broadcasters"): the event's PGN as files a
// broadcaster's uploader reads, <section>/round-N.pgn and games.pgn. A simulated event through the
// real command line, its files read in a loop while the console writes them: every version read is a
// whole PGN that chess.js and pgn-extract accept (a write is a temporary file renamed over the old one);
// and the writer's throttle on an injected clock: at most one write a second per file, exact.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSource, startPgnFolder } from '../../arbiter-console/internal.ts';
import { presetJson } from '../../tournament/index.ts';
import { chessJsRejects, pgnExtractRejects } from '../support/pgn-validators.ts';
import { press, startAll } from './fixtures.ts';
import { smallSwiss, testDesk } from './tournament-fixtures.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'zeitnot-pgn-folder-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const gameCount = (pgn: string): number => (pgn.match(/^\[Event /gm) ?? []).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the PGN folder', () => {
  it('writes each file at most once a second: a change waits for the second since its last write, a burst is one write', () => {
    const t = testDesk(smallSwiss());
    try {
      const timers = manualSource(0);
      const dir = join(t.dir, 'pgn');
      const section = t.desk.section.id;
      const folder = startPgnFolder({ dir, hall: t.hall, desks: new Map([[section, t.desk]]), timers });
      const round = join(dir, section, 'round-1.pgn');
      // Nothing within the turn that asked; at its end the round's file and games.pgn.
      expect(folder.writes).toBe(0);
      timers.advance(0);
      expect(folder.writes).toBe(2);
      expect(gameCount(readFileSync(round, 'utf8'))).toBe(3);
      // The same games (each written with the wall time its clocks refer to).
      const games = (file: string): string => readFileSync(file, 'utf8').replace(/^\[ReferenceTime .*\n/gm, '');
      expect(games(join(dir, 'games.pgn'))).toBe(games(round));

      startAll(t, 10_000);
      timers.set(1_000);
      // The arrivals and the start (a change each) were written at 1 s: the second since the first write was up.
      expect(folder.writes).toBe(4);
      timers.set(1_100);
      press(t, '1', 'white', 12_000, 'e4');
      timers.set(1_600);
      press(t, '1', 'black', 13_000, 'e5');
      timers.set(1_999);
      expect(folder.writes).toBe(4);
      expect(readFileSync(round, 'utf8')).not.toContain('e4');
      timers.set(2_000);
      expect(folder.writes).toBe(6);
      const text = readFileSync(round, 'utf8');
      expect(text).toContain('1. e4 {[%clk');
      expect(text).toContain('e5 {[%clk');
      expect(chessJsRejects(text)).toBe('');
      // Nothing changed: nothing written.
      timers.set(10_000);
      expect(folder.writes).toBe(6);
      // stop() writes what is still waiting.
      press(t, '1', 'white', 14_000, 'Nf3');
      folder.stop();
      expect(folder.writes).toBe(8);
      expect(readFileSync(round, 'utf8')).toContain('2. Nf3');
      expect(readdirSync(join(dir, section)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('zeitnot serve --pgn-dir: every version read during a simulated event is a whole PGN, round after round', { timeout: 300_000 }, async () => {
    // The Cairns Cup rules with six players, a 3-round Dutch Swiss (tournament-fixtures' smallSwiss), as an event file.
    const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: Record<string, unknown>[] };
    const s = json.sections[0]!;
    Object.assign(s, {
      format: { kind: 'swiss', system: 'dutch', rounds: 3 },
      players: (s.players as unknown[]).slice(0, 6),
      schedule: (s.schedule as unknown[]).slice(0, 3),
      playoff: { kind: 'none' },
      tiebreaks: ['BH-C1', 'SB', 'PS'],
    });
    const eventFile = join(work, 'event.json');
    writeFileSync(eventFile, JSON.stringify(json));
    const pgnDir = join(work, 'pgn');
    const child = spawn(
      process.execPath,
      [
        'bin/zeitnot.js',
        'serve',
        '--event',
        eventFile,
        '--simulate-event',
        '--time-scale',
        '2000',
        '--port',
        '0',
        '--data',
        join(work, 'data'),
        '--pgn-dir',
        pgnDir,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const versions = new Map<string, string[]>();
    const files = ['main/round-1.pgn', 'main/round-2.pgn', 'main/round-3.pgn', 'games.pgn'];
    const readAll = (): void => {
      for (const file of files) {
        let text: string;
        try {
          text = readFileSync(join(pgnDir, file), 'utf8');
        } catch {
          continue; // not written yet
        }
        const seen = versions.get(file) ?? [];
        if (seen.at(-1) !== text) seen.push(text);
        versions.set(file, seen);
      }
    };
    try {
      const end = Date.now() + 240_000;
      while (!/event:\s+\S+\/api\/event/.test(out) && Date.now() < end && child.exitCode === null) await sleep(20);
      const url = /event:\s+(\S+)\/api\/event/.exec(out)?.[1];
      if (!url) throw new Error(`the console did not come up:\n${out}`);
      expect(out).toContain(`PGN folder:   ${pgnDir}`);
      let finished = false;
      let asked = 0;
      while (!finished && Date.now() < end) {
        readAll();
        if (Date.now() - asked > 250) {
          asked = Date.now();
          finished = ((await (await fetch(`${url}/api/event`)).json()) as { finished: boolean }).finished;
        }
        await sleep(2);
      }
      expect(finished).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
    readAll();
    // Files appeared and were updated while the rounds were played.
    for (const file of files) expect(versions.get(file)?.length ?? 0, `${file}: versions read`).toBeGreaterThan(1);
    for (const [file, seen] of versions) {
      for (const text of seen) {
        // Never a part: every game whole (the round's three boards; games.pgn the rounds seated so far).
        expect(gameCount(text) % 3, `${file}: ${gameCount(text)} games`).toBe(0);
        if (file !== 'games.pgn') expect(gameCount(text)).toBe(3);
        expect(text.endsWith('\n'), `${file}: ${JSON.stringify(text.slice(-200))}`).toBe(true);
        expect(chessJsRejects(text)).toBe('');
        expect(pgnExtractRejects(text)).toBe('');
      }
    }
    // The end of the event: every game of every round with its result, games.pgn all nine.
    for (const file of files.slice(0, 3))
      expect(
        versions
          .get(file)!
          .at(-1)!
          .match(/^\[Result "(1-0|0-1|1\/2-1\/2)"\]$/gm),
      ).toHaveLength(3);
    expect(gameCount(versions.get('games.pgn')!.at(-1)!)).toBe(9);
    expect(readdirSync(join(pgnDir, 'main')).sort()).toEqual(['round-1.pgn', 'round-2.pgn', 'round-3.pgn']);
    expect(readdirSync(pgnDir).sort()).toEqual(['games.pgn', 'main']);
    expect(existsSync(join(pgnDir, 'main', 'round-4.pgn'))).toBe(false);
  });
});
