// A console restarted mid-game with a line clock (board 1) and an Arduino clock over Firmata (board 2),
// each on a real socat pseudo-terminal pair, both host-driven (the console keeps time). Every game goes
// on from the journal, and nothing is journaled twice:
// - the line clock retransmits an event until it is acknowledged; the console that journaled a press
//   and died before its acknowledgement went out hears that press again after the restart: it
//   acknowledges it and does not act on it a second time (the journal keeps each event's boot and seq);
// - a press made on the line clock while the console was down arrives after the restart, at its instant;
// - the Arduino shows the journal's time at once and knows whose button counts: the first press after
//   the restart is the side to move's, journaled once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultFirmataPins as pin, lcdRows, systemScheduler } from '../../device-bridge/internal.ts';
import {
  ArduinoModel,
  createFirmataFirmware,
  createVirtualLineClock,
  ptySerialDevice,
  type DeviceEnd,
  type VirtualLineClock,
} from '../../simulators/internal.ts';
import { parseDeviceSpec, startConsole, type JournalRecord, type RunningConsole } from '../../arbiter-console/index.ts';
import { openPtyPair, type PtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';
import { oneSectionConsole } from './fixtures.ts';

let dir: string;
const pairs: PtyPair[] = [];
const ends: DeviceEnd[] = [];
let line: VirtualLineClock;
let arduino: ArduinoModel;
let run: RunningConsole | undefined;
let start: () => Promise<RunningConsole>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zeitnot-restart-devices-'));
  const linePair = await openPtyPair();
  const firmataPair = await openPtyPair();
  pairs.push(linePair, firmataPair);
  const lineEnd = await ptySerialDevice(linePair.b);
  const firmataEnd = await ptySerialDevice(firmataPair.b, 57_600);
  ends.push(lineEnd, firmataEnd);
  line = createVirtualLineClock({ end: lineEnd, scheduler: systemScheduler, name: 'restart-clock' });
  line.powerOn();
  arduino = new ArduinoModel();
  createFirmataFirmware(firmataEnd, arduino).powerOn();
  const devices = [parseDeviceSpec(`1=line:${linePair.a}`), parseDeviceSpec(`2=firmata:${firmataPair.a}`)];
  start = () => startConsole({ dataDir: join(dir, 'data'), port: 0, noPage: true, ...oneSectionConsole({ boards: 2 }), devices });
  run = await start();
}, 60_000);

afterAll(async () => {
  await run?.stop();
  line?.powerOff();
  for (const end of ends) await end.close();
  for (const pair of pairs) await pair.close();
  rmSync(dir, { recursive: true, force: true });
});

const records = (): JournalRecord[] => [...run!.journal.entries()].map((e) => e.record);
const presses = (board: string) => records().filter((r) => r.kind === 'clock' && r.board === board && r.event.type === 'press');
const connected = (board: string) => run!.hall.view(board)!.device?.connection === 'connected';

async function pressArduino(button: number, what: string, done: () => boolean): Promise<void> {
  arduino.drive(button, 0);
  await until(done, what);
  arduino.drive(button, undefined);
  await new Promise((resolve) => setTimeout(resolve, 50)); // johnny-five's debounce on the release
}

it('a restart continues both games from the journal: no press twice, the press made meanwhile at its instant', { timeout: 120_000 }, async () => {
  let hall = run!.hall;
  await until(() => connected('1') && connected('2'), 'both clocks connected');
  for (const board of ['1', '2']) {
    for (const side of ['white', 'black'] as const)
      hall.record({ kind: 'clock', board, event: { type: 'arrive', side, at: hall.source.now(), by: { kind: 'player', side } } });
  }
  expect(hall.command({ type: 'startAll' }, 'chief')).toMatchObject({ ok: true });
  await until(() => line.display.running === 'white' && arduino.output(pin.whiteLed) === 1, 'both clocks running for White');

  line.press('white');
  await pressArduino(pin.whiteButton, "White's press on the Arduino", () => hall.view('2')!.presses.white === 1);
  await until(() => hall.view('1')!.presses.white === 1 && line.unacknowledged === 0, "White's press on the line clock");

  // Black's press is journaled, and every acknowledgement of it is lost: the console dies before one
  // reaches the clock, which keeps sending the press again.
  line.loseAcks(1_000);
  line.press('black');
  await until(() => hall.view('1')!.presses.black === 1, "Black's press journaled");
  await new Promise((resolve) => setTimeout(resolve, 600)); // a retransmission heard by the old console
  expect(presses('1')).toHaveLength(2);
  expect(line.unacknowledged).toBe(1);
  const before = { line: hall.view('1')!, arduino: hall.view('2')! };
  await run!.stop();
  run = undefined;

  // While the console is down: White presses on the line clock (kept until acknowledged).
  line.loseAcks(0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const madeAt = { white: line.display.white };
  line.press('white');
  await new Promise((resolve) => setTimeout(resolve, 300));

  run = await start();
  hall = run.hall;
  expect(run.resumed).toBe(true);
  // The journal's games, as they stood: the line clock sends the press made meanwhile as soon as its
  // port is open again, so that one may be in already (it counts once: below).
  const restored = hall.view('1')!.presses;
  expect(restored.black).toBe(before.line.presses.black);
  expect([before.line.presses.white, before.line.presses.white + 1]).toContain(restored.white);
  expect(hall.view('2')!.presses).toEqual(before.arduino.presses);
  await until(() => connected('1') && connected('2'), 'both clocks connected again');
  // Black's press, retransmitted, is acknowledged and not acted on again; White's, made meanwhile, is.
  await until(() => hall.view('1')!.presses.white === 2 && line.unacknowledged === 0, 'the line clock caught up');
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(hall.view('1')!.presses).toEqual({ white: 2, black: 1 });
  const lineRecords = presses('1');
  expect(lineRecords).toHaveLength(3);
  const origins = lineRecords.map((r) => (r.kind === 'clock' ? `${r.origin?.boot}:${r.origin?.seq}` : ''));
  expect(new Set(origins).size).toBe(3);
  expect(lineRecords.map((r) => (r.kind === 'clock' && r.event.type === 'press' ? r.event.side : ''))).toEqual(['white', 'black', 'white']);
  // The press made while the console was down counts from the instant it was made: White's time is
  // what the clock showed then (within its display resolution and the line's delay), plus the increment.
  expect(Math.abs(hall.view('1')!.remainingMs.white - (madeAt.white + 30_000))).toBeLessThanOrEqual(1_500);
  // One start, the round's: no device start of a running game.
  expect(records().filter((r) => r.kind === 'clock' && r.board === '1' && r.event.type === 'start')).toHaveLength(1);

  // The Arduino: the journal's time on the LCD and Black's LED at once; Black's press is journaled once.
  const board2 = () => hall.boards.get('2')!;
  await until(() => arduino.output(pin.blackLed) === 1 && arduino.output(pin.whiteLed) === 0, "Black's LED after the restart");
  await until(() => arduino.lcd.rows().join('|') === lcdRows(board2().state, hall.source.now()).join('|'), 'the LCD showing the journal');
  await pressArduino(pin.blackButton, "Black's press on the Arduino after the restart", () => hall.view('2')!.presses.black === 1);
  expect(presses('2')).toHaveLength(2);
  expect(hall.view('2')!.toMove).toBe('white');
  // Nothing the engine had to ignore (a press of the side not to move, a start of a running game).
  for (const board of ['1', '2']) expect(hall.boards.get(board)!.state.alerts.filter((a) => a.code === 'ignored-event')).toEqual([]);
});
