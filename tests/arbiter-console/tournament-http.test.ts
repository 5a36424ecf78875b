// The tournament side over the wire: GET /api/standings (and the other read endpoints) against a
// small event, results entered over the WebSocket, drafts kept from spectators.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { applyViewPatch, startConsole, type RunningConsole, type TournamentView, type ViewPatch } from '../../arbiter-console/internal.ts';
import { sectionStandings } from '../../tournament/index.ts';
import { smallRoundRobin } from './tournament-fixtures.ts';
import { until } from '../support/wait.ts';

type Message = { type: string; id?: string; view?: TournamentView; reason?: string; journalSeq?: number; patch?: ViewPatch; from?: number; version?: number };
let run: RunningConsole;
let dataDir: string;
const event = smallRoundRobin();

async function connect(hello: object): Promise<{ ws: WebSocket; messages: Message[] }> {
  const ws = new WebSocket(`${run.url.replace('http', 'ws')}/ws`);
  const messages: Message[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Message));
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify(hello));
  await until(() => messages.some((m) => m.type === 'tournament'), 'the tournament view', 10_000, 5);
  return { ws, messages };
}

/** The tournament views a client had, one after each `tournament` or `tournamentDelta` message. */
function views(messages: readonly Message[]): TournamentView[] {
  const out: TournamentView[] = [];
  let view: TournamentView | undefined;
  for (const m of messages) {
    if (m.type === 'tournament') view = structuredClone(m.view!);
    else if (m.type === 'tournamentDelta') view = applyViewPatch(structuredClone(view!), m.patch!);
    else continue;
    out.push(view!);
  }
  return out;
}

const get = async (path: string) => {
  const res = await fetch(`${run.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-tournament-http-'));
  run = await startConsole({ dataDir, port: 0, noPage: true, event, firstRound: true });
});

afterAll(async () => {
  await run?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tournament API', () => {
  it('serves the standings with the event tie-break columns, and they follow a result entered over the WebSocket', async () => {
    const empty = await get('/api/standings');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      event: '2019 Cairns Cup',
      section: { id: 'main', format: 'round-robin', rounds: 3 },
      roundsPlayed: 0,
      columns: ['DE', 'BPG', 'KS', 'SB', 'WON'],
    });
    expect((empty.body.standings as { points: number }[]).map((s) => s.points)).toEqual([0, 0, 0, 0]);

    const arbiter = await connect({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Smith' });
    arbiter.ws.send(
      JSON.stringify({
        type: 'command',
        id: 't1',
        command: { type: 'enterResult', round: 1, white: 2, black: 3, result: '0-1', reason: 'scoresheets signed' },
      }),
    );
    await until(() => arbiter.messages.some((m) => m.id === 't1'), 'the answer to t1', 10_000, 5);
    const ack = arbiter.messages.find((m) => m.id === 't1')!;
    expect(ack).toEqual({ type: 'ack', id: 't1', journalSeq: run.journal.count() });
    await until(() => views(arbiter.messages).length >= 2, 'a second tournament view', 10_000, 5);

    const after = await get('/api/standings');
    const standings = after.body.standings as { rank: number; id: number; name: string; points: number; tiebreaks: Record<string, number> }[];
    const expected = sectionStandings(event, 'main', run.desk!.record());
    expect(standings.map((s) => [s.rank, s.id, s.points])).toEqual(expected.map((s) => [s.rank, s.id, s.points]));
    expect(standings[0]).toMatchObject({ id: 3, name: 'Cairns player 03', points: 1, tiebreaks: { BPG: 1, WON: 1 } });
    expect(after.body.roundsPlayed).toBe(1);
    // Board 1 is still being played: its players' cells show the game, not an absence.
    const rows = (after.body.crosstable as TournamentView['crosstable']).rows;
    expect(rows.find((r) => r.id === 1)!.rounds).toEqual([{ round: 1, opponent: 4, colour: 'w', result: '…' }]);
    expect(rows.find((r) => r.id === 3)!.rounds).toEqual([{ round: 1, opponent: 2, colour: 'b', result: '1' }]);

    const chosen = await get('/api/standings?tiebreaks=WON,SB');
    expect(chosen.body.columns).toEqual(['WON', 'SB']);
    expect(Object.keys((chosen.body.standings as { tiebreaks: object }[])[0]!.tiebreaks)).toEqual(['WON', 'SB']);
    expect((await get('/api/standings?tiebreaks=XYZ')).status).toBe(400);
    arbiter.ws.close();
  });

  it('serves pairings, playoffs, fines and prizes, and 404s a round without pairings', async () => {
    const pairings = await get('/api/pairings');
    expect(pairings.status).toBe(200);
    expect(pairings.body).toMatchObject({ round: 1, status: 'live', liveRound: 1 });
    expect((pairings.body.games as { white: { id: number }; black: { id: number } }[]).map((g) => [g.white.id, g.black.id])).toEqual([
      [1, 4],
      [2, 3],
    ]);
    expect(await get('/api/pairings?round=3')).toEqual({ status: 404, body: { error: 'no pairings for round 3', rounds: [1] } });
    expect((await get('/api/playoffs')).body).toEqual({
      playoff: null,
      possible: { possible: false, why: 'the playoff follows the last round (round 1 of 3 is paired)' },
    });
    expect((await get('/api/fines')).body).toMatchObject({ currency: 'USD', entries: [] });
    expect((await get('/api/prizes')).body).toMatchObject({ currency: 'USD' });
    const trf = await fetch(`${run.url}/api/trf`);
    expect(await trf.text()).toMatch(/^012 2019 Cairns Cup/m);
  });

  it('shows the draft to arbiters only and refuses tournament commands from spectators', async () => {
    const arbiter = await connect({ type: 'hello', role: 'arbiter', token: run.newToken });
    const spectator = await connect({ type: 'hello', role: 'spectator' });
    arbiter.ws.send(JSON.stringify({ type: 'command', id: 'p1', command: { type: 'pairNextRound' } }));
    await until(() => arbiter.messages.some((m) => m.id === 'p1'), 'the answer to p1', 10_000, 5);
    expect(arbiter.messages.find((m) => m.id === 'p1')).toMatchObject({ type: 'ack' });
    await until(() => views(arbiter.messages).at(-1)?.draft !== undefined, 'a view with the draft', 10_000, 5);
    expect(views(arbiter.messages).at(-1)!.draft).toMatchObject({ round: 2 });
    // The change went out as a patch, not as the whole view again.
    expect(arbiter.messages.filter((m) => m.type === 'tournament')).toHaveLength(1);
    expect(arbiter.messages.some((m) => m.type === 'tournamentDelta')).toBe(true);
    expect(views(spectator.messages).every((v) => v.draft === undefined)).toBe(true);
    expect(JSON.stringify(spectator.messages)).not.toContain('"draft"');
    spectator.ws.send(JSON.stringify({ type: 'command', id: 's1', command: { type: 'publishRound' } }));
    await until(() => spectator.messages.some((m) => m.id === 's1'), 'the answer to s1', 10_000, 5);
    expect(spectator.messages.find((m) => m.id === 's1')).toEqual({ type: 'refused', id: 's1', code: 'forbidden', reason: 'spectators cannot give commands' });
    arbiter.ws.send(JSON.stringify({ type: 'command', id: 'p2', command: { type: 'exchangeOpponents', board: 1, otherBoard: 9, reason: 'r' } }));
    await until(() => arbiter.messages.some((m) => m.id === 'p2'), 'the answer to p2', 10_000, 5);
    expect(arbiter.messages.find((m) => m.id === 'p2')).toEqual({
      type: 'refused',
      id: 'p2',
      code: 'unknown-draft-board',
      reason: 'the draft of round 2 has boards 1–2, not 9',
    });
    arbiter.ws.close();
    spectator.ws.close();
  });
});
