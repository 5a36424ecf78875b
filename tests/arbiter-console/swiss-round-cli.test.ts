// `zeitnot serve --event sa-open-2009 --section open --round 2 --results round1.trf`: the SA Open's
// round 2 on the clocks as the Dutch engine pairs it, through the real command line and HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyRecord, exportTrf, pairingTrf, pairSwissRound, pairTrf, presetEvent, recordBoardResult, sectionTrf, type SectionRecord } from '../../tournament/index.ts';

const event = presetEvent('sa-open-2009');
const section = event.sections.find((s) => s.id === 'open')!;
const name = (id: number) => section.players.find((p) => p.id === id)!.name;

/** Round 1 of the Open as the engine pairs it, every game won by White, the bye scored. */
function roundOne(): SectionRecord {
  const first = pairSwissRound(event, 'open', emptyRecord, 1);
  let record = emptyRecord;
  for (const g of first.games) record = recordBoardResult(section, record, 1, { ...g, result: '1-0' });
  return { ...record, rounds: record.rounds.map((r) => ({ ...r, byes: first.bye === null ? [] : [{ player: first.bye, kind: 'pab' as const }] })) };
}

/** Runs `zeitnot serve ARGS` until it serves, hands its output and URL to `check`, then stops it. */
async function served(args: string[], check: (out: string, url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  try {
    const end = Date.now() + 30_000;
    while (!out.includes('spectators:') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const url = /spectators:\s+(\S+)\/spectator/.exec(out)?.[1];
    expect(url, out).toBeDefined();
    await check(out, url!);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

const get = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

describe("zeitnot serve a Swiss round from the previous round's TRF", () => {
  it("serves the SA Open's round 1 and, from its TRF, the Dutch engine's round 2; refuses a TRF of the wrong round", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-swiss-cli-'));
    const record = roundOne();
    const file = join(dir, 'round1.trf');
    writeFileSync(file, exportTrf(sectionTrf(event, 'open', record)));
    try {
      // Round 1: 23 players paired (the late registrant is not), the pairing-allocated bye scored, no board.
      const first = pairSwissRound(event, 'open', emptyRecord, 1);
      expect(first.bye).not.toBeNull();
      await served(['--event', 'sa-open-2009', '--section', 'open', '--round', '1', '--start-in', '5', '--auto-start', '--port', '0', '--data', join(dir, 'r1')], async (out, url) => {
        expect(out).toContain(`round 1, ${first.games.length} boards`);
        expect(out).toContain('zeitnot serve: warning: not started by itself: the pairing of round 1 is a draft (paired at start)');
        expect(out).toContain(`bye (pairing-allocated, scored, no board): ${name(first.bye!)}`);
        expect(out).toContain('round 1 paired at start by the Dutch engine, a draft');
        const standings = await get<{ standings: { id: number; points: number }[] }>(`${url}/api/standings`);
        expect(standings.standings.find((s) => s.id === first.bye)!.points).toBe(1);
      });

      // Round 2 from round 1's TRF: the engine on the TRF it reads (starting ranks by the SA Open's
      // pairing ratings), mapped back to event ids.
      const { trf, startingRanks } = pairingTrf(event, 'open', record, 2);
      const engine = pairTrf(trf);
      const id = (rank: number) => startingRanks[rank - 1]!;
      expect(engine.bye).toBeNull(); // all 24 players are paired from round 2 on
      await served(['--event', 'sa-open-2009', '--section', 'open', '--round', '2', '--results', file, '--start-in', '5', '--port', '0', '--data', join(dir, 'r2')], async (out, url) => {
        expect(out).toContain(`round 2, ${engine.boards.length} boards`);
        expect(out).not.toContain('bye (pairing-allocated');
        const boards = await get<{ boards: { id: string; white: string; black: string }[] }>(`${url}/api/boards`);
        expect(boards.boards.map((b) => [b.id, b.white, b.black])).toEqual(engine.boards.map((b, i) => [String(i + 1), name(id(b.white)), name(id(b.black))]));
        const pairings = await get<{ status: string; bye: unknown }>(`${url}/api/pairings?round=2`);
        expect(pairings).toMatchObject({ status: 'live', bye: null });
        const standings = await get<{ standings: { id: number; points: number }[] }>(`${url}/api/standings`);
        expect(standings.standings.find((s) => s.id === first.bye)!.points).toBe(1); // round 1's bye, imported
      });

      const wrong = spawnSync(process.execPath, ['bin/zeitnot.js', 'serve', '--event', 'sa-open-2009', '--section', 'open', '--round', '3', '--results', file, '--port', '0', '--data', join(dir, 'wrong')], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain(`zeitnot serve: ${file} has games up to round 1 only: round 3 is paired from the results of rounds 1..2`);
      expect(wrong.stdout).not.toContain('arbiter token');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
