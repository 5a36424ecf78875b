// An Arduino clock through johnny-five (Firmata), where the host IS the clock: the board has the buttons,
// LEDs, buzzer and LCD; the engine keeps the time, and `show` puts it on the hardware. Given its serial
// port, the clock owns its link: after a USB glitch it opens the port again with backoff (as a DGT
// board does), builds the johnny-five parts afresh on the new link, and shows the engine's time at once.
import type Five from 'johnny-five';
import { otherSide, remainingAt, type ClockEvent, type GameState, type Side } from '../../clock-engine/index.ts';
import type { ClockDevice, DeviceConnection, DeviceListener, DeviceMessage } from '../device.ts';
import type { SerialPath } from '../line/serial-link.ts';
import { after, systemScheduler, type CancelTimer, type Scheduler } from '../scheduler.ts';
import { activeBuzzerController } from './buzzer.ts';
import { openFirmataLink } from './firmata-io.ts';
import { lcdRows, untilDisplayChange } from './lcd-layout.ts';
import { firmataPinMap, type FirmataPinMap } from './pins.ts';

type JohnnyFive = typeof Five;
let loading: Promise<JohnnyFive> | undefined;
let loaded: JohnnyFive | undefined;
/**
 * johnny-five (with its tree of modules: a quarter of a second to load) is loaded with the first
 * Arduino clock, so every zeitnot process without one starts without it.
 */
const johnnyFive = (): Promise<JohnnyFive> => (loading ??= import('johnny-five').then((m) => (loaded = m.default)));

/** What johnny-five needs of an IO object, plus the raw digital reads the clock timestamps. */
export interface FirmataIo {
  digitalRead(pin: number, callback: (value: number) => void): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface FirmataClockOptions {
  readonly boardId: string;
  /**
   * The Arduino's serial port (57600 baud unless told otherwise): the clock opens it, and opens it
   * again after an unplug. Give this or `io`.
   */
  readonly port?: SerialPath;
  /**
   * An IO object someone else owns and keeps open (a virtual board's mock-firmata IO, a link opened by
   * `openFirmataLink`): the clock cannot reopen it, so an unplug leaves it disconnected.
   */
  readonly io?: FirmataIo;
  readonly pins?: Partial<FirmataPinMap>;
  readonly scheduler?: Scheduler;
  /** Reopen the port after an unplug, waiting `firstMs`, doubling up to `maxMs`. Default 500..8000 (as DGT). */
  readonly reconnect?: { readonly firstMs: number; readonly maxMs: number };
  /** A second pause or arbiter press within this time is contact bounce, not a new press. Default 250. */
  readonly repeatGuardMs?: number;
  /** How long a notice stays on the LCD. Default 3000. */
  readonly noticeMs?: number;
  readonly flagBeepMs?: number;
  readonly arbiterBeepMs?: number;
  /** How long to wait for the board to report ready (and, with `port`, for the Firmata handshake). Default 10000. */
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

/** One connection to the board: its link and the johnny-five parts built on it. */
interface Wiring {
  readonly board: InstanceType<JohnnyFive['Board']>;
  readonly leds: { white: InstanceType<JohnnyFive['Led']>; black: InstanceType<JohnnyFive['Led']>; flag: InstanceType<JohnnyFive['Led']> };
  readonly buzzer: InstanceType<JohnnyFive['Piezo']>;
  readonly lcd: InstanceType<JohnnyFive['LCD']>;
  close(): Promise<void>;
}

export function createFirmataClock(options: FirmataClockOptions): FirmataClock {
  const { boardId } = options;
  if ((options.io === undefined) === (options.port === undefined))
    throw new TypeError(`Firmata clock ${boardId}: give its serial port or an IO object (one of them)`);
  const pins = firmataPinMap(options.pins);
  const scheduler = options.scheduler ?? systemScheduler;
  const repeatGuardMs = options.repeatGuardMs ?? 250;
  const noticeMs = options.noticeMs ?? 3000;
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  const reconnect = options.reconnect ?? { firstMs: 500, maxMs: 8000 };
  const where = options.port?.path ?? 'its IO object';
  const deviceActor = { kind: 'device', deviceId: `firmata:${boardId}` } as const;
  const listeners = new Set<DeviceListener>();

  // The instant each input pin last changed level: a press happened when the contacts settled, not when
  // johnny-five's debounce timer let the event out.
  // Firmata reports a whole port at a time, so a report is an edge only for a pin whose level changed.
  const lastEdge = new Map<number, number>();
  const lastLevel = new Map<number, number>();
  /**
   * The buttons seen released (HIGH, pulled up) on the current link. A LOW before that is no press:
   * StandardFirmata reports a whole port as soon as its first pin is set up, and a pin of that port
   * not set up yet reads LOW; a button held down through a reconnect is not a new press either.
   */
  let released = new Set<number>();
  const watchEdges = (io: FirmataIo, seenUp: Set<number>): void => {
    const rawRead = io.digitalRead.bind(io);
    io.digitalRead = (pin, callback) =>
      rawRead(pin, (value) => {
        if (value) seenUp.add(pin);
        if (lastLevel.get(pin) !== value) {
          lastLevel.set(pin, value);
          lastEdge.set(pin, scheduler.now());
        }
        callback(value);
      });
  };

  let wiring: Wiring | undefined;
  let connection: DeviceConnection = 'disconnected';
  let closing = false;
  let attempt = 0;
  let cancelReconnect: CancelTimer | undefined;
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
  // As a DGT board's session: a repeated 'disconnected' is a new fact (another failed attempt, its cause).
  const setConnection = (state: DeviceConnection, detail?: string): void => {
    if (state === connection && state !== 'disconnected') return;
    connection = state;
    emit(detail === undefined ? { type: 'connection', state } : { type: 'connection', state, detail });
  };
  const clockEvent = (event: ClockEvent): void => emit({ type: 'clockEvent', event });

  const onPress = (button: Button, pin: number): void => {
    if (!released.has(pin)) return;
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
      wiring?.buzzer.frequency(2000, options.arbiterBeepMs ?? 300);
      showNotice('ARBITER');
    }
  };

  const showNotice = (text: string): void => {
    notice = { text, until: scheduler.now() + noticeMs };
    render();
  };

  const render = (): void => {
    scheduler.clearTimeout(refreshTimer);
    const lcd = wiring?.lcd;
    if (!lcd || !lastState) return;
    const now = scheduler.now();
    if (notice && notice.until <= now) notice = undefined;
    const rows = lcdRows(lastState, now, notice?.text);
    rows.forEach((row, index) => {
      if (row !== lcdText[index]) lcd.cursor(index, 0).print(row);
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
    const leds = wiring?.leds;
    if (leds) {
      const running = state.status === 'running' ? state.toMove : undefined;
      if (running === 'white') leds.white.on();
      else leds.white.off();
      if (running === 'black') leds.black.on();
      else leds.black.off();
      if (state.firstFlag) leds.flag.on();
      else leds.flag.off();
    }
    if (!flaggedBefore && state.firstFlag) wiring?.buzzer.frequency(2000, options.flagBeepMs ?? 1000);
    render();
  };

  /** johnny-five's parts on a ready IO object; `lost` is told when the link goes. */
  const wire = async (io: FirmataIo, closeLink: () => Promise<void>, lost: (detail: string) => void): Promise<Wiring> => {
    released = new Set();
    watchEdges(io, released);
    const five = await johnnyFive();
    return new Promise((resolve, reject) => {
      const board = new five.Board({ io, id: boardId, repl: false, debug: false, sigint: false });
      let ready = false;
      const timeout = setTimeout(() => fail(new Error(`board ${boardId} did not report ready`)), readyTimeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timeout);
        forget(board);
        reject(error);
      };
      // Always listened to: an error of a link already given up (a write after the unplug) must not
      // become an unhandled 'error' event.
      board.on('error', (error: Error) => (ready ? lost(`board error: ${error.message}`) : fail(error)));
      board.once('ready', () => {
        ready = true;
        clearTimeout(timeout);
        const button = (name: Button, pin: number) => new five.Button({ pin, board, isPullup: true }).on('press', () => onPress(name, pin));
        button('white', pins.whiteButton);
        button('black', pins.blackButton);
        button('pause', pins.pauseButton);
        button('arbiter', pins.arbiterButton);
        const parts: Wiring = {
          board,
          leds: {
            white: new five.Led({ pin: pins.whiteLed, board }),
            black: new five.Led({ pin: pins.blackLed, board }),
            flag: new five.Led({ pin: pins.flagLed, board }),
          },
          buzzer: new five.Piezo({ pin: pins.buzzer, board, controller: activeBuzzerController(scheduler) }),
          lcd: new five.LCD({ controller: 'PCF8574', address: pins.lcdAddress, rows: 2, cols: 16, board }),
          close: closeLink,
        };
        board.on('close', () => lost('port closed'));
        board.on('disconnect', () => lost('board unplugged'));
        resolve(parts);
      });
    });
  };

  const connect = async (): Promise<void> => {
    setConnection('connecting', where);
    const link = options.io ? { io: options.io, close: async () => {} } : await openFirmataLink({ ...options.port!, readyTimeoutMs });
    if (closing) return link.close();
    let parts: Wiring | undefined;
    const lost = (detail: string): void => {
      if (!parts || wiring !== parts) return;
      wiring = undefined;
      forget(parts.board);
      void parts.close();
      if (closing) return;
      setConnection('disconnected', detail);
      scheduleReconnect();
    };
    try {
      parts = await wire(link.io, link.close, lost);
    } catch (error) {
      await link.close();
      throw error;
    }
    if (closing) return parts.close();
    wiring = parts;
    attempt = 0;
    // A new LCD is blank (it lost power with the board): every row is written again.
    lcdText = [];
    setConnection('connected', where);
    if (lastState) show(lastState, scheduler.now());
  };

  const scheduleReconnect = (): void => {
    // Someone else's IO object cannot be reopened from here.
    if (options.io || closing) return;
    const delay = Math.min(reconnect.maxMs, reconnect.firstMs * 2 ** attempt);
    attempt++;
    cancelReconnect?.();
    cancelReconnect = after(scheduler, delay, () => {
      cancelReconnect = undefined;
      connect().catch((error: Error) => {
        if (closing) return;
        setConnection('disconnected', `reconnect failed: ${error.message}`);
        scheduleReconnect();
      });
    });
  };

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
    /** Rejects when the first connection fails; later losses are reconnected. */
    async open() {
      closing = false;
      try {
        await connect();
      } catch (error) {
        setConnection('disconnected', (error as Error).message);
        throw new Error(`cannot open Firmata clock ${boardId}: ${(error as Error).message}`);
      }
    },
    async close() {
      closing = true;
      cancelReconnect?.();
      scheduler.clearTimeout(refreshTimer);
      const parts = wiring;
      wiring = undefined;
      if (parts) {
        parts.leds.white.off();
        parts.leds.black.off();
        parts.leds.flag.off();
        parts.buzzer.noTone();
        forget(parts.board);
        await parts.close();
      }
      if (connection !== 'disconnected') setConnection('disconnected');
    },
  };
}

/**
 * johnny-five keeps every Board it ever made in a module-level list (for components made without a
 * board); a board given up on is taken out of it, or each reconnect would keep the old link alive.
 */
function forget(board: InstanceType<JohnnyFive['Board']>): void {
  const cache = loaded?.Board.cache ?? [];
  const index = cache.indexOf(board);
  if (index !== -1) cache.splice(index, 1);
}
