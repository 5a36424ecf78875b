// The Dutch engine pairs off the event loop: the arbiter's pairNextRound goes to the pairing worker
// (desk/swiss-pairer.ts), and the draft it journals is the in-process engine's pairing of the same
// section; while it pairs, the console answers other commands, and a second pairing of the section
// is refused; a worker that dies or never answers is a refusal with its code, never a silent command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { inlinePairer, manualSource, startConsole, workerPairer, type RunningConsole, type SwissPairer } from '../../arbiter-console/internal.ts';
import type { ConsoleCommand, TournamentRecord } from '../../arbiter-console/internal.ts';
import { pairSwissRound, presetEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand as send, type TestClient } from '../support/ws-client.ts';

const event = presetEvent('sa-open-2009');
const sendCommand = (c: TestClient, command: ConsoleCommand) => send(c, command);
const opened: { run: RunningConsole; dir: string; clients: TestClient[] }[] = [];

afterEach(async () => {
  for (const { run, dir, clients } of opened.splice(0)) {
    for (const c of clients) c.ws.terminate();
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function open(pairer: SwissPairer, options: { event?: typeof event; pairerWarmUpMs?: number } = {}): Promise<{ run: RunningConsole; chief: TestClient }> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-pairing-worker-'));
  const run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, firstRound: true, source: manualSource(0), pairer, ...options });
  const chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Chief' });
  opened.push({ run, dir, clients: [chief] });
  return { run, chief };
}

/** Every game of section open's round 1 given a result by the arbiter (white wins on odd boards, draws on even). */
async function finishRoundOne(run: RunningConsole, chief: TestClient): Promise<void> {
  const games = run.desks.get('open')!.pairingOf(1)!.games;
  for (const [i, g] of games.entries()) {
    const result = i % 2 === 0 ? '1-0' : '1/2-1/2';
    expect(
      await sendCommand(chief, { type: 'enterResult', section: 'open', round: 1, white: g.white, black: g.black, result, reason: 'score sheet' }),
    ).toMatchObject({ type: 'ack' });
  }
}

const drafts = (run: RunningConsole, round: number) =>
  [...run.journal.entries(0, 'tournament')].flatMap((e) => {
    const r = e.record as { section?: string; action?: TournamentRecord };
    return r.section === 'open' && r.action?.type === 'draft' && r.action.round === round ? [r.action] : [];
  });

/** The pairing worker, with the requests the desk made of it counted and each one held until `release`. */
function heldWorker(): SwissPairer & { calls: number; release(): void } {
  const worker = workerPairer();
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = {
    calls: 0,
    release: () => release(),
    async pair(input: Parameters<SwissPairer['pair']>[0]) {
      held.calls += 1;
      await gate;
      return worker.pair(input);
    },
    prepare: () => worker.prepare(),
    stop: () => worker.stop(),
  };
  return held;
}

describe('pairing in the worker', () => {
  it("journals the in-process engine's pairing; the console answers meanwhile; a second pairing is refused", async () => {
    const pairer = heldWorker();
    const { run, chief } = await open(pairer);
    await finishRoundOne(run, chief);
    const desk = run.desks.get('open')!;
    const expected = pairSwissRound(desk.event, 'open', desk.record(), 2);

    const pairing = sendCommand(chief, { type: 'pairNextRound', section: 'open' });
    await expect.poll(() => pairer.calls).toBe(1);
    // The event loop is free while the worker pairs: another command is answered, a second pairing refused.
    expect(await sendCommand(chief, { type: 'requestBye', section: 'b', player: 1, round: 2, kind: 'half', reason: 'asked' })).toMatchObject({
      type: 'ack',
    });
    expect(await sendCommand(chief, { type: 'pairNextRound', section: 'open' })).toMatchObject({ type: 'refused', code: 'pairing-under-way' });
    expect(drafts(run, 2)).toEqual([]);
    pairer.release();
    expect(await pairing).toMatchObject({ type: 'ack' });

    expect(pairer.calls).toBe(1);
    expect(drafts(run, 2)).toEqual([expect.objectContaining({ type: 'draft', round: 2, games: expected.games, bye: expected.bye, by: 'IA Chief' })]);
    expect(run.hall.phaseOf('open', 2)).toBe('drafted');
    // Published as paired: the boards carry the worker's pairing.
    expect(await sendCommand(chief, { type: 'publishRound', section: 'open' })).toMatchObject({ type: 'ack' });
    expect(desk.pairingOf(2)!.games).toEqual(expected.games);
  });

  it('a section that changed while the worker paired is paired again from what it is now', async () => {
    const pairer = heldWorker();
    const { run, chief } = await open(pairer);
    await finishRoundOne(run, chief);
    const desk = run.desks.get('open')!;
    const pairing = sendCommand(chief, { type: 'pairNextRound', section: 'open' });
    await expect.poll(() => pairer.calls).toBe(1);
    // A result corrected while the worker pairs from the old one.
    const first = desk.pairingOf(1)!.games[0]!;
    expect(
      await sendCommand(chief, { type: 'enterResult', section: 'open', round: 1, white: first.white, black: first.black, result: '0-1', reason: 'corrected' }),
    ).toMatchObject({ type: 'ack' });
    const expected = pairSwissRound(desk.event, 'open', desk.record(), 2);
    pairer.release();
    expect(await pairing).toMatchObject({ type: 'ack' });
    expect(pairer.calls).toBe(2);
    expect(drafts(run, 2)).toEqual([expect.objectContaining({ games: expected.games, bye: expected.bye })]);
  });

  it('a worker that dies is refused with pairing-failed, nothing journaled; the next pairing asks a new worker', async () => {
    const { run, chief } = await open(workerPairer({ file: new URL('../fixtures/pairing-worker-dies.mjs', import.meta.url) }));
    await finishRoundOne(run, chief);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await sendCommand(chief, { type: 'pairNextRound', section: 'open' });
      expect(answer).toMatchObject({ type: 'refused', code: 'pairing-failed' });
      expect(answer['reason']).toContain('exit code 7');
    }
    expect(drafts(run, 2)).toEqual([]);
    expect(run.hall.phaseOf('open', 2)).toBeUndefined();
  });

  it('a worker that never answers is given up after the timeout: pairing-failed', async () => {
    const { run, chief } = await open(workerPairer({ file: new URL('../fixtures/pairing-worker-silent.mjs', import.meta.url), timeoutMs: 300 }));
    await finishRoundOne(run, chief);
    expect(await sendCommand(chief, { type: 'pairNextRound', section: 'open' })).toMatchObject({ type: 'refused', code: 'pairing-failed' });
    expect(drafts(run, 2)).toEqual([]);
  });
});

describe('the pairing worker made ready ahead of the end of a round', () => {
  /** The inline pairer, with the console's calls of prepare counted. */
  const countedPrepares = (): SwissPairer & { prepares: number } => {
    const counted = { ...inlinePairer(), prepares: 0, prepare: () => ((counted.prepares += 1), Promise.resolve()) };
    return counted;
  };

  it("a Swiss event's console makes it ready once, a while after its start, not during it", async () => {
    const pairer = countedPrepares();
    let started = false;
    let duringStart = 0;
    const prepare = pairer.prepare;
    pairer.prepare = () => ((duringStart += started ? 0 : 1), prepare());
    // 2 s: far longer than a start of this event takes, even on a loaded machine.
    await open(pairer, { pairerWarmUpMs: 2000 });
    started = true;
    await expect.poll(() => pairer.prepares, { timeout: 10_000 }).toBe(1);
    expect(duringStart).toBe(0);
  });

  it("a round robin's console never starts it", async () => {
    const pairer = countedPrepares();
    await open(pairer, { event: presetEvent('cairns-cup-2019'), pairerWarmUpMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pairer.prepares).toBe(0);
  });

  it('the worker prepare starts is the one that pairs: one start, ready before its first pairing', async () => {
    const starts: unknown[] = [];
    const channel = new BroadcastChannel('zeitnot-pairing-worker-starts');
    channel.onmessage = (message) => starts.push((message as { data: unknown }).data);
    const pairer = workerPairer({ file: new URL('../fixtures/pairing-worker-counted.mjs', import.meta.url) });
    try {
      await pairer.prepare();
      await expect.poll(() => starts.length).toBe(1);
      await pairer.prepare();
      // The fixture reads none of the input.
      expect(await pairer.pair({} as Parameters<SwissPairer['pair']>[0])).toEqual({ games: [], bye: null });
      expect(starts).toEqual(['started']);
    } finally {
      await pairer.stop();
      channel.close();
    }
  });

  it('prepare on a worker that dies at once settles, and the pairing says how it failed', async () => {
    const pairer = workerPairer({ file: new URL('../fixtures/pairing-worker-exits.mjs', import.meta.url) });
    try {
      await pairer.prepare();
      await expect(pairer.pair({} as Parameters<SwissPairer['pair']>[0])).rejects.toThrow(/exit code 9/);
    } finally {
      await pairer.stop();
    }
  });
});
