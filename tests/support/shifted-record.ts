// A journal record moved in time: what the rebuild bench and test use to play round 1's records again as
// a later round's (a whole event's journal without playing every round).
import type { JournalRecord } from '../../arbiter-console/index.ts';

/** Each instant of a record `shift` later, and the round it names `round` (a draft, a publish, a seat). */
export function shifted(record: JournalRecord, shift: number, round: number): JournalRecord {
  switch (record.kind) {
    case 'clock':
      return { ...record, event: { ...record.event, at: record.event.at + shift } };
    case 'scheduleStart':
      return { ...record, startAt: record.startAt + shift, at: record.at + shift };
    case 'seat':
      return { ...record, at: record.at + shift, round: { ...record.round, round } };
    case 'tournament':
      return { ...record, at: record.at + shift, action: { ...record.action, round } as typeof record.action };
    default:
      return record;
  }
}
