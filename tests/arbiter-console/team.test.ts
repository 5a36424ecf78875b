// Arbiters as people: the chief's printed token issues named tokens for deputies and sector arbiters,
// sectors are journaled and enforced, every correction names its arbiter, revoked means out.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalFor, startConsole, type ConsoleCommand, type RunningConsole } from '../../arbiter-console/internal.ts';
import { until } from '../support/wait.ts';
import { oneSectionConsole } from './fixtures.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';

let run: RunningConsole;
let dir: string;
const open: TestClient[] = [];

async function start(): Promise<RunningConsole> {
  return startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: 6 }) });
}

async function as(token: string | undefined, name?: string): Promise<TestClient> {
  const c = await helloClient(run.url, { role: 'arbiter', token, ...(name ? { name } : {}) });
  open.push(c);
  return c;
}

const command = (c: TestClient, cmd: ConsoleCommand) => sendCommand(c, cmd);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-team-'));
  run = await start();
  run.hall.command({ type: 'arriveAll' }, 'chief');
  run.hall.command({ type: 'startAll' }, 'chief');
});

afterAll(async () => {
  for (const c of open) c.ws.terminate();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the arbiters team', () => {
  let chief: TestClient;
  let deputyToken: string;
  let sectorToken: string;

  it('the chief defines sectors and issues named tokens, shown once, listed without secrets', async () => {
    chief = await as(run.newToken, 'IA Chief');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', arbiter: { id: 'chief', name: 'IA Chief', role: 'chief' } });
    expect(await command(chief, { type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'N' })).toMatchObject({
      type: 'refused',
      code: 'unknown-sector',
      reason: "no sector 'N' (define it first)",
    });
    expect(await command(chief, { type: 'defineSector', sector: 'N', name: 'North wing', boards: '1-3, 99' })).toMatchObject({ type: 'ack' });
    expect(await command(chief, { type: 'defineSector', sector: 'S', name: 'South', boards: '70-80' })).toMatchObject({
      type: 'refused',
      code: 'bad-boards',
      reason: 'boards 70-80 cover no board of the hall',
    });
    expect(await command(chief, { type: 'defineSector', sector: 'S', name: 'South', boards: 'four' })).toMatchObject({
      type: 'refused',
      reason: "boards: 'four' is not a board number or a range like 1-50",
    });
    const delta = await chief.next((m) => m.type === 'delta' && m.sectors !== undefined, 'the sectors in a delta');
    expect(delta.sectors).toEqual([{ id: 'N', name: 'North wing', boards: '1-3, 99', members: ['1', '2', '3'] }]);
    const deputy = await command(chief, { type: 'issueCredential', name: 'IA Deputy', role: 'deputy' });
    const sector = await command(chief, { type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'N' });
    deputyToken = deputy.token as string;
    sectorToken = sector.token as string;
    expect(deputyToken).toMatch(/^[0-9a-f]{10}\./);
    const list = await command(chief, { type: 'listCredentials' });
    expect(list).toMatchObject({
      type: 'credentials',
      credentials: [
        { name: 'IA Deputy', role: 'deputy', issuedBy: 'IA Chief' },
        { name: 'FA North', role: 'sector', sector: 'N' },
      ],
    });
    expect(JSON.stringify(list)).not.toContain(deputyToken.split('.')[1]);
    // The journal is the team's one owner: the issue records carry the hashes, never a secret, and no file beside it.
    expect(existsSync(join(dir, 'arbiters.json'))).toBe(false);
    expect(JSON.stringify([...run.journal.entries(0)])).not.toContain(deputyToken.split('.')[1]);
    expect(JSON.stringify([...run.journal.entries(0)])).not.toContain(sectorToken.split('.')[1]);
    const staff = [...run.journal.entries(0, 'staff')].map((e) => e.record);
    expect(staff).toEqual([
      expect.objectContaining({ by: 'IA Chief', change: { type: 'defineSector', sector: { id: 'N', name: 'North wing', boards: '1-3, 99' } } }),
      expect.objectContaining({
        by: 'IA Chief',
        change: expect.objectContaining({ type: 'issueCredential', name: 'IA Deputy', role: 'deputy', hash: expect.objectContaining({ algorithm: 'sha256' }) }),
      }),
      expect.objectContaining({ by: 'IA Chief', change: expect.objectContaining({ type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'N' }) }),
    ]);
  });

  it("a sector arbiter acts on his sector's boards only; refused commands journal nothing", async () => {
    const north = await as(sectorToken, 'someone else');
    expect(north.messages[0]).toMatchObject({ type: 'welcome', arbiter: { name: 'FA North', role: 'sector', sector: 'N' } });
    const before = run.journal.count();
    expect(await command(north, { type: 'pause', board: '4', reason: 'noise' })).toEqual({
      type: 'refused',
      id: expect.any(String),
      code: 'outside-sector',
      reason: 'board 4 is not in your sector N',
    });
    expect(await command(north, { type: 'pauseAll', reason: 'fire alarm' })).toMatchObject({
      type: 'refused',
      code: 'forbidden',
      reason: "pauseAll is for the chief arbiter and the deputies; a sector arbiter acts on his sector's boards",
    });
    expect(await command(north, { type: 'issueCredential', name: 'X', role: 'deputy' })).toMatchObject({
      type: 'refused',
      code: 'forbidden',
      reason: 'only the chief arbiter manages credentials and sectors (FA North is sector arbiter of N)',
    });
    expect(run.journal.count()).toBe(before);
    expect(await command(north, { type: 'addTime', board: '2', side: 'white', ms: 120_000, reason: 'Art. 12.5 disturbance' })).toMatchObject({ type: 'ack' });
    const record = [...run.journal.entries(before)].map((e) => e.record).at(-1)!;
    expect(record).toMatchObject({ kind: 'clock', board: '2', event: { type: 'addTime', by: { kind: 'arbiter', name: 'FA North' } } });
  });

  it('a deputy acts on every board, signs his corrections in the journal and the PGN, and may not change credentials', async () => {
    const deputy = await as(deputyToken);
    expect(await command(deputy, { type: 'setTime', board: '5', side: 'black', ms: 600_000, reason: 'clock set wrongly' })).toMatchObject({ type: 'ack' });
    expect(await command(deputy, { type: 'defineSector', sector: 'S', name: 'South', boards: '4-6' })).toMatchObject({ type: 'refused', code: 'forbidden' });
    const pgn = await (await fetch(`${run.url}/api/pgn/5`)).text();
    expect(pgn).toContain("Arbiter IA Deputy: black's clock set to 0:10:00 (clock set wrongly)");
  });

  it('a revoked credential is cut off at once and refused after', async () => {
    const deputy = await as(deputyToken);
    const id = (deputy.messages[0]!.arbiter as { id: string }).id;
    expect(await command(chief, { type: 'revokeCredential', credential: id })).toMatchObject({ type: 'ack' });
    await until(() => deputy.closed !== undefined, 'the deputy to be cut off');
    expect(deputy.closed).toBe(4003);
    const again = await as(deputyToken);
    expect(again.messages.at(-1)).toMatchObject({ type: 'error', code: 'bad-token' });
    expect(await command(chief, { type: 'removeSector', sector: 'N' })).toMatchObject({
      type: 'refused',
      code: 'sector-in-use',
      reason: 'sector N still has arbiters (FA North): revoke their credentials first',
    });
  });

  it('a restart keeps the sectors (from the journal) and the tokens (their hashes)', async () => {
    for (const c of open.splice(0)) c.ws.terminate();
    await run.stop();
    run = await start();
    const north = await as(sectorToken);
    expect(north.messages.find((m) => m.type === 'snapshot')!.sectors).toEqual([{ id: 'N', name: 'North wing', boards: '1-3, 99', members: ['1', '2', '3'] }]);
    expect(await command(north, { type: 'pause', board: '6', reason: 'x' })).toMatchObject({ type: 'refused', reason: 'board 6 is not in your sector N' });
    expect((await as(deputyToken)).messages.at(-1)).toMatchObject({ type: 'error', code: 'bad-token' });
  });
});

describe('who may give which command', () => {
  const scope = {
    boardOf: (c: ConsoleCommand) => ('board' in c && typeof c.board === 'string' ? c.board : undefined),
    members: (s: string) => (s === 'A' ? new Set(['1', '2']) : undefined),
  };
  const sector = { name: 'FA A', role: 'sector' as const, sector: 'A' };
  const deputy = { name: 'IA D', role: 'deputy' as const };
  it.each([
    [sector, { type: 'resume', board: '1' }, undefined, undefined],
    [sector, { type: 'resume', board: '3' }, 'board 3 is not in your sector A', 'outside-sector'],
    [sector, { type: 'dismiss', alertId: 'x' }, 'dismiss: not a game on a board of your sector A', 'outside-sector'],
    [{ ...sector, sector: 'B' }, { type: 'resume', board: '1' }, "your sector 'B' is not defined (ask the chief arbiter)", 'sector-undefined'],
    [deputy, { type: 'startAll' }, undefined, undefined],
    [deputy, { type: 'enterResult', round: 1, white: 1, black: 2, result: '1-0', reason: 'r' }, undefined, undefined],
    [deputy, { type: 'publishRound' }, 'publishRound changes the event: only the chief arbiter may (IA D is a deputy)', 'forbidden'],
    [deputy, { type: 'revokeCredential', credential: 'abc' }, 'only the chief arbiter manages credentials and sectors (IA D is a deputy)', 'forbidden'],
    [{ name: 'IA C', role: 'chief' as const }, { type: 'listCredentials' }, undefined, undefined],
  ] as const)('%o gives %o: %s', (who, command, reason, code) => {
    const refused = refusalFor(who, command as ConsoleCommand, scope);
    expect(refused?.reason).toBe(reason);
    expect(refused?.code).toBe(code);
  });
});
