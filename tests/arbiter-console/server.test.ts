// The WebSocket stream end to end: snapshot, sequence numbers, coalesced deltas, key events at once,
// resync after a reconnect, acknowledgements and refusals.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startConsole, type BoardView, type RunningConsole } from '../../arbiter-console/index.ts';
import { oneSectionConsole } from './fixtures.ts';
import { until } from '../support/wait.ts';

type Message = { type: string; seq?: number; version?: number; boards?: BoardView[]; attentionByBoard?: Record<string, unknown[]>; [k: string]: unknown };
let run: RunningConsole;
let dataDir: string;

async function connect(hello: object): Promise<{ ws: WebSocket; messages: Message[]; at: number[] }> {
  const ws = new WebSocket(`${run.url.replace('http', 'ws')}/ws`);
  const messages: Message[] = [];
  const at: number[] = [];
  ws.on('message', (d) => {
    messages.push(JSON.parse(String(d)) as Message);
    at.push(performance.now());
  });
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify(hello));
  await until(() => messages.some((m) => m.type === 'snapshot'), 'the snapshot', 10_000, 5);
  return { ws, messages, at };
}

const press = (board: string, side: 'white' | 'black') =>
  run.hall.record({ kind: 'clock', board, event: { type: 'press', side, at: run.hall.source.now(), by: { kind: 'device', deviceId: 't' } } });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-server-'));
  // One ordinary delta per 3 s makes "at once" unmistakable without timing races.
  run = await startConsole({ dataDir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }), server: { deltasPerSecond: 1, deltaWindowMs: 3000 } });
  for (const id of run.hall.boards.keys()) {
    for (const side of ['white', 'black'] as const)
      run.hall.record({ kind: 'clock', board: id, event: { type: 'arrive', side, at: run.hall.source.now(), by: { kind: 'player', side } } });
  }
  run.hall.command({ type: 'startAll' }, 'chief');
});

afterAll(async () => {
  await run?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('console stream', () => {
  it('sends a snapshot with a clock reference, then coalesced deltas in sequence', async () => {
    const c = await connect({ type: 'hello', role: 'spectator' });
    const snapshot = c.messages.find((m) => m.type === 'snapshot')!;
    expect(snapshot.seq).toBe(1);
    expect(snapshot.boards).toHaveLength(3);
    expect(snapshot.clock).toEqual({ at: expect.any(Number), scale: 1 });
    const start = c.messages.length;
    // 30 presses in a burst on three boards: far fewer deltas, every board's last state arrives.
    for (let i = 0; i < 30; i++) press(String((i % 3) + 1), i % 6 < 3 ? 'white' : 'black');
    await until(
      () => {
        const last = new Map<string, BoardView>();
        for (const m of c.messages.slice(start)) for (const b of m.boards ?? []) last.set(b.id, b);
        return [...last.values()].every((b) => b.version === run.hall.view(b.id)!.version) && last.size === 3;
      },
      "every board's last state",
      10_000,
      5,
    );
    const deltas = c.messages.slice(start).filter((m) => m.type === 'delta');
    // One at once, the other 29 presses merged into the next free slot.
    expect(deltas.length).toBe(2);
    expect(deltas.map((m) => m.seq)).toEqual(deltas.map((_, i) => 2 + i));
    c.ws.close();
  });

  it('sends a key event (flag) at once, when ordinary deltas would have to wait', async () => {
    const c = await connect({ type: 'hello', role: 'spectator' });
    press('3', run.hall.view('3')!.toMove);
    await until(() => c.messages.some((m) => m.type === 'delta'), 'a delta', 10_000, 5);
    const side = run.hall.view('3')!.toMove;
    const sentAt = performance.now();
    run.hall.record({
      kind: 'clock',
      board: '3',
      event: { type: 'setTime', side, ms: 0, at: run.hall.source.now(), by: { kind: 'arbiter', name: 't' }, reason: 'test flag' },
    });

    await until(() => c.messages.some((m) => (m.boards ?? []).some((b) => b.id === '3' && b.flag !== undefined)), "board 3's flag in a delta", 10_000, 5);
    const i = c.messages.findIndex((m) => (m.boards ?? []).some((b) => b.id === '3' && b.flag !== undefined));
    expect(c.at[i]! - sentAt).toBeLessThan(1500);
    expect(c.messages[i]!.attentionByBoard?.['3']).toEqual(expect.arrayContaining([expect.objectContaining({ board: '3', code: 'flag-fall' })]));
    c.ws.close();
  });

  it('resyncs after a reconnect: a fresh snapshot with everything that happened meanwhile', async () => {
    const first = await connect({ type: 'hello', role: 'spectator' });
    const version = first.messages.find((m) => m.type === 'snapshot')!.version!;
    first.ws.close();
    press('1', run.hall.view('1')!.toMove);
    const again = await connect({ type: 'hello', role: 'spectator', since: version });
    const snapshot = again.messages.find((m) => m.type === 'snapshot')!;
    expect(snapshot.seq).toBe(1);
    expect(snapshot.version).toBeGreaterThan(version);
    expect(snapshot.boards!.find((b) => b.id === '1')).toEqual(run.hall.view('1'));
    again.ws.send(JSON.stringify({ type: 'resync' }));
    await until(() => again.messages.filter((m) => m.type === 'snapshot').length === 2, 'the second snapshot', 10_000, 5);
    again.ws.close();
  });

  it('acknowledges arbiter commands with their journal number and refuses with a reason', async () => {
    const c = await connect({ type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Jones' });
    c.ws.send(JSON.stringify({ type: 'command', id: 'k1', command: { type: 'pause', board: '2', reason: 'noise' } }));
    c.ws.send(JSON.stringify({ type: 'command', id: 'k2', command: { type: 'pause', board: '2', reason: 'again' } }));
    c.ws.send(JSON.stringify({ type: 'command', id: 'k3', command: { type: 'resume', board: '7' } }));
    await until(() => c.messages.filter((m) => m.type === 'ack' || m.type === 'refused').length === 3, 'three answers', 10_000, 5);
    const answers = c.messages.filter((m) => m.type === 'ack' || m.type === 'refused');
    expect(answers[0]).toEqual({ type: 'ack', id: 'k1', journalSeq: run.hall.view('2')!.version });
    expect(answers[1]).toEqual({ type: 'refused', id: 'k2', code: 'already-paused', reason: 'board 2 is already paused' });
    expect(answers[2]).toEqual({ type: 'refused', id: 'k3', code: 'unknown-board', reason: "unknown board '7' (boards: 1, 2, 3)" });
    const journaled = [...run.journal.entries()].map((e) => e.record).find((r) => r.kind === 'clock' && r.event.type === 'pause');
    expect(journaled).toMatchObject({ board: '2', event: { by: { kind: 'arbiter', name: 'IA Jones' }, reason: 'noise' } });
    c.ws.close();
  });
});
