// The section's FIDE category at the console (issue 24): a real console seats a round of a section at
// 600+2 and the arbiter penalises an illegal move over the WebSocket, as at the board. What it costs
// follows the category by the edition (L2009: blitz under 15 minutes; L2018: rapid over 10), unless the
// event file sets the section's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { openClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';
import { MIN, oneSectionEvent } from './fixtures.ts';

let dir: string | undefined;
let run: RunningConsole | undefined;
let arbiter: TestClient | undefined;

afterEach(async () => {
  arbiter?.ws.close();
  await run?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  arbiter = run = dir = undefined;
});

interface Setting {
  readonly lawsEdition: ZeitnotEvent['lawsEdition'];
  readonly category?: 'standard' | 'rapid' | 'blitz';
  readonly supervision?: 'adequate' | 'inadequate';
}

/** A console whose one section plays 600+2 under `setting`; the arbiter has started board 1. */
async function console600(setting: Setting): Promise<RunningConsole> {
  const base = oneSectionEvent({ boards: 1, timeControl: '600+2' });
  const section = base.sections[0]!;
  const event: ZeitnotEvent = {
    ...base,
    lawsEdition: setting.lawsEdition,
    sections: [{ ...section, supervision: setting.supervision ?? 'adequate', ...(setting.category ? { category: setting.category } : {}) }],
  };
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-category-'));
  run = await startConsole({ dataDir: join(dir, 'data'), port: 0, noPage: true, event, firstRound: true, lateStartMs: 0 });
  arbiter = await openClient(run.url);
  arbiter.send({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Jones' });
  await arbiter.next((m) => m.type === 'snapshot', 'the snapshot');
  expect((await sendCommand(arbiter, { type: 'arriveAll' })).type).toBe('ack');
  expect((await sendCommand(arbiter, { type: 'startAll' })).type).toBe('ack');
  await until(() => run!.hall.view('1')!.status === 'running', 'board 1 running');
  return run;
}

/** The arbiter penalises White's illegal move (White's clock runs): what Black gets, or the result. */
async function whiteIllegalMove(console: RunningConsole): Promise<{ blackGains: number; result?: { result: string; termination: string } }> {
  const before = console.hall.view('1')!.remainingMs.black;
  const penalty = {
    type: 'penalty',
    board: '1',
    offender: 'white',
    offence: 'illegal-move',
    reason: 'Kxe2 with the king in check',
  };
  const answer = await sendCommand(arbiter!, penalty);
  expect(answer.type).toBe('ack');
  const view = console.hall.view('1')!;
  return { blackGains: view.remainingMs.black - before, ...(view.result ? { result: view.result } : {}) };
}

describe('an illegal move at 600+2, by the category of the section', () => {
  it('L2018, FIDE’s category (rapid, over 10 minutes): +2 minutes to the opponent (7.5.5)', { timeout: 30_000 }, async () => {
    const console = await console600({ lawsEdition: 'L2018' });
    expect(console.hall.boards.get('1')!.config.category).toBe('rapid');
    expect(await whiteIllegalMove(console)).toEqual({ blackGains: 2 * MIN });
  });

  it('L2018, the section classed blitz by its regulations: +1 minute (B.2)', { timeout: 30_000 }, async () => {
    const console = await console600({ lawsEdition: 'L2018', category: 'blitz' });
    expect(console.hall.boards.get('1')!.config.category).toBe('blitz');
    expect(await whiteIllegalMove(console)).toEqual({ blackGains: 1 * MIN });
  });

  it('L2009 without adequate supervision, FIDE’s category (blitz, under 15 minutes): the first illegal move loses (B.3 c)', { timeout: 30_000 }, async () => {
    const console = await console600({ lawsEdition: 'L2009', supervision: 'inadequate' });
    expect(console.hall.boards.get('1')!.config.category).toBe('blitz');
    expect(await whiteIllegalMove(console)).toEqual({
      blackGains: 0,
      result: { result: '0-1', termination: 'Laws 2009 Appendix B.3 c (illegal move, claimed by the opponent)' },
    });
  });

  it('L2009 without adequate supervision, the section classed rapid: +2 minutes on the opponent’s claim (A.4 c, 7.4 b)', { timeout: 30_000 }, async () => {
    const console = await console600({ lawsEdition: 'L2009', supervision: 'inadequate', category: 'rapid' });
    expect(console.hall.boards.get('1')!.config.category).toBe('rapid');
    expect(await whiteIllegalMove(console)).toEqual({ blackGains: 2 * MIN });
  });
});
