// Players go by their pairing numbers and arbiters by their credentials, names are only shown: in each
// of the three events two entrants share a name and a third is renamed mid-event, and through the
// console (WebSocket commands, HTTP exports) pairing, seating, results and standings go to the right
// player. The team's names are unique and the journal keeps the credential of each arbiter action.

import { describe, expect, it } from 'vitest';
import { manualSource, startConsole, type RunningConsole } from '../../arbiter-console/index.ts';
import { hallBoardNumbers, loadEvent, presetJson, sectionGameConfig, type PresetName, type ZeitnotEvent } from '../../tournament/index.ts';
import { acked, ConsoleScope } from '../support/console-scope.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';

const scope = new ConsoleScope();

const TWIN = 'Alex Twin';

/** The preset with players 1 and 2 of `section` both named TWIN (with FIDE ids of their own). */
function withTwins(preset: PresetName, section: string): ZeitnotEvent {
  const json = JSON.parse(presetJson(preset)) as { sections: { id: string; players: Record<string, unknown>[] }[] };
  const players = json.sections.find((s) => s.id === section)!.players;
  players[0] = { ...players[0], name: TWIN, fideId: '1000001' };
  players[1] = { ...players[1], name: TWIN, fideId: '1000002' };
  return loadEvent(json);
}

/**
 * Plays the section's live round through the console: players arrive, the clocks start, and on each
 * hall board (found from the published pairing's board order) `winner` decides the result by pairing number.
 */
async function playRound(
  c: RunningConsole,
  chief: TestClient,
  event: ZeitnotEvent,
  section: string,
  winner: (white: number, black: number) => 'white' | 'black' | 'draw',
): Promise<void> {
  const desk = c.desks.get(section)!;
  const games = desk.pairingOf(desk.liveRound)!.games;
  const hall = hallBoardNumbers(event, section);
  await acked(chief, { type: 'arriveAll' });
  await acked(chief, { type: 'startAll', section });
  for (const [k, g] of games.entries()) {
    const w = winner(g.white, g.black);
    // A draw at move 1 is no agreement where a move rule forbids one (Cairns Cup): a draw the arbiter rules.
    await acked(chief, {
      type: 'result',
      board: String(hall[k]),
      result: w === 'white' ? '1-0' : w === 'black' ? '0-1' : '1/2-1/2',
      termination: 'normal',
      ...(w === 'draw' ? { drawBy: 'ruling' } : {}),
    });
  }
  await acked(chief, { type: 'confirmRound', section });
}

type Standing = { id: number; name: string; points: number };
async function standings(c: RunningConsole, section: string): Promise<Map<number, Standing>> {
  const body = (await (await fetch(`${c.url}/api/standings?section=${section}`)).json()) as { standings: Standing[] };
  return new Map(body.standings.map((s) => [s.id, s]));
}

const events: readonly { readonly preset: PresetName; readonly section: string }[] = [
  { preset: 'cairns-cup-2019', section: 'main' },
  { preset: 'sa-open-2009', section: 'open' },
  { preset: 'donostia-2009', section: 'diputacion-foral' },
];

describe('players by pairing number, names for display', () => {
  for (const { preset, section } of events) {
    it(`${preset}: two entrants of one name and a player renamed mid-event, paired, seated, scored and exported by id`, async () => {
      const dir = scope.dataDir('zeitnot-ids-');
      const event = withTwins(preset, section);
      const run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
      const chief = await scope.chiefOf(run);
      const desk = run.desks.get(section)!;
      await acked(chief, { type: 'pairNextRound', section });
      await acked(chief, { type: 'publishRound', section });

      // Seating: each twin on his own hall board, by pairing number (and FIDE id in the PGN).
      const seated = run.hall.seated.get(section)!;
      const boardOf = (id: number) => seated.boards.find((b) => b.whiteId === id || b.blackId === id)!;
      const [one, two] = [boardOf(1), boardOf(2)];
      expect(one.id).not.toBe(two.id);
      expect([one.white, one.black]).toContain(TWIN);
      expect([two.white, two.black]).toContain(TWIN);
      expect(desk.hallPairs.get(one.id)).toEqual({ white: one.whiteId, black: one.blackId });
      expect(desk.hallPairs.get(two.id)).toEqual({ white: two.whiteId, black: two.blackId });
      expect(desk.view('arbiter').unlinkedBoards).toEqual([]);

      // Round 1: twin 1 wins, twin 2 loses, every other game drawn.
      const opponent = (id: number, b: typeof one) => (b.whiteId === id ? b.blackId! : b.whiteId!);
      const [beaten, winner2] = [opponent(1, one), opponent(2, two)];
      await playRound(run, chief, event, section, (w, b) => (w === 1 || b === 2 ? 'white' : b === 1 || w === 2 ? 'black' : 'draw'));
      const afterOne = await standings(run, section);
      expect([1, 2, beaten, winner2].map((id) => afterOne.get(id)!.points)).toEqual([1, 0, 0, 1]);
      expect(afterOne.get(1)!.name).toBe(TWIN);
      expect(afterOne.get(2)!.name).toBe(TWIN);
      const pgn1 = await (await fetch(`${run.url}/api/pgn?section=${encodeURIComponent(section)}&round=1`)).text();
      // The PGN numbers a game by the section's board (Board, Round "R.B"), as the pairings do.
      const gameOf = (text: string, board: number | undefined) => text.split(/\n(?=\[Event )/).find((g) => g.includes(`[Board "${board}"]`))!;
      const tags = (game: string) => [...game.matchAll(/\[(Result|WhiteFideId|BlackFideId) "([^"]*)"\]/g)].map((m) => `${m[1]} ${m[2]}`);
      expect(tags(gameOf(pgn1, one.sectionBoard))).toEqual(one.whiteId === 1 ? ['Result 1-0', 'WhiteFideId 1000001'] : ['Result 0-1', 'BlackFideId 1000001']);
      expect(tags(gameOf(pgn1, two.sectionBoard))).toEqual(two.whiteId === 2 ? ['Result 0-1', 'WhiteFideId 1000002'] : ['Result 1-0', 'BlackFideId 1000002']);

      // Player 3 renamed (the chief's correction): round 2 seats, scores and exports him by number under his new name.
      const old = event.sections.find((s) => s.id === section)!.players.find((p) => p.id === 3)!.name;
      await acked(chief, { type: 'renamePlayer', section, player: 3, name: 'Chris Renamed', reason: 'name misspelt on the entry form' });
      await acked(chief, { type: 'pairNextRound', section });
      await acked(chief, { type: 'publishRound', section });
      const three = run.hall.seated.get(section)!.boards.find((b) => b.whiteId === 3 || b.blackId === 3)!;
      expect(three.whiteId === 3 ? three.white : three.black).toBe('Chris Renamed');
      const before = (await standings(run, section)).get(3)!.points;
      await playRound(run, chief, event, section, (w, b) => (w === 3 ? 'white' : b === 3 ? 'black' : 'draw'));
      const afterTwo = await standings(run, section);
      expect(afterTwo.get(3)).toMatchObject({ name: 'Chris Renamed', points: before + 1 });
      expect([...afterTwo.values()].some((s) => s.name === old)).toBe(false);
      const trf = await (await fetch(`${run.url}/api/trf?section=${section}`)).text();
      // The TRF numbers a Swiss by its own ranking: the line is player 3's by his rating.
      const rating = event.sections.find((s) => s.id === section)!.players.find((p) => p.id === 3)!.fideRating!;
      expect(trf).toMatch(new RegExp(`^001 +\\d+ +Chris Renamed +${rating} `, 'm'));
      expect(trf).not.toContain(old);
      const pairings = (await (await fetch(`${run.url}/api/pairings?section=${section}&round=1`)).json()) as {
        games: { white: { id: number; name: string } }[];
      };
      expect(pairings.games.flatMap((g) => (g.white.id === 3 ? [g.white.name] : []))).not.toContain(old);
      // The round-1 record of the hall keeps the name it was played under.
      const pgnOld = await (await fetch(`${run.url}/api/pgn?section=${encodeURIComponent(section)}&round=1`)).text();
      expect(pgnOld).toContain(old);
    });
  }

  it('a seat journaled before seats had ids is linked by name only where one player has that name', async () => {
    const dir = scope.dataDir('zeitnot-ids-legacy-');
    const event = withTwins('cairns-cup-2019', 'main');
    const run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
    const desk = run.desks.get('main')!;
    expect(desk.command({ type: 'pairNextRound', section: 'main' }, 'IA')).toMatchObject({ ok: true });
    const seated = desk.pairingOf(1)!;
    // The seat as an older console journaled it: names only.
    const legacy = seated.games.map((g, k) => {
      const name = (id: number) => event.sections[0]!.players.find((p) => p.id === id)!.name;
      return { id: String(k + 1), white: name(g.white), black: name(g.black) };
    });
    expect(desk.command({ type: 'publishRound', section: 'main' }, 'IA')).toMatchObject({ ok: true });
    const published = run.hall.seated.get('main')!;
    run.hall.seat({ ...published, boards: legacy });
    const linked = [...desk.hallPairs.values()];
    expect(linked.some((p) => p.white === 1 || p.black === 1 || p.white === 2 || p.black === 2)).toBe(false);
    expect(linked).toHaveLength(seated.games.length - 2);
    expect(desk.view('arbiter').unlinkedBoards.map((b) => [b.white, b.black].includes(TWIN))).toEqual([true, true]);
  });
});

describe("the console's clock rules", () => {
  it("seats every section of the three events with tournament/clocks.ts's one builder (the rules the Laws-edition tests fold)", async () => {
    for (const preset of ['cairns-cup-2019', 'sa-open-2009', 'donostia-2009'] as const) {
      const dir = scope.dataDir('zeitnot-ids-rules-');
      const event = loadEvent(JSON.parse(presetJson(preset)));
      const c = await startConsole({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
      try {
        for (const section of event.sections) {
          const desk = c.desks.get(section.id)!;
          expect(desk.command({ type: 'pairNextRound', section: section.id }, 'IA')).toMatchObject({ ok: true });
          expect(desk.command({ type: 'publishRound', section: section.id }, 'IA')).toMatchObject({ ok: true });
          const game = c.hall.seated.get(section.id)!.game;
          expect(game).toEqual(sectionGameConfig(event, section.id, { scheduledStart: game.scheduledStart }));
          expect(game.lateArrival).toBe('forfeit');
        }
      } finally {
        await c.stop();
      }
    }
  });
});

describe('arbiters by credential, names for display', () => {
  it('refuses a team name in use, keeps the chief from acting as a deputy, and journals the credential with each action', async () => {
    const dir = scope.dataDir('zeitnot-ids-team-');
    const run = await scope.start({ dataDir: dir, port: 0, noPage: true, event: withTwins('cairns-cup-2019', 'main'), source: manualSource(0) });
    const chief = await scope.chiefOf(run);
    await acked(chief, { type: 'defineSector', sector: 'N', name: 'North', boards: '1-3' });
    const issued = await acked(chief, { type: 'issueCredential', name: 'FA North', role: 'sector', sector: 'N' });
    expect(await sendCommand(chief, { type: 'issueCredential', name: 'FA North', role: 'deputy' } as { type: string })).toMatchObject({
      type: 'refused',
      reason: expect.stringMatching(/^the name 'FA North' is credential [a-z0-9]+'s already/),
    });
    expect(await sendCommand(chief, { type: 'issueCredential', name: ' fa north ', role: 'deputy' } as { type: string })).toMatchObject({ type: 'refused' });
    expect(await sendCommand(chief, { type: 'issueCredential', name: 'Chief Arbiter', role: 'deputy' } as { type: string })).toMatchObject({
      type: 'refused',
      reason: expect.stringContaining("the chief arbiter's already"),
    });
    const north = String(issued.token);
    const id = north.split('.')[0]!;

    // The printed token says who is at the keyboard, but not as a member of the team.
    const posing = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'FA North' });
    scope.clients.push(posing);
    expect(posing.messages[0]).toMatchObject({ type: 'error', code: 'forbidden', reason: expect.stringContaining(`credential ${id}`) });
    expect(posing.messages.some((m) => m.type === 'welcome')).toBe(false);

    await acked(chief, { type: 'pairNextRound', section: 'main' });
    await acked(chief, { type: 'publishRound', section: 'main' });
    const sector = await helloClient(run.url, { role: 'arbiter', token: north });
    scope.clients.push(sector);
    await acked(sector, { type: 'addTime', board: '2', side: 'white', ms: 60_000, reason: 'illegal move by Black' });
    await acked(chief, { type: 'addTime', board: '2', side: 'black', ms: 60_000, reason: 'illegal move by White' });
    const entries = [...run.journal.entries()].map((e) => e.record);
    const added = entries.flatMap((r) => (r.kind === 'clock' && r.event.type === 'addTime' ? [r.event.by] : []));
    expect(added).toEqual([
      { kind: 'arbiter', name: 'FA North', credential: id },
      { kind: 'arbiter', name: 'IA Chief', credential: 'chief' },
    ]);
    const desk = entries.flatMap((r) => (r.kind === 'tournament' && r.action.type !== 'open' ? [r.action] : []));
    expect(desk.map((a) => [a.type, 'by' in a ? a.by : undefined, a.credential])).toEqual([
      ['draft', 'IA Chief', 'chief'],
      ['publish', 'IA Chief', 'chief'],
    ]);
    const staff = entries.flatMap((r) => (r.kind === 'staff' ? [[r.change.type, r.by, r.credential]] : []));
    expect(staff).toEqual([
      ['defineSector', 'IA Chief', 'chief'],
      ['issueCredential', 'IA Chief', 'chief'],
    ]);
  });
});
