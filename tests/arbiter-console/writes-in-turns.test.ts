// One message's writes to many sessions, a part of them a turn of the event loop (writes-in-turns.ts):
// the first part at once, the rest a part a turn, every write made once and in order; the next message
// to the same audience, or anything else sent to one session, first makes what is still queued.
import { describe, expect, it } from 'vitest';
import { WritesInTurns } from '../../arbiter-console/internal.ts';

const aTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Writes that log `message:session` in the order they are made. */
const writesOf = (log: string[], message: string, sessions: readonly string[]) => sessions.map((s) => [s, () => log.push(`${message}:${s}`)] as const);

const sessions = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}`);

describe('writes in turns', () => {
  it('makes the first part at once and one part a turn after it, each write once, in order', async () => {
    const log: string[] = [];
    const writes = new WritesInTurns<string>(3);
    writes.write(writesOf(log, 'a', sessions(8)));
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s3']);
    expect(writes.queued).toBe(5);
    await aTurn();
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s3', 'a:s4', 'a:s5', 'a:s6']);
    await aTurn();
    expect(log).toEqual(sessions(8).map((s) => `a:${s}`));
    expect(writes.queued).toBe(0);
    await aTurn();
    expect(log).toHaveLength(8);
  });

  it('makes an audience of one part in the turn of the message', () => {
    const log: string[] = [];
    new WritesInTurns<string>(3).write(writesOf(log, 'a', sessions(3)));
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s3']);
  });

  it("makes what is left of a message before the next one's writes: each session gets its messages in order", async () => {
    const log: string[] = [];
    const writes = new WritesInTurns<string>(2);
    writes.write(writesOf(log, 'a', sessions(5)));
    writes.write(writesOf(log, 'b', sessions(5)));
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s3', 'a:s4', 'a:s5', 'b:s1', 'b:s2']);
    await aTurn();
    await aTurn();
    expect(log.slice(7)).toEqual(['b:s3', 'b:s4', 'b:s5']);
    for (const s of sessions(5)) expect(log.filter((l) => l.endsWith(`:${s}`))).toEqual([`a:${s}`, `b:${s}`]);
  });

  it("makes one session's queued write at once when something else goes to it, and not again", async () => {
    const log: string[] = [];
    const writes = new WritesInTurns<string>(2);
    writes.write(writesOf(log, 'a', sessions(6)));
    writes.drainFor('s5');
    writes.drainFor('s1');
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s5']);
    await aTurn();
    await aTurn();
    expect(log).toEqual(['a:s1', 'a:s2', 'a:s5', 'a:s3', 'a:s4', 'a:s6']);
  });

  it('drops what is queued when stopped', async () => {
    const log: string[] = [];
    const writes = new WritesInTurns<string>(2);
    writes.write(writesOf(log, 'a', sessions(6)));
    writes.stop();
    await aTurn();
    await aTurn();
    expect(log).toEqual(['a:s1', 'a:s2']);
    expect(writes.queued).toBe(0);
  });
});
