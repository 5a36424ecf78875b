// A board's history as the arbiter reads it in its panel: every journaled event and correction of
// that board, by whom and why (GET /api/history/BOARD).
import type { ClockEvent, EventActor } from '../../clock-engine/index.ts';
import type { Journal, JournalRecord } from '../journal/index.ts';
import type { HistoryItem } from '../contract/index.ts';

const actor = (by: EventActor): string =>
  by.kind === 'arbiter' ? `Arbiter ${by.name}` : by.kind === 'player' ? `${by.side} player` : by.kind === 'device' ? `device ${by.deviceId}` : 'console';

const minutes = (ms: number): string =>
  `${ms < 0 ? '-' : '+'}${Math.floor(Math.abs(ms) / 60_000)}:${String(Math.floor((Math.abs(ms) % 60_000) / 1000)).padStart(2, '0')}`;

function eventText(e: ClockEvent): { what: string; why?: string } {
  switch (e.type) {
    case 'addTime':
      return { what: `${minutes(e.ms)} to ${e.side}`, why: e.reason };
    case 'setTime':
      return { what: `${e.side}'s clock set to ${minutes(e.ms).slice(1)}`, why: e.reason };
    case 'setMoveCounter':
      return { what: `${e.side}'s ${e.counter} counter set to ${e.moves}`, why: e.reason };
    case 'penalty':
      return { what: `${e.offence} by ${e.offender}`, why: e.reason };
    case 'pause':
      return { what: 'paused', why: e.reason };
    case 'forfeit':
      return { what: `${e.side} forfeits`, why: e.reason };
    case 'result':
      return { what: `result ${e.result}`, why: e.termination };
    case 'press':
      return { what: `${e.side} pressed` };
    case 'boardMove':
      return { what: `${e.side} moved ${e.san}` };
    case 'boardPosition':
      return e.plies < 0
        ? { what: `${-e.plies} plies taken back`, ...(e.detail ? { why: e.detail } : {}) }
        : { what: `position ${e.fen}`, ...(e.detail ? { why: e.detail } : {}) };
    case 'drawOffer':
      return { what: `${e.side} offers a draw` };
    case 'drawAccept':
      return { what: `${e.side} accepts the draw offer` };
    case 'drawDecline':
      return { what: `${e.side} declines the draw offer` };
    case 'quickplayClaim':
      return { what: e.request === 'increment' ? `${e.side} asks for the five-second increment` : `${e.side} claims a draw (quickplay finish)` };
    case 'quickplayDecision':
      return { what: `claim decided: ${e.decision}${e.extraTime ? ' +2 min' : ''}`, why: e.reason };
    default:
      if (e.type === 'flag' && (e.by.kind === 'arbiter' || e.by.kind === 'player')) return { what: `${e.side}'s flag claimed` };
      return { what: e.type.replace(/([A-Z])/g, ' $1').toLowerCase() + ('side' in e && typeof e.side === 'string' ? ` (${e.side})` : '') };
  }
}

function item(seq: number, wallMs: number, record: JournalRecord): HistoryItem | undefined {
  if (record.kind === 'clock') {
    const text = eventText(record.event);
    return { seq, wallMs, at: record.event.at, by: actor(record.event.by), what: text.what, ...(text.why ? { why: text.why } : {}) };
  }
  if (record.kind === 'note') {
    const n = record.note;
    if (n.type === 'correction') return { seq, wallMs, at: n.at, by: n.by, what: `result corrected to ${n.result}`, why: n.reason };
    if (n.type === 'missedMoves')
      return { seq, wallMs, at: n.at, by: n.by, what: `moves entered: ${n.moves.join(' ')}`, why: 'played while the board was not read' };
    const detail = 'detail' in n && n.detail ? n.detail : undefined;
    const what =
      n.type === 'dismiss'
        ? `alert dismissed (${n.alertId.split(':')[1] ?? n.alertId})`
        : n.type === 'connection'
          ? `device ${n.state}`
          : n.type.replace(/([A-Z])/g, ' $1').toLowerCase();
    return { seq, wallMs, at: n.at, by: n.type === 'dismiss' ? 'arbiter' : 'console', what, ...(detail ? { why: detail } : {}) };
  }
  return undefined;
}

/**
 * Every journaled event and note of the board, in order; in an event journal a hall board plays one
 * game per round, so only the entries of `game` (its section and round) when given.
 */
export function boardHistory(journal: Journal, board: string, game?: { readonly section?: string; readonly round: number }): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (const e of journal.entriesOf(board, game)) {
    const h = item(e.seq, e.wallMs, e.record);
    if (h) out.push(h);
  }
  return out;
}
