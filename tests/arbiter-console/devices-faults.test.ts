// One device's trouble is that board's trouble: a console started with one --device path that does not
// exist and one that another program holds comes up for the board whose DGT board answers; the other
// two boards are disconnected with the cause and the fix in the journal, and are tried again, so the
// busy one connects once its port is free. Real pseudo-terminals (socat), the native binding.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { afterAll, describe, expect, it } from 'vitest';
import { systemScheduler } from '../../device-bridge/internal.ts';
import { ptyBoardLink, VirtualDgtBoard, type PtyBoardLink } from '../../simulators/internal.ts';
import { explainPortError } from '../../device-bridge/index.ts';
import { parseDeviceSpec, startConsole, type RunningConsole } from '../../arbiter-console/internal.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { oneSectionConsole } from './fixtures.ts';
import { until } from '../support/wait.ts';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const connectionNotes = (run: RunningConsole, board: string) =>
  [...run.journal.entries()].flatMap((e) =>
    e.record.kind === 'note' && e.record.board === board && e.record.note.type === 'connection' ? [e.record.note] : [],
  );

describe('a missing and a busy port at start', () => {
  it('brings the console up for the others, says why and how to fix it, and retries', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-device-faults-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const pairs: PtyPair[] = [await openPtyPair(), await openPtyPair()];
    cleanups.push(() => Promise.all(pairs.map((p) => p.close())));
    const boards: VirtualDgtBoard[] = [];
    const links: PtyBoardLink[] = [];
    cleanups.push(() => Promise.all(links.map((l) => l.close())));
    cleanups.push(() => boards.forEach((b) => b.dispose()));
    for (const pair of pairs) {
      const board = new VirtualDgtBoard({ scheduler: systemScheduler });
      boards.push(board);
      links.push(await ptyBoardLink(board, pair.b));
    }
    // Another program holds board 3's port (serialport locks it, as a second zeitnot would).
    const holder = new SerialPort({ path: pairs[1]!.a, baudRate: 9600, autoOpen: false });
    await new Promise<void>((resolve, reject) => holder.open((err) => (err ? reject(err) : resolve())));
    const missing = join(dir, 'ttyACM9');
    const run = await startConsole({
      dataDir: join(dir, 'data'),
      port: 0,
      noPage: true,
      ...oneSectionConsole({ boards: 3 }),
      devices: [parseDeviceSpec(`1=dgt:${pairs[0]!.a}`), parseDeviceSpec(`2=dgt:${missing}`), parseDeviceSpec(`3=dgt:${pairs[1]!.a}`)],
    });
    cleanups.push(() => run.stop());
    await until(() => run.hall.view('1')!.device?.connection === 'connected', 'board 1 to connect');
    expect(run.warnings.join('\n')).toMatch(/board 2: .*ttyACM9 does not exist: is the board plugged in/);
    expect(run.warnings.join('\n')).toMatch(/board 3: .* is in use by another program/);
    expect(connectionNotes(run, '2').at(-1)).toMatchObject({ state: 'disconnected', detail: expect.stringMatching(/does not exist.*trying again/) });
    expect(run.hall.attention().some((a) => a.board === '2' && a.code === 'silent-board')).toBe(true);
    // The other program lets go: the retry finds the board.
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await until(() => connectionNotes(run, '3').some((n) => n.state === 'connected'), 'board 3 to connect after its port is free', 40_000);
    expect(run.hall.view('2')!.device).toBeUndefined();
  });

  it('puts no virtual players on a board whose device is missing (--simulate all)', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-device-faults-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const run = await startConsole({
      dataDir: join(dir, 'data'),
      port: 0,
      noPage: true,
      scale: 50,
      autoStart: true,
      ...oneSectionConsole({ boards: 3 }),
      devices: [parseDeviceSpec(`2=dgt:${join(dir, 'ttyACM9')}`)],
      simulate: { boards: 'all', seed: 'missing-device', hardware: 'none' },
    });
    cleanups.push(() => run.stop());
    const presses = (board: string) =>
      [...run.journal.entries()].filter((e) => e.record.kind === 'clock' && e.record.board === board && e.record.event.type === 'press').length;
    await until(() => presses('1') >= 4 && presses('3') >= 4, 'the virtual players of boards 1 and 3 to move');
    expect(presses('2')).toBe(0);
    expect(connectionNotes(run, '2').at(-1)).toMatchObject({ state: 'disconnected' });
  });

  it('names the dialout group for a port it may not open', () => {
    expect(explainPortError('/dev/ttyACM0', new Error('Error: Permission denied, cannot open /dev/ttyACM0'))).toMatch(
      /no permission to open \/dev\/ttyACM0: add the user running zeitnot to the dialout group \(sudo usermod -aG dialout \$USER/,
    );
  });
});
