import { describe, expect, it } from 'vitest';
import { Teardown } from '../../arbiter-console/index.ts';

describe('the teardown stack', () => {
  it('undoes the last opened first, each awaited before the next', async () => {
    const teardown = new Teardown();
    const done: string[] = [];
    teardown.defer('journal', () => void done.push('journal'));
    teardown.defer('bus', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push('bus');
    });
    teardown.defer('server', () => void done.push('server'));
    expect(await teardown.unwind()).toEqual([]);
    expect(done).toEqual(['server', 'bus', 'journal']);
    expect(teardown.size).toBe(0);
  });

  it('goes on past a step that fails and reports each failure by name', async () => {
    const teardown = new Teardown();
    const done: string[] = [];
    const stuck = new Error('port busy');
    teardown.defer('journal', () => void done.push('journal'));
    teardown.defer('device 3', () => {
      throw stuck;
    });
    teardown.defer('bus', () => Promise.reject(new Error('no route')));
    teardown.defer('server', () => void done.push('server'));
    const failures = await teardown.unwind();
    expect(done).toEqual(['server', 'journal']);
    expect(failures.map((f) => f.step)).toEqual(['bus', 'device 3']);
    expect(failures[1]!.error).toBe(stuck);
  });

  it('unwinds once: a second stop undoes nothing again', async () => {
    const teardown = new Teardown();
    let closed = 0;
    teardown.defer('journal', () => void (closed += 1));
    await teardown.stop('the console');
    await teardown.stop('the console');
    expect(closed).toBe(1);
  });

  it('stop throws one error naming every failed step, after undoing the rest', async () => {
    const teardown = new Teardown();
    let journalClosed = false;
    teardown.defer('journal', () => void (journalClosed = true));
    teardown.defer('device 3', () => {
      throw new Error('port busy');
    });
    const stopped = teardown.stop('the console');
    await expect(stopped).rejects.toThrow('stopping the console: device 3 failed: port busy');
    await expect(stopped).rejects.toBeInstanceOf(AggregateError);
    expect(journalClosed).toBe(true);
  });

  it("abandon undoes a failed start and throws the start's own error", async () => {
    const teardown = new Teardown();
    const done: string[] = [];
    teardown.defer('journal', () => void done.push('journal'));
    teardown.defer('heartbeat', () => void done.push('heartbeat'));
    const cause = Object.assign(new Error('port 8080 is in use'), { code: 'port-in-use' });
    await expect(teardown.abandon(cause)).rejects.toBe(cause);
    expect(done).toEqual(['heartbeat', 'journal']);
    expect(cause.message).toBe('port 8080 is in use');
  });

  it("abandon keeps the start's error and adds what failed while undoing it", async () => {
    const teardown = new Teardown();
    teardown.defer('bus', () => {
      throw new Error('no route');
    });
    const cause = new Error('port 8080 is in use');
    await expect(teardown.abandon(cause)).rejects.toBe(cause);
    expect(cause.message).toBe('port 8080 is in use (and while undoing the start: bus failed: no route)');
  });
});
