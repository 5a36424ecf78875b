// Paper from the SA Open's Open section after its 11 rounds, in a real Chromium: the crosstable prints
// on A4 landscape with its last column inside the printable width, and the pairings (on screen and
// printed) show each player's points before the round and rating. The rounds are played through the
// desk's commands as an arbiter sends them (results entered from scoresheets, pair, publish).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TournamentDesk } from '../../arbiter-console/index.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { consoleInChromium } from './browser.ts';

const event = presetEvent('sa-open-2009');
const SECTION = 'open';
const ROUNDS = 11;
const MM = 96 / 25.4; // CSS px per millimetre
const MARGIN_MM = 12;

// Round 1 of both sections paired and published at start.
const rig = consoleInChromium('print', () => ({ event, firstRound: true }));
const desk = (): TournamentDesk => rig.run.desks.get(SECTION)!;
const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });

/** Results as the test decides them: wins, draws and losses spread over the boards and rounds. */
const resultOf = (round: number, white: number, black: number): GameResult => (['1-0', '1/2-1/2', '0-1'] as const)[(white + black + round) % 3]!;
const WHITE_POINTS: Record<string, number> = { '1-0': 1, '1/2-1/2': 0.5, '0-1': 0 };

/** Plays the section's 11 rounds; returns each player's points before each round, counted here from what was entered. */
function playEleven(): Map<number, number[]> {
  const points = new Map<number, number[]>();
  const add = (player: number, round: number, p: number): void => {
    const row = points.get(player) ?? Array.from({ length: ROUNDS + 1 }, () => 0);
    for (let r = round + 1; r <= ROUNDS; r += 1) row[r] = row[r]! + p;
    points.set(player, row);
  };
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (round > 1) {
      ok(desk().command({ type: 'pairNextRound', section: SECTION }, 'IA'));
      ok(desk().command({ type: 'publishRound', section: SECTION }, 'IA'));
    }
    const paired = desk()
      .view('arbiter')
      .rounds.find((r) => r.round === round)!;
    for (const g of paired.games) {
      const result = resultOf(round, g.white.id, g.black.id);
      ok(desk().command({ type: 'enterResult', section: SECTION, round, white: g.white.id, black: g.black.id, result, reason: 'scoresheets' }, 'IA'));
      add(g.white.id, round, WHITE_POINTS[result]!);
      add(g.black.id, round, 1 - WHITE_POINTS[result]!);
    }
    // The pairing-allocated bye scores a win (FIDE C.04.1 c).
    if (paired.bye) add(paired.bye.id, round, 1);
  }
  return points;
}

async function arbiterOn(hash: string): Promise<Page> {
  const page = await (await rig.browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  await page.goto(`${rig.run.url}/#token=${rig.run.newToken}`);
  await page.waitForSelector(`nav a[data-page="${hash}"]`);
  await page.click(`nav a[data-page="${hash}"]`);
  await page.waitForSelector(`#t-content[data-section="${SECTION}"]`);
  return page;
}

describe('printing the SA Open after 11 rounds', () => {
  let before: Map<number, number[]>;

  it('prints the crosstable on A4 landscape with its last column inside the page', async () => {
    before = playEleven();
    const page = await arbiterOn('crosstable');
    await page.waitForFunction((n) => document.querySelector('.crosstable thead tr')?.textContent?.includes(String(n)) === true, ROUNDS);
    const headers = await page.$$eval('.crosstable thead th', (ths) => ths.map((th) => th.textContent));
    expect(headers).toContain('11');

    // The page size Chromium prints with: the CSS @page of the crosstable tab.
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString('latin1');
    const boxes = [...pdf.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Math.round(Number(m[1])), Math.round(Number(m[2]))]);
    expect(boxes.length).toBeGreaterThan(0);
    // A4 landscape in points: 842 × 595, every page.
    for (const box of boxes) expect(box).toEqual([842, 595]);

    // Laid out for print at that page's printable width, the last column ends inside it.
    const printable = Math.floor((297 - 2 * MARGIN_MM) * MM);
    await page.setViewportSize({ width: printable, height: Math.floor((210 - 2 * MARGIN_MM) * MM) });
    await page.emulateMedia({ media: 'print' });
    const measured = await page.evaluate(() => {
      const last = [...document.querySelectorAll('.crosstable thead th')].at(-1)!;
      return {
        lastColumn: last.textContent,
        lastRight: last.getBoundingClientRect().right,
        tableRight: document.querySelector('.crosstable')!.getBoundingClientRect().right,
        pageWidth: document.documentElement.clientWidth,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect(measured.lastColumn).toBe(headers.at(-1));
    expect(measured.pageWidth).toBe(printable);
    expect(measured.lastRight).toBeLessThanOrEqual(printable);
    expect(measured.tableRight).toBeLessThanOrEqual(printable);
    expect(measured.overflow).toBe(0);
    await page.context().close();
  }, 300_000);

  it('shows points before the round and ratings in the pairings, on screen and printed', async () => {
    const section = event.sections.find((s) => s.id === SECTION)!;
    const round = desk()
      .view('arbiter')
      .rounds.find((r) => r.round === ROUNDS)!;
    const page = await arbiterOn('pairings');
    const row = (board: number) => `tr[data-round="${ROUNDS}"][data-board="${board}"]`;
    await page.waitForSelector(row(1));
    for (const media of ['screen', 'print'] as const) {
      await page.emulateMedia({ media });
      expect(await page.$$eval(`section[aria-label="Round ${ROUNDS}"] thead th`, (ths) => ths.map((th) => (th as HTMLElement).innerText))).toEqual([
        'Board',
        'White',
        'Rtg',
        'Pts',
        'Result',
        'Pts',
        'Rtg',
        'Black',
      ]);
      for (const g of round.games.slice(0, 5)) {
        const cells = await page.$$eval(`${row(g.board)} td`, (tds) => tds.map((td) => (td as HTMLElement).innerText.trim()));
        const rating = (id: number): string => {
          const p = section.players.find((x) => x.id === id)!;
          const own = section.pairingRating.byFederation[p.federation] ?? section.pairingRating.default;
          const r = own === 'national' ? (p.nationalRating ?? p.fideRating) : (p.fideRating ?? p.nationalRating);
          return r === undefined ? '' : String(r);
        };
        const pts = (id: number): string => String(before.get(id)![ROUNDS]);
        expect([cells[2], cells[3], cells[5], cells[6]], `${media}, board ${g.board}`).toEqual([
          rating(g.white.id),
          pts(g.white.id),
          pts(g.black.id),
          rating(g.black.id),
        ]);
      }
    }
    await page.context().close();
  }, 60_000);
});
