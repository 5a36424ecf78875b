// Prizes to the cent through the console (SA Open 2009: "In the event of a tie for any position, prize
// money will be shared"; "rounding to the nearest 10"): three players under 2000 tie on points for
// "Best under 2000", whose 2,000 is split into thirds, to the cent (666.67 + 666.67 + 666.66) or in tens
// (670 + 670 + 660), as /api/prizes and the page's Prizes view show, before and after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { manualSource, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { hallBoardNumbers, loadEvent, presetJson, type ZeitnotEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand, type Message, type TestClient } from '../support/ws-client.ts';
import { launchChromium } from './browser.ts';

const SECTION = 'open';
let run: RunningConsole | undefined;
let browser: Browser | undefined;
const clients: TestClient[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.close();
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * The SA Open's Open section with its prize rules (equal sharing, one prize each, "Best under 2000"),
 * cut to a round robin of four: one player rated 2450 and three under 2000. Place 1 pays 3,000 and the
 * category prize 2,000.
 */
function saOpenOfFour(rounding: 'cent' | 'ten'): ZeitnotEvent {
  const json = JSON.parse(presetJson('sa-open-2009')) as { sections: Record<string, unknown>[] };
  const open = json.sections.find((s) => s.id === SECTION)!;
  const prizes = open.prizes as Record<string, unknown>;
  json.sections = [
    {
      ...open,
      format: { kind: 'round-robin', cycles: 1 },
      players: [2450, 1990, 1960, 1930].map((rating, i) => ({ id: i + 1, name: `SA player ${i + 1}`, federation: 'ZIM', fideRating: rating })),
      schedule: (open.schedule as unknown[]).slice(0, 3),
      teams: [],
      prizes: { ...prizes, places: [3000], special: [{ name: 'Best under 2000', amount: 2000, maxRating: 1999 }], team: undefined, rounding },
    },
  ];
  return loadEvent(json);
}

async function acked(client: TestClient, command: object): Promise<Message> {
  const answer = await sendCommand(client, command as { type: string });
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'ack' });
  return answer;
}

/** The three rounds over the WebSocket: player 1 beats everyone, the three under 2000 draw each other. */
async function playEvent(c: RunningConsole, event: ZeitnotEvent): Promise<void> {
  const chief = await helloClient(c.url, { role: 'arbiter', token: c.newToken, name: 'IA Chief' });
  clients.push(chief);
  const desk = c.desks.get(SECTION)!;
  const hall = hallBoardNumbers(event, SECTION);
  for (let round = 1; round <= 3; round += 1) {
    await acked(chief, { type: 'pairNextRound', section: SECTION });
    await acked(chief, { type: 'publishRound', section: SECTION });
    await acked(chief, { type: 'arriveAll' });
    await acked(chief, { type: 'startAll', section: SECTION });
    for (const [k, g] of desk.pairingOf(desk.liveRound)!.games.entries()) {
      const result = g.white === 1 ? '1-0' : g.black === 1 ? '0-1' : '1/2-1/2';
      await acked(chief, { type: 'result', board: String(hall[k]), result, termination: result === '1/2-1/2' ? 'agreement' : 'resignation' });
    }
    await acked(chief, { type: 'confirmRound', section: SECTION });
  }
}

type Prizes = { currency: string; awards: { player: number; name: string; prize: string; amount: number }[] };
const prizesOf = async (c: RunningConsole): Promise<Prizes> => (await (await fetch(`${c.url}/api/prizes?section=${SECTION}`)).json()) as Prizes;

/** The Prizes view of the page, row by row (Player, Prize, Amount, Fines, Paid). */
async function prizesOnPage(c: RunningConsole): Promise<string[][]> {
  const page = await browser!.newPage();
  try {
    await page.goto(`${c.url}/spectator#fines`);
    await page.waitForSelector('section[aria-label="Prizes"] tbody tr');
    return await page.$$eval('section[aria-label="Prizes"] tbody tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  } finally {
    await page.close();
  }
}

describe('prizes to the cent through the console', () => {
  for (const [rounding, thirds] of [
    ['cent', [666.67, 666.67, 666.66]],
    ['ten', [670, 670, 660]],
  ] as const) {
    it(`a three-way tie for "Best under 2000": 2,000 in thirds (${thirds.join(' + ')}), on /api/prizes and the page, across a restart`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'zeitnot-prizes-'));
      dirs.push(dir);
      const event = saOpenOfFour(rounding);
      run = await startConsole({ dataDir: dir, port: 0, event, source: manualSource(0) });
      await playEvent(run, event);
      const label = 'Best under 2000 (shared by 3)';
      // Equal on points (1 each) and on tie-breaks but for the order the standings give: the extra cent
      // (or ten) goes to the better placed.
      const standings = (await (await fetch(`${run.url}/api/standings?section=${SECTION}`)).json()) as { standings: { id: number; points: number }[] };
      const order = standings.standings.filter((s) => s.id !== 1).map((s) => s.id);
      expect(standings.standings.filter((s) => s.id !== 1).map((s) => s.points)).toEqual([1, 1, 1]);
      const expected = {
        currency: 'ZAR',
        awards: [
          { player: 1, name: 'SA player 1', prize: 'place 1', amount: 3000 },
          ...order.map((id, k) => ({ player: id, name: `SA player ${id}`, prize: label, amount: thirds[k] })),
        ],
      };
      const before = await prizesOf(run);
      expect(before).toMatchObject(expected);
      expect(before.awards.filter((a) => a.prize === label).reduce((s, a) => s + Math.round(a.amount * 100), 0)).toBe(200_000);
      const rows = (amount: number) => `${amount.toLocaleString('en')} ZAR`;
      const onPage = [['SA player 1', 'place 1', rows(3000)], ...order.map((id, k) => [`SA player ${id}`, label, rows(thirds[k]!)])];
      // The page's tournament view follows the hall within its builds' spacing (500 ms or more on a
      // loaded machine): read again until it has the last results.
      await expect.poll(async () => (await prizesOnPage(run!)).map((r) => r.slice(0, 3)), { timeout: 20_000 }).toEqual(onPage);

      // A restart: the same prizes from the journal.
      await run.stop();
      run = await startConsole({ dataDir: dir, port: 0, event, source: manualSource(0) });
      expect(await prizesOf(run)).toEqual(before);
      // The page's tournament view follows the hall within its builds' spacing (500 ms or more on a
      // loaded machine): read again until it has the last results.
      await expect.poll(async () => (await prizesOnPage(run!)).map((r) => r.slice(0, 3)), { timeout: 20_000 }).toEqual(onPage);
    }, 90_000);
  }
});
