// The contract as the page (web/) loads it: the types of what the server sends and accepts, and the
// pure functions the page runs (the view patch, how a board's row reads). No schema: zod stays on the server's side, out of the page's bundle
// (esbuild keeps every module a face re-exports values from, used or not).
export type { CredentialInfo } from './arbiter.ts';
export type { Attention, AttentionCode, AttentionKind, ConsoleIncident, ConsoleStatus, JournalHealth } from './attention.ts';
export { AFTER_THE_GAME, applyAttention, ATTENTION_KINDS, kindOf } from './attention.ts';
export { byHallNumber, clockText, isLow, movesToControl, statusText } from './board-text.ts';
export { COMPACT_HALL_ABOVE, MAX_FIRST_BOARDS, rowsInWindow, type HallSizes } from './first-screen.ts';
export type { HistoryItem } from './history-item.ts';
export type { ArbiterCommand, ArbiterView, BoardView, ClockReference, ConsoleCommand, RoundView, ServerMessage } from './protocol.ts';
export type { SectorView } from './staff.ts';
export type {
  DraftView,
  PairedGame,
  PlayerInRound,
  RegulationsView,
  ResultCorrection,
  RoundPairings,
  TournamentView,
  TrfImportPreview,
} from './tournament-view.ts';
export { applyViewPatch } from './view-patch.ts';
// Types of other parts the page shows, so that the page imports nothing but this file.
export type { GameResult } from '../../clock-engine/index.ts';
export type { CrosstableRow, CrosstableView, Offence, PlayoffView } from '../../tournament/index.ts';
