// The regulations at the desk through the console's WebSocket, on the presets they come from, across
// restarts: the SA Open's no-show withdrawn (not paired in the next rounds), the chief's rating for the
// unrated player after round 4 (the "Best under 2000" prize, his opponents' performance ratings, the
// pairing numbers frozen after round 4), and the appeals log (SA Open: 30 minutes after the game, the
// R200 fee returned when upheld, a late appeal refused; Donostia: one hour after the round, a committee
// of three from the other groups).

import { describe, expect, it } from 'vitest';
import { manualSource, type ManualSource, type RunningConsole } from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, presetEvent, type ZeitnotEvent } from '../../tournament/index.ts';
import { acked, ConsoleScope } from '../support/console-scope.ts';
import { helloClient, sendCommand, type Message, type TestClient } from '../support/ws-client.ts';

const MIN = 60_000;
const scope = new ConsoleScope();

interface Opened {
  readonly run: RunningConsole;
  readonly chief: TestClient;
  readonly source: ManualSource;
}

async function open(dir: string, event: ZeitnotEvent, at: number, token?: string): Promise<Opened & { token: string }> {
  const source = manualSource(at);
  // An arbiter entering four rounds' results in seconds: more than a person's rate.
  const run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source, server: { rateLimit: { perSecond: 10_000, burst: 10_000 } } });
  const chiefToken = token ?? run.newToken!;
  const chief = await helloClient(run.url, { role: 'arbiter', token: chiefToken, name: 'IA Chief' });
  scope.clients.push(chief);
  return { run, chief, source, token: chiefToken };
}

async function restart(o: Opened & { token: string }, dir: string, event: ZeitnotEvent): Promise<Opened & { token: string }> {
  const at = o.source.now();
  scope.closeClients();
  await scope.stop(o.run);
  return open(dir, event, at, o.token);
}

async function refused(client: TestClient, command: object, code: string): Promise<Message> {
  const answer = await sendCommand(client, command as { type: string });
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'refused', code });
  return answer;
}

type Winner = (white: number, black: number) => '1-0' | '0-1' | '1/2-1/2';

/**
 * Seats and plays the section's next round through the console: pair, publish, every player at the
 * board but `absent`, the clocks started, each game's result entered from the scoresheets (`winner`)
 * but `hold`'s (the k-th game, returned). The absent player's board waits for the default time.
 */
async function playRound(
  o: Opened,
  event: ZeitnotEvent,
  section: string,
  winner: Winner,
  options: { absent?: number; hold?: number } = {},
): Promise<{ round: number; white: number; black: number; result: string } | undefined> {
  const desk = o.run.desks.get(section)!;
  if (!desk.view('arbiter').draft) await acked(o.chief, { type: 'pairNextRound', section });
  await acked(o.chief, { type: 'publishRound', section });
  const round = desk.liveRound;
  const games = desk.pairingOf(round)!.games;
  const hall = hallBoardNumbers(event, section);
  const { absent, hold } = options;
  if (absent === undefined) await acked(o.chief, { type: 'arriveAll' });
  for (const [k, g] of absent === undefined ? [] : games.entries()) {
    for (const side of ['white', 'black'] as const) if (g[side] !== absent) await acked(o.chief, { type: 'arrive', board: String(hall[k]), side });
  }
  await acked(o.chief, { type: 'startAll', section });
  let held: { round: number; white: number; black: number; result: string } | undefined;
  for (const [k, g] of games.entries()) {
    if (g.white === absent || g.black === absent) continue;
    const game = { round, white: g.white, black: g.black, result: winner(g.white, g.black) };
    if (k === hold) held = game;
    else await acked(o.chief, { type: 'enterResult', section, ...game, reason: 'scoresheets signed' });
  }
  return held;
}

describe('SA Open 2009: the regulations at the desk', () => {
  it('withdraws a no-show, assigns the unrated player a rating after round 4, and keeps the appeals log, across restarts', async () => {
    const dir = scope.dataDir('zeitnot-regulations-');
    const event = presetEvent('sa-open-2009');
    let o = await open(dir, event, 0);
    const desk = () => o.run.desks.get('open')!;
    const regs = () => desk().view('arbiter').regulations;
    // The higher-rated player (lower id) wins; the unrated player 23 draws every game.
    const winner: Winner = (w, b) => (w === 23 || b === 23 ? '1/2-1/2' : w < b ? '1-0' : '0-1');

    // Round 1: player 20 never comes; the clock forfeits him at the default time (30 minutes).
    await playRound(o, event, 'open', winner, { absent: 20 });
    o.source.advance(30 * MIN + 1);
    expect(regs().noShows).toEqual([{ round: 1, player: { id: 20, name: 'Open player 20' } }]);
    await refused(o.chief, { type: 'recordNoShow', section: 'open', round: 1, player: 1, noNotification: true, reason: 'r' }, 'not-a-no-show');
    await refused(o.chief, { type: 'assignRating', section: 'open', player: 23, rating: 1900, reason: 'r' }, 'round-incomplete');
    await acked(o.chief, {
      type: 'recordNoShow',
      section: 'open',
      round: 1,
      player: 20,
      noNotification: true,
      reason: 'no call, no message by the end of the default time',
    });
    await refused(o.chief, { type: 'recordNoShow', section: 'open', round: 1, player: 20, noNotification: true, reason: 'r' }, 'already-recorded');
    expect(regs().noShows).toEqual([
      {
        round: 1,
        player: { id: 20, name: 'Open player 20' },
        decided: { withdrawn: true, fromRound: 2, reason: 'no call, no message by the end of the default time', by: 'IA Chief' },
      },
    ]);
    await acked(o.chief, { type: 'confirmRound', section: 'open' });
    await acked(o.chief, { type: 'pairNextRound', section: 'open' });

    // A restart: the withdrawal and the draft without him are rebuilt from the journal.
    o = await restart(o, dir, event);
    const draft = desk().view('arbiter').draft!;
    expect(draft.round).toBe(2);
    expect(draft.games.flatMap((g) => [g.white.id, g.black.id])).not.toContain(20);
    expect(regs().noShows![0]!.decided).toMatchObject({ withdrawn: true, fromRound: 2 });

    // Round 2: board 1's game ends; its loser appeals 29 minutes later (in time, R200 paid), its winner 31 minutes later (late).
    await playRound(o, event, 'open', winner);
    const r2 = desk()
      .view('arbiter')
      .rounds.find((r) => r.round === 2)!;
    expect(r2.notPaired).toContainEqual({ id: 20, name: 'Open player 20', why: 'withdrawn' });
    const [b1] = r2.games;
    const loser = b1!.result === '1-0' ? b1!.black.id : b1!.white.id;
    const other = loser === b1!.white.id ? b1!.black.id : b1!.white.id;
    o.source.advance(29 * MIN);
    await refused(o.chief, { type: 'lodgeAppeal', section: 'open', round: 2, player: loser, against: 'r', fee: 100 }, 'appeal-fee');
    await acked(o.chief, {
      type: 'lodgeAppeal',
      section: 'open',
      round: 2,
      player: loser,
      against: 'the arbiter refused his claim of a threefold repetition',
      fee: 200,
    });
    o.source.advance(2 * MIN);
    const late = await refused(o.chief, { type: 'lodgeAppeal', section: 'open', round: 2, player: other, against: 'the result', fee: 200 }, 'appeal-late');
    expect(late.reason).toMatch(/within 30 minutes of the end of the game/);
    await refused(
      o.chief,
      { type: 'decideAppeal', section: 'open', appeal: 'A2', upheld: true, committee: [{ name: 'A. Member' }], reason: 'r' },
      'unknown-appeal',
    );
    await acked(o.chief, {
      type: 'decideAppeal',
      section: 'open',
      appeal: 'A1',
      upheld: true,
      committee: [{ name: 'IA Committee Chair' }, { name: 'FA Member' }, { name: 'Player Representative' }],
      reason: 'the position had occurred three times with the same player to move',
    });
    await refused(o.chief, { type: 'decideAppeal', section: 'open', appeal: 'A1', upheld: false, committee: [{ name: 'X' }], reason: 'r' }, 'appeal-decided');
    const [appeal] = regs().appeals.log;
    expect(appeal).toMatchObject({
      id: 'A1',
      round: 2,
      player: { id: loser },
      fee: 200,
      by: 'IA Chief',
      feeReturned: true,
      decision: { upheld: true, by: 'IA Chief' },
    });
    expect(Date.parse(appeal!.deadline) - Date.parse(appeal!.endedAt)).toBe(30 * MIN);
    expect(Date.parse(appeal!.filedAt) - Date.parse(appeal!.endedAt)).toBe(29 * MIN);
    expect(regs().appeals.rule).toEqual({ deadlineMinutes: 30, after: 'game', fee: 200 });

    // Rounds 3 and 4; the rating waits for round 4 to be complete.
    await playRound(o, event, 'open', winner);
    const held = await playRound(o, event, 'open', winner, { hold: 0 });
    await refused(o.chief, { type: 'assignRating', section: 'open', player: 23, rating: 1900, reason: 'r' }, 'round-incomplete');
    await acked(o.chief, { type: 'enterResult', section: 'open', ...held, reason: 'scoresheets signed' });
    await refused(o.chief, { type: 'assignRating', section: 'open', player: 1, rating: 1900, reason: 'r' }, 'player-rated');

    const bestUnder2000 = () =>
      desk()
        .view('arbiter')
        .prizes.awards.find((a) => a.prize === 'Best under 2000');
    const trfNumbers = async () =>
      (await (await fetch(`${o.run.url}/api/trf?section=open`)).text())
        .split('\n')
        .filter((l) => l.startsWith('001'))
        .map((l) => l.slice(4, 8).trim() + ' ' + l.slice(14, 47).trim() + ' ' + l.slice(48, 52).trim());
    const opponents = desk()
      .view('arbiter')
      .crosstable.rows.find((r) => r.id === 23)!
      .rounds.flatMap((c) => (c.opponent === null ? [] : [c.opponent]));
    const tpr = () =>
      new Map(
        desk()
          .view('arbiter')
          .crosstable.rows.map((r) => [r.id, r.tiebreaks['TPR']]),
      );
    const before = { prize: bestUnder2000(), numbers: await trfNumbers(), tpr: tpr() };
    expect(before.prize?.player).not.toBe(23);
    await acked(o.chief, { type: 'assignRating', section: 'open', player: 23, rating: 1900, reason: 'performance over rounds 1-4, rounded' });
    expect(regs().ratings).toMatchObject({
      afterRound: 4,
      possible: true,
      unrated: [{ player: { id: 23 }, assigned: { rating: 1900, afterRound: 4, by: 'IA Chief' } }],
    });
    expect(bestUnder2000()).toMatchObject({ player: 23, amount: 1500 });
    expect(
      desk()
        .view('arbiter')
        .crosstable.rows.find((r) => r.id === 23)!.rating,
    ).toBe(1900);
    for (const id of opponents) expect(tpr().get(id), `player ${id}'s TPR`).not.toBe(before.tpr.get(id));
    // C.04.2: the pairing numbers stay as round 4 had them; the export carries the rating.
    const after = await trfNumbers();
    expect(after.map((l) => l.split(' ').slice(0, -1).join(' '))).toEqual(before.numbers.map((l) => l.split(' ').slice(0, -1).join(' ')));
    expect(after.find((l) => l.includes('Open player 23'))).toMatch(/ 1900$/);

    // Another restart: everything replayed; round 5 is paired without the withdrawn player.
    o = await restart(o, dir, event);
    expect(bestUnder2000()).toMatchObject({ player: 23 });
    expect(regs().appeals.log[0]).toMatchObject({ id: 'A1', feeReturned: true });
    expect(regs().noShows![0]!.decided).toMatchObject({ withdrawn: true });
    await acked(o.chief, { type: 'pairNextRound', section: 'open' });
    expect(
      desk()
        .view('arbiter')
        .draft!.games.flatMap((g) => [g.white.id, g.black.id]),
    ).not.toContain(20);
    // The page's view over the WebSocket carries it too.
    const sent = await o.chief.next((m) => m.type === 'tournament', 'the tournament view');
    expect(JSON.stringify(sent)).toContain('"regulations"');
  }, 60_000);
});

describe('Donostia 2009: appeals within one hour of the round, to three members of the other groups (Art. 7-8)', () => {
  it('runs the hour from the round’s last result, refuses a late appeal and a committee not of the other groups, across a restart', async () => {
    const dir = scope.dataDir('zeitnot-regulations-');
    const event = presetEvent('donostia-2009');
    const section = 'kutxa';
    let o = await open(dir, event, 0);
    const regs = () => o.run.desks.get(section)!.view('arbiter').regulations;
    expect(regs().noShows).toBeNull();
    expect(regs().ratings).toBeNull();
    await refused(o.chief, { type: 'assignRating', section, player: 3, rating: 2000, reason: 'r' }, 'no-rule');

    const held = await playRound(o, event, section, (w, b) => (w < b ? '1-0' : '1/2-1/2'), { hold: 4 });
    await refused(o.chief, { type: 'recordNoShow', section, round: 1, player: 1, noNotification: true, reason: 'r' }, 'no-rule');
    // The round has not ended while a game is still played.
    const early = await refused(o.chief, { type: 'lodgeAppeal', section, round: 1, player: held!.black, against: 'r' }, 'round-incomplete');
    expect(early.article).toBe('Donostia 2009 Art. 8');
    o.source.advance(20 * MIN);
    await acked(o.chief, { type: 'enterResult', section, ...held, reason: 'scoresheets signed' });
    o.source.advance(60 * MIN);
    await refused(o.chief, { type: 'lodgeAppeal', section, round: 1, player: 2, against: 'r', fee: 50 }, 'appeal-fee');
    await acked(o.chief, { type: 'lodgeAppeal', section, round: 1, player: held!.black, against: 'the arbiter did not stop the clocks for a claim' });
    o.source.advance(1);
    await refused(o.chief, { type: 'lodgeAppeal', section, round: 1, player: held!.white, against: 'the same game' }, 'appeal-late');

    const others = event.sections.filter((s) => s.id !== section).map((s) => ({ section: s.id, player: 1 }));
    const decide = { type: 'decideAppeal', section, appeal: 'A1', upheld: false, reason: 'the claim was not made in the form Art. 9.2 asks' };
    await refused(o.chief, { ...decide, committee: others.slice(0, 2) }, 'committee-invalid');
    await refused(o.chief, { ...decide, committee: [...others.slice(0, 2), { section, player: 5 }] }, 'committee-invalid');
    await refused(o.chief, { ...decide, committee: [...others.slice(0, 2), { section: others[0]!.section, player: 2 }] }, 'committee-invalid');
    await refused(o.chief, { ...decide, committee: [...others.slice(0, 2), { name: 'An Official' }] }, 'committee-invalid');
    await acked(o.chief, { ...decide, committee: others });

    o = await restart(o, dir, event);
    const [appeal] = regs().appeals.log;
    expect(regs().appeals.rule).toEqual({ deadlineMinutes: 60, after: 'round', committee: '3 members, one of each of the other tournaments' });
    expect(appeal).toMatchObject({
      id: 'A1',
      round: 1,
      player: { id: held!.black },
      decision: { upheld: false, committee: event.sections.filter((s) => s.id !== section).map((s) => `${s.players[0]!.name} (${s.name})`) },
    });
    expect(appeal).not.toHaveProperty('fee');
    expect(appeal).not.toHaveProperty('feeReturned');
    expect(Date.parse(appeal!.deadline) - Date.parse(appeal!.endedAt)).toBe(60 * MIN);
    expect(Date.parse(appeal!.filedAt) - Date.parse(appeal!.endedAt)).toBe(60 * MIN);
  }, 60_000);
});
