// The regulations' part of the section record (the chief's assigned ratings, the appeals log) from the
// desk's records. The journal keeps console times; the record keeps the event's wall times (ISO), the
// inverse of the console's own mapping of the schedule (the journal's epoch and time scale), so that
// the tournament library computes an appeal's deadline from the regulation's minutes.
import type { Appeal, SectionRecord } from '../../tournament/index.ts';
import type { DeskFace, DeskState } from './desk-state.ts';

const epochs = new WeakMap<object, { readonly epochWallMs: number; readonly scale: number }>();

/** A console time as the event's wall time (ISO). */
export function wallIso(desk: Pick<DeskFace, 'hall'>, at: number): string {
  let epoch = epochs.get(desk.hall);
  if (!epoch) {
    const meta = desk.hall.journal.meta();
    epoch = { epochWallMs: meta?.epochWallMs ?? 0, scale: meta?.scale ?? 1 };
    epochs.set(desk.hall, epoch);
  }
  return new Date(epoch.epochWallMs + at / epoch.scale).toISOString();
}

/** The appeals of the desk's records as the section record has them. */
export function appealsOf(desk: Pick<DeskFace, 'hall'>, state: DeskState): Appeal[] {
  return state.appeals.map(({ appeal, at, decision }) => ({
    id: appeal.id,
    player: appeal.player,
    round: appeal.round,
    filedAt: wallIso(desk, at),
    endedAt: wallIso(desk, appeal.endedAt),
    text: appeal.against,
    ...(appeal.fee !== undefined ? { fee: appeal.fee } : {}),
    ...(decision
      ? {
          decision: {
            upheld: decision.record.upheld,
            committee: decision.record.committee,
            reason: decision.record.reason,
            at: wallIso(desk, decision.at),
          },
        }
      : {}),
  }));
}

/** The section record's assigned ratings and appeals. */
export function regulationRecord(desk: Pick<DeskFace, 'hall'>, state: DeskState): Pick<SectionRecord, 'assignedRatings' | 'appeals'> {
  return {
    assignedRatings: [...state.ratings.values()].map((r) => ({ player: r.player, rating: r.rating, afterRound: r.afterRound })),
    appeals: appealsOf(desk, state),
  };
}
