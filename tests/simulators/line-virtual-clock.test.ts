// The virtual line-protocol clock on its own: an in-memory serial end, a simulated clock, exact values.
import { describe, expect, it } from 'vitest';
import { formatLine, parseLine, type DeviceLine, type HostLine } from '../../device-bridge/index.ts';
import { createManualScheduler, createVirtualGame, createVirtualLineClock, playOnLineClock, totalThinkMs, type DeviceEnd } from '../../simulators/internal.ts';

function memoryEnd() {
  const sent: string[] = [];
  let toDevice: (chunk: Buffer) => void = () => {};
  const end: DeviceEnd = {
    write: (data) => sent.push(data.toString()),
    onData(listener) {
      toDevice = listener;
      return () => {};
    },
    hostConnected: true,
    close: async () => {},
  };
  const lines = (): DeviceLine[] =>
    sent
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const parsed = parseLine(line);
        if (!parsed.ok) throw new Error(parsed.error);
        return parsed.message as DeviceLine;
      });
  return { end, sent, lines, host: (line: HostLine | string) => toDevice(Buffer.from(typeof line === 'string' ? line : formatLine(line))) };
}

function setup(options: { incrementMs?: number } = {}) {
  const scheduler = createManualScheduler(100_000);
  const link = memoryEnd();
  const clock = createVirtualLineClock({ end: link.end, scheduler, initialMs: { white: 10_000, black: 10_000 }, ...options });
  clock.powerOn();
  return { scheduler, link, clock };
}

describe('virtual line clock', () => {
  it('says HELLO at power-on and heartbeats every second from its own counter', () => {
    const { scheduler, link } = setup();
    scheduler.advanceBy(2_500);
    expect(link.lines()).toEqual([
      { type: 'hello', version: 1, name: 'ZN-VIRTUAL', bootId: 'b1', deviceMs: 0 },
      { type: 'heartbeat', deviceMs: 1_000, running: 'none', white: 10_000, black: 10_000 },
      { type: 'heartbeat', deviceMs: 2_000, running: 'none', white: 10_000, black: 10_000 },
    ]);
  });

  it('mirror mode: keeps time, adds the increment, ignores the wrong button, flags exactly once', () => {
    const { scheduler, link, clock } = setup({ incrementMs: 2_000 });
    clock.press('white'); // not started: White's button does nothing
    clock.press('black'); // starts White's clock
    scheduler.advanceBy(3_000);
    clock.press('black'); // Black's clock does not run: ignored
    clock.press('white');
    expect(clock.display).toEqual({ white: 9_000, black: 10_000, running: 'black' });
    scheduler.advanceBy(10_000);
    expect(clock.display).toEqual({ white: 9_000, black: 0, running: 'black' });
    const events = link.lines().filter((line): line is Extract<DeviceLine, { seq: number }> => 'seq' in line);
    // Nothing was acknowledged, so each event went out several times: the same line every time.
    const bySeq = new Map(events.map((event) => [event.seq, event]));
    expect(events.length).toBeGreaterThan(bySeq.size);
    for (const event of events) expect(event).toEqual(bySeq.get(event.seq));
    expect([...bySeq.values()]).toEqual([
      { type: 'button', seq: 0, deviceMs: 0, button: 'start' },
      { type: 'press', seq: 1, deviceMs: 3_000, side: 'white', reading: { white: 9_000, black: 10_000 } },
      { type: 'flag', seq: 2, deviceMs: 13_000, side: 'black' },
    ]);
  });

  it('retransmits each event every 500 ms until acknowledged, then stops', () => {
    const { scheduler, link, clock } = setup();
    clock.press('black');
    scheduler.advanceBy(1_499);
    const starts = () => link.lines().filter((line) => line.type === 'button').length;
    expect(starts()).toBe(3); // at 0, 500 and 1000
    link.host({ type: 'ack', seq: 0 });
    expect(clock.unacknowledged).toBe(0);
    scheduler.advanceBy(5_000);
    expect(starts()).toBe(3);
  });

  it('pause stops its clock; host mode shows the host times; bad host lines are counted', () => {
    const { scheduler, link, clock } = setup();
    clock.press('black');
    scheduler.advanceBy(1_000);
    clock.pressButton('pause');
    scheduler.advanceBy(5_000);
    expect(clock.display).toEqual({ white: 9_000, black: 10_000, running: 'white' });
    expect(clock.paused).toBe(true);
    clock.pressButton('pause');
    scheduler.advanceBy(1_000);
    expect(clock.display.white).toBe(8_000);

    link.host({ type: 'mode', role: 'host' });
    link.host({ type: 'time', white: 60_000, black: 30_000, running: 'black' });
    scheduler.advanceBy(250);
    expect(clock.mode).toBe('host');
    expect(clock.display).toEqual({ white: 60_000, black: 29_750, running: 'black' });
    link.host('$TIME,1,2,W*00\r\n');
    link.host('garbage\n');
    link.host({ type: 'lamp', lamp: 'blink' });
    link.host({ type: 'beep', ms: 250 });
    link.host({ type: 'text', text: 'PAUSE' });
    expect(clock.hostErrors).toBe(2);
    expect([clock.lamp, clock.beeps, clock.texts]).toEqual(['blink', [250], ['PAUSE']]);
    link.host({ type: 'query' });
    expect(link.lines().at(-1)).toMatchObject({ type: 'hello', deviceMs: 7_250 });
  });

  it('corrupts one event on demand; the retransmission is intact', () => {
    const { scheduler, link, clock } = setup();
    clock.corruptNextEvent();
    clock.press('black');
    expect(parseLine(link.sent.at(-1)!.trim())).toMatchObject({ ok: false, error: expect.stringMatching(/checksum mismatch/) });
    scheduler.advanceBy(500);
    expect(parseLine(link.sent.at(-1)!.trim())).toEqual({ ok: true, message: { type: 'button', seq: 0, deviceMs: 0, button: 'start' } });
  });
});

describe('virtual players at the virtual line clock', () => {
  it('start the clock and press after each think time; the clock charges exactly those times', () => {
    const { scheduler, link, clock } = setup({ incrementMs: 0 });
    const script = createVirtualGame({ seed: 9, thinkMs: { kind: 'uniform', minMs: 100, maxMs: 900 }, maxPlies: 12 });
    const run = playOnLineClock(script, clock, scheduler);
    // Not runAll(): the clock's heartbeat timer never runs out.
    scheduler.advanceBy(totalThinkMs(script, 'white') + totalThinkMs(script, 'black'));
    expect(run.played).toBe(12);
    const presses = link.lines().filter((line): line is Extract<DeviceLine, { type: 'press' }> => line.type === 'press');
    const unique = [...new Map(presses.map((p) => [p.seq, p])).values()];
    let at = 0;
    expect(unique.map((p) => [p.side, p.deviceMs])).toEqual(script.moves.map((m) => [m.side, (at += m.thinkMs)]));
    expect(clock.display.white).toBe(10_000 - totalThinkMs(script, 'white'));
  });
});
