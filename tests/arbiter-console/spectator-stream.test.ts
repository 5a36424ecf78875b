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
import { cairnsRound, oneSectionConsole } from './fixtures.ts';
import { helloClient, type Message, type TestClient } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';

let run: RunningConsole;
let dataDir: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-spectators-'));
  // A hand-out of 0 ms a turn: a delta goes to one spectator's socket a turn, so with many spectators its writes span turns.
  run = await startConsole({ dataDir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }), server: { spectatorHandOutMs: 0 } });
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

  it('writes each delta to many spectators a part a turn: every one gets every delta, in order, each board only forward', async () => {
    const many = await manySpectators();
    for (let i = 0; i < 9; i++) {
      press(String((i % 3) + 1));
      await new Promise((r) => setTimeout(r, 90));
    }
    await untilAllHoldTheHall(many);
    expectInOrder(many);
  });

  it('a spectator that asks for a snapshot while a delta is still to be handed to it never gets that delta after the snapshot (the snapshot holds it)', async () => {
    const many = await manySpectators();
    const sends = watchSends();
    press('1');
    await untilAllHoldTheHall(many);
    // The spectators' sockets in the order their writes are made: the last one is in the last part.
    const bodies = sends.filter((s) => text(s.data).startsWith('"version"')).map((s) => s.socket);
    const last = bodies.at(-1)!;
    vi.restoreAllMocks();
    const send = WebSocket.prototype.send;
    let asked = false;
    vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      (send as (...a: unknown[]) => void).call(this, data, ...rest);
      if (asked || !text(data).startsWith('"version"')) return;
      // Once the first part of the next delta is out and the rest queued (the turn of the flush is
      // over, its next part not begun), the hall moves on and the last spectator asks for a fresh
      // snapshot (its session hears it as it would from its socket).
      asked = true;
      queueMicrotask(() => {
        // The board of the queued delta: its snapshot holds a newer state of it than that delta.
        press('3');
        last.emit('message', Buffer.from(JSON.stringify({ type: 'resync' })), false);
      });
    });
    press('3');
    await untilAllHoldTheHall(many);
    expect(asked).toBe(true);
    expect(many.some((c) => c.messages.filter((m) => m.type === 'snapshot').length === 2)).toBe(true);
    expectInOrder(many);
  });
});

describe("a board's view, serialized once per version", () => {
  it("is made again for a new round's game on the board, though both games are at version 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-board-text-'));
    // Nothing happens on the boards: every game stays at version 0 (no entry of its own).
    const fresh = await startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }) });
    try {
      const before = await helloClient(fresh.url, { type: 'hello', role: 'spectator' });
      clients.push(before);
      const first = (before.messages.find((m) => m.type === 'snapshot')!.boards as { id: string; white: string; version: number }[])[0]!;
      expect(first.version).toBe(0);
      const round = cairnsRound(3);
      const boards3 = round.boards.map((b) => ({ ...b, white: `Next ${b.white}` }));
      expect(fresh.hall.seat({ ...round, boards: boards3, section: fresh.hall.round.section })).toMatchObject({ ok: true });
      expect(fresh.hall.view('1')).toMatchObject({ version: 0, white: 'Next White 1' });
      const after = await helloClient(fresh.url, { type: 'hello', role: 'spectator' });
      clients.push(after);
      const boards = after.messages.find((m) => m.type === 'snapshot')!.boards as { id: string; white: string }[];
      expect(first.white).not.toBe('Next White 1');
      expect(boards.find((b) => b.id === '1')!.white).toBe('Next White 1');
    } finally {
      await fresh.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the spectators' delta, handed out a few ms a turn", () => {
  it('goes to one socket a turn at 0 ms, the same bytes to each, each in its own seq', async () => {
    const { slow, watchers, marks, stop } = await playingConsole({ spectatorHandOutMs: 0 });
    try {
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
      await stop();
    }
  });

  it('lets the changes of a tick that comes while a delta is still being handed out wait for it: every socket gets them in order', async () => {
    // A tick of 0 ms: every change is due at once, so the second press's comes while the first's is handed out.
    const { slow, watchers, marks, stop } = await playingConsole({ spectatorHandOutMs: 0, spectatorTickMs: 0 });
    try {
      const bodies: string[] = [];
      // The most bodies handed to sockets in one turn of the event loop.
      let inTurn = 0;
      let mostInTurn = 0;
      const send = WebSocket.prototype.send;
      vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
        if (text(data).startsWith('"version"')) {
          bodies.push(text(data));
          if (inTurn === 0) setImmediate(() => (inTurn = 0));
          mostInTurn = Math.max(mostInTurn, ++inTurn);
        }
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
      // The second starts a turn after the first's last socket, not in that turn (a part of each, back to back).
      expect(mostInTurn).toBe(1);
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
      await stop();
    }
  });
});

/** Many spectators: at this file's hand-out of 0 ms a turn, a delta's writes span 120 turns. */
async function manySpectators(): Promise<TestClient[]> {
  const many: TestClient[] = [];
  for (let i = 0; i < 120; i += 20) many.push(...(await Promise.all(Array.from({ length: 20 }, () => spectator()))));
  return many;
}

const boardVersions = (m: Message) => (m.boards as { id: string; version: number }[] | undefined) ?? [];

async function untilAllHoldTheHall(clients: readonly TestClient[]): Promise<void> {
  const latest = (c: TestClient, board: string) =>
    c.messages
      .flatMap(boardVersions)
      .filter((b) => b.id === board)
      .at(-1)?.version;
  await until(
    () => clients.every((c) => ['1', '2', '3'].every((b) => latest(c, b) === run.hall.view(b)!.version)),
    'every spectator to hold every board as the hall has it',
  );
}

/** Each client's stream: every seq after the one before it (none lost, none twice), each board's version never going back. */
function expectInOrder(clients: readonly TestClient[]): void {
  for (const [i, c] of clients.entries()) {
    const stream = c.messages.filter((m) => m.type === 'snapshot' || m.type === 'delta');
    expect(
      stream.map((m) => m.seq),
      `spectator ${i}`,
    ).toEqual(stream.map((_, k) => 1 + k));
    const seen = new Map<string, number>();
    for (const m of stream)
      for (const b of boardVersions(m)) {
        expect(b.version, `spectator ${i}, board ${b.id}`).toBeGreaterThanOrEqual(seen.get(b.id) ?? 0);
        seen.set(b.id, b.version);
      }
  }
}

/** A 3-board console of its own with `server`'s pace, its boards started, and four spectators (with where each one's messages stood). */
async function playingConsole(server: { spectatorHandOutMs: number; spectatorTickMs?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-spectators-'));
  const slow = await startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: 3 }), server });
  const stop = async (): Promise<void> => {
    await slow.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  slow.hall.command({ type: 'arriveAll' }, 'chief');
  slow.hall.command({ type: 'startAll' }, 'chief');
  const watchers: TestClient[] = [];
  for (let i = 0; i < 4; i++) watchers.push(await helloClient(slow.url, { type: 'hello', role: 'spectator' }));
  clients.push(...watchers);
  return { slow, watchers, marks: watchers.map((c) => c.messages.length), stop };
}
