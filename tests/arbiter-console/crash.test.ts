// Crash test: the console runs as a child process with virtual players; an arbiter gives commands; the
// process is killed with SIGKILL mid-round and restarted on the same data directory. Every board must
// come back exactly as the journal left it (the running clock kept running through the downtime), and
// no acknowledged command may be missing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { remainingAt } from '../../clock-engine/index.ts';
import { Journal, PlayingHall, manualSource, type BoardView } from '../../arbiter-console/index.ts';
import { ConsoleProcesses } from '../support/console-process.ts';
import { until } from '../support/wait.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-crash-'));
const consoles = new ConsoleProcesses(dataDir);

afterAll(() => {
  consoles.killAll();
  rmSync(dataDir, { recursive: true, force: true });
});

const serve = (args: string[]) => consoles.serve(args, 30_000);

describe('crash and restart', () => {
  it('rebuilds every board from the journal after SIGKILL; no acknowledged command is lost', async () => {
    const first = await serve(['--event', 'cairns-cup-2019', '--auto-publish', '--simulate', '5', '--time-scale', '60', '--start-in', '0', '--auto-start']);
    expect(first.token).toBeDefined();
    const ws = new WebSocket(`${first.url.replace('http', 'ws')}/ws`);
    const acks = new Map<string, number>();
    const seen = new Map<string, BoardView>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; id?: string; journalSeq?: number; boards?: BoardView[] };
      if (m.type === 'ack') acks.set(m.id!, m.journalSeq!);
      for (const b of m.boards ?? []) seen.set(b.id, b);
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'hello', role: 'arbiter', token: first.token }));
    await until(
      () => seen.size === 5 && [...seen.values()].every((b) => b.presses.white + b.presses.black >= 2),
      'two presses on each of the five boards',
      20_000,
      20,
    );
    ws.send(JSON.stringify({ type: 'command', id: 'pause-5', command: { type: 'pause', board: '5', reason: 'dispute on board 5' } }));
    let sent = 0;
    const commands = setInterval(() => {
      const board = String((sent % 4) + 1);
      ws.send(
        JSON.stringify({
          type: 'command',
          id: `add-${sent}`,
          command: { type: 'addTime', board, side: sent % 2 ? 'black' : 'white', ms: 1000 + sent, reason: `cmd add-${sent}` },
        }),
      );
      sent++;
    }, 25);
    await until(() => acks.size >= 40, '40 commands acknowledged', 20_000, 20);
    first.child.kill('SIGKILL');
    clearInterval(commands);
    await new Promise((r) => first.child.once('exit', r));
    ws.terminate();

    // What survived: the journal file. Rebuild it as it stood at the kill (no time passes here).
    const journal = new Journal(join(dataDir, 'journal.sqlite'));
    const entries = [...journal.entries()];
    const bySeq = new Map(entries.map((e) => [e.seq, e.record]));
    for (const [id, seq] of acks) {
      const record = bySeq.get(seq);
      expect(record, `acknowledged ${id} (journal #${seq})`).toBeDefined();
      if (id.startsWith('add-')) expect(record).toMatchObject({ kind: 'clock', event: { type: 'addTime', reason: `cmd ${id}` } });
    }
    const lastAt = journal.lastAt();
    const atKill = PlayingHall.fromJournal(journal, manualSource(lastAt));
    const killed = new Map(atKill.views().map((v) => [v.id, v]));
    const killedStates = new Map([...atKill.boards].map(([id, b]) => [id, b.state]));
    atKill.stop();
    journal.close();
    // What the clients were shown is a prefix of the journal.
    for (const [id, view] of seen) {
      expect(view.version).toBeLessThanOrEqual(killed.get(id)!.version);
      // (The rebuilt hall has no device attached; the rest must be identical.)
      if (view.version === killed.get(id)!.version) expect({ ...view, device: undefined }).toEqual({ ...killed.get(id), device: undefined });
    }

    const second = await serve([]);
    expect(second.token).toBeUndefined();
    const api = (await (await fetch(`${second.url}/api/boards`)).json()) as {
      clock: { at: number };
      boards: (BoardView & { remainingNowMs: { white: number; black: number } })[];
    };
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    expect(api.clock.at).toBeGreaterThanOrEqual(lastAt);
    for (const after of api.boards) {
      const before = killed.get(after.id)!;
      const strip = (v: BoardView) => ({
        ...v,
        remainingMs: undefined,
        remainingNowMs: undefined,
        asOf: undefined,
        version: undefined,
        device: undefined,
        timeControl: undefined,
        alerts: undefined,
      });
      expect(strip(after)).toEqual(strip(before));
      // Downtime rule: the running clock kept running; a paused or waiting clock lost nothing.
      expect(after.remainingNowMs).toEqual(remainingAt(killedStates.get(after.id)!, api.clock.at));
      if (before.status !== 'running') expect(after.remainingNowMs).toEqual(before.remainingMs);
    }
    expect(killed.get('5')!.status).toBe('paused');
    expect(api.boards.filter((b) => b.status === 'running').length).toBe(4);
  }, 120_000);
});
