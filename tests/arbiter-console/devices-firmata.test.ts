// `--device 1=firmata:PATH` end to end: the console opens a real pseudo-terminal (socat) and talks
// Firmata through johnny-five to a virtual Arduino running StandardFirmata (simulators/firmata) on the
// other end. The Arduino is host-driven (the console keeps time): a button press is a press.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFirmataPins as pin } from '../../device-bridge/internal.ts';
import { ArduinoModel, createFirmataFirmware, ptySerialDevice, type DeviceEnd } from '../../simulators/internal.ts';
import { parseDeviceSpec, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { oneSectionConsole } from './fixtures.ts';
import { until } from '../support/wait.ts';

let dir: string;
let pair: PtyPair;
let end: DeviceEnd;
let model: ArduinoModel;
let run: RunningConsole | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-firmata-console-'));
  pair = await openPtyPair();
  end = await ptySerialDevice(pair.b, 57_600);
  model = new ArduinoModel();
  createFirmataFirmware(end, model).powerOn();
  run = await startConsole({
    dataDir: join(dir, 'data'),
    port: 0,
    noPage: true,
    ...oneSectionConsole({ boards: 1 }),
    devices: [parseDeviceSpec(`1=firmata:${pair.a}`)],
  });
}, 60_000);

afterAll(async () => {
  await run?.stop();
  await end?.close();
  await pair?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an Arduino clock (Firmata) through a pseudo-terminal', () => {
  it('is host-driven: the console keeps time, a button press becomes a journaled press', { timeout: 60_000 }, async () => {
    const hall = run!.hall;
    expect(hall.boards.get('1')!.config.timekeeper).toBeUndefined();
    await until(() => hall.view('1')!.device?.connection === 'connected', 'the Arduino to connect');
    for (const side of ['white', 'black'] as const)
      hall.record({ kind: 'clock', board: '1', event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
    expect(hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
    await until(() => model.output(pin.whiteLed) === 1, "White's LED");
    model.drive(pin.whiteButton, 0);
    await until(() => hall.view('1')!.presses.white === 1, "White's press");
    model.drive(pin.whiteButton, undefined);
    expect(hall.view('1')!.toMove).toBe('black');
    const press = [...run!.journal.entries()].map((e) => e.record).find((r) => r.kind === 'clock' && r.event.type === 'press');
    expect(press).toMatchObject({ board: '1', event: { type: 'press', side: 'white', by: { kind: 'player', side: 'white' } } });
    await until(() => model.output(pin.blackLed) === 1 && model.output(pin.whiteLed) === 0, "Black's LED");
    // The console's arithmetic, not the Arduino's: 90 min − the thinking + 30 s for White's next move.
    const white = hall.view('1')!.remainingMs.white;
    expect(white).toBeGreaterThan(5_430_000);
    expect(white).toBeLessThanOrEqual(5_460_000);
  });
});
