// Cairns Cup regulation 7: "If more than four players are tied for first place, a combination of math
// tie-breaks and playoffs will be used … The format … will be determined by the Chief Arbiter." The
// nine rounds played on the console's clocks to a five-way tie; the chief starts the playoff and
// composes its format on the Playoffs page in Chromium (a cut to four by wins, a knockout at G/10+5
// whose level match sends those still in to Armageddons); the WebSocket refuses what does not apply,
// each with its code; the games are played on the hall's clocks to a decision, across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualSource, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { launchChromium } from './browser.ts';
import { event, leadersScript, nameOf, ok, PLAYOFF, playMainEvent, SECTION, source, turn, type Script } from './playoff-fixtures.ts';

const LEADERS = [1, 3, 4, 8, 10];
/**
 * Five tied on 6½ with different numbers of wins: among the leaders 3 beats 4 and 8 beats 10, the
 * rest drawn; against the others 1 draws with 2, 3 and 8 with 2 and 5, everything else won. Wins:
 * 4 and 10 five, 1, 3 and 8 four. The others by a fixed pattern, none near 6½.
 */
const fiveWayTie: Script = (w, b) => {
  const leader = (p: number): boolean => LEADERS.includes(p);
  if (leader(w) && leader(b)) return (w === 3 && b === 4) || (w === 8 && b === 10) ? 1 : (w === 4 && b === 3) || (w === 10 && b === 8) ? 0 : 0.5;
  const draws: Record<number, number[]> = { 1: [2], 3: [2, 5], 8: [2, 5] };
  if (leader(w)) return draws[w]?.includes(b) ? 0.5 : 1;
  if (leader(b)) return draws[b]?.includes(w) ? 0.5 : 0;
  return (w + b) % 3 === 0 ? 0.5 : w < b ? 1 : 0;
};

const REASON = 'five tied: format agreed with the Saint Louis Chess Club';

let dir: string;
let run: RunningConsole;
let browser: Browser;
/** The chief's token, printed on the first start only: a restart keeps it. */
let token: string;
const clients: TestClient[] = [];

const open = (at: number): Promise<RunningConsole> => startConsole({ dataDir: dir, port: 0, event, source: manualSource(at) });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-playoff-format-'));
  run = await open(0);
  token = run.newToken!;
  await playMainEvent(run, fiveWayTie);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await browser?.close();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const desk = () => run.desks.get(SECTION)!;

async function chiefClient(): Promise<TestClient> {
  const chief = await helloClient(run.url, { role: 'arbiter', token });
  clients.push(chief);
  return chief;
}

async function playoffsPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
  await page.goto(`${run.url}/#token=${token}`);
  await page.waitForSelector('#role:has-text("chief")');
  await page.waitForSelector('nav a[data-page="playoffs"]');
  await page.click('nav a[data-page="playoffs"]');
  return page;
}

/** The sitting on the playoff's hall boards: its number, each board's playoff game and players, the time control's first period. */
function sitting(): { round: number; boards: { id: string; game: string; white: string; black: string }[]; baseMs: { white: number; black: number } } {
  const seated = run.hall.seated.get(PLAYOFF)!;
  return {
    round: seated.round,
    boards: seated.boards.map((b) => ({ id: b.id, game: b.playoffGame!, white: b.white, black: b.black })),
    baseMs: seated.game.timeControl.periods[0]!.baseMs,
  };
}

function startSitting(): void {
  ok(run.hall.command({ type: 'arriveAll' }, 'IA'));
  ok(run.hall.command({ type: 'startAll', section: PLAYOFF }, 'IA'));
}

const format = (timeControl: string, cut: object | null = { to: 4, tiebreaks: ['WON'] }) => ({
  ...(cut ? { cut } : {}),
  stages: [
    { kind: 'knockout', games: 1, timeControl, onTie: 'next-stage' },
    { kind: 'armageddon', games: 1, timeControl: 'W300-B240', onTie: 'next-stage' },
  ],
});

describe("the chief arbiter's playoff format for a five-way Cairns tie", () => {
  it('is refused on the WebSocket, with its code, where it does not apply', async () => {
    const chief = await chiefClient();
    const setFormat = (by: TestClient, f: object) => sendCommand(by, { type: 'setPlayoffFormat', section: SECTION, format: f, reason: REASON } as never);
    expect(await setFormat(chief, format('600+5'))).toMatchObject({ type: 'refused', code: 'no-playoff' });
    const deputyToken = (await sendCommand(chief, { type: 'issueCredential', name: 'IA Deputy', role: 'deputy' } as never)).token as string;
    const deputy = await helloClient(run.url, { role: 'arbiter', token: deputyToken });
    clients.push(deputy);
    expect(await setFormat(deputy, format('600+5'))).toMatchObject({
      type: 'refused',
      code: 'forbidden',
      reason: 'setPlayoffFormat changes the event: only the chief arbiter may (IA Deputy is a deputy)',
    });
    // The zod schema at the boundary: a kind of stage the console does not know.
    const at = chief.messages.length;
    chief.send({
      type: 'command',
      id: 'bad-kind',
      command: { type: 'setPlayoffFormat', format: { stages: [{ kind: 'swiss', games: 1, timeControl: '600', onTie: 'next-stage' }] }, reason: REASON },
    });
    expect(await chief.next((m) => m.type === 'error', 'the error', at)).toMatchObject({ code: 'malformed', reason: expect.stringMatching(/stages\.0\.kind/) });
    expect(desk().view('arbiter').crosstable.tiedForFirst).toHaveLength(5);
  });

  it('is composed on the Playoffs page, refused there for a time control the clock engine cannot play, then sent and journaled', async () => {
    const page = await playoffsPage();
    await page.click('button[data-t="playoff"]');
    await page.waitForSelector('fieldset[data-t="playoff-format"]', { timeout: 10_000 });
    expect(desk().playoff!.arbiterDecision).toMatch(/^5 players tied for first/);
    expect(await page.textContent('section[aria-label="Playoff"] h2 .badge')).toBe('arbiter-decision');

    // Refusals of a playoff that is the chief's to format, on the WebSocket.
    const chief = await chiefClient();
    const setFormat = (f: object) => sendCommand(chief, { type: 'setPlayoffFormat', section: SECTION, format: f, reason: REASON } as never);
    expect(await setFormat(format('45 minutes'))).toMatchObject({
      type: 'refused',
      code: 'bad-time-control',
      reason: expect.stringMatching(/^stage 1: bad time control '45 minutes'/),
    });
    expect(await setFormat(format('600+5', { to: 4, tiebreaks: ['ARO'] }))).toMatchObject({
      type: 'refused',
      code: 'bad-playoff-format',
      reason: "the cut names ARO: the section's tie-breaks are DE, BPG, KS, SB, WON",
    });
    expect(await setFormat(format('600+5', { to: 5, tiebreaks: ['WON'] }))).toMatchObject({ type: 'refused', code: 'bad-playoff-format' });

    await page.fill('#t-reason', REASON);
    const form = 'fieldset[data-t="playoff-format"]';
    await page.selectOption(`${form} select[name="cut"]`, 'cut');
    await page.fill(`${form} input[name="cut-to"]`, '4');
    for (const code of ['DE', 'BPG', 'KS', 'SB']) await page.uncheck(`${form} input[name="cut-${code}"]`);
    const stage = (n: number, field: string): string => `${form} li[data-stage="${n}"] [name="${field}"]`;
    await page.selectOption(stage(1, 'kind'), 'knockout');
    await page.fill(stage(1, 'time-control'), '10 minutes');
    expect(await page.inputValue(stage(2, 'time-control'))).toBe('W300-B240');
    expect(await page.inputValue(stage(2, 'kind'))).toBe('armageddon');
    await page.click(`${form} button[data-t="format-send"]`);
    await page.waitForSelector('#toasts div.refused:has-text("bad time control \'10 minutes\'")', { timeout: 10_000 });
    // The form keeps what the chief typed: he corrects the time control and sends again.
    expect(await page.inputValue(stage(1, 'kind'))).toBe('knockout');
    await page.fill(stage(1, 'time-control'), '600+5');
    await page.click(`${form} button[data-t="format-send"]`);
    await page.waitForSelector('.playoff-format', { timeout: 10_000 });
    expect(await page.$(form)).toBeNull();

    const playoff = desk().playoff!;
    // The cut by wins: 4 and 10 (five wins) and 3 and 8 (four, before 1 in the main order: they beat a leader).
    const main = playoff.tied;
    const byWins = [...main.filter((p) => p === 4 || p === 10), ...main.filter((p) => p === 3 || p === 8)];
    expect(main.indexOf(1)).toBeLessThan(Math.max(main.indexOf(4), main.indexOf(10)));
    expect(playoff.remaining).toEqual(byWins);
    const formatRecords = [...run.journal.entries(0, 'tournament')].flatMap((e) =>
      e.record.kind === 'tournament' && e.record.action.type === 'playoffFormat' ? [e.record.action] : [],
    );
    expect(formatRecords).toEqual([
      {
        type: 'playoffFormat',
        format: {
          cut: { to: 4, tiebreaks: ['WON'] },
          stages: [
            { kind: 'knockout', games: 1, timeControl: '600+5', onTie: 'next-stage' },
            { kind: 'armageddon', games: 1, timeControl: 'W300-B240', onTie: 'next-stage' },
          ],
        },
        qualified: byWins,
        reason: REASON,
        by: 'Chief Arbiter',
        credential: expect.any(String),
      },
    ]);
    expect(await page.$$eval('.playoff-format li', (lis) => lis.map((li) => li.textContent))).toEqual([
      'Cut: the best 4 by WON',
      'knockout, 1 game a match at 600+5, a tie to the next stage',
      'Armageddon (a draw to Black) at W300-B240',
    ]);
    // Set once: the playoff has its format now.
    expect(await setFormat(format('600+5'))).toMatchObject({ type: 'refused', code: 'playoff-under-way' });
    await page.close();
  }, 60_000);

  it('is played on the hall clocks to a decision, across a restart', async () => {
    const [a, b, c, d] = desk().playoff!.remaining as [number, number, number, number];
    // Knockout, first against last, second against third: two boards side by side at G/10+5.
    const first = sitting();
    expect(first).toMatchObject({ round: 1, baseMs: { white: 600_000, black: 600_000 } });
    expect(first.boards.map((x) => [x.id, x.game])).toEqual([
      ['1', 's1.1.1.1'],
      ['2', 's1.1.1.2'],
    ]);
    expect(first.boards.map((x) => [x.white, x.black].sort())).toEqual([[nameOf(a), nameOf(d)].sort(), [nameOf(b), nameOf(c)].sort()]);
    startSitting();
    source(run).advance(45_000);
    // a beats d; b and c draw (a repetition the arbiter rules: an agreement before move 30 is refused): level, so b and c go on with a to the Armageddons.
    ok(run.hall.command({ type: 'result', board: '1', result: first.boards[0]!.white === nameOf(a) ? '1-0' : '0-1', termination: 'resignation' }, 'IA'));
    ok(run.hall.command({ type: 'result', board: '2', result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' }, 'IA'));
    await turn();
    expect(desk().playoff!.remaining).toEqual([a, b, c]);
    const second = sitting();
    expect(second).toMatchObject({ round: 2, baseMs: { white: 300_000, black: 240_000 } });
    // The series starts from the bottom of the order: b and c.
    expect([second.boards[0]!.white, second.boards[0]!.black].sort()).toEqual([nameOf(b), nameOf(c)].sort());

    // A restart before the Armageddon: the format, the results and the sitting come back from the journal.
    const view = desk().view('arbiter');
    const at = run.hall.source.now();
    await run.stop();
    run = await open(at);
    await turn();
    expect(desk().view('arbiter')).toEqual(view);
    expect(sitting()).toEqual(second);

    const page = await playoffsPage();
    await page.waitForSelector('.playoff-format');
    expect(await page.textContent('section[aria-label="Playoff"] h2 .badge')).toBe('in-progress');
    expect(await page.$('fieldset[data-t="playoff-format"]')).toBeNull();
    // White's flag falls at exactly five minutes: Black wins the first Armageddon on time.
    startSitting();
    const startedAt = run.hall.boards.get('1')!.startedAt!;
    expect(run.hall.view('1')!.remainingMs).toEqual({ white: 300_000, black: 240_000 });
    source(run).advance(299_999);
    expect(run.hall.boards.get('1')!.state.status).toBe('running');
    source(run).advance(1);
    expect(run.hall.boards.get('1')!.state.firstFlag).toEqual({ side: 'white', at: startedAt + 300_000 });
    await turn();
    const seriesWinner = second.boards[0]!.black;
    const seriesLoser = second.boards[0]!.white;
    // The winner meets a; drawn, Black takes it.
    const third = sitting();
    expect(third).toMatchObject({ round: 3, baseMs: { white: 300_000, black: 240_000 } });
    expect([third.boards[0]!.white, third.boards[0]!.black].sort()).toEqual([nameOf(a), seriesWinner].sort());
    startSitting();
    source(run).advance(90_000);
    ok(run.hall.command({ type: 'result', board: '1', result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' }, 'IA'));
    await turn();

    const champion = third.boards[0]!.black;
    const runnerUp = third.boards[0]!.white;
    await page.waitForSelector(`text=Winner: ${champion}`, { timeout: 10_000 });
    expect(await page.textContent('section[aria-label="Playoff"] h2 .badge')).toBe('decided');
    const decided = desk().view('arbiter');
    expect(decided.playoff).toMatchObject({ state: 'decided', winner: { name: champion } });
    expect(decided.playoff!.games.map((g) => [g.id, g.timeControl, g.result, g.hallBoard])).toEqual([
      ['s1.1.1.1', '600+5', expect.any(String), '1'],
      ['s1.1.1.2', '600+5', '1/2-1/2', '2'],
      ['s2.1.1', 'W300-B240', '0-1', '1'],
      ['s2.2.1', 'W300-B240', '1/2-1/2', '1'],
    ]);
    // The places of all five (Cairns 7: "final standings among all tied players"): the final's two, the
    // first Armageddon's loser, the knockout's loser, then the player the cut left out; the prizes follow.
    const order = [champion, runnerUp, seriesLoser, nameOf(d), nameOf(1)];
    expect(decided.crosstable.rows.slice(0, 5).map((r) => [r.rank, r.name])).toEqual(order.map((name, i) => [i + 1, name]));
    expect(decided.prizes.awards.slice(0, 5).map((x) => [x.name, x.amount])).toEqual(
      order.map((name, i) => [name, [45_000, 30_000, 20_000, 15_000, 10_000][i]]),
    );
    expect(run.hall.phaseOf(PLAYOFF, 3)).toBe('closed');
    await page.close();

    // A second restart finds it decided, nothing more to seat.
    const at2 = run.hall.source.now();
    await run.stop();
    run = await open(at2);
    await turn();
    expect(desk().view('arbiter')).toEqual(decided);
    expect(sitting().round).toBe(3);
  }, 90_000);
});

describe('a tie the regulations give the format of', () => {
  it('refuses a format for a two-way tie: not-left-to-chief', async () => {
    const own = mkdtempSync(join(tmpdir(), 'zeitnot-playoff-format-two-'));
    const two = await startConsole({ dataDir: own, port: 0, noPage: true, event, source: manualSource(0) });
    try {
      await playMainEvent(two, leadersScript([3, 6]));
      const chief = await helloClient(two.url, { role: 'arbiter', token: two.newToken });
      clients.push(chief);
      ok(two.desks.get(SECTION)!.command({ type: 'startPlayoff', section: SECTION }, 'IA'));
      expect(await sendCommand(chief, { type: 'setPlayoffFormat', section: SECTION, format: format('600+5', null), reason: REASON } as never)).toMatchObject({
        type: 'refused',
        code: 'not-left-to-chief',
        reason: "the regulations of 'main' give this playoff's format: its games decide",
      });
      expect(two.desks.get(SECTION)!.playoff!.format).toBeUndefined();
    } finally {
      await two.stop();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a format whose stages run out with a tie', () => {
  it('goes back to the chief, who rules; a second format is refused: playoff-under-way', async () => {
    const own = mkdtempSync(join(tmpdir(), 'zeitnot-playoff-format-out-'));
    const c = await startConsole({ dataDir: own, port: 0, noPage: true, event, source: manualSource(0) });
    try {
      await playMainEvent(c, leadersScript(LEADERS));
      const d = c.desks.get(SECTION)!;
      ok(d.command({ type: 'startPlayoff', section: SECTION }, 'IA'));
      const oneRoundRobin = { stages: [{ kind: 'round-robin' as const, games: 1, timeControl: '600+5', onTie: 'next-stage' as const }] };
      ok(d.command({ type: 'setPlayoffFormat', section: SECTION, format: oneRoundRobin, reason: REASON }, 'IA'));
      // Five rounds of two boards, every game drawn on the board.
      for (let round = 1; round <= 5; round += 1) {
        const seated = c.hall.seated.get(PLAYOFF)!;
        expect(seated.round).toBe(round);
        expect(seated.boards).toHaveLength(2);
        ok(c.hall.command({ type: 'arriveAll' }, 'IA'));
        ok(c.hall.command({ type: 'startAll', section: PLAYOFF }, 'IA'));
        source(c).advance(60_000);
        for (const b of seated.boards)
          ok(c.hall.command({ type: 'result', board: b.id, result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' }, 'IA'));
        await turn();
      }
      expect(d.view('arbiter').playoff).toMatchObject({
        state: 'arbiter-decision',
        message: 'the playoff stages are exhausted with a tie: the chief arbiter decides',
        formatOpen: false,
      });
      expect(d.command({ type: 'setPlayoffFormat', section: SECTION, format: oneRoundRobin, reason: 'again' }, 'IA')).toMatchObject({
        ok: false,
        code: 'playoff-under-way',
      });
      ok(d.command({ type: 'decidePlayoff', section: SECTION, winner: 8, reason: 'all drawn: the best on the tie-breaks' }, 'IA'));
      expect(d.view('arbiter').playoff).toMatchObject({ state: 'decided', winner: { id: 8 } });
      expect(d.view('arbiter').crosstable.rows[0]).toMatchObject({ rank: 1, id: 8 });
    } finally {
      await c.stop();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});
