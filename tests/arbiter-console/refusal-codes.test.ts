// Every refusal reaches the page with its code (refusal.ts), the arbiter's message, and the rule where
// one applies: representative refusals of each part through the WebSocket of an event console (SA
// Open 2009: two Swiss sections on their own hall boards): the session, the permission table, the
// hall's clocks, the tournament desk, the team.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRefusalCode, manualSource, startConsole, type ConsoleCommand, type RunningConsole } from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { helloClient, openClient, sendCommand, type TestClient } from '../support/ws-client.ts';

const event = presetEvent('sa-open-2009');
const bBoards = hallBoardNumbers(event, 'b').map(String);
let run: RunningConsole;
let dir: string;
let chief: TestClient;
const clients: TestClient[] = [];

const command = (c: TestClient, cmd: ConsoleCommand) => sendCommand(c, cmd);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-refusal-codes-'));
  run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, firstRound: true, source: manualSource(0) });
  chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Chief' });
  clients.push(chief);
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('refusals on the WebSocket carry their code', () => {
  it('the session: before hello, a spectator, a message that is no command', async () => {
    const early = await openClient(run.url);
    clients.push(early);
    expect(await command(early, { type: 'resumeAll' })).toMatchObject({
      type: 'refused',
      code: 'unauthenticated',
      reason: 'send hello with the arbiter token first',
    });
    const spectator = await helloClient(run.url, { role: 'spectator' });
    clients.push(spectator);
    expect(await command(spectator, { type: 'resumeAll' })).toMatchObject({ type: 'refused', code: 'forbidden', reason: 'spectators cannot give commands' });
    const at = chief.messages.length;
    chief.send({ type: 'command', id: 'bad', command: { type: 'launchFireworks' } });
    expect(await chief.next((m) => m.type === 'error', 'the error', at)).toMatchObject({ type: 'error', code: 'malformed' });
  });

  it("the hall's clocks", async () => {
    expect(await command(chief, { type: 'pause', board: '999', reason: 'r' })).toMatchObject({ type: 'refused', code: 'unknown-board' });
    expect(await command(chief, { type: 'resume', board: '1' })).toMatchObject({ type: 'refused', code: 'not-paused', reason: 'board 1 is not paused' });
    expect(await command(chief, { type: 'arrive', board: '1', side: 'white' })).toMatchObject({ type: 'ack' });
    expect(await command(chief, { type: 'arrive', board: '1', side: 'white' })).toMatchObject({ type: 'refused', code: 'already-arrived' });
    expect(await command(chief, { type: 'dismiss', alertId: 'nothing-like-it' })).toMatchObject({ type: 'refused', code: 'unknown-alert' });
  });

  it('the team, and the permission table for a deputy and a sector arbiter', async () => {
    expect(await command(chief, { type: 'issueCredential', name: 'FA Q', role: 'sector', sector: 'Q' })).toMatchObject({
      type: 'refused',
      code: 'unknown-sector',
    });
    expect(await command(chief, { type: 'revokeCredential', credential: 'nobody' })).toMatchObject({ type: 'refused', code: 'unknown-credential' });
    expect(await command(chief, { type: 'defineSector', sector: 'B1', name: 'Juniors front', boards: '1-3', section: 'b' })).toMatchObject({ type: 'ack' });
    const deputyToken = (await command(chief, { type: 'issueCredential', name: 'IA Deputy', role: 'deputy' })).token as string;
    const sectorToken = (await command(chief, { type: 'issueCredential', name: 'FA Junior', role: 'sector', sector: 'B1' })).token as string;
    const deputy = await helloClient(run.url, { role: 'arbiter', token: deputyToken });
    const junior = await helloClient(run.url, { role: 'arbiter', token: sectorToken });
    clients.push(deputy, junior);
    expect(await command(deputy, { type: 'publishRound', section: 'b' })).toMatchObject({
      type: 'refused',
      code: 'forbidden',
      reason: 'publishRound changes the event: only the chief arbiter may (IA Deputy is a deputy)',
    });
    expect(await command(deputy, { type: 'listCredentials' })).toMatchObject({ type: 'refused', code: 'forbidden' });
    expect(await command(junior, { type: 'pauseAll', reason: 'r' })).toMatchObject({ type: 'refused', code: 'forbidden' });
    expect(await command(junior, { type: 'arrive', board: bBoards[3]!, side: 'white' })).toMatchObject({ type: 'refused', code: 'outside-sector' });
    expect(await command(junior, { type: 'arrive', board: bBoards[0]!, side: 'white' })).toMatchObject({ type: 'ack' });
  });

  it('the desk, with the rule a refusal follows', async () => {
    expect(await command(chief, { type: 'pairNextRound', section: 'nope' })).toMatchObject({ type: 'refused', code: 'no-section' });
    expect(await command(chief, { type: 'enterResult', section: 'b', round: 5, white: 1, black: 2, result: '1-0', reason: 'r' })).toMatchObject({
      type: 'refused',
      code: 'round-not-paired',
    });
    expect(await command(chief, { type: 'pairNextRound', section: 'b' })).toMatchObject({ type: 'refused', code: 'results-unconfirmed' });
    expect(await command(chief, { type: 'startPlayoff', section: 'b' })).toMatchObject({ type: 'refused', code: 'playoff-impossible' });

    // Round 1 played (its results entered), round 2 drafted: a rematch made by hand is refused, naming the rule.
    const desk = run.desks.get('b')!;
    for (const game of desk.pairingOf(1)!.games) {
      expect(
        await command(chief, { type: 'enterResult', section: 'b', round: 1, white: game.white, black: game.black, result: '1/2-1/2', reason: 'agreed' }),
      ).toMatchObject({ type: 'ack' });
    }
    expect(await command(chief, { type: 'pairNextRound', section: 'b' })).toMatchObject({ type: 'ack' });
    const met = desk.pairingOf(1)!.games[0]!;
    const draft = () => desk.view('arbiter').draft!.games;
    const boardOf = (player: number) => draft().find((g) => g.white.id === player || g.black.id === player)!;
    // The first game's White on White's side of board a, its Black on Black's side of board b: exchanging a's and b's Black pairs them again.
    if (boardOf(met.white).white.id !== met.white)
      expect(await command(chief, { type: 'swapColours', section: 'b', board: boardOf(met.white).board, reason: 'r' })).toMatchObject({ type: 'ack' });
    if (boardOf(met.black).black.id !== met.black)
      expect(await command(chief, { type: 'swapColours', section: 'b', board: boardOf(met.black).board, reason: 'r' })).toMatchObject({ type: 'ack' });
    const refused = await command(chief, {
      type: 'exchangeOpponents',
      section: 'b',
      board: boardOf(met.white).board,
      otherBoard: boardOf(met.black).board,
      reason: 'r',
    });
    expect(refused).toMatchObject({
      type: 'refused',
      code: 'already-met',
      article: 'FIDE C.04.1',
      reason: expect.stringContaining('already played each other in round 1'),
    });
  });

  it('every refusal given here had a code of the union', () => {
    const refusals = clients.flatMap((c) => c.messages.filter((m) => m.type === 'refused'));
    expect(refusals.length).toBeGreaterThan(15);
    for (const r of refusals) expect(isRefusalCode(r.code), JSON.stringify(r)).toBe(true);
  });
});
