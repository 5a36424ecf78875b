// The players' claims and offers as an arbiter records them over the WebSocket, each ruled on by the
// clock engine under the board's Laws edition and the event's rules, on the events' presets where they
// apply: the SA Open B section's Article 10.2 (Laws 2009: the player having the move, under 2:00;
// draw, postpone with or without +2 min, reject +2; the claim also a draw offer, 9.1 b 3), the Cairns
// Cup's 30-move rule (an offer and a ½-½ result at move 10 refused, at move 30 agreed), Laws 2009
// rapid without adequate supervision (a flag counts only on the opponent's claim, A.4 d; on boards
// whose DGT clock keeps the time too), Laws 2023 5.2.3 (no agreement before both have moved) against
// Laws 2009 5.2 c, Guidelines III under Laws 2018 (final period, the III.4 increment). Refusals carry
// their code and article; what is carried out is journaled with the arbiter's credential, the claims
// wait in the attention queue until decided, and a restart replays every board to the same state.
// Real consoles on injected clocks (manualSource): every time below is exact.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClockEvent, Side } from '../../clock-engine/index.ts';
import {
  isRefusalCode,
  manualSource,
  parseDeviceSpec,
  startConsole,
  type ConsoleCommand,
  type ConsoleOptions,
  type ManualSource,
  type RunningConsole,
} from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, loadEvent, presetEvent, presetJson, type ZeitnotEvent } from '../../tournament/index.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';
import { event as cairnsCup, leadersScript, PLAYOFF, playMainEvent, SECTION } from './playoff-fixtures.ts';

const MIN = 60_000;

interface Desk {
  readonly dir: string;
  readonly source: ManualSource;
  run: RunningConsole;
  chief: TestClient;
  readonly options: Omit<ConsoleOptions, 'dataDir' | 'port' | 'source'>;
}

const opened: Desk[] = [];
afterAll(async () => {
  for (const d of opened) {
    d.chief.ws.terminate();
    await d.run.stop();
    rmSync(d.dir, { recursive: true, force: true });
  }
});

async function eventConsole(name: string, event: ZeitnotEvent, extra: Partial<ConsoleOptions> = {}): Promise<Desk> {
  const dir = mkdtempSync(join(tmpdir(), `zeitnot-claims-${name}-`));
  const source = manualSource(0);
  const options = { noPage: true, event, firstRound: true, ...extra };
  const run = await startConsole({ dataDir: dir, port: 0, source, ...options });
  const chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Chief' });
  const desk = { dir, source, run, chief, options };
  opened.push(desk);
  return desk;
}

/** A restart on the same journal at the same instant: the boards as the journal replays them. */
async function restart(d: Desk): Promise<void> {
  d.chief.ws.terminate();
  await d.run.stop();
  d.run = await startConsole({ dataDir: d.dir, port: 0, source: manualSource(d.source.now()), ...d.options });
}

const command = (d: Desk, c: ConsoleCommand) => sendCommand(d.chief, c);

/** A press of `side`'s clock at `at`, as the board's clock reports it. */
function press(d: Desk, board: string, side: Side, at: number): void {
  d.source.set(at);
  d.run.hall.record({ kind: 'clock', board, event: { type: 'press', side, at, by: { kind: 'device', deviceId: 'test' } } });
}

/** Both players press `moves` times each, a second apart from `from`: White to move at move `moves + 1`. */
function play(d: Desk, board: string, moves: number, from: number): number {
  let at = from;
  for (let i = 0; i < moves; i++) {
    press(d, board, 'white', (at += 1_000));
    press(d, board, 'black', (at += 1_000));
  }
  return at;
}

const state = (d: Desk, board: string) => d.run.hall.boards.get(board)!.state;
const view = (d: Desk, board: string) => d.run.hall.view(board)!;
const queued = (d: Desk, board: string) => d.run.hall.attention().filter((a) => a.board === board);
const clockEvents = (d: Desk, board: string, type: ClockEvent['type']): ClockEvent[] =>
  [...d.run.journal.entries()].flatMap((e) => (e.record.kind === 'clock' && e.record.board === board && e.record.event.type === type ? [e.record.event] : []));
const chiefBy = { kind: 'arbiter', name: 'IA Chief', credential: 'chief' };

describe('SA Open 2009, B section: Laws 2009 Article 10.2 at the console', () => {
  let d: Desk;
  let b: string[];

  it('the player having the move, under two minutes, claims; the arbiter decides: draw, postpone (±2 min), reject +2', async () => {
    const event = presetEvent('sa-open-2009');
    b = hallBoardNumbers(event, 'b').map(String);
    d = await eventConsole('sa-open', event);
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll', section: 'b' })).toMatchObject({ type: 'ack' });
    // Laws 2009 5.2 c has no 5.2.3: a draw agreed before either player has moved stands.
    expect(await command(d, { type: 'drawOffer', board: b[5]!, side: 'white' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'drawAnswer', board: b[5]!, side: 'black', accept: true })).toMatchObject({ type: 'ack' });
    expect(view(d, b[5]!)).toMatchObject({ status: 'finished', presses: { white: 0, black: 0 }, result: { result: '1/2-1/2', termination: 'agreement' } });
    expect(clockEvents(d, b[5]!, 'drawAccept')).toMatchObject([{ side: 'black', by: chiefBy }]);
    // 7200: 120 minutes for the game, one period. One move each on the five boards, White to move.
    for (const board of b.slice(0, 5)) {
      press(d, board, 'white', d.source.now() + 1_000);
      press(d, board, 'black', d.source.now() + 1_000);
    }
    const [draw, postponed, rejected, quiet, offered] = b as [string, string, string, string, string];

    // White has about two hours: no claim under 10.2 yet.
    expect(await command(d, { type: 'quickplayClaim', board: draw, side: 'white' })).toMatchObject({
      type: 'refused',
      code: 'claim-not-admitted',
      article: 'Laws 2009 Art. 10.2',
      reason: expect.stringContaining('the claimant has 2 minutes or more'),
    });
    // A flag claimed while it is up: refused, under the rule the arbiter calls flags by (6.9).
    expect(await command(d, { type: 'flagClaim', board: draw, claimant: 'black' })).toMatchObject({
      type: 'refused',
      code: 'flag-not-fallen',
      article: 'Laws 2009 Art. 6.9',
    });
    // No claim: nothing to decide. 10.2 has no increment option (Guidelines III.4 is 2018 on).
    expect(await command(d, { type: 'quickplayDecision', board: draw, decision: 'draw' })).toMatchObject({
      type: 'refused',
      code: 'no-claim-pending',
      article: 'Laws 2009 Art. 10.2',
    });
    expect(await command(d, { type: 'quickplayClaim', board: draw, side: 'white', request: 'increment' })).toMatchObject({
      type: 'refused',
      code: 'claim-not-applied',
    });

    // White's clock to 1:40: on board k White pressed at 2k + 1 s and his clock runs again from 2k + 2 s.
    d.source.set(7_101_000);
    expect(d.run.hall.boards.get(draw)!.remainingAt(d.source.now()).white).toBe(100_000);
    expect(await command(d, { type: 'quickplayClaim', board: draw, side: 'black' })).toMatchObject({
      type: 'refused',
      code: 'claim-not-admitted',
      article: 'Laws 2009 Art. 10.2',
      reason: expect.stringContaining('only the player having the move may claim'),
    });
    for (const board of [draw, postponed, rejected, quiet, offered]) {
      expect(await command(d, { type: 'quickplayClaim', board, side: 'white' })).toMatchObject({ type: 'ack' });
      expect(view(d, board)).toMatchObject({ status: 'paused', quickplay: { side: 'white', status: 'pending', request: 'draw' } });
      expect(queued(d, board)).toMatchObject([{ code: 'quickplay-claim', side: 'white' }]);
    }
    const blackBefore = state(d, postponed).remainingMs.black;
    expect(clockEvents(d, draw, 'quickplayClaim')).toMatchObject([{ side: 'white', by: chiefBy }]);

    // A decision that does not answer a draw claim.
    expect(await command(d, { type: 'quickplayDecision', board: draw, decision: 'increment' })).toMatchObject({
      type: 'refused',
      code: 'decision-mismatch',
    });
    // Draw: the game ends, the claim leaves the queue.
    expect(await command(d, { type: 'quickplayDecision', board: draw, decision: 'draw' })).toMatchObject({ type: 'ack' });
    expect(view(d, draw)).toMatchObject({ status: 'finished', result: { result: '1/2-1/2', termination: 'Laws 2009 Art. 10.2 claim upheld' } });
    expect(queued(d, draw)).toEqual([]);

    // Postponed with two minutes to the opponent: the game goes on; the claim waits for the final decision.
    expect(await command(d, { type: 'quickplayDecision', board: postponed, decision: 'postpone', extraTime: true })).toMatchObject({ type: 'ack' });
    expect(view(d, postponed)).toMatchObject({ status: 'running', quickplay: { status: 'postponed' } });
    expect(state(d, postponed).remainingMs.black).toBe(blackBefore + 2 * MIN);
    expect(queued(d, postponed)).toMatchObject([{ code: 'quickplay-claim' }]);
    // ... and later rejected: no second two minutes (10.2 c gives them for a claim rejected at once).
    expect(await command(d, { type: 'quickplayDecision', board: postponed, decision: 'reject' })).toMatchObject({ type: 'ack' });
    expect(state(d, postponed).remainingMs.black).toBe(blackBefore + 2 * MIN);
    expect(view(d, postponed).quickplay).toBeUndefined();
    expect(queued(d, postponed)).toEqual([]);

    // Rejected: two minutes to the opponent, the clock runs again.
    expect(await command(d, { type: 'quickplayDecision', board: rejected, decision: 'reject' })).toMatchObject({ type: 'ack' });
    expect(view(d, rejected)).toMatchObject({ status: 'running' });
    expect(state(d, rejected).remainingMs.black).toBe(blackBefore + 2 * MIN);
    expect(queued(d, rejected)).toEqual([]);

    // Postponed without the two minutes ("may"): nothing added.
    expect(await command(d, { type: 'quickplayDecision', board: quiet, decision: 'postpone' })).toMatchObject({ type: 'ack' });
    expect(state(d, quiet).remainingMs.black).toBe(blackBefore);
    expect(clockEvents(d, quiet, 'quickplayDecision')).toMatchObject([{ decision: 'postpone', by: chiefBy }]);

    // 9.1 b 3: the claim is also a draw offer, which Black accepts: a draw by agreement.
    expect(view(d, offered).drawOffer).toMatchObject({ side: 'white' });
    expect(await command(d, { type: 'drawAnswer', board: offered, side: 'black', accept: true })).toMatchObject({ type: 'ack' });
    expect(view(d, offered)).toMatchObject({ status: 'finished', result: { result: '1/2-1/2', termination: 'agreement' } });
  });

  it('a restart replays every board to the same state', async () => {
    const before = new Map(b.map((id) => [id, state(d, id)]));
    await restart(d);
    for (const [id, s] of before) expect(state(d, id)).toEqual(s);
    expect(queued(d, b[3]!)).toMatchObject([{ code: 'quickplay-claim' }]);
  });
});

describe("SA Open 2009: who may record a claim or an offer (the permission table's board commands)", () => {
  it('a sector arbiter on his own boards only; journaled with his credential', async () => {
    const event = presetEvent('sa-open-2009');
    const b = hallBoardNumbers(event, 'b').map(String);
    const d = await eventConsole('sa-sectors', event);
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll', section: 'b' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'defineSector', sector: 'B1', name: 'Juniors front', boards: '1-2', section: 'b' })).toMatchObject({ type: 'ack' });
    const issued = await command(d, { type: 'issueCredential', name: 'FA Junior', role: 'sector', sector: 'B1' });
    const junior = await helloClient(d.run.url, { role: 'arbiter', token: issued.token as string });
    try {
      for (const c of [
        { type: 'drawOffer', board: b[3]!, side: 'white' },
        { type: 'drawAnswer', board: b[3]!, side: 'black', accept: false },
        { type: 'flagClaim', board: b[3]!, claimant: 'black' },
        { type: 'quickplayClaim', board: b[3]!, side: 'white' },
        { type: 'quickplayDecision', board: b[3]!, decision: 'reject' },
      ] as const) {
        expect(await sendCommand(junior, c)).toMatchObject({ type: 'refused', code: 'outside-sector' });
      }
      const offer: ConsoleCommand = { type: 'drawOffer', board: b[1]!, side: 'white' };
      expect(await sendCommand(junior, offer)).toMatchObject({ type: 'ack' });
      const credential = d.run.team.credentials.list().find((c) => c.name === 'FA Junior')!.id;
      expect(clockEvents(d, b[1]!, 'drawOffer')).toMatchObject([{ side: 'white', by: { kind: 'arbiter', name: 'FA Junior', credential } }]);
      expect(clockEvents(d, b[3]!, 'drawOffer')).toEqual([]);
    } finally {
      junior.ws.terminate();
    }
  });
});

describe('Cairns Cup 2019: the 30-move rule (Laws 2018 9.1.1 and the event regulation)', () => {
  it('an offer and a ½-½ result at move 10 refused with code and article; at move 30 offered, declined, offered again and agreed', async () => {
    const event = presetEvent('cairns-cup-2019');
    const boards = hallBoardNumbers(event, 'main').map(String);
    const d = await eventConsole('cairns', event);
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll' })).toMatchObject({ type: 'ack' });
    const [board, ruled] = boards as [string, string];
    let at = play(d, board, 9, d.source.now());
    play(d, ruled, 9, at);
    at = d.source.now();
    expect(view(d, board).moveNumber).toBe(10);
    const article = 'event regulation: no draw agreement before move 30; Laws 2018 Art. 9.1.1';

    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({ type: 'refused', code: 'draw-too-early', article });
    // The offer was made: journaled as the engine ruled it, the queue shows the refusal to every arbiter.
    expect(clockEvents(d, board, 'drawOffer')).toMatchObject([{ side: 'white', by: chiefBy }]);
    expect(view(d, board).drawOffer).toBeUndefined();
    expect(queued(d, board)).toMatchObject([{ code: 'draw-offer-refused', side: 'white' }]);

    // A ½-½ entered as the players' agreement, on the board or at the desk: refused, nothing journaled.
    expect(await command(d, { type: 'result', board, result: '1/2-1/2', termination: 'agreed' })).toMatchObject({
      type: 'refused',
      code: 'draw-too-early',
      article,
    });
    const game = d.run.desks.get('main')!.pairingOf(1)!.games[0]!;
    expect(
      await command(d, { type: 'enterResult', section: 'main', round: 1, white: game.white, black: game.black, result: '1/2-1/2', reason: 'agreed' }),
    ).toMatchObject({ type: 'refused', code: 'draw-too-early', article });
    expect(clockEvents(d, board, 'result')).toEqual([]);
    expect(view(d, board).status).toBe('running');
    // A draw the arbiter rules (a threefold repetition claim upheld, 9.2) is no agreement: the move rule does not apply.
    expect(await command(d, { type: 'result', board: ruled, result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' })).toMatchObject({
      type: 'ack',
    });
    expect(view(d, ruled)).toMatchObject({ status: 'finished', result: { result: '1/2-1/2' } });

    // Move 30: offered, declined (journaled; the offer lapses), an acceptance without an offer refused, offered and agreed.
    play(d, board, 20, at);
    expect(view(d, board).moveNumber).toBe(30);
    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({ type: 'ack' });
    expect(view(d, board).drawOffer).toMatchObject({ side: 'white' });
    expect(await command(d, { type: 'drawAnswer', board, side: 'black', accept: false })).toMatchObject({ type: 'ack' });
    expect(clockEvents(d, board, 'drawDecline')).toMatchObject([{ side: 'black', by: chiefBy }]);
    expect(view(d, board).drawOffer).toBeUndefined();
    expect(await command(d, { type: 'drawAnswer', board, side: 'black', accept: true })).toMatchObject({
      type: 'refused',
      code: 'no-draw-offer',
      article: 'Laws 2018 Art. 9.1.2',
    });
    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'drawAnswer', board, side: 'black', accept: true })).toMatchObject({ type: 'ack' });
    expect(view(d, board)).toMatchObject({ status: 'finished', result: { result: '1/2-1/2', termination: 'agreement' } });
  });
});

describe('Cairns Cup 2019: the 30-move rule covers the playoff games', () => {
  it('a draw offer in the playoff match at move 1 refused with the regulation and 9.1.1', async () => {
    const d = await eventConsole('cairns-playoff', cairnsCup, { firstRound: false });
    await playMainEvent(d.run, leadersScript([3, 6]));
    expect(d.run.desks.get(SECTION)!.command({ type: 'startPlayoff', section: SECTION }, 'IA')).toMatchObject({ ok: true });
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll', section: PLAYOFF })).toMatchObject({ type: 'ack' });
    const board = d.run.hall.seated.get(PLAYOFF)!.boards[0]!.id;
    expect(d.run.hall.boards.get(board)!.config.drawOfferMinMove).toBe(30);
    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({
      type: 'refused',
      code: 'draw-too-early',
      article: 'event regulation: no draw agreement before move 30; Laws 2018 Art. 9.1.1',
    });
    expect(queued(d, board)).toMatchObject([{ code: 'draw-offer-refused', side: 'white' }]);
  });
});

/** A preset's event-file JSON changed by `edit` (the Laws edition, a section's rules). */
function eventFrom(
  preset: 'cairns-cup-2019' | 'sa-open-2009',
  edit: (json: Record<string, unknown> & { sections: Record<string, unknown>[] }) => void,
): ZeitnotEvent {
  const json = JSON.parse(presetJson(preset)) as Record<string, unknown> & { sections: Record<string, unknown>[] };
  edit(json);
  return loadEvent(json);
}

describe('Laws 2023 5.2.3: no draw agreement before both players have made a move', () => {
  it('the acceptance refused (the offer lapses, journaled), a ½-½ agreement refused; after a move each, agreed', async () => {
    const event = eventFrom('cairns-cup-2019', (json) => {
      json.lawsEdition = 'L2023';
      delete json.drawRule;
    });
    const board = hallBoardNumbers(event, 'main').map(String)[0]!;
    const d = await eventConsole('l2023', event);
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'drawAnswer', board, side: 'black', accept: true })).toMatchObject({
      type: 'refused',
      code: 'draw-before-first-moves',
      article: 'Laws 2023 Art. 5.2.3',
    });
    expect(clockEvents(d, board, 'drawAccept')).toHaveLength(1);
    expect(view(d, board)).toMatchObject({ status: 'running' });
    expect(view(d, board).drawOffer).toBeUndefined();
    expect(queued(d, board)).toMatchObject([{ code: 'draw-offer-refused', side: 'black' }]);
    expect(await command(d, { type: 'result', board, result: '1/2-1/2', termination: 'agreed' })).toMatchObject({
      type: 'refused',
      code: 'draw-before-first-moves',
      article: 'Laws 2023 Art. 5.2.3',
    });
    press(d, board, 'white', d.source.now() + 1_000);
    expect(await command(d, { type: 'drawOffer', board, side: 'white' })).toMatchObject({ type: 'ack' });
    // Only White has moved: Black's acceptance still waits for a move of his.
    expect(await command(d, { type: 'drawAnswer', board, side: 'black', accept: true })).toMatchObject({ type: 'refused', code: 'draw-before-first-moves' });
    press(d, board, 'black', d.source.now() + 1_000);
    expect(await command(d, { type: 'drawOffer', board, side: 'black' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'drawAnswer', board, side: 'white', accept: true })).toMatchObject({ type: 'ack' });
    expect(view(d, board)).toMatchObject({ status: 'finished', result: { result: '1/2-1/2', termination: 'agreement' } });
  });
});

describe('Laws 2018 Guidelines III (an event that adopts them, 40/90 + 30 min, no increment)', () => {
  it('not in the first period (III.5); in the final one the III.4 increment request, also a draw offer, and its decision', async () => {
    const event = eventFrom('cairns-cup-2019', (json) => {
      delete json.drawRule;
      json.sections[0]!.timeControl = '40/5400:1800';
      json.sections[0]!.quickplayFinish = true;
    });
    const [first, last] = hallBoardNumbers(event, 'main').map(String) as [string, string];
    const d = await eventConsole('guidelines', event);
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll' })).toMatchObject({ type: 'ack' });
    // The last board plays its 40 moves (1 s each): 30 minutes added at each player's 40th.
    const end = play(d, last, 40, 0);
    expect(view(d, last).period).toEqual({ white: 2, black: 2 });
    // White on the first board, still in period 1, under two minutes.
    d.source.set(5_300_000);
    expect(await command(d, { type: 'quickplayClaim', board: first, side: 'white' })).toMatchObject({
      type: 'refused',
      code: 'claim-not-admitted',
      article: 'Laws 2018 Guidelines III.5',
      reason: expect.stringContaining('not in the final period'),
    });
    // The last board: White's clock 7 160 000 at 80 000 (40 s used, +30 min) runs down to 1:30.
    expect(state(d, last).remainingMs.white).toBe(5_400_000 - 40_000 + 1_800_000);
    d.source.set(end + 7_160_000 - 90_000);
    expect(await command(d, { type: 'quickplayClaim', board: last, side: 'white', request: 'increment' })).toMatchObject({ type: 'ack' });
    expect(view(d, last)).toMatchObject({ status: 'paused', quickplay: { status: 'pending', request: 'increment' }, drawOffer: { side: 'white' } });
    expect(queued(d, last)).toMatchObject([{ code: 'quickplay-claim', side: 'white' }]);
    expect(await command(d, { type: 'quickplayDecision', board: last, decision: 'postpone' })).toMatchObject({
      type: 'refused',
      code: 'decision-mismatch',
      article: 'Laws 2018 Guidelines III.4',
    });
    const black = state(d, last).remainingMs.black;
    expect(await command(d, { type: 'quickplayDecision', board: last, decision: 'increment' })).toMatchObject({ type: 'ack' });
    expect(view(d, last)).toMatchObject({ status: 'running', quickplay: { status: 'increment' } });
    expect(state(d, last).remainingMs.black).toBe(black + 2 * MIN);
    expect(queued(d, last)).toEqual([]);
  });
});

describe('Laws 2009 rapid without adequate supervision: a flag counts on the opponent’s claim (A.4 d)', () => {
  it('on a board the engine times and on one whose DGT clock keeps the time: refused while up, upheld once down, the game ends', async () => {
    const base = eventFrom('sa-open-2009', (json) => {
      const b = json.sections.find((s) => s.id === 'b')!;
      b.timeControl = '1500';
      b.supervision = 'inadequate';
      b.quickplayFinish = false;
    });
    const [onDevice, onEngine] = hallBoardNumbers(base, 'b').map(String) as [string, string];
    // A DGT clock in the mirror role keeps the first board's time (its port is not there: nothing it reports changes the rules).
    const d = await eventConsole('claim-only', base, { devices: [parseDeviceSpec(`${onDevice}=dgt:/dev/zeitnot-no-such-port`)] });
    expect(d.run.hall.boards.get(onDevice)!.config.timekeeper).toBe('device');
    expect(d.run.hall.boards.get(onEngine)!.config.timekeeper).toBeUndefined();
    expect(await command(d, { type: 'arriveAll' })).toMatchObject({ type: 'ack' });
    expect(await command(d, { type: 'startAll', section: 'b' })).toMatchObject({ type: 'ack' });
    for (const board of [onDevice, onEngine]) {
      expect(view(d, board).flagsOnClaim).toBe(true);
    }
    // White's 25 minutes run from 0: five seconds left.
    d.source.set(1_495_000);
    for (const board of [onDevice, onEngine]) {
      expect(await command(d, { type: 'flagClaim', board, claimant: 'black' })).toMatchObject({
        type: 'refused',
        code: 'flag-not-fallen',
        article: 'Laws 2009 Appendix A.4 d',
      });
    }
    // The flag falls: recorded, shown for a claim, the game goes on (the arbiter does not call it).
    d.source.set(1_510_000);
    for (const board of [onDevice, onEngine]) {
      expect(view(d, board)).toMatchObject({ status: 'running', flag: { side: 'white' } });
      expect(queued(d, board).find((a) => a.code === 'flag-fall')?.message).toContain('it counts only when Black claims it');
      // White claiming Black's flag: it is up.
      expect(await command(d, { type: 'flagClaim', board, claimant: 'white' })).toMatchObject({ type: 'refused', code: 'flag-not-fallen' });
      expect(await command(d, { type: 'flagClaim', board, claimant: 'black' })).toMatchObject({ type: 'ack' });
      expect(view(d, board)).toMatchObject({ status: 'finished', result: { result: '0-1', termination: "time forfeit (Art. 6.9) on the opponent's claim" } });
      expect(clockEvents(d, board, 'flag').at(-1)).toMatchObject({ side: 'white', by: chiefBy });
    }
    const before = [onDevice, onEngine].map((id) => state(d, id));
    await restart(d);
    expect([onDevice, onEngine].map((id) => state(d, id))).toEqual(before);
  });
});

it('every refusal given here had a code of the union', () => {
  const refusals = opened.flatMap((d) => d.chief.messages.filter((m) => m.type === 'refused'));
  expect(refusals.length).toBeGreaterThan(15);
  for (const r of refusals) expect(isRefusalCode(r.code), JSON.stringify(r)).toBe(true);
});
