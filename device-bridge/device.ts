// One vocabulary for every kind of hardware: the console sees a `ClockDevice` and never cares whether a
// board has a DGT clock, a line-protocol clock or an Arduino.
import type { ClockEvent, GameState } from '../clock-engine/index.ts';

export type DeviceKind = 'dgt' | 'line' | 'firmata';

/**
 * - 'mirror': the physical clock is the authority; its presses and flags become events with its readings.
 * - 'host': the engine is the authority; the device only displays what the engine says.
 */
export type ClockRole = 'mirror' | 'host';

export type DeviceConnection = 'connecting' | 'connected' | 'disconnected' | 'silent';

/**
 * Which of a device's own events a clock event is: a device that retransmits until acknowledged (a line
 * clock) numbers its events per boot. Journaled with the event, so that a console restarted between
 * journaling an event and acknowledging it does not act on the retransmission again.
 */
export interface DeviceOrigin {
  readonly boot: string;
  readonly seq: number;
}

export type DeviceMessage =
  /** Something for the game's clock actor, stamped from the injected monotonic source. */
  | { readonly type: 'clockEvent'; readonly event: ClockEvent; readonly origin?: DeviceOrigin }
  | { readonly type: 'connection'; readonly state: DeviceConnection; readonly detail?: string }
  /** The player or arbiter asked for attention (arbiter-call button, kings-on-centre result signal...). */
  | { readonly type: 'arbiterCall'; readonly at: number; readonly detail: string }
  /** Input that was skipped (garbage bytes, a bad line, an ambiguous board position); never acted on. */
  | { readonly type: 'inputError'; readonly at: number; readonly detail: string; readonly count: number };

export type DeviceListener = (message: DeviceMessage) => void;

export interface ClockDevice {
  /** The board this device belongs to. */
  readonly boardId: string;
  readonly kind: DeviceKind;
  readonly role: ClockRole;
  /** Returns an unsubscribe function. */
  subscribe(listener: DeviceListener): () => void;
  /** Shows the engine's state (host role: sets the times; both roles: texts, lamps, beeps as fit). */
  show(state: GameState, now: number): void;
  /**
   * A device that reads the board (DGT): the arbiter set where the pieces stand; its reading goes on
   * from there. The console journals the arbiter's command itself: the device reports no event for it.
   */
  setBoardPosition?(fen: string): void;
  /** A short notice on the device ("PAUSE", "+2 MIN", "FLAG"), where it has a display. */
  notify(text: string): void;
  open(): Promise<void>;
  close(): Promise<void>;
}
