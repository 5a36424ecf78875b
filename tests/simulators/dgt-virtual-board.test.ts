// The virtual DGT board with clock: every command answered, clock messages by mode, acks, the clock's
// own behaviour (increment, flags, lever during pause), faults, and both ways to reach it.
import { SerialPortStream } from '@serialport/stream';
import { SerialPort, SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { ClockCommand, DgtDecoder, asciiText, clockVersion, setAndRun, xlDisplay, type DecodeOutput, type DgtMessage } from '../../device-bridge/internal.ts';
import { createManualScheduler, mockBoardLink, VirtualDgtBoard, type VirtualDgtBoardOptions } from '../../simulators/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function wired(options: Partial<VirtualDgtBoardOptions> = {}) {
  const scheduler = createManualScheduler(0);
  const board = new VirtualDgtBoard({ scheduler, leftMs: 60_000, rightMs: 60_000, ...options });
  const decoder = new DgtDecoder();
  const received: { at: number; m: DecodeOutput }[] = [];
  board.connect((bytes) => received.push(...decoder.push(bytes).map((m) => ({ at: scheduler.now(), m }))));
  cleanups.push(() => board.dispose());
  const take = (): DgtMessage[] => received.splice(0).flatMap(({ m }) => (m.type === 'error' ? [] : [m]));
  return { scheduler, board, received, take, send: (...bytes: number[]) => board.receive(bytes) };
}

describe('virtual DGT board', () => {
  it('answers every board command of the protocol', () => {
    const { send, take } = wired();
    const answer = (byte: number) => {
      send(byte);
      return take().map((m) => m.type);
    };
    expect(answer(0x40)).toEqual([]);
    expect(answer(0x41)).toEqual(['clock']);
    expect(answer(0x42)).toEqual(['boardDump']);
    expect(answer(0x45)).toEqual(['serialNumber']);
    expect(answer(0x46)).toEqual(['busAddress']);
    expect(answer(0x47)).toEqual(['trademark']);
    expect(answer(0x48)).toEqual(['hardwareVersion']);
    expect(answer(0x49)).toEqual(['eeMoves']);
    expect(answer(0x4c)).toEqual(['battery']);
    expect(answer(0x4d)).toEqual(['version']);
    expect(answer(0x50)).toEqual(['draughtsBoard']);
    expect(answer(0x52)).toEqual(['draughtsBoard']);
    expect(answer(0x55)).toEqual(['longSerialNumber']);
    for (const silent of [0x43, 0x44, 0x4a, 0x4b, 0x4e, 0x51, 0x53, 0x54]) {
      send(0x40);
      expect(answer(silent)).toEqual([]);
    }
    send(0x42);
    const [dump] = take();
    expect(dump?.type === 'boardDump' && dump.squares.join('')).toBe('rnbqkbnrpppppppp' + '.'.repeat(32) + 'PPPPPPPPRNBQKBNR');
  });

  it('update mode: a clock message every second, times from the clock; update-nice: only on change', () => {
    const { send, take, board, scheduler, received } = wired();
    send(0x43);
    board.clock.startStop();
    scheduler.advanceBy(5_000);
    const clocks = received.splice(0).flatMap(({ at, m }) => (m.type === 'clock' ? [`${at} ${m.left.ms} ${m.runningSide}`] : []));
    expect(clocks).toEqual(['0 60000 left', '1000 59000 left', '2000 58000 left', '3000 57000 left', '4000 56000 left', '5000 55000 left']);
    send(0x4b);
    board.clock.startStop(); // stopped: nothing changes, nothing is sent
    take();
    scheduler.advanceBy(5_000);
    expect(take()).toEqual([]);
    board.clock.startStop();
    scheduler.advanceBy(1_500);
    expect(take().map((m) => m.type === 'clock' && m.left.ms)).toEqual([55_000, 54_000]);
  });

  it('field updates as a player moves, in the order hands make them, only in an update mode', () => {
    const { send, take, board } = wired();
    board.move('e2e4');
    expect(take()).toEqual([]);
    send(0x44);
    board.move('d7d5');
    board.move('e4d5');
    expect(take().map((m) => (m.type === 'fieldUpdate' ? `${m.field}${m.piece}` : m.type))).toEqual(['d7.', 'd5p', 'd5.', 'e4.', 'd5P']);
  });

  it('maps squares for a rotated board', () => {
    const { send, take, board } = wired({ rotated: true });
    send(0x44);
    board.move('e2e4');
    expect(take().map((m) => (m.type === 'fieldUpdate' ? `${m.field}${m.piece}` : m.type))).toEqual(['d7.', 'd5P']);
  });

  it('the clock: Fischer increment at the press, lever during pause, flag fall blocks the clock', () => {
    const { board, scheduler } = wired({ incrementMs: 2_000 });
    board.clock.startStop();
    scheduler.advanceBy(3_500);
    expect(board.press('right')).toBe(false); // Black's half of the lever is down
    expect(board.press('left')).toBe(true);
    expect(board.clock.side('left').ms).toBe(58_500);
    board.clock.startStop();
    expect(board.press('right')).toBe(true); // pressed during the pause: lever moves, no time changes
    expect(board.clock.isRunning).toBe(false);
    expect(board.clock.leverHigh).toBe('left');
    scheduler.advanceBy(10_000);
    expect(board.clock.side('right').ms).toBe(60_000);
    board.clock.startStop();
    scheduler.advanceBy(58_500);
    expect(board.clock.side('left')).toEqual({ ms: 0, flag: false, finalFlag: true });
    expect(board.clock.isRunning).toBe(false);
    board.clock.startStop();
    expect(board.clock.isRunning).toBe(false);
  });

  it('acks clock commands after a delay, only in an update mode; DGT 3000 shows text, set-and-run sets the clock', () => {
    const { send, take, board, scheduler } = wired({ ackDelayMs: 150 });
    board.receive(clockVersion());
    scheduler.advanceBy(200);
    expect(take()).toEqual([]);
    send(0x43);
    take();
    board.receive(clockVersion());
    scheduler.advanceBy(149);
    expect(take().filter((m) => m.type === 'clockAck')).toEqual([]);
    scheduler.advanceBy(1);
    expect(take().filter((m) => m.type === 'clockAck')).toMatchObject([{ command: ClockCommand.version, version: { major: 2, minor: 0 } }]);
    board.receive(asciiText('+2 MIN'));
    expect(board.clock.text).toBe('+2 MIN');
    board.receive(setAndRun({ leftMs: 5_400_000, rightMs: 2_730_000, run: 'right' }));
    expect(board.clock.runningSide).toBe('right');
    scheduler.advanceBy(1_000);
    expect(board.clock.side('right').ms).toBe(2_729_000);
    expect(board.clockCommands.map((c) => c.outstanding)).toEqual([1, 1, 1, 2]);
    expect(board.maxOutstanding).toBe(2);
  });

  it('an XL clock rejects DGT 3000 text but shows segments; no clock at all reports "no clock"', () => {
    const xl = wired({ clock: 'xl' });
    xl.send(0x43);
    xl.board.receive(asciiText('FLAG'));
    xl.scheduler.advanceBy(200);
    expect(xl.take().filter((m) => m.type === 'clockAck')).toMatchObject([{ ok: false }]);
    xl.board.receive(xlDisplay('flag'));
    expect(xl.board.clock.text).toMatch(/^segments:/);
    const none = wired({ clock: 'none' });
    none.send(0x41);
    expect(none.take()).toEqual([{ type: 'noClock', status: 0x20 }]);
  });

  it('faults: garbage, a silent clock, split and merged delivery, a power cycle back to idle', () => {
    const { send, take, board, scheduler, received } = wired();
    send(0x43);
    board.sendGarbage([0x8e, 0x00]);
    send(0x41);
    expect(received.splice(0).map(({ m }) => (m.type === 'error' ? m.reason : m.type))).toEqual(['bad-header', 'garbage', 'clock']);
    board.clockSilent = true;
    scheduler.advanceBy(3_000);
    send(0x41);
    expect(take()).toEqual([]);
    board.clockSilent = false;
    board.delivery = 'split';
    send(0x4d);
    expect(take()).toEqual([]);
    scheduler.advanceBy(5);
    expect(take().map((m) => m.type)).toEqual(['version']);
    board.delivery = 'merged';
    send(0x4d, 0x45);
    scheduler.advanceBy(50);
    expect(take().map((m) => m.type)).toEqual(['version', 'serialNumber']);
    board.disconnect();
    expect(board.mode).toBe('idle');
  });
});

describe('reaching the virtual board', () => {
  it('through @serialport/binding-mock', async () => {
    const board = new VirtualDgtBoard({ scheduler: createManualScheduler() });
    const link = mockBoardLink(board);
    const port = new SerialPortStream({ binding: link.binding, path: link.path, baudRate: 9600 });
    cleanups.push(
      () => SerialPortMock.binding.reset(),
      () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
    );
    const decoder = new DgtDecoder();
    const got: DecodeOutput[] = [];
    port.on('data', (chunk: Buffer) => got.push(...decoder.push(chunk)));
    port.write(Buffer.from([0x4d]));
    await until(() => got.length > 0, 'the version');
    expect(got).toEqual([{ type: 'version', major: 3, minor: 10, text: '3.10' }]);
  });

  it('through a real pty pair (socat) and the native serialport binding', async () => {
    const { ptyBoardLink } = await import('../../simulators/internal.ts');
    const board = new VirtualDgtBoard({ scheduler: createManualScheduler(), serial: '04242' });
    const pair = await openPtyPair();
    cleanups.push(() => pair.close());
    const link = await ptyBoardLink(board, pair.b);
    cleanups.push(() => link.close());
    const port = new SerialPort({ path: pair.a, baudRate: 9600 });
    cleanups.push(() => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())));
    const decoder = new DgtDecoder();
    const got: DecodeOutput[] = [];
    port.on('data', (chunk: Buffer) => got.push(...decoder.push(chunk)));
    port.write(Buffer.from([0x45, 0x4d]));
    await until(() => got.length >= 2, 'serial and version');
    expect(got).toEqual([
      { type: 'serialNumber', serial: '04242' },
      { type: 'version', major: 3, minor: 10, text: '3.10' },
    ]);
  });
});
