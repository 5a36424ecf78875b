// Clock commands must be paced by their acks: a DGT XL / 3000 behind a board takes one command at a
// time, and commands sent faster produce ack errors and display glitches (picochess #142, #161).
// One command is outstanding at most; a missing or failed ack resends it, a bounded number of times.
import type { ClockAckMessage } from './messages.ts';
import { after, type Scheduler } from '../scheduler.ts';

export interface QueuedClockCommand {
  /** The bytes, or a function making them when the command is sent (set-and-run: the times of that instant). */
  readonly frame: Uint8Array | (() => Uint8Array);
  /** The clock sub-command, echoed by the ack (frame[3]). */
  readonly command: number;
  /** Commands with the same key replace a queued (unsent) one: only the newest set-and-run matters. */
  readonly key?: string;
  readonly label: string;
}

export type ClockQueueEvent =
  | { readonly type: 'sent'; readonly label: string; readonly attempt: number }
  | { readonly type: 'acked'; readonly label: string; readonly ack: ClockAckMessage; readonly latencyMs: number }
  | { readonly type: 'gaveUp'; readonly label: string; readonly reason: string };

export interface ClockQueueOptions {
  readonly scheduler: Scheduler;
  readonly write: (bytes: Uint8Array) => void;
  /** How long to wait for an ack before resending (picochess: 2 s). */
  readonly ackTimeoutMs?: number;
  /** Resends after the first try (picochess: up to 3 tries in all). */
  readonly maxRetries?: number;
  readonly onEvent?: (event: ClockQueueEvent) => void;
}

interface Outstanding {
  readonly item: QueuedClockCommand;
  attempt: number;
  sentAt: number;
  cancelTimer: () => void;
}

export class ClockCommandQueue {
  private readonly waiting: QueuedClockCommand[] = [];
  private outstanding: Outstanding | undefined;
  private paused = true;
  readonly ackTimeoutMs: number;
  readonly maxRetries: number;

  constructor(private readonly options: ClockQueueOptions) {
    this.ackTimeoutMs = options.ackTimeoutMs ?? 2000;
    this.maxRetries = options.maxRetries ?? 2;
  }

  get pending(): number {
    return this.waiting.length + (this.outstanding ? 1 : 0);
  }

  get inFlight(): QueuedClockCommand | undefined {
    return this.outstanding?.item;
  }

  enqueue(item: QueuedClockCommand): void {
    const same = item.key === undefined ? -1 : this.waiting.findIndex((w) => w.key === item.key);
    if (same >= 0) this.waiting[same] = item;
    else this.waiting.push(item);
    this.pump();
  }

  /** Acks only come in update mode: the session holds the queue until the board is in it. */
  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** On disconnect: the outstanding command will be sent again after the reconnect. */
  pause(): void {
    this.paused = true;
    const current = this.outstanding;
    if (current) {
      current.cancelTimer();
      this.waiting.unshift(current.item);
      this.outstanding = undefined;
    }
  }

  clear(): void {
    this.pause();
    this.waiting.length = 0;
  }

  /** Feeds every clock ack; returns true when it answered the outstanding command. */
  acknowledge(ack: ClockAckMessage): boolean {
    const current = this.outstanding;
    if (!current || ack.auto || ack.command !== current.item.command) return false;
    current.cancelTimer();
    this.outstanding = undefined;
    if (ack.ok) {
      this.emit({ type: 'acked', label: current.item.label, ack, latencyMs: this.options.scheduler.now() - current.sentAt });
    } else {
      this.retry(current, `ack error 0x${(ack.ack[0] ?? 0).toString(16)}`);
    }
    this.pump();
    return true;
  }

  private retry(current: Outstanding, reason: string): void {
    if (current.attempt > this.maxRetries) {
      this.emit({ type: 'gaveUp', label: current.item.label, reason });
      return;
    }
    this.send(current.item, current.attempt + 1);
  }

  private pump(): void {
    if (this.paused || this.outstanding) return;
    const next = this.waiting.shift();
    if (next) this.send(next, 1);
  }

  private send(item: QueuedClockCommand, attempt: number): void {
    const { scheduler } = this.options;
    const entry: Outstanding = { item, attempt, sentAt: scheduler.now(), cancelTimer: () => {} };
    this.outstanding = entry;
    entry.cancelTimer = after(scheduler, this.ackTimeoutMs, () => {
      if (this.outstanding !== entry) return;
      this.outstanding = undefined;
      this.retry(entry, `no ack within ${this.ackTimeoutMs} ms`);
      this.pump();
    });
    this.emit({ type: 'sent', label: item.label, attempt });
    this.options.write(typeof item.frame === 'function' ? item.frame() : item.frame);
  }

  private emit(event: ClockQueueEvent): void {
    this.options.onEvent?.(event);
  }
}
