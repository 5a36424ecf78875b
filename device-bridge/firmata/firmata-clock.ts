// An Arduino clock through johnny-five (Firmata), where the host IS the clock: the board has the buttons,
// LEDs, buzzer and LCD; the engine keeps the time, and `show` puts it on the hardware.
import five from 'johnny-five';
import { otherSide, remainingAt, type ClockEvent, type GameState, type Side } from '../../clock-engine/index.ts';
import type { ClockDevice, DeviceConnection, DeviceListener, DeviceMessage } from '../device.ts';
import { systemScheduler, type Scheduler } from '../scheduler.ts';
import { activeBuzzerController } from './buzzer.ts';
import { lcdRows, untilDisplayChange } from './lcd-layout.ts';
import { firmataPinMap, type FirmataPinMap } from './pins.ts';

/** What johnny-five needs of an IO object, plus the raw digital reads the clock timestamps. */
export interface FirmataIo {
  digitalRead(pin: number, callback: (value: number) => void): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface FirmataClockOptions {
  readonly boardId: string;
  /** A firmata-io Board over a serial port (`openFirmataIo`) or a virtual board's mock-firmata IO. */
  readonly io: FirmataIo;
  readonly pins?: Partial<FirmataPinMap>;
  readonly scheduler?: Scheduler;
  /** A second pause or arbiter press within this time is contact bounce, not a new press. Default 250. */
  readonly repeatGuardMs?: number;
  /** How long a notice stays on the LCD. Default 3000. */
  readonly noticeMs?: number;
  readonly flagBeepMs?: number;
  readonly arbiterBeepMs?: number;
  /** How long to wait for the board to report ready. Default 10000. */
  readonly readyTimeoutMs?: number;
}

export interface FirmataClock extends ClockDevice {
  readonly kind: 'firmata';
  readonly role: 'host';
  readonly pins: FirmataPinMap;
  /** The rows last written to the LCD. */
  readonly lcdText: readonly string[];
}

type Button = 'white' | 'black' | 'pause' | 'arbiter';

export function createFirmataClock(options: FirmataClockOptions): FirmataClock {
  const { boardId, io } = options;
  const pins = firmataPinMap(options.pins);
  const scheduler = options.scheduler ?? systemScheduler;
  const repeatGuardMs = options.repeatGuardMs ?? 250;
  const noticeMs = options.noticeMs ?? 3000;
  const deviceActor = { kind: 'device', deviceId: `firmata:${boardId}` } as const;
  const listeners = new Set<DeviceListener>();

  // The instant each input pin last changed level: a press happened when the contacts settled, not when
  // johnny-five's debounce timer let the event out.
  // Firmata reports a whole port at a time, so a report is an edge only for a pin whose level changed.
  const lastEdge = new Map<number, number>();
  const lastLevel = new Map<number, number>();
  const rawRead = io.digitalRead.bind(io);
  io.digitalRead = (pin, callback) =>
    rawRead(pin, (value) => {
      if (lastLevel.get(pin) !== value) {
        lastLevel.set(pin, value);
        lastEdge.set(pin, scheduler.now());
      }
      callback(value);
    });

  let board: InstanceType<typeof five.Board> | undefined;
  let leds: { white: InstanceType<typeof five.Led>; black: InstanceType<typeof five.Led>; flag: InstanceType<typeof five.Led> } | undefined;
  let buzzer: InstanceType<typeof five.Piezo> | undefined;
  let lcd: InstanceType<typeof five.LCD> | undefined;
  let connection: DeviceConnection = 'disconnected';
  let lastState: GameState | undefined;
  /** Whose clock runs as far as the buttons know: the engine's answer to a press may still be on its way. */
  let expectedToMove: Side = 'white';
  let notice: { text: string; until: number } | undefined;
  let lcdText: string[] = [];
  let refreshTimer: unknown;
  const lastAccepted = new Map<Button, number>();

  const emit = (message: DeviceMessage): void => {
    for (const listener of listeners) listener(message);
  };
  const setConnection = (state: DeviceConnection, detail?: string): void => {
    if (state === connection) return;
    connection = state;
    emit(detail === undefined ? { type: 'connection', state } : { type: 'connection', state, detail });
  };
  const clockEvent = (event: ClockEvent): void => emit({ type: 'clockEvent', event });

  const onPress = (button: Button, pin: number): void => {
    const at = lastEdge.get(pin) ?? scheduler.now();
    const status = lastState?.status ?? 'waiting';
    if (button === 'white' || button === 'black') {
      if (status === 'running' && expectedToMove === button) {
        expectedToMove = otherSide(button);
        clockEvent({ type: 'press', at, by: { kind: 'player', side: button }, side: button });
      } else if (status === 'waiting' && button === 'black') {
        // As on a DGT clock, Black's button starts White's clock.
        clockEvent({ type: 'start', at, by: deviceActor });
      }
      return;
    }
    const previous = lastAccepted.get(button);
    if (previous !== undefined && at - previous < repeatGuardMs) return;
    lastAccepted.set(button, at);
    if (button === 'pause') {
      if (status === 'paused') clockEvent({ type: 'resume', at, by: deviceActor });
      else if (status === 'running') clockEvent({ type: 'pause', at, by: deviceActor, reason: 'pause button on the clock' });
    } else {
      emit({ type: 'arbiterCall', at, detail: `arbiter-call button on board ${boardId}` });
      buzzer?.frequency(2000, options.arbiterBeepMs ?? 300);
      showNotice('ARBITER');
    }
  };

  const showNotice = (text: string): void => {
    notice = { text, until: scheduler.now() + noticeMs };
    render();
  };

  const render = (): void => {
    scheduler.clearTimeout(refreshTimer);
    if (!lcd || !lastState) return;
    const now = scheduler.now();
    if (notice && notice.until <= now) notice = undefined;
    const rows = lcdRows(lastState, now, notice?.text);
    rows.forEach((row, index) => {
      if (row !== lcdText[index]) lcd?.cursor(index, 0).print(row);
    });
    lcdText = rows;
    // Refresh exactly when the running clock's display changes or the notice ends; no tick counting.
    let next = notice ? notice.until - now : Infinity;
    if (lastState.status === 'running') next = Math.min(next, untilDisplayChange(remainingAt(lastState, now)[lastState.toMove]));
    if (Number.isFinite(next)) refreshTimer = scheduler.setTimeout(render, next);
  };

  const show = (state: GameState, _now: number): void => {
    const flaggedBefore = lastState?.firstFlag !== undefined;
    lastState = state;
    expectedToMove = state.toMove;
    if (leds) {
      const running = state.status === 'running' ? state.toMove : undefined;
      if (running === 'white') leds.white.on();
      else leds.white.off();
      if (running === 'black') leds.black.on();
      else leds.black.off();
      if (state.firstFlag) leds.flag.on();
      else leds.flag.off();
    }
    if (!flaggedBefore && state.firstFlag) buzzer?.frequency(2000, options.flagBeepMs ?? 1000);
    render();
  };

  const connect = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`board ${boardId} did not report ready`)), options.readyTimeoutMs ?? 10_000);
      board = new five.Board({ io, id: boardId, repl: false, debug: false, sigint: false });
      board.once('error', (error: Error) => {
        clearTimeout(timeout);
        reject(error);
      });
      board.once('ready', () => {
        clearTimeout(timeout);
        const current = board as InstanceType<typeof five.Board>;
        const button = (name: Button, pin: number) =>
          new five.Button({ pin, board: current, isPullup: true }).on('press', () => onPress(name, pin));
        button('white', pins.whiteButton);
        button('black', pins.blackButton);
        button('pause', pins.pauseButton);
        button('arbiter', pins.arbiterButton);
        leds = {
          white: new five.Led({ pin: pins.whiteLed, board: current }),
          black: new five.Led({ pin: pins.blackLed, board: current }),
          flag: new five.Led({ pin: pins.flagLed, board: current }),
        };
        buzzer = new five.Piezo({ pin: pins.buzzer, board: current, controller: activeBuzzerController(scheduler) });
        lcd = new five.LCD({ controller: 'PCF8574', address: pins.lcdAddress, rows: 2, cols: 16, board: current });
        current.on('close', () => setConnection('disconnected', 'board closed'));
        current.on('disconnect', () => setConnection('disconnected', 'board unplugged'));
        resolve();
      });
    });

  return {
    boardId,
    kind: 'firmata',
    role: 'host',
    pins,
    get lcdText() {
      return lcdText;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    show,
    notify: showNotice,
    async open() {
      setConnection('connecting');
      try {
        await connect();
      } catch (error) {
        setConnection('disconnected', (error as Error).message);
        throw new Error(`cannot open Firmata clock ${boardId}: ${(error as Error).message}`);
      }
      setConnection('connected');
      if (lastState) show(lastState, scheduler.now());
    },
    async close() {
      scheduler.clearTimeout(refreshTimer);
      leds?.white.off();
      leds?.black.off();
      leds?.flag.off();
      buzzer?.noTone();
      setConnection('disconnected');
    },
  };
}
