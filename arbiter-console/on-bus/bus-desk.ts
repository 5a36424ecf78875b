// The tournament desk of a console on the bus (docs/hall.md, "Two consoles"). Board commands are
// ordered by the host that runs the board; the desk's commands (results, drafts, publishing, playoffs,
// byes, withdrawals) would be each console's own, and two consoles acting at once would both be
// journaled. So a desk command is written to the stream before it is journaled anywhere, with the
// sequence of the last desk record this console has read as the one JetStream must still have last
// (optimistic concurrency): of two consoles deciding on the same view, one is stored and the other is
// told its view is stale. That one reads on to the stream's last desk record and decides again: a
// record that came first and concerns the same thing (the same game's result, the same draft) refuses
// the command, saying which; otherwise the command is checked anew against the section as it now
// stands and written again. Every console then applies the desk's records in the stream's order.
import { lastSeqOn, publishIfLast, untilAnswered, type BusConnection, type BusEntry, type EventSubjects, type Outbox } from '../../bus/index.ts';
import type { HallReader } from './hall-bus.ts';
import type { CommandBy, CommandOutcome } from '../hall/index.ts';
import type { Journal, JournalEntry } from '../journal/index.ts';
import type { TournamentCommand } from '../contract/index.ts';
import type { TournamentDesk } from '../desk/index.ts';
import type { TournamentRecord } from '../contract/index.ts';
import { refusal } from '../contract/index.ts';

export interface DeskGateOptions {
  readonly bus: BusConnection;
  readonly subjects: EventSubjects;
  readonly journal: Journal;
  readonly reading: HallReader;
  readonly consoleId: string;
  readonly outbox: () => Outbox | undefined;
  /** The desk of a tournament record's section. */
  readonly deskOf: (section: string | undefined) => TournamentDesk | undefined;
  /** How long a command may take, retries included, before it is refused (default 15 s). */
  readonly timeoutMs?: number;
}

/** The source of this console's desk records: apart from its journal's own, which the outbox publishes. */
export const deskSource = (consoleId: string): string => `${consoleId}/desk`;

export interface DeskStats {
  /** Desk commands being decided now (waiting for the stream). */
  readonly inFlight: number;
  readonly carriedOut: number;
  readonly refused: number;
  /** Writes the stream refused because another console's desk record came first. */
  readonly stale: number;
}

type Heard = Omit<JournalEntry, 'seq'> & { readonly record: Extract<JournalEntry['record'], { kind: 'tournament' }> };

export class DeskGate {
  readonly #o: DeskGateOptions;
  readonly #source: string;
  #queue: Promise<unknown> = Promise.resolve();
  /** Desk records of other consoles read while a command is being decided. */
  #heard: Heard[] | undefined;
  #stats = { inFlight: 0, carriedOut: 0, refused: 0, stale: 0 };
  /** The last desk record this console is known to have read up to (the reader counts only since it started). */
  #readTo = 0;

  constructor(options: DeskGateOptions) {
    this.#o = options;
    this.#source = deskSource(options.consoleId);
  }

  /** Every entry read from the stream goes by here (the ones a command in flight must know of). */
  heard(entry: Omit<JournalEntry, 'seq'>): void {
    if (this.#heard && entry.source !== this.#source && entry.record.kind === 'tournament') this.#heard.push(entry as Heard);
  }

  /** Carries out a desk command through the stream, one at a time on this console. */
  command(desk: TournamentDesk, command: TournamentCommand, arbiter: CommandBy): Promise<CommandOutcome> {
    this.#stats.inFlight += 1;
    const run = this.#queue
      .then(() => this.#carryOut(desk, command, arbiter))
      .finally(() => (this.#stats.inFlight -= 1))
      .then((outcome) => {
        if (outcome.ok) this.#stats.carriedOut += 1;
        else this.#stats.refused += 1;
        return outcome;
      });
    this.#queue = run.catch(() => {});
    return run;
  }

  stats(): DeskStats {
    return { ...this.#stats };
  }

  async #carryOut(desk: TournamentDesk, command: TournamentCommand, arbiter: CommandBy): Promise<CommandOutcome> {
    // Settling a clock-desk contradiction writes board notes with it: this console's own, as before.
    if (command.type === 'resolveResultConflict') return desk.command(command, arbiter);
    const { bus, subjects, reading } = this.#o;
    const deadline = Date.now() + (this.#o.timeoutMs ?? 15_000);
    const left = (): number => Math.max(1, deadline - Date.now());
    const heard: Heard[] = [];
    this.#heard = heard;
    try {
      for (;;) {
        const prepared = desk.prepare(command, arbiter);
        if (!prepared.ok) return prepared;
        // This console's own records not yet in the stream would come between: they go first.
        if (!(await this.#ownPublished(left()))) return refusal('bus-away', 'the bus is away: not carried out (try again when the console hears the hall)');
        let expected = Math.max(reading.reader.lastRead(subjects.desk), this.#readTo);
        const carried: TournamentRecord[] = [];
        let stale = false;
        for (const action of prepared.actions) {
          const entry: BusEntry<JournalEntry['record']> = {
            source: this.#source,
            sourceSeq: this.#lastOwn() + 1,
            wallMs: Date.now(),
            record: desk.journalRecord(action),
          };
          const claim = await publishIfLast(bus, subjects.desk, entry, expected, left());
          if (claim.ok && !claim.duplicate) {
            reading.deliverOwn(entry);
            expected = claim.streamSeq;
            this.#readTo = claim.streamSeq;
            carried.push(action);
            continue;
          }
          if (claim.ok || claim.stale) {
            // A duplicate: an earlier write of this sequence number was stored after all (its answer
            // lost): the reader brings it, and the command is decided again on top of it.
            stale = true;
            break;
          }
          if (carried.length > 0) desk.afterCarriedOut(carried);
          return refusal(
            'bus-refused',
            `the bus did not take it (${claim.reason}): ${carried.length > 0 ? `${carried.length} of ${prepared.actions.length} carried out` : claim.unanswered ? 'not known to be carried out: look again once the console hears the hall' : 'not carried out'}`,
          );
        }
        const outcome = carried.length > 0 ? desk.afterCarriedOut(carried) : undefined;
        if (!stale) return outcome!;
        this.#stats.stale += 1;
        // Another console's desk record came first: read on to the stream's last one and decide again.
        if (!(await this.#readUpToLast(deadline)))
          return refusal('behind-bus', 'this console is behind the bus (another console wrote to the desk meanwhile): not carried out');
        const clash = heard.find((e) => this.#o.deskOf(e.record.section) === desk && concerns(command, e.record.action));
        if (clash)
          return refusal(
            'came-first',
            `${describe(clash.record.action)} came first from console ${clash.source.split('/')[0]}: not carried out (look again, then give the command anew if it still stands)`,
          );
        if (Date.now() >= deadline) return refusal('desk-busy', 'the desk is too busy on the other consoles: not carried out');
      }
    } finally {
      this.#heard = undefined;
    }
  }

  /** The reader's count, not the journal's: asked for each record written, it must not scan the journal. */
  #lastOwn(): number {
    return this.#o.reading.lastOf(this.#source);
  }

  async #ownPublished(timeoutMs: number): Promise<boolean> {
    const outbox = this.#o.outbox();
    if (!outbox) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([outbox.whenPublished(this.#o.journal.lastOwn()).then(() => true), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #readUpToLast(deadline: number): Promise<boolean> {
    const { bus, subjects, reading } = this.#o;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(1, deadline - Date.now()));
    try {
      const last = await untilAnswered('the last desk record', () => lastSeqOn(bus, subjects.stream, subjects.desk), undefined, 250, controller.signal);
      // The reader reads the whole journal in the stream's order: past `last`, it has every desk record up to it.
      while (reading.reader.position() < last) {
        if (Date.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      this.#readTo = Math.max(this.#readTo, last);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Whether a desk record another console wrote first decides what `command` was about. */
export function concerns(command: TournamentCommand, action: TournamentRecord): boolean {
  switch (command.type) {
    case 'enterResult':
    case 'confirmResult':
    case 'resolveResultConflict':
      return action.type === 'result' && action.round === command.round && action.white === command.white && action.black === command.black;
    case 'pairNextRound':
    case 'swapColours':
    case 'exchangeOpponents':
    case 'discardDraft':
    case 'publishRound':
      return action.type === 'draft' || action.type === 'draftChange' || action.type === 'discardDraft' || action.type === 'publish';
    case 'startPlayoff':
    case 'playoffResult':
    case 'decidePlayoff':
    case 'setPlayoffFormat':
      return action.type === 'playoffStart' || action.type === 'playoffResult' || action.type === 'playoffRuling' || action.type === 'playoffFormat';
    case 'requestBye':
      return action.type === 'bye' && action.round === command.round && action.player === command.player;
    case 'withdrawPlayer':
      return action.type === 'withdrawal' && action.player === command.player;
    case 'renamePlayer':
      return action.type === 'rename' && action.player === command.player;
    case 'recordNoShow':
      return (
        (action.type === 'noShow' && action.round === command.round && action.player === command.player) ||
        (action.type === 'withdrawal' && action.player === command.player)
      );
    case 'assignRating':
      return action.type === 'ratingAssigned' && action.player === command.player;
    case 'decideAppeal':
      return action.type === 'appealDecision' && action.appeal === command.appeal;
    case 'waiveFine':
      return action.type === 'waiver' && action.incident === command.incident;
    // Confirming the round skips what is confirmed meanwhile; incidents add up (one id journaled twice is one);
    // appeals too (an appeal's number is given anew).
    case 'confirmRound':
    case 'recordIncident':
    case 'lodgeAppeal':
      return false;
  }
}

/** A desk record in the arbiter's words, for a refusal. */
export function describe(action: TournamentRecord): string {
  const by = 'by' in action && typeof action.by === 'string' ? ` (${action.by})` : '';
  switch (action.type) {
    case 'result':
      return `${action.source === 'confirmed' ? 'the confirmation of' : 'the result'} ${action.result} in round ${action.round}, #${action.white} – #${action.black}${by},`;
    case 'draft':
      return `a draft of round ${action.round}${by}`;
    case 'draftChange':
      return `a change to the draft (board ${action.board}: ${action.change === 'swapColours' ? 'colours swapped' : `opponents exchanged with board ${action.otherBoard}`})${by}`;
    case 'discardDraft':
      return `the draft's discarding${by}`;
    case 'publish':
      return `the publishing of round ${action.round}${by}`;
    case 'bye':
      return `a bye for #${action.player} in round ${action.round}${by}`;
    case 'withdrawal':
      return `the withdrawal of #${action.player}${by}`;
    case 'noShow':
      return `the decision on #${action.player}'s absence in round ${action.round}${by}`;
    case 'ratingAssigned':
      return `the rating ${action.rating} for #${action.player}${by}`;
    case 'appealDecision':
      return `the decision on appeal ${action.appeal}${by}`;
    case 'waiver':
      return `the waiver of ${action.incident}'s fine${by}`;
    case 'incident':
      return `the incident ${action.id ?? `${action.offence} of #${action.player} in round ${action.round}`}${by}`;
    case 'playoffFormat':
      return `the chief arbiter's playoff format${by}`;
    default:
      return `a ${action.type} record${by}`;
  }
}
