// `zeitnot serve --event sa-open-2009 --auto-publish`: both sections of the SA Open in one console,
// round 1 of each paired by the Dutch engine and published on its own hall boards, through the real
// command line and HTTP; a restart rebuilds the event from the journal.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRecord, hallBoardNumbers, pairSwissRound, presetEvent } from '../../tournament/index.ts';

const event = presetEvent('sa-open-2009');

/** Runs `zeitnot serve ARGS` until `ready` says so, hands its output and URL to `check`, then stops it. */
async function served(args: string[], ready: (url: string) => Promise<boolean>, check: (out: string, url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  try {
    const end = Date.now() + 45_000;
    while (!out.includes('spectators:') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /spectators:\s+(\S+)\/spectator/.exec(out)?.[1];
    expect(url, out).toBeDefined();
    while (!(await ready(url!)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await check(out, url!);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

const get = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;
type Boards = { boards: { id: string; white: string; black: string; status: string }[] };

describe('zeitnot serve --event: every section of the event in one console', () => {
  it("publishes the SA Open's round 1 of both sections on their own hall boards, and a restart rebuilds them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-event-cli-'));
    const data = join(dir, 'data');
    const expected = event.sections.map((s) => {
      const first = pairSwissRound(event, s.id, emptyRecord, 1);
      const numbers = hallBoardNumbers(event, s.id);
      const name = (id: number) => s.players.find((p) => p.id === id)!.name;
      return first.games.map((g, k) => [String(numbers[k]), name(g.white), name(g.black)]);
    });
    const seated = async (url: string) => (await get<Boards>(`${url}/api/boards`)).boards.length === expected.flat().length;
    try {
      let before: Boards | undefined;
      await served(['--event', 'sa-open-2009', '--auto-publish', '--port', '0', '--data', data], seated, async (out, url) => {
        expect(out).toContain('zeitnot console: South African Open 2009');
        const boards = await get<Boards>(`${url}/api/boards`);
        expect(boards.boards.map((b) => [b.id, b.white, b.black])).toEqual(expected.flat());
        // The B section's boards follow the Open's in the hall.
        expect(hallBoardNumbers(event, 'b')[0]).toBe(Math.ceil(event.sections[0]!.players.length / 2) + 1);
        for (const s of event.sections) {
          const pairings = await get<{ status: string; section: { id: string } }>(`${url}/api/pairings?section=${s.id}&round=1`);
          expect(pairings).toMatchObject({ status: 'live', section: { id: s.id } });
        }
        expect(await get(`${url}/api/event`)).toEqual({
          finished: false,
          sections: event.sections.map((s) => ({ id: s.id, format: 'swiss', rounds: 11, roundsPlayed: 0, finished: false })),
        });
        before = boards;
      });
      await served(['--event', 'sa-open-2009', '--port', '0', '--data', data], seated, async (out, url) => {
        expect(out).toContain('(resumed: the event rebuilt from the journal)');
        const boards = await get<Boards>(`${url}/api/boards`);
        expect(boards.boards.map((b) => [b.id, b.white, b.black, b.status])).toEqual(before!.boards.map((b) => [b.id, b.white, b.black, b.status]));
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
