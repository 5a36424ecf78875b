// The spectators' shared stream: one delta body per tick serialized and encoded once and handed to
// every spectator's socket (the very same bytes, behind each connection's own seq); a snapshot's boards
// encoded once while no board changes. Watched on the server's sockets (ws's send), where a copy per
// client would show.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { oneSectionConsole } from './fixtures.ts';
import { helloClient, type Message, type TestClient } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';

let run: RunningConsole;
let dataDir: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-spectators-'));
  run = await startConsole({ dataDir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }) });
  run.hall.command({ type: 'arriveAll' }, 'chief');
  run.hall.command({ type: 'startAll' }, 'chief');
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const c of clients.splice(0)) c.ws.terminate();
});

afterAll(async () => {
  await run?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const press = (board: string) =>
  run.hall.record({
    kind: 'clock',
    board,
    event: { type: 'press', side: run.hall.view(board)!.toMove, at: run.hall.source.now(), by: { kind: 'device', deviceId: 't' } },
  });

async function spectator(): Promise<TestClient> {
  const c = await helloClient(run.url, { type: 'hello', role: 'spectator' });
  clients.push(c);
  return c;
}

/** What the server's sockets are handed: each call's data, and the sockets it went to. */
function watchSends(): { data: unknown; socket: WebSocket }[] {
  const sends: { data: unknown; socket: WebSocket }[] = [];
  const send = WebSocket.prototype.send;
  vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
    sends.push({ data, socket: this });
    return (send as (...a: unknown[]) => void).call(this, data, ...rest);
  });
  return sends;
}

const text = (data: unknown): string => (Buffer.isBuffer(data) ? data.toString() : String(data));
const deltas = (c: TestClient, after: number): Message[] => c.messages.slice(after).filter((m) => m.type === 'delta');

describe("the spectators' stream", () => {
  it("hands every spectator's socket and the arbiter's the same encoded delta body, each behind its own seq", async () => {
    const watchers = [await spectator(), await spectator(), await spectator()];
    const chief = await helloClient(run.url, { type: 'hello', role: 'arbiter', token: run.newToken });
    clients.push(chief);
    const marks = [...watchers, chief].map((c) => c.messages.length);
    const sends = watchSends();
    press('2');
    await until(() => [...watchers, chief].every((c, i) => deltas(c, marks[i]!).length > 0), 'every client to get the delta');
    const bodies = sends.filter((s) => text(s.data).startsWith('"version"'));
    // One Buffer object for the three spectators' sockets and the chief's: serialized and encoded once
    // (an arbiter's delta is its own seq in front of the body every session of the turn shares).
    expect(bodies).toHaveLength(4);
    expect(new Set(bodies.map((s) => s.data)).size).toBe(1);
    expect(bodies.every((s) => Buffer.isBuffer(s.data))).toBe(true);
    expect(new Set(bodies.map((s) => s.socket)).size).toBe(4);
    for (const [i, c] of watchers.entries()) {
      // Each connection's seq is its own: its first delta follows its snapshot.
      expect(deltas(c, marks[i]!)[0]!.seq).toBe(2);
      expect(deltas(c, marks[i]!)[0]!.boards).toEqual([expect.objectContaining({ id: '2' })]);
    }
    expect(deltas(chief, marks[3]!)[0]!.boards).toEqual([expect.objectContaining({ id: '2' })]);
  });

  it("encodes a snapshot's boards once until a board changes, and a spectator that joins later is in the next shared delta", async () => {
    const first = await spectator();
    press('1');
    await until(() => deltas(first, 0).length > 0, 'the delta');
    const sends = watchSends();
    const late = await spectator();
    const later = await spectator();
    const boardsParts = sends.filter((s) => text(s.data).startsWith('{"id":"1"'));
    expect(boardsParts).toHaveLength(2);
    expect(boardsParts[0]!.data).toBe(boardsParts[1]!.data);
    const mark = [first, late, later].map((c) => c.messages.length);
    press('3');
    await until(() => [first, late, later].every((c, i) => deltas(c, mark[i]!).length > 0), 'the next delta');
    expect([first, late, later].map((c, i) => deltas(c, mark[i]!)[0]!.seq)).toEqual([3, 2, 2]);
    expect(new Set(sends.filter((s) => text(s.data).startsWith('"version"')).map((s) => s.data)).size).toBe(1);
    // A board changed: the next snapshot's boards are encoded anew, with the change.
    const again = await spectator();
    const snapshot = again.messages.find((m) => m.type === 'snapshot')!;
    expect((snapshot.boards as { id: string; version: number }[]).find((b) => b.id === '3')!.version).toBe(run.hall.view('3')!.version);
    const parts = sends.filter((s) => text(s.data).startsWith('{"id":"1"'));
    expect(parts).toHaveLength(3);
    expect(parts[2]!.data).not.toBe(parts[0]!.data);
  });
});

describe("the spectators' delta, handed out a few ms a turn", () => {
  it('goes to one socket a turn at 0 ms, the same bytes to each, each in its own seq', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-spectators-'));
    const slow = await startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }), server: { spectatorHandOutMs: 0 } });
    try {
      slow.hall.command({ type: 'arriveAll' }, 'chief');
      slow.hall.command({ type: 'startAll' }, 'chief');
      const watchers: TestClient[] = [];
      for (let i = 0; i < 4; i++) watchers.push(await helloClient(slow.url, { type: 'hello', role: 'spectator' }));
      clients.push(...watchers);
      const marks = watchers.map((c) => c.messages.length);
      // The delta bodies handed to sockets, and how many had one when the turn that handed out the first ended.
      const bodies: unknown[] = [];
      let atEndOfFirstTurn: number | undefined;
      const send = WebSocket.prototype.send;
      vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
        if (text(data).startsWith('"version"')) {
          if (bodies.length === 0) setImmediate(() => (atEndOfFirstTurn = bodies.length));
          bodies.push(data);
        }
        return (send as (...a: unknown[]) => void).call(this, data, ...rest);
      });
      slow.hall.record({
        kind: 'clock',
        board: '2',
        event: { type: 'press', side: slow.hall.view('2')!.toMove, at: slow.hall.source.now(), by: { kind: 'device', deviceId: 't' } },
      });
      await until(() => watchers.every((c, i) => deltas(c, marks[i]!).length > 0), 'every spectator to get the delta');
      expect(atEndOfFirstTurn).toBe(1);
      expect(bodies).toHaveLength(4);
      expect(new Set(bodies).size).toBe(1);
      for (const [i, c] of watchers.entries()) {
        expect(deltas(c, marks[i]!)[0]!.seq).toBe(2);
        expect(deltas(c, marks[i]!)[0]!.boards).toEqual([expect.objectContaining({ id: '2' })]);
      }
    } finally {
      await slow.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the changes of a tick that comes while a delta is still being handed out wait for it: every socket gets them in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-spectators-'));
    // A tick of 0 ms: every change is due at once, so the second press's comes while the first's is handed out.
    const slow = await startConsole({
      dataDir: dir,
      port: 0,
      noPage: true,
      ...oneSectionConsole({ boards: 3 }),
      server: { spectatorHandOutMs: 0, spectatorTickMs: 0 },
    });
    try {
      slow.hall.command({ type: 'arriveAll' }, 'chief');
      slow.hall.command({ type: 'startAll' }, 'chief');
      const watchers: TestClient[] = [];
      for (let i = 0; i < 4; i++) watchers.push(await helloClient(slow.url, { type: 'hello', role: 'spectator' }));
      clients.push(...watchers);
      const marks = watchers.map((c) => c.messages.length);
      const bodies: string[] = [];
      const send = WebSocket.prototype.send;
      vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
        if (text(data).startsWith('"version"')) bodies.push(text(data));
        return (send as (...a: unknown[]) => void).call(this, data, ...rest);
      });
      const pressOn = (board: string) =>
        slow.hall.record({
          kind: 'clock',
          board,
          event: { type: 'press', side: slow.hall.view(board)!.toMove, at: slow.hall.source.now(), by: { kind: 'device', deviceId: 't' } },
        });
      pressOn('1');
      pressOn('2');
      // The first delta went to one socket in this turn; the second press's waits for the others, the loop is not held.
      const handedAtOnce = bodies.length;
      await until(() => watchers.every((c, i) => deltas(c, marks[i]!).length >= 2), 'every spectator to get both deltas');
      expect(handedAtOnce).toBe(1);
      // The first tick's delta to every socket, then the second's.
      expect(bodies).toHaveLength(8);
      expect(new Set(bodies.slice(0, 4)).size).toBe(1);
      expect(new Set(bodies.slice(4)).size).toBe(1);
      for (const [i, c] of watchers.entries()) {
        const [first, second] = deltas(c, marks[i]!);
        expect([first!.seq, second!.seq]).toEqual([2, 3]);
        expect((first!.boards as { id: string }[]).map((b) => b.id)).toEqual(['1']);
        expect((second!.boards as { id: string }[]).map((b) => b.id)).toEqual(['2']);
      }
    } finally {
      await slow.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
