// A line-protocol clock on a real pseudo-terminal pair (socat): `--device 1=line:PATH` as the console
// opens it, with the virtual line clock (simulators) on the other end.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemScheduler } from '../../device-bridge/internal.ts';
import { createVirtualLineClock, ptySerialDevice, type DeviceEnd, type VirtualLineClock } from '../../simulators/internal.ts';
import { parseDeviceSpec, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { oneSectionConsole } from './fixtures.ts';
import { until } from '../support/wait.ts';

let dir: string;
let socat: ChildProcess;
let end: DeviceEnd;
let clock: VirtualLineClock;
let run: RunningConsole;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-dev-'));
  const host = join(dir, 'host');
  const device = join(dir, 'device');
  socat = spawn('socat', [`pty,raw,echo=0,link=${host}`, `pty,raw,echo=0,link=${device}`], { stdio: 'ignore' });
  await until(() => existsSync(host) && existsSync(device), 'both ends of the pty', 15_000, 20);
  end = await ptySerialDevice(device);
  clock = createVirtualLineClock({ end, scheduler: systemScheduler, name: 'test-clock' });
  clock.powerOn();
  run = await startConsole({
    dataDir: join(dir, 'data'),
    port: 0,
    noPage: true,
    ...oneSectionConsole({ boards: 2 }),
    devices: [parseDeviceSpec(`1=line:${host}`)],
  });
}, 60_000);

afterAll(async () => {
  await run?.stop();
  clock?.powerOff();
  await end?.close();
  socat?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('a line clock through a pseudo-terminal', () => {
  it('reports its connection, shows the engine time (host role) and turns presses into journaled events', async () => {
    const hall = run.hall;
    await until(() => hall.view('1')!.device?.connection === 'connected', 'board 1 connected', 15_000, 20);
    for (const side of ['white', 'black'] as const)
      hall.record({ kind: 'clock', board: '1', event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    expect(hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
    await until(() => clock.display.running === 'white', "White's clock running", 15_000, 20);
    clock.press('white');
    await until(() => hall.view('1')!.presses.white === 1, "White's press", 15_000, 20);
    expect(hall.view('1')!.toMove).toBe('black');
    const press = [...run.journal.entries()].map((e) => e.record).find((r) => r.kind === 'clock' && r.event.type === 'press');
    expect(press).toMatchObject({ board: '1', event: { type: 'press', side: 'white', by: { kind: 'player', side: 'white' } } });
    // Host role: the clock shows what the engine says (Black running, White's time with the increment),
    // to its display resolution, once the host's time line has arrived.
    const engineWhite = () => hall.boards.get('1')!.remainingAt(hall.source.now()).white;
    await until(
      () => clock.display.running === 'black' && Math.abs(clock.display.white - engineWhite()) < 1500,
      "Black's clock running, White's showing the engine's time",
      15_000,
      20,
    );
    expect(engineWhite()).toBe(hall.view('1')!.remainingMs.white);
  });

  it('journals garbage from the line as input errors and keeps going', async () => {
    const before = run.journal.count();
    clock.sendRaw('\u0000\u00ff garbage that is not a line\n');
    await until(
      () => [...run.journal.entries(before)].some((e) => e.record.kind === 'note' && e.record.note.type === 'inputError'),
      'the input error journaled',
      15_000,
      20,
    );
    clock.press('black');
    await until(() => run.hall.view('1')!.presses.black === 1, "Black's press", 15_000, 20);
  });
});
