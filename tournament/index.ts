// Public face of the tournament part: TRF, event files, round robins, results, tie-breaks,
// playoffs, fines and prizes: what other parts use. (The Swiss pairing engine has a face of its own,
// tournament/dutch/index.ts; tests reach everything through internal.ts.)
export { bergerSchedule } from './berger.ts';
export { hallBoardNumbers, type Pairing, roundBoards } from './boards.ts';
export { type GameStart, playoffGameConfig, sectionGameConfig } from './clocks.ts';
export { type EventPlayer, type EventSection, findSection, loadEvent, quickplayFinishOf, sectionRounds, type ZeitnotEvent } from './event.ts';
export {
  decidePlayoff,
  drawingOfLots,
  type FormatStage,
  type PlayoffFormat,
  type PlayoffGame,
  playoffSitting,
  type PlayoffState,
  recordPlayoffResult,
  setPlayoffFormat,
  startPlayoff,
  tiedForFirst,
} from './playoff.ts';
export { checkPlayoffFormat, type FormatProblem, playoffQualifiers } from './playoff-format.ts';
export { presetEvent, presetJson, type PresetName, presetNames } from './presets.ts';
export { type BoardResult, boardResultFromClock } from './results.ts';
export {
  appealDeadline,
  appealsLog,
  assignRating,
  clockIncidents,
  emptyRecord,
  recordNoShow,
  tiebreakRatings,
  type Appeal,
  type AppealRuling,
  type Incident,
  incidentId,
  type Offence,
  playersToPair,
  recordBoardResult,
  recordBoardResults,
  type SectionRecord,
  sectionStandings,
  sectionTrf,
  type Withdrawal,
} from './section-record.ts';
export { type ByeRequest, pairSwissRound } from './swiss.ts';
export { isTiebreakSpec, parseTiebreak } from './tiebreak-codes.ts';
export { rankStandings, tiebreakContext, type UnplayedRules } from './tiebreaks.ts';
export {
  decodeTrf,
  deductionsLine,
  exportTrf,
  parseDeductions,
  readDeductions,
  parseTrf,
  readTrf,
  standardScoring,
  TrfError,
  type TrfPlayer,
  type TrfReading,
  type TrfResultCode,
  type TrfRoundEntry,
  type TrfTournament,
} from './trf.ts';
export {
  type CrosstableRow,
  crosstableView,
  type CrosstableView,
  finesView,
  type FinesView,
  pairingsView,
  playoffView,
  type PlayoffView,
  prizesView,
  type PrizesView,
  standingsBeforeRounds,
  type StandingBeforeRound,
} from './views.ts';
export { NoValidPairingError } from './dutch/index.ts';
