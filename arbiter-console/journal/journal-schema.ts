// What a journal entry may hold, checked with zod when it is read back (validate at the boundary once,
// then trust typed values). Clock events are checked for their envelope here; the fold still refuses a
// malformed detail with an alert as its last line of defence.
import { z } from 'zod';
import { clockEventTypes, type ClockEvent, type GameResult } from '../../clock-engine/index.ts';
import type { DeviceOrigin } from '../../device-bridge/index.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import type { Round } from '../contract/index.ts';
import type { StaffChange } from '../contract/index.ts';
import type { TournamentRecord } from '../contract/index.ts';

/** What the console journals besides clock events: device notices and round-level decisions. */
export type ConsoleNote =
  | { readonly type: 'arbiterCall'; readonly at: number; readonly detail: string }
  | { readonly type: 'connection'; readonly at: number; readonly state: string; readonly detail?: string }
  | { readonly type: 'inputError'; readonly at: number; readonly detail: string; readonly count: number }
  | { readonly type: 'disagreement'; readonly at: number; readonly detail: string }
  | { readonly type: 'dismiss'; readonly at: number; readonly alertId: string }
  | { readonly type: 'downtime'; readonly at: number; readonly lastAt: number }
  /**
   * The arbiter entered the moves played while the board was not read (SAN, checked with chess.js from
   * the position before the stretch to the position re-read after it): the board's game is whole again.
   */
  | { readonly type: 'missedMoves'; readonly at: number; readonly moves: readonly string[]; readonly by: string; readonly credential?: string }
  /** The arbiter corrected the result of a game the clock had ended (tournament desk): the PGN's result. */
  | {
      readonly type: 'correction';
      readonly at: number;
      readonly result: GameResult;
      readonly by: string;
      readonly credential?: string;
      readonly reason: string;
    }
  /**
   * The clock ended the game with a result that contradicts the one entered on the desk (`by` entered
   * it): an alert until the arbiter keeps one of the two (a correction, or the clock's result entered).
   */
  | { readonly type: 'resultConflict'; readonly at: number; readonly clock: GameResult; readonly entered: GameResult; readonly by: string }
  /**
   * A console on the bus took a clock event of this board from a hall host that does not hold the
   * board's lease (`owner` does; none: nobody holds it): journaled in its place, never applied.
   */
  | { readonly type: 'notOwner'; readonly at: number; readonly host: string; readonly owner?: string; readonly event: string }
  /** The board's lease was handed to hall host `to` (the chief's takeover, `by`): it goes on with the game of `from`. */
  | { readonly type: 'handedOver'; readonly at: number; readonly from: string; readonly to: string; readonly by?: string };

export type JournalRecord =
  /** `origin`: the device's own number for the event (a line clock's boot and sequence number). */
  | { readonly kind: 'clock'; readonly board: string; readonly event: ClockEvent; readonly origin?: DeviceOrigin }
  | { readonly kind: 'note'; readonly board: string; readonly note: ConsoleNote }
  /** The clocks of a section's round (a bare round: the only one) are to start at `startAt` (monotonic ms). */
  | { readonly kind: 'scheduleStart'; readonly section?: string; readonly startAt: number; readonly at: number }
  /** A tournament desk action (results, pairing drafts, playoffs, incidents) of a section: tournament-desk.ts. */
  | { readonly kind: 'tournament'; readonly section?: string; readonly at: number; readonly action: TournamentRecord }
  /** A section's round goes on the hall's boards (its published pairing), replacing its previous round. */
  | { readonly kind: 'seat'; readonly at: number; readonly round: Round }
  /** The chief arbiter's team: sectors, credentials issued and revoked (team.ts); `by` who did it, with his `credential` id. */
  | { readonly kind: 'staff'; readonly at: number; readonly by: string; readonly credential?: string; readonly change: StaffChange }
  /**
   * Who owns a hall board on the bus from here on (on-bus/board-leases.ts): hall host `host`; `holders`
   * the hosts that held it before (a takeover, `by` the chief who gave it). `at`: 0, a lease is no
   * instant of a game.
   */
  | { readonly kind: 'lease'; readonly board: string; readonly host: string; readonly holders?: readonly string[]; readonly by?: string; readonly at: number };

const ms = z.number().int();
const by = z.looseObject({ kind: z.enum(['arbiter', 'player', 'device', 'system']) });
const clockEvent = z.looseObject({ type: z.enum(clockEventTypes as unknown as [string, ...string[]]), at: ms, by });
const note = z.looseObject({
  type: z.enum([
    'arbiterCall',
    'connection',
    'inputError',
    'disagreement',
    'dismiss',
    'downtime',
    'missedMoves',
    'correction',
    'resultConflict',
    'notOwner',
    'handedOver',
  ]),
  at: ms,
});
const boardId = z.string().min(1).max(32);
const roundSchema = z.looseObject({
  event: z.string(),
  round: z.number().int().min(1),
  section: z.string().optional(),
  scheduledStart: z.string(),
  game: z.looseObject({ timeControl: z.looseObject({ periods: z.array(z.unknown()) }), scheduledStart: ms }),
  boards: z.array(z.looseObject({ id: boardId, white: z.string(), black: z.string() })).min(1),
});
const tournamentAction = z.looseObject({ type: z.string().min(1) });

export const journalRecordSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('clock'),
    board: boardId,
    event: clockEvent,
    origin: z.strictObject({ boot: z.string().min(1).max(64), seq: z.number().int().min(0) }).optional(),
  }),
  z.strictObject({ kind: z.literal('note'), board: boardId, note }),
  z.strictObject({ kind: z.literal('scheduleStart'), section: z.string().optional(), startAt: ms, at: ms }),
  z.strictObject({ kind: z.literal('tournament'), section: z.string().optional(), at: ms, action: tournamentAction }),
  z.strictObject({ kind: z.literal('seat'), at: ms, round: roundSchema }),
  z.strictObject({ kind: z.literal('staff'), at: ms, by: z.string(), credential: z.string().optional(), change: z.looseObject({ type: z.string().min(1) }) }),
  z.strictObject({
    kind: z.literal('lease'),
    board: boardId,
    host: z.string().min(1).max(64),
    holders: z.array(z.string().min(1).max(64)).max(100).optional(),
    by: z.string().max(200).optional(),
    at: ms,
  }),
]);

export type ParsedRecord = { readonly ok: true; readonly record: JournalRecord } | { readonly ok: false; readonly reason: string };

export function parseJournalRecord(body: string): ParsedRecord {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = journalRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, reason: `${issue.path.join('.') || '(record)'}: ${issue.message}` };
  }
  // The schema checked the envelope each part relies on; the deeper shapes are the writers' types.
  return { ok: true, record: parsed.data as unknown as JournalRecord };
}

const metaSchema = z.looseObject({
  round: roundSchema.optional(),
  event: z.looseObject({ id: z.string(), sections: z.array(z.unknown()).min(1) }).optional(),
  epochWallMs: z.number(),
  scale: z.number().positive(),
});

export function parseMeta(text: string): { round?: Round; event?: ZeitnotEvent; epochWallMs: number; scale: number } {
  const parsed = metaSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`the journal's meta is damaged: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  return parsed.data as unknown as { round?: Round; event?: ZeitnotEvent; epochWallMs: number; scale: number };
}
