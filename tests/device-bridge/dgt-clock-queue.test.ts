// The ack-paced clock command queue, on simulated time: one command outstanding, resend on a missing or
// failed ack, give up after the bounded retries, newest set-and-run replaces an unsent one.
import { describe, expect, it } from 'vitest';
import {
  ClockCommandQueue,
  DgtDecoder,
  clockAckMessage,
  clockVersion,
  endDisplay,
  setAndRun,
  type ClockAckMessage,
  type ClockQueueEvent,
} from '../../device-bridge/internal.ts';
import { createManualScheduler } from '../../simulators/index.ts';

const ack = (command: number, ok = true): ClockAckMessage => {
  const [m] = new DgtDecoder().push(clockAckMessage([ok ? 0x10 : 0x40, command, 0, 0]));
  if (m?.type !== 'clockAck') throw new Error('not an ack');
  return m;
};

function queue(options: { ackTimeoutMs?: number; maxRetries?: number } = {}) {
  const scheduler = createManualScheduler();
  const written: { at: number; bytes: string }[] = [];
  const events: ClockQueueEvent[] = [];
  const q = new ClockCommandQueue({
    scheduler,
    write: (bytes) => written.push({ at: scheduler.now(), bytes: Buffer.from(bytes).toString('hex') }),
    onEvent: (e) => events.push(e),
    ...options,
  });
  q.resume();
  return { scheduler, written, events, q };
}

const time = (left: number, right: number) => ({
  frame: setAndRun({ leftMs: left, rightMs: right, run: 'left' }),
  command: 0x0a,
  key: 'time',
  label: `${left}/${right}`,
});

describe('clock command queue', () => {
  it('keeps one command outstanding and sends the next only after its ack', () => {
    const { q, written, scheduler, events } = queue();
    q.enqueue({ frame: clockVersion(), command: 0x09, label: 'version' });
    q.enqueue({ frame: endDisplay(), command: 0x03, label: 'end' });
    expect(written.map((w) => w.bytes)).toEqual(['2b03030900']);
    expect(q.pending).toBe(2);
    scheduler.advanceBy(300);
    expect(q.acknowledge(ack(0x03))).toBe(false); // an ack for another command releases nothing
    expect(q.acknowledge(ack(0x09))).toBe(true);
    expect(written.map((w) => w.bytes)).toEqual(['2b03030900', '2b03030300']);
    expect(events[1]).toMatchObject({ type: 'acked', label: 'version', latencyMs: 300 });
  });

  it('replaces a waiting set-and-run with a newer one instead of queueing both', () => {
    const { q, written } = queue();
    q.enqueue(time(1000, 2000));
    q.enqueue(time(3000, 4000));
    q.enqueue(time(5000, 6000));
    expect(q.pending).toBe(2);
    q.acknowledge(ack(0x0a));
    expect(written.map((w) => w.bytes)).toEqual([
      Buffer.from(setAndRun({ leftMs: 1000, rightMs: 2000, run: 'left' })).toString('hex'),
      Buffer.from(setAndRun({ leftMs: 5000, rightMs: 6000, run: 'left' })).toString('hex'),
    ]);
  });

  it('resends after the ack timeout, a bounded number of times, then gives up and moves on', () => {
    const { q, written, scheduler, events } = queue({ ackTimeoutMs: 2000, maxRetries: 2 });
    q.enqueue({ frame: clockVersion(), command: 0x09, label: 'version' });
    q.enqueue({ frame: endDisplay(), command: 0x03, label: 'end' });
    scheduler.advanceBy(6000);
    expect(written.map((w) => [w.at, w.bytes])).toEqual([
      [0, '2b03030900'],
      [2000, '2b03030900'],
      [4000, '2b03030900'],
      [6000, '2b03030300'],
    ]);
    expect(events.filter((e) => e.type === 'gaveUp')).toEqual([{ type: 'gaveUp', label: 'version', reason: 'no ack within 2000 ms' }]);
  });

  it('resends on an error ack (ack0 other than 0x10)', () => {
    const { q, written } = queue();
    q.enqueue(time(1000, 1000));
    q.acknowledge(ack(0x0a, false));
    expect(written).toHaveLength(2);
    expect(written[1]?.bytes).toBe(written[0]?.bytes);
    q.acknowledge(ack(0x0a));
    expect(q.pending).toBe(0);
  });

  it('holds everything while paused (disconnected) and sends the interrupted command first on resume', () => {
    const { q, written, scheduler } = queue();
    q.enqueue({ frame: clockVersion(), command: 0x09, label: 'version' });
    q.pause();
    q.enqueue({ frame: endDisplay(), command: 0x03, label: 'end' });
    scheduler.advanceBy(10_000);
    expect(written).toHaveLength(1);
    q.resume();
    expect(written.map((w) => w.bytes)).toEqual(['2b03030900', '2b03030900']);
  });

  it('makes a set-and-run when it is sent, so a command that waited carries the times of that instant', () => {
    const { q, written, scheduler } = queue();
    q.enqueue({ frame: clockVersion(), command: 0x09, label: 'version' });
    q.enqueue({ frame: () => setAndRun({ leftMs: 60_000 - scheduler.now(), rightMs: 60_000, run: 'left' }), command: 0x0a, label: 'live' });
    scheduler.advanceBy(1_500);
    q.acknowledge(ack(0x09));
    expect(written[1]?.bytes).toBe(Buffer.from(setAndRun({ leftMs: 58_500, rightMs: 60_000, run: 'left' })).toString('hex'));
  });
});
