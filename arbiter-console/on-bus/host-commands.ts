// An arbiter's command on its way from a console to the hall host that runs the board (docs/hall.md,
// "What a command's answer means"). Each carries an id and an absolute deadline (wall-clock ms: the
// roles of an event share NTP time). The host carries a command out at most once and never after its
// deadline: its outcome is kept under the command's id in the host's journal file, in the same SQLite
// transaction as the entries it journals, so a repeated id (a console asking again, the same request
// delivered twice, a host restarted on its journal) gets the first outcome and journals nothing.
// A console that had no answer by the deadline asks for the outcome of that id; a host that never got
// the command answers, once the deadline has passed, that it was not carried out, and keeps that as
// the id's outcome, so the command can no longer be carried out if it arrives after all.
import { z } from 'zod';
import { arbiterCommandSchema, refusal, REFUSAL_CODES, type Refusal, type RefusalCode } from '../contract/index.ts';
import type { CommandOutcome, PlayingHall } from '../hall/index.ts';
import type { Journal } from '../journal/index.ts';

const commandId = z.string().min(1).max(100);
const wallMs = z.number().int().positive();

/** What a console sends a host to have a command carried out. */
export const commandRequestSchema = z.strictObject({
  id: commandId,
  deadline: wallMs,
  command: arbiterCommandSchema,
  arbiter: z.string().min(1).max(80),
  credential: z.string().min(1).max(16).optional(),
});
export type CommandRequest = z.infer<typeof commandRequestSchema>;

/** What a console sends a host to learn what became of a command it had no answer to. */
export const outcomeQuerySchema = z.strictObject({ outcomeOf: commandId, deadline: wallMs });
export type OutcomeQuery = z.infer<typeof outcomeQuerySchema>;

/** A hall host's answer to a command: journaled (its own sequence number) or refused. */
export type HostAnswer = { readonly ok: true; readonly sourceSeq: number } | Refusal;

/** The answer to an outcome query before the command's deadline, when the host has not had the command yet. */
export type OutcomeAnswer = HostAnswer | { readonly pending: true };

const refusalSchema = z.object({
  ok: z.literal(false),
  code: z.enum([...REFUSAL_CODES] as [RefusalCode, ...RefusalCode[]]),
  reason: z.string(),
  article: z.string().optional(),
});

/** A host's answer as the console reads it off the bus: a `HostAnswer`, still pending, or `{ error }` when its handler threw. */
export const hostAnswerSchema = z.union([
  z.object({ ok: z.literal(true), sourceSeq: z.number().int().nonnegative() }),
  refusalSchema,
  z.object({ pending: z.literal(true) }),
  z.object({ error: z.string() }),
]);

const keptAnswerSchema = z.union([z.object({ ok: z.literal(true), sourceSeq: z.number().int().nonnegative() }), refusalSchema]);

const clockTime = (ms: number): string => new Date(ms).toISOString().slice(11, 23);

export interface HostCommandsOptions {
  readonly hostId: string;
  readonly hall: PlayingHall;
  readonly journal: Journal;
  readonly boards: ReadonlySet<string>;
  /** Wall-clock ms (tests inject one). */
  readonly now?: () => number;
}

/** The host's handler of its command subject: a command or an outcome query in, its answer out. */
export function hostCommands(options: HostCommandsOptions): (body: unknown) => OutcomeAnswer {
  const { hostId, hall, journal, boards } = options;
  const now = options.now ?? Date.now;
  const key = (id: string): string => `command.${id}`;
  const kept = (id: string): HostAnswer | undefined => {
    const text = journal.note(key(id));
    if (text === undefined) return undefined;
    const parsed = keptAnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as HostAnswer) : refusal('host-error', `the outcome kept for command ${id} is damaged`);
  };
  const keep = (id: string, answer: HostAnswer): HostAnswer => {
    journal.setNote(key(id), JSON.stringify(answer));
    return answer;
  };
  const tooLate = (id: string, deadline: number, at: number): HostAnswer =>
    keep(id, refusal('deadline-passed', `hall host ${hostId} had it at ${clockTime(at)} UTC, after its deadline ${clockTime(deadline)} UTC: not carried out`));

  return (body) => {
    const query = outcomeQuerySchema.safeParse(body);
    if (query.success) {
      const { outcomeOf, deadline } = query.data;
      const at = now();
      return kept(outcomeOf) ?? (at > deadline ? tooLate(outcomeOf, deadline, at) : { pending: true });
    }
    const request = commandRequestSchema.safeParse(body);
    if (!request.success)
      return refusal('malformed', `not an arbiter command: ${request.error.issues[0]!.path.join('.')}: ${request.error.issues[0]!.message}`);
    const { id, deadline, command, arbiter, credential } = request.data;
    const first = kept(id);
    if (first) return first;
    const at = now();
    if (at > deadline) return tooLate(id, deadline, at);
    if ('board' in command && !boards.has(command.board)) return keep(id, refusal('not-on-host', `board ${command.board} is not run by hall host ${hostId}`));
    let answer: HostAnswer | undefined;
    // The listeners (the outbox, the devices) are told once the transaction holding the entries and
    // the id's outcome has committed.
    hall.batch(() =>
      journal.transaction(() => {
        const outcome: CommandOutcome = hall.command(command, credential !== undefined ? { name: arbiter, credential } : arbiter);
        answer = keep(id, outcome.ok ? { ok: true, sourceSeq: journal.lastOwn() } : outcome);
      }),
    );
    return answer!;
  };
}
