// The arbiter's TRF import into a section of a running event console, through POST /api/import-trf
// and `zeitnot import-trf`: a registration list before round 1 (ratings, federations), rounds played
// elsewhere (the console goes on with the next: Dutch engine, Berger table), each journaled once with
// the file's digest and what it set, rebuilt by a restart; a bad file, a player the section does not
// have, a round robin off the Berger table, an import after a round was paired here, no token or a
// sector arbiter's: refused with the reason, nothing journaled.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualSource, startConsole, type RunningConsole, type TournamentRecord } from '../../arbiter-console/internal.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import {
  emptyRecord,
  exportTrf,
  findSection,
  pairSwissRound,
  recordBoardResult,
  roundBoards,
  sectionStandings,
  sectionTrf,
  type Pairing,
  type SectionRecord,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import { launchChromium } from './browser.ts';
import { twoSections } from './tournament-fixtures.ts';

let run: RunningConsole | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const event = twoSections();
const chief = { id: 'chief', name: 'Chief Arbiter', role: 'chief' as const };

async function open(dataDir: string, page = false): Promise<RunningConsole> {
  return startConsole({ dataDir, port: 0, noPage: !page, event, source: manualSource(5_000) });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-trf-import-'));
  dirs.push(dir);
  return dir;
}

/** What another program would export: the section's TRF after `rounds` played with these results. */
function played(
  ev: ZeitnotEvent,
  section: string,
  rounds: readonly (readonly Pairing[])[],
  result: (white: number, black: number) => GameResult,
): { text: string; record: SectionRecord } {
  let record = emptyRecord;
  rounds.forEach((games, i) => {
    for (const g of games) record = recordBoardResult(findSection(ev, section), record, i + 1, { ...g, result: result(g.white, g.black) });
  });
  return { text: exportTrf(sectionTrf(ev, section, record)), record };
}

type Reply = {
  status: number;
  body: {
    error?: string;
    code?: string;
    imported?: boolean;
    by?: string;
    journalSeq?: number;
    preview?: Record<string, unknown> & { players: { changed: unknown[]; notInFile: string[] } };
  };
};

async function post(url: string, body: unknown, token: string | undefined): Promise<Reply> {
  const answer = await fetch(`${url}/api/import-trf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Reply['body'] };
}

const imports = (c: RunningConsole): TournamentRecord[] =>
  [...c.journal.entries(0, 'tournament')].flatMap((e) => (e.record.kind === 'tournament' && e.record.action.type === 'import' ? [e.record.action] : []));
const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });

describe('TRF import, an explicit arbiter action', () => {
  it('a registration list before round 1: previewed without a trace, imported once (digest, what it set), the Dutch engine pairs by it, rebuilt after a restart, refused once round 1 is paired', async () => {
    const dir = tempDir();
    run = await open(dir);
    const url = run.url;
    const token = run.newToken!;
    // Swiss-Manager's registration list: player 6 has a new rating (the top one) and another federation.
    const sixth = findSection(event, 'open').players.find((p) => p.id === 6)!;
    const trf = sectionTrf(event, 'open', emptyRecord);
    const text = exportTrf({ ...trf, players: trf.players.map((p) => (p.name === sixth.name ? { ...p, rating: 2999, federation: 'NZL' } : p)) });
    const before = run.journal.count();

    const preview = await post(url, { section: 'open', from: 'open-registration.trf', trf: text, preview: true }, token);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ imported: false });
    expect(preview.body.preview).toMatchObject({
      section: 'open',
      from: 'open-registration.trf',
      digest: createHash('sha256').update(text).digest('hex'),
      rounds: 0,
      games: 0,
      next: 'round 1: paired by the Dutch engine',
      players: {
        inFile: 6,
        changed: [{ id: 6, name: sixth.name, changes: [`rating ${sixth.fideRating} → 2999`, `federation ${sixth.federation} → NZL`] }],
        notInFile: [],
      },
    });
    expect(run.journal.count()).toBe(before);

    const done = await post(url, { section: 'open', from: 'open-registration.trf', trf: text, name: 'IA Brown' }, token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ imported: true, by: 'IA Brown', journalSeq: before + 1 });
    expect(imports(run)).toEqual([
      {
        type: 'import',
        from: 'open-registration.trf',
        digest: createHash('sha256').update(text).digest('hex'),
        rounds: 0,
        players: [{ id: 6, fideRating: 2999, federation: 'NZL' }],
        games: [],
        byes: [],
        by: 'IA Brown',
        credential: 'chief',
      },
    ]);
    const desk = run.desks.get('open')!;
    const row = desk.view('spectator').crosstable.rows.find((r) => r.id === 6)!;
    expect([row.rating, row.federation]).toEqual([2999, 'NZL']);
    // Round 1 is paired from the imported ratings: player 6 is the top seed now.
    const registered: ZeitnotEvent = {
      ...event,
      sections: event.sections.map((s) =>
        s.id === 'open' ? { ...s, players: s.players.map((p) => (p.id === 6 ? { ...p, fideRating: 2999, federation: 'NZL' } : p)) } : s,
      ),
    };
    ok(desk.command({ type: 'pairNextRound', section: 'open' }, 'IA'));
    const drafted = desk.view('arbiter').draft!.games.map((g) => ({ white: g.white.id, black: g.black.id }));
    expect(drafted).toEqual(pairSwissRound(registered, 'open', emptyRecord, 1).games);
    expect(drafted).not.toEqual(pairSwissRound(event, 'open', emptyRecord, 1).games);
    // Once round 1 is paired here, an import is refused and nothing is journaled.
    const count = run.journal.count();
    const late = await post(url, { section: 'open', from: 'again.trf', trf: text }, token);
    expect(late).toMatchObject({ status: 422, body: { error: expect.stringContaining('draft of round 1'), code: 'import-too-late' } });
    expect(run.journal.count()).toBe(count);

    const view = desk.view('arbiter');
    await run.stop();
    run = await open(dir);
    expect(run.desks.get('open')!.view('arbiter')).toEqual(view);
    expect(run.desks.get('open')!.section.players.find((p) => p.id === 6)).toMatchObject({ fideRating: 2999, federation: 'NZL' });
  });

  it('rounds played elsewhere: the Swiss goes on with the Dutch engine, the round robin with the Berger table; a second import of rounds is refused; a restart rebuilds it', async () => {
    const dir = tempDir();
    run = await open(dir);
    const token = run.newToken!;
    const whiteWins = (): GameResult => '1-0';
    const swissRound1 = pairSwissRound(event, 'open', emptyRecord, 1).games;
    const swiss = played(event, 'open', [swissRound1], whiteWins);
    const answer = await post(run.url, { section: 'open', from: 'open-r1.trf', trf: swiss.text }, token);
    expect(answer.status, answer.body.error).toBe(200);
    expect(answer.body.preview).toMatchObject({ rounds: 1, games: 3, byes: 0, next: 'round 2: paired by the Dutch engine' });
    const open1 = run.desks.get('open')!;
    expect(open1.view('spectator').rounds.map((r) => [r.round, r.status, r.games.map((g) => g.result)])).toEqual([[1, 'imported', ['1-0', '1-0', '1-0']]]);
    const summary = async () => (await (await fetch(`${run!.url}/api/event`)).json()) as { sections: { id: string; roundsPlayed: number }[] };
    expect((await summary()).sections).toMatchObject([
      { id: 'open', roundsPlayed: 1 },
      { id: 'rr', roundsPlayed: 0 },
    ]);
    ok(open1.command({ type: 'pairNextRound', section: 'open' }, 'IA'));
    expect(open1.view('arbiter').draft!.games.map((g) => ({ white: g.white.id, black: g.black.id }))).toEqual(
      pairSwissRound(event, 'open', swiss.record, 2).games,
    );
    ok(open1.command({ type: 'publishRound', section: 'open' }, 'IA'));
    expect(run.hall.seated.get('open')?.round).toBe(2);
    // Its results are corrected on the Pairings page, never by a second import.
    const again = await post(run.url, { section: 'open', from: 'open-r1.trf', trf: swiss.text }, token);
    expect(again).toMatchObject({ status: 422, body: { error: expect.stringContaining('round 2 is paired in this console already') } });

    // The round robin: two rounds of the Berger table played elsewhere; round 3 comes from the table.
    const table = (round: number) => roundBoards(event, 'rr', round).boards.map((b) => ({ white: b.white.id, black: b.black.id }));
    const rr = played(event, 'rr', [table(1), table(2)], (white) => (white % 2 === 0 ? '1/2-1/2' : '0-1'));
    const rrAnswer = await post(run.url, { section: 'rr', from: 'rr.trf', trf: rr.text }, token);
    expect(rrAnswer.status, rrAnswer.body.error).toBe(200);
    expect(rrAnswer.body.preview).toMatchObject({ rounds: 2, games: 4, next: 'round 3: from the Berger table' });
    const rrDesk = run.desks.get('rr')!;
    ok(rrDesk.command({ type: 'pairNextRound', section: 'rr' }, 'IA'));
    expect(rrDesk.view('arbiter').draft).toMatchObject({ round: 3 });
    expect(rrDesk.view('arbiter').draft!.games.map((g) => ({ white: g.white.id, black: g.black.id }))).toEqual(table(3));
    // The standings count the imported results as the other program scored them.
    const points = (rows: readonly { id: number; points: number }[]) => Object.fromEntries(rows.map((r) => [r.id, r.points]));
    expect(points(rrDesk.view('spectator').crosstable.rows)).toEqual(points(sectionStandings(event, 'rr', rr.record)));

    const views = [...run.desks.values()].map((d) => d.view('arbiter'));
    await run.stop();
    run = await open(dir);
    expect([...run.desks.values()].map((d) => d.view('arbiter'))).toEqual(views);
    expect(imports(run).map((i) => i.type === 'import' && [i.from, i.rounds, i.games.length])).toEqual([
      ['open-r1.trf', 1, 3],
      ['rr.trf', 2, 4],
    ]);
  });

  it('refuses a bad file (line:column), a player not in the section, a round robin off the Berger table, no token, a sector arbiter: nothing journaled', async () => {
    run = await open(tempDir());
    const token = run.newToken!;
    const url = run.url;
    const good = played(event, 'rr', [roundBoards(event, 'rr', 1).boards.map((b) => ({ white: b.white.id, black: b.black.id }))], () => '1-0').text;
    const before = run.journal.count();
    const refused = async (body: unknown, auth: string | undefined, status: number, error: string | RegExp, code?: string) => {
      const reply = await post(url, body, auth);
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      expect(reply.body.error).toMatch(error);
      if (code !== undefined) expect(reply.body.code).toBe(code);
    };
    // A player line with a rating that is not a number.
    const lines = good.split('\n');
    const at = lines.findIndex((l) => l.startsWith('001'));
    const bad = [...lines.slice(0, at), `${lines[at]!.slice(0, 48)}2x00${lines[at]!.slice(52)}`, ...lines.slice(at + 1)].join('\n');
    await refused({ section: 'rr', from: 'bad.trf', trf: bad }, token, 422, new RegExp(`^bad\\.trf: TRF line ${at + 1}:\\d+: `), 'bad-trf');
    await refused(
      {
        section: 'rr',
        from: 'stranger.trf',
        trf: good.replace(findSection(event, 'rr').players[0]!.name, 'Stranger, A'.padEnd(findSection(event, 'rr').players[0]!.name.length)),
      },
      token,
      422,
      /player \d+ \(Stranger, A.*\) is not in section 'rr'/,
      'bad-trf',
    );
    // Round 1 with colours the other way round: not the Berger table the console goes on with.
    const swapped = played(event, 'rr', [roundBoards(event, 'rr', 1).boards.map((b) => ({ white: b.black.id, black: b.white.id }))], () => '1-0').text;
    await refused({ section: 'rr', from: 'swapped.trf', trf: swapped }, token, 422, /round 1 is not the Berger table's/, 'trf-mismatch');
    await refused({ section: 'nope', from: 'x.trf', trf: good }, token, 404, /no section 'nope'/, 'no-section');
    await refused({ section: 'rr', from: 'x.trf', trf: good, extra: 1 }, token, 400, /extra|Unrecognized/, 'malformed');
    await refused({ section: 'rr', from: 'x.trf', trf: good }, undefined, 401, /token/, 'unauthenticated');
    await refused({ section: 'rr', from: 'x.trf', trf: good }, 'not-a-token', 403, /not valid/, 'bad-token');
    ok(await run.team.command({ type: 'defineSector', sector: 'A', name: 'Hall A', boards: '1-3' }, chief));
    const sector = await run.team.command({ type: 'issueCredential', name: 'IA Sector', role: 'sector', sector: 'A' }, chief);
    const deputy = await run.team.command({ type: 'issueCredential', name: 'IA Deputy', role: 'deputy' }, chief);
    if (!sector.ok || !deputy.ok) throw new Error('credentials not issued');
    const journaled = run.journal.count();
    await refused({ section: 'rr', from: 'x.trf', trf: good }, sector.token, 403, /IA Sector is a sector arbiter/, 'forbidden');
    expect(run.journal.count()).toBe(journaled);
    expect(journaled - before).toBe(3); // the sector and the two credentials, nothing else
    expect(imports(run)).toEqual([]);
    // A deputy may import.
    const byDeputy = await post(url, { section: 'rr', from: 'rr.trf', trf: good }, deputy.token);
    expect(byDeputy).toMatchObject({ status: 200, body: { imported: true, by: 'IA Deputy' } });
  });

  it('on the Pairings page (Chromium): the arbiter picks the file, reads the preview, confirms; the box is gone once round 1 is paired', async () => {
    run = await open(tempDir(), true);
    const table = roundBoards(event, 'rr', 1).boards.map((b) => ({ white: b.white.id, black: b.black.id }));
    const text = played(event, 'rr', [table], () => '0-1').text;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${run.url}/#token=${run.newToken}`);
      await page.waitForSelector('nav a[data-page="pairings"]');
      await page.click('nav a[data-page="pairings"]');
      await page.waitForSelector('#t-section option[value="rr"]', { state: 'attached' });
      await page.selectOption('#t-section', 'rr');
      await page.waitForSelector('#t-import:not([hidden])');
      await page.setInputFiles('#t-import-file', { name: 'rr-round1.trf', mimeType: 'text/plain', buffer: Buffer.from(text, 'latin1') });
      await page.click('#t-import-preview');
      await page.waitForSelector('.t-import-preview', { timeout: 10_000 });
      const preview = (await page.textContent('.t-import-preview'))!.replace(/\s+/g, ' ');
      expect(preview).toContain(
        'rr-round1.trf into section rr: 4 players, 0 with new registration data; rounds 1–1 played elsewhere (2 games, 0 byes). Then round 2: from the Berger table.',
      );
      expect(imports(run)).toEqual([]);
      await page.click('button[data-import="confirm"]');
      await page.waitForSelector('#t-import-result p:has-text("Imported rr-round1.trf")', { timeout: 10_000 });
      expect(imports(run)).toMatchObject([{ from: 'rr-round1.trf', rounds: 1 }]);
      // The imported round is on the page, and the next is paired from the table.
      await page.waitForSelector('tr[data-round="1"][data-board="1"]', { timeout: 10_000 });
      await page.click('button[data-t="pair"]');
      await page.waitForSelector('.t-draft', { timeout: 10_000 });
      expect(await page.isHidden('#t-import')).toBe(true);
      expect(run.desks.get('rr')!.view('arbiter').draft).toMatchObject({ round: 2 });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('zeitnot import-trf previews and imports through the running console, and reports a refusal', async () => {
    const dir = tempDir();
    run = await open(dir);
    const file = join(dir, 'rr-r1.trf');
    writeFileSync(file, played(event, 'rr', [roundBoards(event, 'rr', 1).boards.map((b) => ({ white: b.white.id, black: b.black.id }))], () => '1/2-1/2').text);
    const cli = (...args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/zeitnot.js', 'import-trf', '--console', run!.url, ...args], {
          env: { ...process.env, ZEITNOT_TOKEN: run!.newToken! },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += String(d)));
        child.stderr.on('data', (d) => (err += String(d)));
        child.on('exit', (code) => resolve({ code, out, err }));
      });
    const preview = await cli('--section', 'rr', '--preview', file);
    expect(preview, preview.err).toMatchObject({ code: 0 });
    expect(preview.out).toContain('rounds 1-1 played elsewhere: 2 games, 0 byes');
    expect(preview.out).toContain('then: round 2: from the Berger table');
    expect(preview.out).toContain('preview only: nothing imported');
    expect(imports(run)).toEqual([]);
    const done = await cli('--section', 'rr', '--name', 'IA Brown', file);
    expect(done, done.err).toMatchObject({ code: 0 });
    expect(done.out).toMatch(/imported by IA Brown, journal entry \d+/);
    expect(imports(run)).toMatchObject([{ from: 'rr-r1.trf', rounds: 1, by: 'IA Brown' }]);
    const again = await cli('--section', 'rr', file);
    expect(again.code).toBe(3);
    expect(again.err).toContain('refused (HTTP 422)');
    expect(again.err).toContain('[import-too-late]');
    expect(again.err).toContain('rounds 1–1 were imported already (rr-r1.trf, by IA Brown)');
  }, 60_000);
});
