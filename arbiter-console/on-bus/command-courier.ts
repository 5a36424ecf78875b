// How a console carries an arbiter's command to a hall host and what it may then tell the arbiter
// (docs/hall.md, "What a command's answer means"). Each command gets an id and a deadline
// (host-commands.ts: the host carries it out once and never after the deadline), and its outcome is
// one of: carried out; not carried out (the host refused it, had it after the deadline, or the server
// delivered it to no one); or unknown: no answer by the deadline. An unknown command is never said
// to be "not carried out" by the console on its own: it stays in the queue and the console asks the
// host for the outcome of that id until the host answers, then tells the arbiter what it says.
import { randomUUID } from 'node:crypto';
import { ask, type BusConnection, type EventSubjects } from '../../bus/index.ts';
import { actingAs, type CommandBy } from '../hall/index.ts';
import { refusal, type ArbiterCommand, type Attention, type Refusal } from '../contract/index.ts';
import { hostAnswerSchema, type CommandRequest, type OutcomeQuery } from './host-commands.ts';

/** What became of a command on one host, as far as the console knows now. */
export type Delivery =
  | { readonly kind: 'carried-out'; readonly host: string; readonly sourceSeq: number }
  | { readonly kind: 'not-carried-out'; readonly host: string; readonly refusal: Refusal }
  | { readonly kind: 'unknown'; readonly host: string; readonly deadline: number; readonly settled: Promise<Settled> };
/** What the host answered at last, or (`still-unknown`) that the console stopped asking before it did. */
export type Settled = Exclude<Delivery, { kind: 'unknown' }> | { readonly kind: 'still-unknown'; readonly host: string; readonly refusal: Refusal };

/** A command whose outcome is not known yet. */
export interface PendingCommand {
  readonly id: string;
  readonly host: string;
  /** The boards it concerns (a round-wide command: every board of the host). */
  readonly boards: readonly string[];
  readonly roundWide: boolean;
  readonly alert: Attention;
}

export interface CourierOptions {
  readonly bus: BusConnection;
  readonly subjects: EventSubjects;
  readonly consoleId: string;
  /** From sending to the deadline (default 5 s). */
  readonly timeoutMs?: number;
  /** How often an unknown command's outcome is asked for (default 1 s). */
  readonly askEveryMs?: number;
  /** The hall's time (monotonic ms), for the queue item's `at`. */
  readonly hallNow: () => number;
  /** The queue items of these boards changed. */
  readonly changed: (boards: readonly string[]) => void;
  readonly warn: (message: string) => void;
}

/** How long after the deadline an answer is still awaited before the command is called unknown (the answer's way back). */
const ANSWER_GRACE_MS = 500;

const clockTime = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A command in the arbiter's words, for the queue and the answers. */
export function describeCommand(command: ArbiterCommand): string {
  const what = command.type.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return 'board' in command ? `${what} on board ${command.board}` : what;
}

export class CommandCourier {
  readonly #o: CourierOptions;
  readonly #pending = new Map<string, PendingCommand>();
  #stopped = false;

  constructor(options: CourierOptions) {
    this.#o = options;
  }

  /** The unknown command that holds back a new one for `board` on `host` (any of the host's boards when undefined). */
  pendingFor(host: string, board?: string): PendingCommand | undefined {
    for (const p of this.#pending.values()) if (p.host === host && (board === undefined || p.roundWide || p.boards.includes(board))) return p;
    return undefined;
  }

  /** The queue items of a board: its commands not known yet. */
  alertsOn(board: string): Attention[] {
    const out: Attention[] = [];
    for (const p of this.#pending.values()) if (p.alert.board === board) out.push(p.alert);
    return out;
  }

  /** The unknown command whose queue item this is. */
  byAlert(alertId: string): PendingCommand | undefined {
    for (const p of this.#pending.values()) if (p.alert.id === alertId) return p;
    return undefined;
  }

  /** A refusal of a new command held back by `pending`. */
  heldBack(pending: PendingCommand): Refusal {
    return refusal(
      'outcome-pending',
      `${pending.alert.message}: look at what hall host ${pending.host} answers (the queue shows it until then), then give the command again if it still stands`,
    );
  }

  /** Sends `command` to `host` (`boards`: what it concerns there, for the queue) and waits for its outcome until the deadline. */
  async send(host: string, command: ArbiterCommand, by: CommandBy, boards: readonly string[]): Promise<Delivery> {
    const { bus, subjects, consoleId } = this.#o;
    const timeoutMs = this.#o.timeoutMs ?? 5_000;
    const id = `${consoleId}-${randomUUID()}`;
    const sentAt = Date.now();
    const deadline = sentAt + timeoutMs;
    const { name: arbiter, credential } = actingAs(by);
    const request: CommandRequest = { id, deadline, command, arbiter, ...(credential !== undefined ? { credential } : {}) };
    const reply = await ask<unknown>(bus.nc, subjects.command(host), request, timeoutMs + ANSWER_GRACE_MS);
    // The server gave the request to no one (NATS's "no responders"): no host has it, and none can get it later.
    if (!reply.ok && reply.noResponders)
      return { kind: 'not-carried-out', host, refusal: refusal('host-unreachable', `hall host ${host} is unreachable (${reply.reason}): not carried out`) };
    const answered = reply.ok ? this.#settled(host, reply.value) : undefined;
    if (answered) return answered;
    // No answer in time, or one the console cannot read (the host's handler failed: its transaction
    // holds the entries and the outcome together, so asking for the outcome tells which).
    const alert: Attention = {
      id: `command-${id}`,
      board: [...boards].sort((a, b) => Number(a) - Number(b))[0] ?? '',
      code: 'command-pending',
      at: this.#o.hallNow(),
      message: `${describeCommand(command)}${'board' in command ? '' : ` on hall host ${host}`}, sent at ${clockTime(sentAt)} UTC: ${host} did not answer by its deadline ${clockTime(deadline)} UTC, so whether it is carried out is not known until ${host} answers`,
    };
    const pending: PendingCommand = { id, host, boards, roundWide: !('board' in command), alert };
    this.#pending.set(id, pending);
    this.#o.changed([alert.board]);
    const settled = this.#resolve(pending, deadline).finally(() => {
      this.#pending.delete(id);
      this.#o.changed([alert.board]);
    });
    return { kind: 'unknown', host, deadline, settled };
  }

  /** The console stops: no more asking (each unknown command stays unknown). */
  stop(): void {
    this.#stopped = true;
  }

  /** The host's answer, or undefined when it says nothing yet (pending) or cannot be read. */
  #settled(host: string, value: unknown): Exclude<Settled, { kind: 'still-unknown' }> | undefined {
    const parsed = hostAnswerSchema.safeParse(value);
    if (!parsed.success) return undefined;
    const a = parsed.data;
    if ('error' in a || 'pending' in a) return undefined;
    if (a.ok) return { kind: 'carried-out', host, sourceSeq: a.sourceSeq };
    return { kind: 'not-carried-out', host, refusal: a as Refusal };
  }

  /** Asks the host for the command's outcome until it answers one. */
  async #resolve(pending: PendingCommand, deadline: number): Promise<Settled> {
    const { bus, subjects } = this.#o;
    const every = this.#o.askEveryMs ?? 1_000;
    const query: OutcomeQuery = { outcomeOf: pending.id, deadline };
    let told = false;
    while (!this.#stopped) {
      const reply = await ask<unknown>(bus.nc, subjects.command(pending.host), query, every);
      const settled = reply.ok ? this.#settled(pending.host, reply.value) : undefined;
      if (settled) {
        this.#o.warn(
          `${pending.alert.message}: ${pending.host} answers ${settled.kind === 'carried-out' ? 'carried out' : `not carried out (${settled.refusal.code})`}`,
        );
        return settled;
      }
      if (!told) this.#o.warn(`${pending.alert.message}: asking ${pending.host} every ${every} ms`);
      told = true;
      await sleep(every);
    }
    return {
      kind: 'still-unknown',
      host: pending.host,
      refusal: refusal('outcome-unknown', `${pending.alert.message}; this console stopped before ${pending.host} answered`),
    };
  }
}
