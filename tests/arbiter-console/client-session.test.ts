// One connection's backpressure on a fake socket whose unsent bytes the test sets: exact counts, no timing.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { ClientSession, type SessionHost, type SessionLimits } from '../../arbiter-console/internal.ts';

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  closedWith: number | undefined;
  send(text: string): void {
    this.sent.push(text);
  }
  ping(): void {}
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  terminate(): void {
    this.readyState = 3;
  }
}

const limits: SessionLimits = {
  maxMessageBytes: 4096,
  rate: { perSecond: 20, burst: 40 },
  sendBufferBytes: 1000,
  queuedAnswers: 3,
  behindMs: 5_000,
  deltasPerSecond: 10,
  deltaWindowMs: 1000,
};

let ws: FakeSocket;
let snapshots: number;
let session: ClientSession;

beforeEach(() => {
  vi.useFakeTimers();
  ws = new FakeSocket();
  snapshots = 0;
  const host: SessionHost = { hello() {}, command() {}, snapshot: () => void (snapshots += 1), delta() {}, rest() {}, pong() {}, closed() {} };
  session = new ClientSession(
    ws as unknown as WebSocket,
    '127.0.0.1',
    limits,
    host,
    {
      now: () => Date.now(),
      schedule: (fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
    },
    10_000,
  );
  session.welcome({ kind: 'spectator' });
});

afterEach(() => vi.useRealTimers());

describe('a client session over its send buffer', () => {
  it('sends nothing more, and on draining gets one snapshot however many messages were held back', () => {
    expect(session.stream('x'.repeat(600))).toBe(true);
    ws.bufferedAmount = 600;
    expect(session.stream('y'.repeat(600))).toBe(false); // 600 + 600 > 1000
    for (let i = 0; i < 50; i++) expect(session.stream('delta')).toBe(false);
    expect(session.backpressure.state).toBe('behind');
    expect(ws.sent).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(snapshots).toBe(0); // still over half the limit
    ws.bufferedAmount = 400;
    vi.advanceTimersByTime(100);
    expect(snapshots).toBe(1);
    vi.advanceTimersByTime(5_000);
    expect(snapshots).toBe(1);
    expect(session.backpressure.state).toBe('flowing');
  });

  it('a message larger than the limit still goes to a client with nothing unsent', () => {
    expect(session.stream('z'.repeat(5_000))).toBe(true);
  });

  it('queues answers while behind, sends them first on catching up, and cuts off past the queue', () => {
    ws.bufferedAmount = 2_000;
    session.answer({ type: 'pong', clock: { at: 1, scale: 1 } });
    session.answer({ type: 'refused', id: 'c1', code: 'nothing-to-do', reason: 'r' });
    expect(ws.sent).toHaveLength(0);
    expect(session.backpressure).toMatchObject({ state: 'behind', queued: [expect.stringContaining('pong'), expect.stringContaining('refused')] });
    ws.bufferedAmount = 0;
    vi.advanceTimersByTime(100);
    expect(ws.sent.map((t) => JSON.parse(t).type)).toEqual(['pong', 'refused']);
    expect(snapshots).toBe(1);
    ws.bufferedAmount = 2_000;
    for (let i = 0; i < 3; i++) session.error('malformed', 'x');
    expect(ws.closedWith).toBeUndefined();
    session.error('malformed', 'one too many');
    expect(ws.closedWith).toBe(1008);
  });

  // A 1,000-board hall: a 405 KiB snapshot and a 626 KiB tournament view, more than the 1 MiB limit together.
  it('sends an owed snapshot with its tournament view past the limit, and the deltas right after them', () => {
    expect(session.streamSnapshot(['s'.repeat(600), 't'.repeat(700)])).toBe(true);
    expect(ws.sent.map((t) => t[0])).toEqual(['s', 't']);
    ws.bufferedAmount = 1300; // nothing has left yet
    expect(session.stream('d'.repeat(400))).toBe(true); // only what follows the snapshot counts
    ws.bufferedAmount = 1700;
    expect(session.stream('e'.repeat(700))).toBe(false); // 400 + 700 > 1000
    expect(session.backpressure.state).toBe('behind');
    // Owed again once it has read the snapshot and is at most half its limit behind.
    ws.bufferedAmount = 450;
    vi.advanceTimersByTime(100);
    expect(snapshots).toBe(0); // 50 bytes of the snapshot still unsent
    ws.bufferedAmount = 400;
    vi.advanceTimersByTime(100);
    expect(snapshots).toBe(1);
    expect(session.backpressure.state).toBe('flowing');
  });

  it('leaves one owed snapshot unsent at a time: a resync before it has left is owed, not sent', () => {
    expect(session.streamSnapshot(['s'.repeat(600)])).toBe(true);
    ws.bufferedAmount = 600;
    expect(session.streamSnapshot(['s'.repeat(600)])).toBe(false);
    expect(ws.sent).toHaveLength(1);
    expect(session.backpressure.state).toBe('behind');
  });

  it('is not cut off while it keeps reading, however long it is behind; cut off once it reads next to nothing for behindMs', () => {
    expect(session.streamSnapshot(['s'.repeat(600), 't'.repeat(700)])).toBe(true);
    ws.bufferedAmount = 1300;
    session.stream('d'.repeat(400));
    ws.bufferedAmount = 1700;
    session.stream('e'.repeat(700));
    expect(session.backpressure.state).toBe('behind');
    // 100 bytes every 2 s (a sixteenth of its limit is 62.5): 20 s behind, never cut off.
    for (let left = 1600; left > 500; left -= 100) {
      ws.bufferedAmount = left;
      vi.advanceTimersByTime(2_000);
      expect(ws.closedWith).toBeUndefined();
    }
    vi.advanceTimersByTime(5_200); // then nothing for longer than behindMs
    expect(ws.closedWith).toBe(1008);
  });

  it('is cut off when it stays behind longer than behindMs', () => {
    ws.bufferedAmount = 2_000;
    session.stream('x');
    vi.advanceTimersByTime(4_900);
    expect(ws.closedWith).toBeUndefined();
    vi.advanceTimersByTime(200);
    expect(ws.closedWith).toBe(1008);
  });
});
