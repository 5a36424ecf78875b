// Regression: the virtual DGT 3000's lever is physical. Set-and-run sets both times and which side runs;
// it never moves the lever, so in the host role a set-and-run that goes out after a press (it waited for
// an earlier ack) cannot look like a second press to the bridge.
import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { applyClockEvent, gameConfig, initialGameState, type GameState } from '../../clock-engine/index.ts';
import { createDgtDevice, DgtDecoder, setAndRun, type DeviceMessage } from '../../device-bridge/internal.ts';
import { createManualScheduler, mockBoardLink, VirtualDgtBoard } from '../../simulators/index.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  SerialPortMock.binding.reset();
});

describe('virtual DGT 3000: set-and-run and the lever', () => {
  it('set-and-run chooses the running side without moving the lever; the lever then only reports', () => {
    const scheduler = createManualScheduler(0);
    const board = new VirtualDgtBoard({ scheduler, leftMs: 60_000, rightMs: 60_000, leverHigh: 'left' });
    cleanups.push(() => board.dispose());
    const decoder = new DgtDecoder();
    const levers: string[] = [];
    board.connect((bytes) => {
      for (const m of decoder.push(bytes)) if (m.type === 'clock') levers.push(`${m.leverHigh}${m.running ? ' running' : ''}`);
    });
    board.receive([0x43]);
    board.receive(setAndRun({ leftMs: 60_000, rightMs: 60_000, run: 'left' }));
    expect(board.press('left')).toBe(true); // White presses: the lever goes up on Black's side
    // A set-and-run computed before the press arrives after it: times and the running side change...
    board.receive(setAndRun({ leftMs: 59_000, rightMs: 60_000, run: 'left' }));
    expect(board.clock.leverHigh).toBe('right');
    expect(board.clock.runningSide).toBe('left');
    scheduler.advanceBy(1_000);
    expect(board.clock.side('left').ms).toBe(58_000);
    // ...and without "toggle at lever" the host, not the lever, decides who runs.
    expect(board.press('right')).toBe(true);
    expect(board.clock.leverHigh).toBe('left');
    expect(board.clock.runningSide).toBe('left');
    board.receive(setAndRun({ leftMs: 58_000, rightMs: 60_000, run: 'right', toggleOnLever: true }));
    expect(board.press('left')).toBe(true);
    expect(board.clock.runningSide).toBe('right');
    // (set-and-run, press, set-and-run, the clock's second, press, set-and-run, press)
    expect(levers).toEqual(['left running', 'right running', 'right running', 'right running', 'left running', 'left running', 'right running']);
  });

  it('host role: a set-and-run that crosses a press on the wire makes no phantom press', async () => {
    const scheduler = createManualScheduler(0);
    const board = new VirtualDgtBoard({ scheduler, leftMs: 60_000, rightMs: 60_000, leverHigh: 'left', ackDelayMs: 300 });
    const link = mockBoardLink(board);
    const device = createDgtDevice({ boardId: '4', role: 'host', whiteSide: 'left', orientation: 'normal', path: link.path, binding: link.binding, scheduler });
    const messages: DeviceMessage[] = [];
    device.subscribe((m) => messages.push(m));
    cleanups.push(
      () => device.close(),
      () => board.dispose(),
    );
    let injected = 0;
    const sync = () =>
      until(() => device.session.stats.bytesReceived === board.bytesSent && board.bytesReceived === device.session.stats.bytesSent + injected, 'I/O');
    const advance = async (ms: number) => {
      for (let left = ms; left > 0; left -= 50) {
        await sync();
        scheduler.advanceBy(Math.min(50, left));
      }
      await sync();
    };
    await device.open();
    await advance(100);

    const config = gameConfig('60', { lateArrival: 'arbiter-decides', category: 'blitz' });
    const presses: string[] = [];
    let state: GameState = initialGameState(config);
    const apply = (event: Parameters<typeof applyClockEvent>[2]) => {
      state = applyClockEvent(config, state, event).state;
      device.show(state, scheduler.now());
    };
    device.subscribe((m) => {
      if (m.type === 'clockEvent' && m.event.type === 'press') {
        presses.push(`${m.event.at} ${m.event.side}`);
        apply(m.event);
      }
    });
    for (const side of ['white', 'black'] as const) apply({ type: 'arrive', side, at: 0, by: { kind: 'player', side } });
    apply({ type: 'start', at: scheduler.now(), by: { kind: 'system' } });
    await advance(1_000);
    // White presses while a set-and-run the host sent for "White to move" is on the wire: the clock
    // applies it just after the press (a real race: the host had not yet read the lever).
    board.press('left');
    const crossing = setAndRun({ leftMs: 59_000, rightMs: 60_000, run: 'left' });
    injected += crossing.length;
    board.receive(crossing);
    await advance(1_000);
    expect(presses).toEqual(['1100 white']);
    expect(state.toMove).toBe('black');
    expect(board.clock.runningSide).toBe('right');
    expect(messages.filter((m) => m.type === 'arbiterCall')).toEqual([]);
  });
});
