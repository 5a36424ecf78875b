// Results of earlier rounds carried into a new round's console: a TRF-16 file (the previous console's
// /api/trf, or Swiss-Manager's export) read back into games and byes of the event's players.
import type { GameResult } from '../clock-engine/index.ts';
import { parseTrf, type EventSection, type TrfResultCode, type TrfTournament } from '../tournament/index.ts';
import type { TournamentRecord } from './tournament-view.ts';

type Imported = Extract<TournamentRecord, { type: 'import' }>;

const played: Partial<Record<TrfResultCode, { result: GameResult; short: boolean }>> = {
  '1': { result: '1-0', short: false },
  '0': { result: '0-1', short: false },
  '=': { result: '1/2-1/2', short: false },
  W: { result: '1-0', short: true },
  L: { result: '0-1', short: true },
  D: { result: '1/2-1/2', short: true },
};
const byeKinds: Partial<Record<TrfResultCode, 'pab' | 'full' | 'half' | 'zero'>> = { U: 'pab', F: 'full', H: 'half', Z: 'zero' };

/**
 * Each line's player of the section (TRF number to event id), whatever the file's numbering (zeitnot's
 * export numbers a Swiss by pairing numbers, Swiss-Manager by its own): the player with that FIDE id,
 * else with that name. A player the section does not have, or two lines for one player, is an error.
 */
export function sectionPlayersOf(trf: TrfTournament, section: EventSection, from: string): Map<number, number> {
  const byFideId = new Map(section.players.flatMap((p) => (p.fideId ? [[p.fideId, p] as const] : [])));
  const byName = new Map(section.players.map((p) => [p.name, p]));
  const eventId = new Map<number, number>();
  const lineOf = new Map<number, number>();
  for (const p of trf.players) {
    const player = (p.fideId ? byFideId.get(p.fideId) : undefined) ?? byName.get(p.name);
    if (!player) throw new RangeError(`${from}: player ${p.id} (${p.name}${p.fideId ? `, FIDE id ${p.fideId}` : ''}) is not in section '${section.id}'`);
    const twice = lineOf.get(player.id);
    if (twice !== undefined) throw new RangeError(`${from}: players ${twice} and ${p.id} are both '${player.name}'`);
    lineOf.set(player.id, p.id);
    eventId.set(p.id, player.id);
  }
  return eventId;
}

/**
 * The games and byes of rounds 1..`beforeRound - 1` in a TRF (players as sectionPlayersOf reads them).
 * A game the two players' lines disagree on is an error naming them.
 */
export function resultsFromTrf(text: string, section: EventSection, beforeRound: number, from: string, by: string): Imported {
  const trf = parseTrf(text);
  const eventId = sectionPlayersOf(trf, section, from);
  const lines = new Map(trf.players.map((p) => [p.id, p]));
  const games: Imported['games'][number][] = [];
  const byes: Imported['byes'][number][] = [];
  for (const p of trf.players) {
    p.rounds.slice(0, beforeRound - 1).forEach((entry, i) => {
      const round = i + 1;
      if (entry.opponent === null) {
        const kind = byeKinds[entry.result];
        if (kind && kind !== 'zero') byes.push({ round, player: eventId.get(p.id)!, kind });
        return;
      }
      if (entry.colour !== 'w') return; // each game once, from White's line
      const other = lines.get(entry.opponent)?.rounds[i];
      if (!other || other.opponent !== p.id || other.colour !== 'b') throw new RangeError(`${from}: round ${round}: ${p.id} has White against ${entry.opponent}, whose line does not say so`);
      if (entry.result === '+' || entry.result === '-') {
        const result: GameResult = entry.result === '+' ? '+--' : other.result === '+' ? '--+' : '---';
        games.push({ round, white: eventId.get(p.id)!, black: eventId.get(entry.opponent)!, result });
        return;
      }
      const game = played[entry.result];
      if (!game) throw new RangeError(`${from}: round ${round}: result '${entry.result}' of player ${p.id} is not a game result`);
      games.push({ round, white: eventId.get(p.id)!, black: eventId.get(entry.opponent)!, result: game.result, ...(game.short ? { lessThanOneMove: true } : {}) });
    });
  }
  return { type: 'import', from, games, byes, by };
}
