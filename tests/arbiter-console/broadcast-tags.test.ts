// What a broadcast relay reads from the live PGN to know who is playing (the lichess relay matches players by
// FIDE id): ratings, titles, federations and FIDE ids from the event file, the start in UTC, and the section's
// own board number in Round "R.B" and Board, not the hall's. Checked on the SA Open's B section, whose board 1
// is a hall board of its own, through the console's HTTP feeds (live and per round), read by chess.js.

import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { manualSource } from '../../arbiter-console/index.ts';
import { findSection, hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { ConsoleScope } from '../support/console-scope.ts';
import { helloClient, sendCommand } from '../support/ws-client.ts';

const scope = new ConsoleScope();

/** Each game of a PGN file as chess.js reads its tags. */
const gamesOf = (pgn: string): Record<string, string>[] =>
  pgn
    .split(/\n(?=\[Event )/)
    .filter((g) => g.trim() !== '')
    .map((g) => {
      const chess = new Chess();
      chess.loadPgn(g);
      return chess.getHeaders() as Record<string, string>;
    });

describe('live PGN tags for broadcasts', () => {
  it('the B section board 1: Round "1.1", Board "1", Event per section, players as the event file has them', async () => {
    const dir = scope.dataDir('zeitnot-broadcast-tags-');
    const event = presetEvent('sa-open-2009');
    const run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
    const chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Chief' });
    scope.clients.push(chief);
    for (const command of [
      { type: 'pairNextRound', section: 'b' },
      { type: 'publishRound', section: 'b' },
      { type: 'pairNextRound', section: 'open' },
      { type: 'publishRound', section: 'open' },
    ]) {
      expect(await sendCommand(chief, command)).toMatchObject({ type: 'ack' });
    }
    const section = findSection(event, 'b');
    const hallOne = String(hallBoardNumbers(event, 'b')[0]);
    expect(hallOne).not.toBe('1');
    const desk = run.desks.get('b')!;
    const first = desk.pairingOf(1)!.games[0]!;
    const player = (id: number) => section.players.find((p) => p.id === id)!;
    const [white, black] = [player(first.white), player(first.black)];
    // A past event's round seated now is rescheduled to now: the start the clocks count from.
    const start = run.hall.seated.get('b')!.scheduledStart;
    expect(Date.parse(start)).toBeGreaterThan(Date.parse(section.schedule[0]!));

    const live = gamesOf(await (await fetch(`${run.url}/api/pgn/${hallOne}`)).text());
    const round = gamesOf(await (await fetch(`${run.url}/api/pgn?section=b&round=1`)).text());
    for (const tags of [live[0]!, round.find((t) => t['Board'] === '1')!]) {
      expect(tags['Round']).toBe('1.1');
      expect(tags['Board']).toBe('1');
      expect(tags['Event']).toBe(`${event.name} – ${section.name}`);
      expect([tags['White'], tags['Black']]).toEqual([white.name, black.name]);
      expect(tags['UTCDate']).toBe(start.slice(0, 10).replace(/-/g, '.'));
      expect(tags['UTCTime']).toBe(start.slice(11, 19));
      expect(tags['Date']).toBe(tags['UTCDate']);
      for (const [side, p] of [
        ['White', white],
        ['Black', black],
      ] as const) {
        expect(tags[`${side}Elo`]).toBe(p.fideRating === undefined ? undefined : String(p.fideRating));
        expect(tags[`${side}FideId`]).toBe(p.fideId);
        expect(tags[`${side}Title`]).toBe(p.title);
        expect(tags[`${side}Fed`]).toBe(p.federation);
      }
    }
    // The Open's players have FIDE ratings (one does not): every game carries them by FIDE id, none is made up.
    const open = findSection(event, 'open');
    const byName = new Map(open.players.map((p) => [p.name, p]));
    const openGames = gamesOf(await (await fetch(`${run.url}/api/pgn?section=open&round=1`)).text());
    expect(openGames).toHaveLength(run.desks.get('open')!.pairingOf(1)!.games.length);
    const elos = openGames.flatMap((t) => [
      [t['WhiteElo'], byName.get(t['White']!)!.fideRating],
      [t['BlackElo'], byName.get(t['Black']!)!.fideRating],
    ]);
    expect(elos.filter(([, rating]) => rating !== undefined).length).toBeGreaterThan(20);
    for (const [tag, rating] of elos) expect(tag).toBe(rating === undefined ? undefined : String(rating));
  });
});
