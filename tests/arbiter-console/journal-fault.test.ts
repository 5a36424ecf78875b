// A journal whose disk fails, for real: the console runs as a child process with 20 virtual DGT boards
// and its file-size limit is lowered to 0 at run time (`prlimit --pid`, util-linux; Node ignores
// SIGXFSZ, so SQLite's writes fail with EFBIG as they would on a full disk), then raised again: the
// disk comes back. While it fails: /health says so (503), the arbiter's page shows the banner, a
// command is refused with `journal-unavailable` (never left unanswered). Afterwards: /health is ok,
// every simulated board moves again by itself, the queue says when the journal failed and when it
// wrote again, and every command acknowledged before is in the journal.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../arbiter-console/index.ts';
import { ConsoleProcesses } from '../support/console-process.ts';
import { untilRead } from '../support/wait.ts';
import { helloClient, sendCommand, type Message } from '../support/ws-client.ts';
import { launchChromium } from './browser.ts';
import { fortyPlayerEventFile } from './fixtures.ts';

const work = mkdtempSync(join(tmpdir(), 'zeitnot-journal-fault-'));
const processes = new ConsoleProcesses(join(work, 'data'));
afterAll(() => {
  processes.killAll();
  rmSync(work, { recursive: true, force: true });
});

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;

/** The soft limit on the size of any file the process writes (its hard limit untouched: a normal user may raise it again). */
const limitFileSize = (pid: number, bytes: number | 'unlimited') => execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:`]);

interface BoardSummary {
  readonly id: string;
  readonly status: string;
  readonly moves: { white: number; black: number };
}
interface Health {
  readonly ok: boolean;
  readonly journal: { readonly state: string; readonly code?: string; readonly since?: number; readonly held: number };
}

const pauseTwo = { type: 'pause', board: '2', reason: 'arbiter: noise' } as const;

const plies = (b: BoardSummary) => b.moves.white + b.moves.black;

async function boards(url: string): Promise<BoardSummary[]> {
  return ((await (await fetch(`${url}/api/boards`)).json()) as { boards: BoardSummary[] }).boards;
}

async function health(url: string): Promise<{ status: number; body: Health }> {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: (await res.json()) as Health };
}

/** The console's status in a snapshot or delta (contract/attention.ts). */
interface ConsoleStatus {
  readonly journal: { readonly state: string };
  readonly incidents: readonly { readonly code: string; readonly wallMs: number }[];
}

/** The console's status as the arbiter's connection last received it. */
function consoleStatus(messages: readonly Message[]): ConsoleStatus | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.console) return messages[i]!.console as ConsoleStatus;
  return undefined;
}

describe('the journal on a disk that fails and comes back', () => {
  it.skipIf(!hasPrlimit)(
    'is loud while it fails (health, banner, refusals), and everything resumes by itself when it writes again',
    async () => {
      const run = await processes.serve([
        '--event',
        fortyPlayerEventFile(work),
        '--auto-publish',
        '--simulate',
        '20',
        '--time-scale',
        '60',
        '--start-in',
        '0',
        '--auto-start',
      ]);
      const pid = run.child.pid!;
      await untilRead(
        () => boards(run.url),
        (all) => all.length === 20 && all.every((b) => plies(b) >= 2),
        'every board to have moved',
        90_000,
        200,
      );
      expect(await health(run.url)).toMatchObject({ status: 200, body: { ok: true, journal: { state: 'ok', held: 0 } } });
      const chief = await helloClient(run.url, { role: 'arbiter', token: run.token, name: 'IA Chief' });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${run.url}/#token=${run.token}`);
        await page.waitForSelector('.board[data-board="20"]');
        expect(await page.isHidden('#journal-banner')).toBe(true);

        // Acknowledged before the fault: these must be in the journal afterwards.
        const acked: { seq: number; type: string }[] = [];
        for (const command of [
          { type: 'pause', board: '1', reason: 'arbiter: noise' },
          { type: 'resume', board: '1' },
        ] as const) {
          const answer = await sendCommand(chief, command);
          expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'ack' });
          acked.push({ seq: answer.journalSeq as number, type: command.type });
        }

        limitFileSize(pid, 0);
        // The next write (a press of one of the 20 boards) fails: the journal is failing.
        const failing = await untilRead(
          () => health(run.url),
          (h) => h.status === 503,
          '/health to say the journal fails',
          30_000,
          100,
        );
        expect(failing.body).toMatchObject({ ok: false, journal: { state: 'failing', code: expect.stringMatching(/^SQLITE_(IOERR|FULL)/) } });
        expect(failing.body.journal.since).toBeGreaterThan(Date.now() - 60_000);
        const refused = await sendCommand(chief, pauseTwo);
        expect(refused).toMatchObject({ type: 'refused', code: 'journal-unavailable' });
        expect(refused.reason).toMatch(/^the journal cannot write since \d\d:\d\d:\d\d UTC \(SQLITE_\w+\): nothing was done/);
        await page.waitForSelector('#journal-banner:not([hidden])');
        expect(await page.textContent('#journal-banner')).toMatch(
          /^The journal cannot write since .+ \(SQLITE_\w+.*\)\. Commands are refused and nothing is lost/,
        );
        expect(consoleStatus(chief.messages)?.journal.state).toBe('failing');
        // The devices go on telling: held, in order, for the journal.
        await untilRead(
          () => health(run.url),
          (h) => h.body.journal.held >= 5,
          'device messages held while the journal fails',
          30_000,
          100,
        );
        // A spectator is not shown the banner.
        const spectator = await browser.newPage();
        await spectator.goto(`${run.url}/spectator`);
        await spectator.waitForSelector('.board[data-board="20"]');
        expect(await spectator.isHidden('#journal-banner')).toBe(true);

        limitFileSize(pid, 'unlimited');
        const back = await untilRead(
          () => health(run.url),
          (h) => h.status === 200,
          '/health to say the journal writes again',
          30_000,
          100,
        );
        expect(back.body).toMatchObject({ ok: true, journal: { state: 'ok', held: 0 } });
        const atRecovery = new Map((await boards(run.url)).map((b) => [b.id, plies(b)]));
        // Every simulated board moves again by itself (or its game has ended).
        await untilRead(
          () => boards(run.url),
          (all) => all.every((b) => b.status === 'finished' || plies(b) > atRecovery.get(b.id)!),
          'every board to move again',
          90_000,
          200,
        );
        await page.waitForSelector('#journal-banner', { state: 'hidden' });
        await page.waitForSelector('.console-incidents [data-incident="journal-recovered"]');
        const incidents = await page.$$eval('.console-incidents li', (items) => items.map((li) => [li.getAttribute('data-incident'), li.textContent]));
        expect(incidents.map(([code]) => code)).toEqual(['journal-recovered', 'journal-failing']);
        expect(incidents[0]![1]).toMatch(/^\d\d:\d\d:\d\d · the journal writes again after \d+ s; \d+ device events? held meanwhile journaled$/);
        expect(incidents[1]![1]).toMatch(/^\d\d:\d\d:\d\d · the journal cannot write \(SQLITE_\w+/);
        const status = consoleStatus(chief.messages)!;
        expect(status.journal).toEqual({ state: 'ok' });
        expect(status.incidents.map((i) => i.code)).toEqual(['journal-recovered', 'journal-failing']);
        expect(status.incidents[0]!.wallMs).toBeGreaterThanOrEqual(status.incidents[1]!.wallMs);
        // Commands are carried out again.
        const after = await sendCommand(chief, pauseTwo);
        expect(after).toMatchObject({ type: 'ack' });
        acked.push({ seq: after.journalSeq as number, type: 'pause' });

        chief.ws.terminate();
        run.child.kill('SIGTERM');
        await new Promise((resolve) => run.child.once('exit', resolve));
        // Nothing acknowledged was lost: each ack's entry is the command it acknowledged.
        const journal = new Journal(join(work, 'data', 'journal.sqlite'));
        try {
          for (const { seq, type } of acked) {
            const entries = journal.entries(seq - 1);
            const entry = entries.next().value;
            entries.return(undefined);
            expect(entry?.seq).toBe(seq);
            expect(entry?.record.kind === 'clock' ? entry.record.event.type : entry?.record.kind).toBe(type);
          }
        } finally {
          journal.close();
        }
      } finally {
        await browser.close();
      }
    },
    300_000,
  );
});
