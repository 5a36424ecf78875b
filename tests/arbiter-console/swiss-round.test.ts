// A Swiss round on the clocks from the previous round's console: its TRF (GET /api/trf) paired by
// the Dutch engine at start (a draft the clocks wait for), or its published pairing
// (GET /api/pairings?round=N) taken as it is. Real journal files, an injected clock.
import { afterEach, describe, expect, it } from 'vitest';
import { roundFromEvent, swissRoundPairing, tournamentApi, TournamentDesk, type LivePairing } from '../../arbiter-console/internal.ts';
import type { GameResult } from '../../clock-engine/index.ts';
import { pairSwissRound, pairTrf, parseTrf, type ZeitnotEvent } from '../../tournament/internal.ts';
import { testHall, type TestHall } from './fixtures.ts';
import { smallRoundRobin, smallSwiss } from './tournament-fixtures.ts';

const halls: TestHall[] = [];
afterEach(() => {
  for (const t of halls.splice(0)) t.cleanup();
});

/** A console for `round` of the section on the given pairing, as `zeitnot serve` composes it. */
function serveRound(event: ZeitnotEvent, live: LivePairing, previous?: { from: string; trf: string }): { t: TestHall; desk: TournamentDesk } {
  const t = testHall(roundFromEvent(event, { round: live.round, pairings: live, startWallMs: 10_000 }, (wallMs) => wallMs));
  halls.push(t);
  const desk = TournamentDesk.open(t.hall, { event, ...(previous ? { previous } : {}), livePairing: () => live })!;
  return { t, desk };
}

const outcome = (white: number, black: number): GameResult => (white < black ? '1-0' : black % 2 === 0 ? '0-1' : '1/2-1/2');

/** Round 1 served, published, played (results entered); the console's TRF and its desk. */
function playRoundOne(event: ZeitnotEvent): { desk: TournamentDesk; trf: string } {
  const { desk } = serveRound(event, swissRoundPairing(event, 'main', 1));
  expect(desk.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
  for (const g of desk.view('arbiter').rounds.find((r) => r.round === 1)!.games) {
    expect(desk.command({ type: 'enterResult', round: 1, white: g.white.id, black: g.black.id, result: outcome(g.white.id, g.black.id), reason: 'scoresheets' }, 'IA')).toMatchObject({ ok: true });
  }
  return { desk, trf: tournamentApi(desk, '/api/trf', new URLSearchParams())!.body as string };
}

describe('a Swiss round served from pairings', () => {
  it("puts exactly the Dutch engine's pairing of round 2 on the clocks from round 1's TRF, scores the bye, and holds the clocks until it is published", () => {
    const event = smallSwiss(5); // pairing numbers are in rating order: the TRF is the engine's input as it is
    const { trf } = playRoundOne(event);
    const engine = pairTrf(parseTrf(trf));
    expect(engine.bye).not.toBeNull();

    const live = swissRoundPairing(event, 'main', 2, { previous: { from: 'round1.trf', trf } });
    expect(live).toMatchObject({ round: 2, source: 'engine', bye: engine.bye });
    expect(live.games).toEqual(engine.boards.map((b) => ({ white: b.white, black: b.black })));

    const { t, desk } = serveRound(event, live, { from: 'round1.trf', trf });
    const name = (id: number) => event.sections[0]!.players.find((p) => p.id === id)!.name;
    expect([...t.hall.boards.values()].map((b) => [b.id, b.info.white, b.info.black])).toEqual(engine.boards.map((b, i) => [String(i + 1), name(b.white), name(b.black)]));
    // The bye is no board: scored a point in round 2 (TRF U) on top of round 1.
    const roundTwo = desk.view('spectator').rounds.find((r) => r.round === 2)!;
    expect(roundTwo).toMatchObject({ status: 'live', bye: { id: engine.bye, name: name(engine.bye!) } });
    const byeRow = desk.view('spectator').crosstable.rows.find((r) => r.id === engine.bye)!;
    const roundOnePoints = parseTrf(trf).players.find((p) => p.id === engine.bye)!.points;
    expect(byeRow.rounds[1]).toEqual({ round: 2, opponent: null, colour: null, result: 'U' });
    expect(byeRow.points).toBe(roundOnePoints + 1);
    expect(desk.view('spectator').draft).toBeUndefined();

    // Paired here: a draft the clocks wait for; it can be published, not changed or discarded.
    expect(desk.view('arbiter').draft).toMatchObject({ round: 2, bye: { id: engine.bye } });
    expect(t.hall.command({ type: 'startAll' }, 'IA')).toEqual({ ok: false, code: 'start-held', reason: 'the pairing of round 2 is a draft (paired at start): publish it on the Pairings page before the clocks start' });
    expect(desk.command({ type: 'swapColours', board: 1, reason: 'r' }, 'IA')).toMatchObject({ ok: false, reason: expect.stringContaining('is on the clocks already') });
    expect(desk.command({ type: 'discardDraft', reason: 'r' }, 'IA')).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be discarded') });
    expect(desk.view('arbiter').nextRound).toEqual({ round: 3, possible: false, why: 'the draft of round 2 is waiting: publish it' });
    expect(desk.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
    expect(desk.view('arbiter').draft).toBeUndefined();
    expect(desk.view('spectator').rounds.find((r) => r.round === 2)!.status).toBe('live');
    expect(t.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });

    // A restart rebuilds the same desk from the journal alone (no TRF, no pairing given).
    const view = desk.view('arbiter');
    t.reopen(20_000);
    const again = TournamentDesk.open(t.hall)!;
    expect(again.view('arbiter')).toEqual(view);
    expect(t.hall.startAt).toBe(10_000);
  });

  it("takes the previous console's published round as it is, the arbiter's changes included, and lets the clocks start", () => {
    const event = smallSwiss(5);
    const { desk: previous, trf: beforePairing } = playRoundOne(event);
    expect(previous.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
    expect(previous.command({ type: 'swapColours', board: 1, reason: 'colours checked by hand' }, 'IA')).toMatchObject({ ok: true });
    expect(previous.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
    const trf = tournamentApi(previous, '/api/trf', new URLSearchParams())!.body as string;
    const json = JSON.stringify(tournamentApi(previous, '/api/pairings', new URLSearchParams({ round: '2' }))!.body);

    const engine = pairTrf(parseTrf(beforePairing));
    const live = swissRoundPairing(event, 'main', 2, { previous: { from: 'round1.trf', trf }, published: { from: 'round2.json', json } });
    expect(live.source).toBe('published');
    expect(live.bye).toBe(engine.bye);
    expect(live.games[0]).toEqual({ white: engine.boards[0]!.black, black: engine.boards[0]!.white });
    expect(live.games.slice(1)).toEqual(engine.boards.slice(1).map((b) => ({ white: b.white, black: b.black })));
    // The TRF after publishing carries round 2's bye (U): the engine agrees with it.
    expect(swissRoundPairing(event, 'main', 2, { previous: { from: 'round1.trf', trf } }).bye).toBe(engine.bye);

    const { t, desk } = serveRound(event, live, { from: 'round1.trf', trf });
    expect(desk.view('arbiter').draft).toBeUndefined();
    expect([...desk.hallPairs.values()]).toEqual(live.games);
    expect(desk.view('spectator').rounds.find((r) => r.round === 2)!.bye?.id).toBe(engine.bye);
    expect(t.hall.command({ type: 'startAll' }, 'IA')).toMatchObject({ ok: true });
  });

  it('keeps a half-point bye asked for before the round was paired out of the pairing and scores it', () => {
    const event = smallSwiss(6);
    const { desk: previous } = playRoundOne(event);
    expect(previous.command({ type: 'requestBye', round: 2, player: 3, kind: 'half', reason: 'asked in writing' }, 'IA')).toMatchObject({ ok: true });
    expect(previous.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
    expect(previous.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
    const trf = tournamentApi(previous, '/api/trf', new URLSearchParams())!.body as string;
    const live = swissRoundPairing(event, 'main', 2, { previous: { from: 'round1.trf', trf } });
    expect(live.requestedByes).toEqual([{ player: 3, round: 2, kind: 'half' }]);
    expect(live.games.flatMap((g) => [g.white, g.black])).not.toContain(3);
    expect(live.games).toEqual(pairSwissRound(event, 'main', previous.record(), 2, live.requestedByes).games);
    const { desk } = serveRound(event, live, { from: 'round1.trf', trf });
    expect(desk.view('spectator').crosstable.rows.find((r) => r.id === 3)!.rounds[1]).toEqual({ round: 2, opponent: null, colour: null, result: 'H' });
  });

  it('refuses a missing, mismatched or malformed results file and a wrong published round, naming the file and the problem', () => {
    const event = smallSwiss(5);
    const { desk: previous, trf } = playRoundOne(event);
    const from = (text: string) => ({ previous: { from: 'r.trf', trf: text } });
    expect(() => swissRoundPairing(event, 'main', 2)).toThrow('round 2 of a Swiss is paired from the results of rounds 1..1: give them with --results FILE.trf');
    expect(() => swissRoundPairing(event, 'main', 3, from(trf))).toThrow('r.trf has games up to round 1 only: round 3 is paired from the results of rounds 1..2');
    expect(() => swissRoundPairing(event, 'main', 1, from(trf))).toThrow('r.trf has the games of round 1 already: it is the record for round 2, not round 1');
    expect(() => swissRoundPairing(event, 'main', 4, from(trf))).toThrow("section 'main' has rounds 1..3, not 4");
    expect(() => swissRoundPairing(smallRoundRobin(), 'main', 2, from(trf))).toThrow("section 'main' is a round robin");
    // Another section's file: a player missing, or a name the section does not have.
    expect(() => swissRoundPairing(smallSwiss(6), 'main', 2, from(trf))).toThrow("r.trf: player(s) 6 (Cairns player 06) of section 'main' are not in it");
    expect(() => swissRoundPairing(event, 'main', 2, from(trf.replace('Cairns player 02', 'Someone, Else   ')))).toThrow("r.trf: player 2 (Someone, Else) is not in section 'main'");
    // Points that do not add up: the TRF parser names the line.
    const line = trf.split('\n').findIndex((l) => l.startsWith('001    1'));
    const badPoints = trf.split('\n').map((l, i) => (i === line ? `${l.slice(0, 80)}9.0${l.slice(83)}` : l)).join('\n');
    expect(() => swissRoundPairing(event, 'main', 2, from(badPoints))).toThrow(`TRF line ${line + 1}`);

    expect(previous.command({ type: 'pairNextRound' }, 'IA')).toMatchObject({ ok: true });
    const draftJson = JSON.stringify(tournamentApi(previous, '/api/pairings', new URLSearchParams({ round: '1' }))!.body);
    expect(previous.command({ type: 'publishRound' }, 'IA')).toMatchObject({ ok: true });
    const afterTrf = tournamentApi(previous, '/api/trf', new URLSearchParams())!.body as string;
    const published = tournamentApi(previous, '/api/pairings', new URLSearchParams({ round: '2' }))!.body as { round: number; section: { id: string }; bye: { id: number; name: string } | null; games: { white: { id: number; name: string } }[] };
    const take = (json: string) => swissRoundPairing(event, 'main', 2, { previous: { from: 'r.trf', trf: afterTrf }, published: { from: 'p.json', json } });
    expect(() => take('{"round":')).toThrow('p.json: not JSON');
    expect(() => take('{"round":2}')).toThrow('p.json: not a published round (GET /api/pairings?round=2): section:');
    expect(() => take(JSON.stringify({ ...published, round: 3 }))).toThrow('p.json: the pairing of round 3, not round 2');
    expect(() => take(JSON.stringify({ ...published, section: { id: 'b' } }))).toThrow("p.json: a pairing of section 'b', not 'main'");
    expect(() => take(draftJson)).toThrow('p.json: the pairing of round 1, not round 2');
    const twice = { ...published, games: [...published.games, published.games[0]] };
    expect(() => take(JSON.stringify(twice))).toThrow('is paired twice in round 2');
    expect(() => take(JSON.stringify({ ...published, bye: null }))).toThrow(`p.json: the bye of round 2 is nobody there, player ${published.bye!.id} in the results file`);
    expect(() => take(JSON.stringify({ ...published, bye: { id: 42, name: 'Stranger' } }))).toThrow("p.json: player 42 (Stranger) is not in section 'main'");
    expect(() => take(JSON.stringify({ ...published, status: 'live' }))).toThrow("p.json: round 2 is 'live' there, not published: publish it first");
  });
});
