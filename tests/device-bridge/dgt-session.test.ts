// The DGT session and device against the virtual board through @serialport/binding-mock, on simulated time.
import { SerialPortMock } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { asciiText, DgtSession, findDgtBoards, setAndRun, type SessionEvent } from '../../device-bridge/internal.ts';
import { createManualScheduler, mockBoardLink, VirtualDgtBoard, type ManualScheduler } from '../../simulators/internal.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  SerialPortMock.binding.reset();
});

function rig(options: { clock?: 'dgt3000' | 'xl' | 'none'; updateMode?: 'update' | 'nice' } = {}) {
  const scheduler: ManualScheduler = createManualScheduler(1_000);
  const board = new VirtualDgtBoard({ scheduler, clock: options.clock ?? 'dgt3000', leftMs: 300_000, rightMs: 300_000 });
  const link = mockBoardLink(board);
  const session = new DgtSession({ path: link.path, binding: link.binding, scheduler, updateMode: options.updateMode ?? 'update' });
  const events: SessionEvent[] = [];
  session.subscribe((e) => events.push(e));
  cleanups.push(
    () => session.close(),
    () => board.dispose(),
  );
  /** Waits until every byte either side wrote has arrived. */
  const sync = () => until(() => session.stats.bytesReceived === board.bytesSent && board.bytesReceived === session.stats.bytesSent, 'bytes in flight');
  /** Simulated time passes, then the I/O it caused settles. */
  const advance = async (ms: number) => {
    await sync();
    for (let left = ms; left > 0; left -= 100) {
      scheduler.advanceBy(Math.min(100, left));
      await sync();
    }
  };
  return { scheduler, board, link, session, events, sync, advance };
}

describe('DGT session over binding-mock', () => {
  it('handshakes: reset, version, serial, board, clock, update mode; learns the clock version', async () => {
    const { session, board, events, advance } = rig();
    const identity = await session.open();
    expect(identity).toMatchObject({ path: expect.any(String), version: '3.10' });
    await advance(120);
    expect(session.board).toMatchObject({ version: '3.10', serial: '01025', clockVersion: { major: 2, minor: 0 } });
    const bytes = board.commands.map((c) => (c.kind === 'board' ? c.byte : c.kind));
    expect(bytes).toEqual([0x40, 0x4d, 0x45, 0x42, 0x41, 0x43, 'clock']);
    expect(board.mode).toBe('update');
    expect(events.filter((e) => e.type === 'connection').map((e) => e.type === 'connection' && e.state)).toEqual(['connecting', 'connected']);
  });
});

describe('a DGT board known by its serial number (--device BOARD=dgt:serial=NNNNN)', () => {
  it('finds its port among several boards, and follows it to a new path after a replug', async () => {
    const scheduler = createManualScheduler(1_000);
    const ours = new VirtualDgtBoard({ scheduler, serial: '02222' });
    const other = new VirtualDgtBoard({ scheduler, serial: '01111' });
    cleanups.push(
      () => ours.dispose(),
      () => other.dispose(),
    );
    const links = new Map<string, ReturnType<typeof mockBoardLink>>();
    const plug = (board: VirtualDgtBoard, path: string) => links.set(path, mockBoardLink(board, path));
    plug(other, '/dev/ttyACM0');
    plug(ours, '/dev/ttyACM1');
    // One binding for every port, as the native one is.
    const binding = {
      list: () => SerialPortMock.binding.list(),
      open: (o: { path: string }) => links.get(o.path)!.binding.open(o as never),
    } as unknown as ConstructorParameters<typeof DgtSession>[0] extends infer O ? (O extends { binding?: infer B } ? B : never) : never;
    const session = new DgtSession({ serial: '02222', binding, scheduler, handshakeTimeoutMs: 200, reconnectInitialMs: 100 });
    cleanups.push(() => session.close());
    const states: string[] = [];
    session.subscribe((e) => e.type === 'connection' && states.push(`${e.state} ${e.detail ?? ''}`));
    expect(await session.open()).toMatchObject({ path: '/dev/ttyACM1' });
    // Unplugged; the system gives the board another name when it comes back.
    links.get('/dev/ttyACM1')!.unplug();
    links.delete('/dev/ttyACM1');
    SerialPortMock.binding.reset();
    plug(other, '/dev/ttyACM0');
    await until(() => session.connection === 'disconnected', 'the unplug');
    plug(ours, '/dev/ttyACM2');
    for (let i = 0; i < 100 && session.connection !== 'connected'; i++) {
      scheduler.advanceBy(100);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(session.connection).toBe('connected');
    expect(session.board?.path).toBe('/dev/ttyACM2');
  });
});

describe('DGT session faults (binding-mock, simulated time)', () => {
  it('finds the board by listing ports and probing them', async () => {
    const { session, link, board } = rig();
    const found = await findDgtBoards({ binding: link.binding, timeoutMs: 200 });
    expect(found.map((f) => f.path)).toContain(link.path);
    expect(found.find((f) => f.path === link.path)).toMatchObject({ dgt: { version: '3.10', serial: '01025' } });
    const auto = new DgtSession({ binding: link.binding, scheduler: session.scheduler });
    cleanups.push(() => auto.close());
    // The probe closed the port again, so the session can open it.
    expect(await auto.open()).toMatchObject({ path: link.path });
    await until(() => board.mode === 'update', 'the update mode');
  });

  it('reports garbage as counted input errors and loses no message, split or merged', async () => {
    const { session, board, events, advance, sync } = rig();
    await session.open();
    await advance(200);
    const before = events.filter((e) => e.type === 'message').length;
    board.sendGarbage([0x01, 0x02, 0x8e, 0x00]);
    board.delivery = 'split';
    board.put('e2', '.');
    board.put('e4', 'P');
    await advance(50);
    board.sendGarbage([0x7f, 0xff, 0x00, 0x05]);
    board.delivery = 'merged';
    board.put('e7', '.');
    board.put('e5', 'p');
    await advance(100);
    await sync();
    const fields = events.flatMap((e) => (e.type === 'message' && e.message.type === 'fieldUpdate' ? [`${e.message.field}${e.message.piece}`] : []));
    expect(fields).toEqual(['e2.', 'e4P', 'e7.', 'e5p']);
    expect(events.filter((e) => e.type === 'message').length - before).toBeGreaterThanOrEqual(4);
    const errors = events.flatMap((e) => (e.type === 'decodeError' ? [`${e.error.reason} ${e.error.bytes}`] : []));
    expect(errors).toEqual(['garbage 01 02', 'bad-header 8e', 'garbage 00', 'garbage 7f', 'truncated ff 00 05']);
    expect(session.decoder.stats).toMatchObject({ garbageBytes: 4, badHeaders: 1, truncated: 1 });
  });

  it('watchdog: a silent clock is polled, reported as silent, and recovers when it speaks again', async () => {
    const { session, board, events, advance } = rig();
    await session.open();
    await advance(200);
    board.clockSilent = true;
    await advance(1_000);
    expect(session.connection).toBe('connected');
    await advance(3_000);
    expect(session.connection).toBe('silent');
    const polls = board.commands.filter((c) => c.kind === 'board' && c.byte === 0x41).length;
    expect(polls).toBeGreaterThanOrEqual(2);
    board.clockSilent = false;
    await advance(1_000);
    expect(session.connection).toBe('connected');
    const states = events.flatMap((e) => (e.type === 'connection' ? [`${e.at} ${e.state}`] : []));
    expect(states).toEqual(['1000 connecting', '1000 connected', '5000 silent', '6000 connected']);
  });

  it('a board that stops answering is dropped and reconnected with backoff; the update mode is sent again', async () => {
    const { session, board, link, events, advance } = rig();
    await session.open();
    await advance(200);
    link.unplug();
    await until(() => session.connection === 'disconnected', 'the unplug');
    // Still unplugged: attempts at +500, +1000, +2000 ms (backoff) fail.
    await advance(500);
    await advance(1_000);
    link.replug();
    await advance(2_000);
    await until(() => session.connection === 'connected', 'the reconnect');
    expect(board.mode).toBe('update');
    const states = events.flatMap((e) => (e.type === 'connection' ? [e.state + (e.detail?.startsWith('reconnect failed') ? ' (failed)' : '')] : []));
    expect(states).toEqual([
      'connecting',
      'connected',
      'disconnected',
      'connecting',
      'disconnected (failed)',
      'connecting',
      'disconnected (failed)',
      'connecting',
      'connected',
    ]);
    expect(session.stats).toMatchObject({ connects: 2, disconnects: 1 });
  });

  it('the ack-paced queue never has two clock commands at the clock, however fast the host shows', async () => {
    const { session, board, advance } = rig();
    await session.open();
    await advance(200);
    for (let i = 0; i < 20; i++) {
      session.sendClock({ frame: setAndRun({ leftMs: 60_000 + i * 1000, rightMs: 60_000, run: 'pause' }), command: 0x0a, key: 'time', label: `t${i}` });
      session.sendClock({ frame: asciiText(`T${i}`), command: 0x0c, label: `text${i}` });
      await advance(30);
    }
    for (let i = 0; i < 40; i++) await advance(100);
    expect(session.clockQueue.pending).toBe(0);
    expect(board.maxOutstanding).toBe(1);
    expect(board.clock.text).toBe('T19');
    // Set-and-runs that were waiting were replaced by newer ones; every text was shown.
    expect(board.clockCommands.filter((c) => c.command === 0x0c)).toHaveLength(20);
    expect(board.clock.side('left').ms).toBe(79_000);
  });

  it('a port where no board answers fails the first open after the handshake attempts, and does not retry', async () => {
    const scheduler = createManualScheduler(0);
    SerialPortMock.binding.createPort('/dev/ttyNOBOARD');
    const session = new DgtSession({ path: '/dev/ttyNOBOARD', binding: SerialPortMock.binding, scheduler });
    cleanups.push(() => session.close());
    const opened = session.open().then(
      () => 'opened',
      (error: Error) => error.message,
    );
    for (let i = 0; i < 3; i++) {
      await until(() => scheduler.pending > 0, 'the handshake timer');
      scheduler.advanceBy(1_500);
    }
    expect(await opened).toBe('no DGT board answered on /dev/ttyNOBOARD');
    scheduler.advanceBy(60_000);
    expect(session.connection).toBe('disconnected');
    expect(session.stats.connects).toBe(0);
  });

  it('without a path and with no board anywhere, open says so', async () => {
    const session = new DgtSession({ binding: SerialPortMock.binding, scheduler: createManualScheduler(0), handshakeTimeoutMs: 50 });
    await expect(session.open()).rejects.toThrow('no DGT board answered on any serial port');
  });
});
