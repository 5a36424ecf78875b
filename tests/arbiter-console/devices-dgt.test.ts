// `--device 1=dgt:PATH` end to end: the console opens a real pseudo-terminal (socat) with the native
// serialport binding; a virtual DGT board with a DGT 3000 sits on the other end. The clock is mirrored
// (timekeeper 'device'): its presses and readings become the board's state, a clock more than 1 s away
// from the engine at a press (2 s between presses) raises the alert, and a restarted console resyncs from the clock, including a press
// made while it was down. Real time throughout (the console's own monotonic source).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClockReading } from '../../clock-engine/index.ts';
import { systemScheduler } from '../../device-bridge/internal.ts';
import { ptyBoardLink, VirtualDgtBoard, type PtyBoardLink } from '../../simulators/internal.ts';
import { parseDeviceSpec, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { oneSectionConsole } from './fixtures.ts';
import { until } from '../support/wait.ts';

let dir: string;
let pair: PtyPair;
let vboard: VirtualDgtBoard;
let link: PtyBoardLink;
let run: RunningConsole | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const start = async () =>
  startConsole({ dataDir: join(dir, 'data'), port: 0, noPage: true, ...oneSectionConsole({ boards: 1 }), devices: [parseDeviceSpec(`1=dgt:${pair.a}`)] });

/** The readings of the journal's presses on board 1, in order. */
function pressReadings(console: RunningConsole): { side: string; reading: ClockReading | undefined }[] {
  return [...console.journal.entries()].flatMap((e) =>
    e.record.kind === 'clock' && e.record.event.type === 'press' ? [{ side: e.record.event.side, reading: e.record.event.reading }] : [],
  );
}

/** What the clock shows now for White (left) and Black (right). */
const shown = () => ({ white: vboard.clock.side('left').ms, black: vboard.clock.side('right').ms });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-dgt-console-'));
  pair = await openPtyPair();
  // The DGT 3000 set to the event's control: 90 min + 30 s per move, credited at the press as the
  // engine counts it (5 400 s + the first move's 30 s).
  vboard = new VirtualDgtBoard({ scheduler: systemScheduler, leftMs: 5_430_000, rightMs: 5_430_000, incrementMs: 30_000, leverHigh: 'left' });
  link = await ptyBoardLink(vboard, pair.b);
  run = await start();
}, 60_000);

afterAll(async () => {
  await run?.stop();
  await link?.close();
  vboard?.dispose();
  await pair?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a DGT board and clock through a pseudo-terminal (mirror role)', () => {
  it('follows the clock: start, presses with the clock’s readings, and a disagreement over 1 s', { timeout: 60_000 }, async () => {
    const hall = run!.hall;
    expect(hall.boards.get('1')!.config.timekeeper).toBe('device');
    await until(() => hall.view('1')!.device?.connection === 'connected', 'the DGT board to connect');
    for (const side of ['white', 'black'] as const)
      hall.record({ kind: 'clock', board: '1', event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    vboard.clock.startStop(); // the arbiter starts the DGT clock: White's runs
    await until(() => hall.view('1')!.status === 'running', 'the start from the clock');
    await sleep(1_200);
    vboard.press('left');
    await until(() => hall.view('1')!.presses.white === 1, "White's press");
    const [white] = pressReadings(run!);
    expect(white?.reading).toBeDefined();
    // The console's clocks are the clock's reading (whole seconds as displayed).
    expect(hall.view('1')!.remainingMs).toEqual(white!.reading);
    expect(Math.abs(white!.reading!.white - shown().white)).toBeLessThanOrEqual(1_000);
    expect(white!.reading!.white).toBeGreaterThan(5_430_000); // the increment credited at the press
    expect(hall.attention()).toEqual([]);

    // Someone takes 5 s off Black's clock on the clock itself; Black's press shows it.
    await sleep(300);
    const now = shown();
    // Changed and pressed at once: the console's once-a-second check between presses must not see the
    // change first, or it would report this episode itself instead of the press.
    vboard.clock.setAndRun(now.white, now.black - 5_000, 'right', true);
    vboard.press('right');
    await until(() => hall.view('1')!.presses.black === 1, "Black's press");
    const black = pressReadings(run!)[1]!;
    expect(hall.view('1')!.remainingMs).toEqual(black.reading);
    const atPress = () => hall.attention().filter((a) => a.code === 'clock-disagrees' && a.side === 'black');
    await until(() => atPress().length === 1, 'the disagreement alert');
    expect(atPress()[0]!.message).toMatch(/clock -[45]\d\d\d ms/);

    // Between presses: Black's clock (not running) gets 10 s more by hand; nobody presses.
    await sleep(300);
    const later = shown();
    const seen = run!.journal.count();
    const between = () => hall.attention().filter((a) => a.code === 'clock-disagrees' && a.message.includes('between presses'));
    const earlier = between().length;
    vboard.clock.setAndRun(later.white, later.black + 10_000, 'left', true);
    await until(() => between().length === earlier + 1, 'the between-presses alert', 5_000);
    expect(between().at(-1)!.message).toMatch(/^between presses, black: DGT clock shows/);
    await sleep(1_200);
    const notes = [...run!.journal.entries(seen)].filter((e) => e.record.kind === 'note' && e.record.note.type === 'disagreement');
    expect(notes).toHaveLength(1);
  });

  it('after a restart on the same data directory the board resyncs from the clock, with a press made meanwhile', { timeout: 60_000 }, async () => {
    const before = run!.hall.view('1')!;
    await run!.stop();
    run = undefined;
    await sleep(500);
    vboard.press('left'); // White's second move while the console is down
    await sleep(500);
    run = await start();
    expect(run.resumed).toBe(true);
    expect(run.warnings).toEqual([]);
    const hall = run.hall;
    expect(hall.boards.get('1')!.config.timekeeper).toBe('device');
    expect(hall.view('1')!.presses).toEqual(before.presses);
    await until(() => hall.view('1')!.presses.white === 2, 'the press made while the console was down');
    const latest = pressReadings(run).at(-1)!;
    expect(latest).toMatchObject({ side: 'white' });
    expect(hall.view('1')!.remainingMs).toEqual(latest.reading);
    expect(Math.abs(latest.reading!.white - shown().white)).toBeLessThanOrEqual(1_000);
    expect(hall.view('1')!.toMove).toBe('black');
    // And it keeps following: Black's next press.
    await sleep(300);
    vboard.press('right');
    await until(() => hall.view('1')!.presses.black === 2, "Black's next press");
    expect(hall.view('1')!.remainingMs).toEqual(pressReadings(run).at(-1)!.reading);
  });
});
