// The console's own round model: boards with ids and players, one game config for all of them.
// Event files (tournament part) and the built-in demo are adapted to this (event-round.ts).
import type { GameConfig, TimeControl } from '../../clock-engine/index.ts';
import type { EventPlayer } from '../../tournament/index.ts';

export interface RoundBoard {
  /** Board number as the hall knows it ("1", "2", ... or "A1"). */
  readonly id: string;
  /** The players' names: display only (the page, the PGN); the desk knows the players by their ids. */
  readonly white: string;
  readonly black: string;
  /** The players' pairing numbers in the event's section (absent on a round without an event, and in journals before ids). */
  readonly whiteId?: number;
  readonly blackId?: number;
  /** Their FIDE ids, where the event file has them (the PGN's WhiteFideId and BlackFideId). */
  readonly whiteFideId?: string;
  readonly blackFideId?: string;
  /**
   * What broadcasts show of the players, as the event file had them when the round was seated: FIDE
   * rating (WhiteElo), title, federation. A record of that game, not kept in step with later changes.
   */
  readonly whiteElo?: number;
  readonly blackElo?: number;
  readonly whiteTitle?: string;
  readonly blackTitle?: string;
  readonly whiteFed?: string;
  readonly blackFed?: string;
  /** The board number in the section's own pairing (pairings, slips, the PGN's Round "R.B"), where the hall numbers it otherwise. */
  readonly sectionBoard?: number;
  /**
   * 'device': a clock in the mirror role keeps this board's time (GameConfig.timekeeper). Set from the
   * devices when the journal is created and kept in it, so a restart replays the same config.
   */
  readonly timekeeper?: 'device';
  /** The playoff game on this board (tournament/playoff.ts id), on a section's playoff boards. */
  readonly playoffGame?: string;
}

/** The section of a bare round (a round seated without an event: hall-level tests, earlier versions' single-round journals). */
export const MAIN = 'main';

export interface Round {
  /** The event's section this round belongs to (default MAIN). */
  readonly section?: string;
  readonly event: string;
  readonly site: string;
  readonly round: number;
  /** PGN Date, YYYY.MM.DD. */
  readonly date: string;
  /** Wall time of the scheduled start (ISO 8601), for "start all at the scheduled time". */
  readonly scheduledStart: string;
  /** The rules of every game of the round; `scheduledStart` in it is on the console's monotonic scale. */
  readonly game: GameConfig;
  readonly boards: readonly RoundBoard[];
}

const BOARD_ID = /^[A-Za-z0-9_.-]{1,32}$/;

/** Checks what the console relies on; throws with the first problem. */
export function checkRound(round: Round): Round {
  if (round.boards.length === 0) throw new Error('a round needs at least one board');
  const seen = new Set<string>();
  for (const board of round.boards) {
    if (!BOARD_ID.test(board.id)) throw new Error(`board id '${board.id}' must be 1-32 letters, digits, '.', '_' or '-'`);
    if (board.timekeeper !== undefined && board.timekeeper !== 'device') throw new Error(`board '${board.id}': timekeeper must be 'device' or absent`);
    if (seen.has(board.id)) throw new Error(`board id '${board.id}' is used twice`);
    seen.add(board.id);
  }
  if (round.game.timeControl.periods.length === 0) throw new Error('the time control has no period');
  if (Number.isNaN(Date.parse(round.scheduledStart))) throw new Error(`scheduled start '${round.scheduledStart}' is not a date-time`);
  return round;
}

type SeatedPlayers = Pick<
  RoundBoard,
  'white' | 'black' | 'whiteId' | 'blackId' | 'whiteFideId' | 'blackFideId' | 'whiteElo' | 'blackElo' | 'whiteTitle' | 'blackTitle' | 'whiteFed' | 'blackFed'
>;

/** A board's players as the event section has them: names to show, pairing numbers and FIDE ids to go by, what broadcasts show. */
export function seatedPlayers(white: EventPlayer, black: EventPlayer): SeatedPlayers {
  const given = <T>(key: string, value: T | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    white: white.name,
    black: black.name,
    whiteId: white.id,
    blackId: black.id,
    ...given('whiteFideId', white.fideId),
    ...given('blackFideId', black.fideId),
    ...given('whiteElo', white.fideRating),
    ...given('blackElo', black.fideRating),
    ...given('whiteTitle', white.title),
    ...given('blackTitle', black.title),
    ...given('whiteFed', white.federation),
    ...given('blackFed', black.federation),
  };
}

/** The rules of one board's game: the round's, with the board's timekeeper. */
export function boardGameConfig(game: GameConfig, board: RoundBoard): GameConfig {
  return board.timekeeper === 'device' ? { ...game, timekeeper: 'device' } : game;
}

/** The PGN `TimeControl` tag (PGN standard 9.6.1): "40/5400+30:1800+30". */
export function pgnTimeControl(tc: TimeControl): string {
  return tc.periods
    .map((p) => {
      const seconds = Math.round(p.baseMs.white / 1000);
      const inc = p.bonus.kind === 'none' ? '' : `+${Math.round(p.bonus.ms / 1000)}`;
      return `${p.moves ? `${p.moves}/` : ''}${seconds}${inc}`;
    })
    .join(':');
}
