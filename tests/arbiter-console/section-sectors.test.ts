// Sectors of an event's hall (SA Open: the Open and the B section on their own hall boards): a sector
// across the hall counts hall boards, a section's sector counts that section's own boards; both are
// journaled, enforced for a sector arbiter's commands, and cover the same boards after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualSource, startConsole, type ConsoleCommand, type RunningConsole } from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';

const event = presetEvent('sa-open-2009');
const open = hallBoardNumbers(event, 'open').map(String);
const b = hallBoardNumbers(event, 'b').map(String);
let run: RunningConsole;
let dir: string;
const clients: TestClient[] = [];

const start = (): Promise<RunningConsole> => startConsole({ dataDir: dir, port: 0, noPage: true, event, firstRound: true, source: manualSource(0) });

async function as(token: string | undefined, name?: string): Promise<TestClient> {
  const c = await helloClient(run.url, { role: 'arbiter', token, ...(name ? { name } : {}) });
  clients.push(c);
  return c;
}

const command = (c: TestClient, cmd: ConsoleCommand) => sendCommand(c, cmd);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-section-sectors-'));
  run = await start();
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("sectors of an event's sections", () => {
  let tokenB: string;

  it("the boards carry their section and their number there; B's board 1 is not hall board 1", () => {
    expect(b[0]).toBe(String(open.length + 1));
    expect(run.hall.view(b[0]!)).toMatchObject({ id: b[0], section: 'b', sectionBoard: 1 });
    expect(run.hall.view(open[0]!)).toMatchObject({ id: '1', section: 'open', sectionBoard: 1 });
  });

  it("a section's sector covers that section's boards by its own numbers; one across the hall, hall boards", async () => {
    const chief = await as(run.newToken, 'IA Chief');
    expect(await command(chief, { type: 'defineSector', sector: 'B1', name: 'Juniors front', boards: '1-3', section: 'b' })).toMatchObject({ type: 'ack' });
    expect(await command(chief, { type: 'defineSector', sector: 'H', name: 'Front row', boards: `1-2, ${b[0]}` })).toMatchObject({ type: 'ack' });
    expect(await command(chief, { type: 'defineSector', sector: 'X', name: 'Far', boards: '11-20', section: 'b' })).toMatchObject({
      type: 'refused',
      code: 'bad-boards',
      reason: 'boards 11-20 cover no board of section b (its own board numbers)',
    });
    expect(await command(chief, { type: 'defineSector', sector: 'X', name: 'Far', boards: '1', section: 'c' })).toMatchObject({
      type: 'refused',
      code: 'no-section',
      reason: "no section 'c' in this console (sections: open, b)",
    });
    expect(run.team.sectors()).toEqual([
      { id: 'B1', name: 'Juniors front', boards: '1-3', section: 'b', members: b.slice(0, 3) },
      { id: 'H', name: 'Front row', boards: `1-2, ${b[0]}`, members: ['1', '2', b[0]] },
    ]);
    const issued = await command(chief, { type: 'issueCredential', name: 'FA Junior', role: 'sector', sector: 'B1' });
    tokenB = issued.token as string;
  });

  it("a sector arbiter of section B acts on its boards 1-3 only: refused on its board 4 and on the Open's board 1", async () => {
    const junior = await as(tokenB);
    const before = run.journal.count();
    expect(await command(junior, { type: 'arrive', board: b[3]!, side: 'white' })).toMatchObject({
      type: 'refused',
      code: 'outside-sector',
      reason: `board ${b[3]} is not in your sector B1`,
    });
    expect(await command(junior, { type: 'arrive', board: open[0]!, side: 'white' })).toMatchObject({
      type: 'refused',
      reason: `board ${open[0]} is not in your sector B1`,
    });
    expect(run.journal.count()).toBe(before);
    expect(await command(junior, { type: 'arrive', board: b[2]!, side: 'white' })).toMatchObject({ type: 'ack' });
    expect(run.hall.view(b[2]!)!.arrived.white).toBe(true);
  });

  it('a restart rebuilds both sectors from the journal, on the same hall boards', async () => {
    for (const c of clients.splice(0)) c.ws.terminate();
    await run.stop();
    run = await start();
    expect(run.team.sectors().map((s) => s.members)).toEqual([b.slice(0, 3), ['1', '2', b[0]]]);
    const junior = await as(tokenB);
    expect(await command(junior, { type: 'arrive', board: b[3]!, side: 'black' })).toMatchObject({
      type: 'refused',
      reason: `board ${b[3]} is not in your sector B1`,
    });
  });
});
