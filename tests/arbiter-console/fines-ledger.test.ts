// Fines that outlive their round (Cairns Cup 2019, regulation 1: "Players not at their board at the
// beginning of each round may receive a fine of $1,000 to be deducted from their prize"): the clock's
// late arrival in round 1 journaled with the round's confirmation, still listed and deducted after
// rounds 2 and 3 and after a restart; an arbiter's incident; the chief's waiver over the WebSocket
// (refused for a deputy, for an unknown or waived incident), journaled with who and why, replayed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualSource, startConsole, type ConsoleCommand, type RunningConsole } from '../../arbiter-console/internal.ts';
import { presetEvent, type FinesView, type ZeitnotEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { smallRoundRobin, testDesk, type TestDesk } from './tournament-fixtures.ts';

const event = presetEvent('cairns-cup-2019');
/** bbpPairings, where a developer built it beside the project (BBPPAIRINGS or BBP names it; never committed). */
const bbpPath = process.env['BBPPAIRINGS'] ?? process.env['BBP'];
const bbp = bbpPath && existsSync(bbpPath) ? bbpPath : undefined;
const zeitnot = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', ...args], { encoding: 'utf8', timeout: 60_000 });
let run: RunningConsole | undefined;
const clients: TestClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const open = (dataDir: string, e: ZeitnotEvent, at = 0): Promise<RunningConsole> =>
  startConsole({ dataDir, port: 0, noPage: true, event: e, source: manualSource(at) });

async function chiefOf(c: RunningConsole): Promise<TestClient> {
  const chief = await helloClient(c.url, { role: 'arbiter', token: c.newToken, name: 'IA Chief' });
  clients.push(chief);
  return chief;
}

const command = (client: TestClient, cmd: ConsoleCommand) => sendCommand(client, cmd);

async function acked(client: TestClient, command: ConsoleCommand): Promise<void> {
  const answer = await sendCommand(client, command);
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'ack' });
}

const json = async <T>(c: RunningConsole, path: string): Promise<T> => (await (await fetch(`${c.url}${path}`)).json()) as T;
const fines = (c: RunningConsole) => json<FinesView>(c, '/api/fines');
const prizeOf = async (c: RunningConsole, player: number) =>
  (await json<{ awards: { player: number; fine: number; amount: number; net: number }[] }>(c, '/api/prizes')).awards.find((a) => a.player === player)!;

/**
 * Pairs, publishes and plays a round over the WebSocket: every player present but `late` (Black on
 * the first board, who comes once the clocks run), White wins every game on the board, the chief
 * confirms the round.
 */
async function playRound(c: RunningConsole, late: boolean): Promise<{ round: number; lateBlack: number }> {
  // A page of its own for each round: a round's twenty commands stay within one session's rate limit (burst 40).
  const chief = await chiefOf(c);
  await acked(chief, { type: 'pairNextRound', section: 'main' });
  await acked(chief, { type: 'publishRound', section: 'main' });
  const seated = c.hall.seated.get('main')!;
  const first = seated.boards[0]!;
  for (const board of seated.boards) {
    await acked(chief, { type: 'arrive', board: board.id, side: 'white' });
    if (!late || board !== first) await acked(chief, { type: 'arrive', board: board.id, side: 'black' });
  }
  await acked(chief, { type: 'startAll', section: 'main' });
  expect(c.hall.boards.get(first.id)!.state.status).toBe('running');
  if (late) await acked(chief, { type: 'arrive', board: first.id, side: 'black' });
  for (const board of seated.boards) await acked(chief, { type: 'result', board: board.id, result: '1-0', termination: 'resignation' });
  await acked(chief, { type: 'confirmRound', section: 'main' });
  return { round: seated.round, lateBlack: first.blackId! };
}

describe('fines journaled for the whole event', () => {
  it("keeps round 1's late arrival through rounds 2 and 3 and a restart; the chief waives a fine over the WebSocket, a deputy may not", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-fines-'));
    dirs.push(dir);
    run = await open(dir, event);

    const { lateBlack } = await playRound(run, true);
    const lateId = `r1-p${lateBlack}-late-arrival`;
    const lateEntry = {
      id: lateId,
      round: 1,
      playerId: lateBlack,
      player: event.sections[0]!.players.find((p) => p.id === lateBlack)!.name,
      offence: 'late-arrival',
      fine: 1000,
      sanction: 'none',
      note: 'not at the board when the clock started',
      source: 'clock',
      by: 'IA Chief',
    };
    expect((await fines(run)).entries).toEqual([lateEntry]);
    // Journaled once, with the confirmation: a tournament record of the section.
    const journaled = () =>
      [...run!.hall.journal.entries(0, 'tournament', { section: 'main' })].filter((e) => e.record.kind === 'tournament' && e.record.action.type === 'incident');
    expect(journaled()).toHaveLength(1);

    await playRound(run, false);
    const chief = await chiefOf(run);
    await acked(chief, { type: 'recordIncident', section: 'main', round: 2, player: 3, offence: 'electronic-device', note: 'phone in the jacket' });
    await playRound(run, false);
    expect(run.desks.get('main')!.liveRound).toBe(3);
    const afterThree = await fines(run);
    expect(afterThree.entries.map((e) => [e.round, e.id, e.playerId, e.fine, e.by])).toEqual([
      [1, lateId, lateBlack, 1000, 'IA Chief'],
      [2, 'r2-p3-electronic-device', 3, 1000, 'IA Chief'],
    ]);
    expect(afterThree.totals.find((t) => t.fines === 1000 && t.player === lateEntry.player)).toBeDefined();
    const prize = await prizeOf(run, lateBlack);
    expect(prize.fine).toBe(1000);
    expect(prize.net).toBe(prize.amount - 1000);
    expect(journaled()).toHaveLength(2);

    // A deputy may not waive; the chief may, once, and only a journaled incident with a fine.
    const deputyToken = (await command(chief, { type: 'issueCredential', name: 'IA Deputy', role: 'deputy' })).token as string;
    const deputy = await helloClient(run.url, { role: 'arbiter', token: deputyToken });
    clients.push(deputy);
    expect(await command(deputy, { type: 'waiveFine', section: 'main', incident: lateId, reason: 'traffic accident on the way' })).toMatchObject({
      type: 'refused',
      code: 'forbidden',
      reason: 'waiveFine changes the event: only the chief arbiter may (IA Deputy is a deputy)',
    });
    expect(await command(chief, { type: 'waiveFine', section: 'main', incident: 'r1-p99-late-arrival', reason: 'r' })).toMatchObject({
      type: 'refused',
      code: 'unknown-incident',
    });
    await acked(chief, { type: 'waiveFine', section: 'main', incident: lateId, reason: 'traffic accident on the way' });
    expect(await command(chief, { type: 'waiveFine', section: 'main', incident: lateId, reason: 'again' })).toMatchObject({
      type: 'refused',
      code: 'already-waived',
      reason: `the fine of ${lateId} was waived by IA Chief: traffic accident on the way`,
    });
    const waived = await fines(run);
    expect(waived.entries[0]).toEqual({ ...lateEntry, waived: { by: 'IA Chief', reason: 'traffic accident on the way' } });
    expect((await prizeOf(run, lateBlack)).fine).toBe(0);
    expect((await prizeOf(run, 3)).fine).toBe(1000);

    const at = run.hall.source.now();
    const before = { fines: waived, prizes: await json<unknown>(run, '/api/prizes') };
    await run.stop();
    run = await open(dir, event, at);
    expect(run.resumed).toBe(true);
    expect(await fines(run)).toEqual(before.fines);
    expect(await json<unknown>(run, '/api/prizes')).toEqual(before.prizes);
    // Nothing journaled again by the replay.
    expect(journaled()).toHaveLength(2);
  });
});

describe('point deductions in the TRF', () => {
  it("SA Open's point off for noise after the game: zeitnot standings on the exported file ranks as the console does; the engines still read it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-deductions-'));
    dirs.push(dir);
    const saOpen = presetEvent('sa-open-2009');
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, event: saOpen, firstRound: true, source: manualSource(0) });
    const chief = await chiefOf(run);
    const games = run.desks.get('b')!.pairingOf(1)!.games;
    for (const g of games)
      await acked(chief, { type: 'enterResult', section: 'b', round: 1, white: g.white, black: g.black, result: '1-0', reason: 'scoresheets' });
    const noisy = games[0]!.white;
    await acked(chief, {
      type: 'recordIncident',
      section: 'b',
      round: 1,
      player: noisy,
      offence: 'device-noise-after-game',
      note: 'phone rang after his game',
    });
    const console = await json<{ standings: { rank: number; name: string; points: number; tiebreaks: Record<string, number> }[] }>(
      run,
      '/api/standings?section=b',
    );
    expect(console.standings.find((r) => r.name === saOpen.sections[1]!.players.find((p) => p.id === noisy)!.name)!.points).toBe(0);

    const trf = await (await fetch(`${run.url}/api/trf?section=b`)).text();
    const line = trf.split('\n').find((l) => l.startsWith('###'));
    expect(line).toMatch(/^### zeitnot deductions \d+=1 \(points off the final score/);
    const file = join(dir, 'b.trf');
    writeFileSync(file, trf);
    const fromFile = zeitnot('standings', file, '--preset', 'sa-open-2009:b', '--json');
    expect(fromFile.status, fromFile.stderr).toBe(0);
    const rows = (JSON.parse(fromFile.stdout) as { rank: number; name: string; points: number; tiebreaks: Record<string, number> }[]).map((r) => [
      r.rank,
      r.name,
      r.points,
      r.tiebreaks,
    ]);
    expect(rows).toEqual(console.standings.map((r) => [r.rank, r.name, r.points, r.tiebreaks]));
    // Without the line the file ranks him a point higher; --deduct gives it back.
    const bare = join(dir, 'bare.trf');
    writeFileSync(bare, trf.replace(/^###.*\n/m, ''));
    const number = /^### zeitnot deductions (\d+)=1/.exec(line!)![1]!;
    const higher = JSON.parse(zeitnot('standings', bare, '--preset', 'sa-open-2009:b', '--json').stdout) as { id: number; points: number }[];
    expect(higher.find((r) => r.id === Number(number))!.points).toBe(1);
    const given = zeitnot('standings', bare, '--preset', 'sa-open-2009:b', '--json', '--deduct', `${number}=1`);
    expect((JSON.parse(given.stdout) as { rank: number; name: string }[]).map((r) => [r.rank, r.name])).toEqual(rows.map((r) => [r[0], r[1]]));
    expect(zeitnot('standings', bare, '--deduct', '5:1')).toMatchObject({ status: 2, stderr: expect.stringContaining("--deduct: '5:1' is no deduction") });
    // The engines read the file as before: its points are the results' (zeitnot pair -c; bbpPairings -c where built).
    expect(zeitnot('pair', '--dutch', file, '-c').stdout).toBe('1 rounds checked: no differences\n');
    if (bbp) {
      const individual = join(dir, 'b-individual.trf');
      writeFileSync(individual, trf.replace(/^013 .*\n/gm, ''));
      const check = spawnSync(bbp, ['--dutch', individual, '-c'], { encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      expect(check.stdout.trim()).toBe('b-individual: Round #1');
    }
  });
});

describe("the clock's late arrival on a console on the bus", () => {
  const desks: TestDesk[] = [];
  afterEach(() => {
    for (const t of desks.splice(0)) t.cleanup();
  });

  it('goes to the stream with the confirmation (prepare); written twice by two consoles, it is one incident, also after a restart', () => {
    const small = smallRoundRobin();
    const a = testDesk(small);
    const b = testDesk(small, { publish: false });
    desks.push(a, b);
    const boards = a.hall.seated.get('main')!.boards;
    for (const board of boards) {
      expect(a.hall.command({ type: 'arrive', board: board.id, side: 'white' }, 'IA')).toMatchObject({ ok: true });
      if (board !== boards[0]) expect(a.hall.command({ type: 'arrive', board: board.id, side: 'black' }, 'IA')).toMatchObject({ ok: true });
    }
    expect(a.hall.command({ type: 'startAll', section: 'main' }, 'IA')).toMatchObject({ ok: true });
    a.source.advance(10_000);
    expect(a.hall.boards.get(boards[0]!.id)!.state.status).toBe('running');
    a.source.advance(60_000);
    expect(a.hall.command({ type: 'arrive', board: boards[0]!.id, side: 'black' }, 'IA')).toMatchObject({ ok: true });
    for (const board of boards)
      expect(a.hall.command({ type: 'result', board: board.id, result: '0-1', termination: 'resignation' }, 'IA')).toMatchObject({ ok: true });
    // What a console on the bus writes to the stream for confirmRound: the results, then the clock's late arrival.
    const prepared = a.desk.prepare({ type: 'confirmRound', section: 'main' }, 'A1');
    if (!prepared.ok) throw new Error(prepared.reason);
    const late = boards[0]!.blackId!;
    expect(prepared.actions.map((x) => x.type)).toEqual([...boards.map(() => 'result'), 'incident']);
    expect(prepared.actions.at(-1)).toEqual({
      type: 'incident',
      id: `r1-p${late}-late-arrival`,
      round: 1,
      player: late,
      offence: 'late-arrival',
      note: 'not at the board when the clock started',
      source: 'clock',
      by: 'A1',
    });
    // Another console reads them (the incident twice: two consoles confirmed at once).
    for (const action of [...prepared.actions, prepared.actions.at(-1)!]) {
      b.hall.record(b.desk.journalRecord(action));
      b.desk.receive(action, b.source.now());
    }
    const listed = () => b.desk.view('spectator').fines.entries.map((e) => [e.id, e.fine, e.by, e.source]);
    expect(listed()).toEqual([[`r1-p${late}-late-arrival`, 1000, 'A1', 'clock']]);
    b.reopen();
    expect(listed()).toEqual([[`r1-p${late}-late-arrival`, 1000, 'A1', 'clock']]);
  });
});
