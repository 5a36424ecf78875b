// Cairns Cup 2019, Regulation 1: "Players more than 30 minutes late for a round shall forfeit." On the
// preset (Laws 2018, whose 6.7.1 would leave it to the arbiter), through the WebSocket: a player absent
// at exactly 30:00.000 from the scheduled start still has his game running; at 30:00.001 it is a forfeit
// by itself, citing the regulation, journaled, filled in at the desk, and the same after a restart.

import { describe, expect, it } from 'vitest';
import { manualSource, type ManualSource, type RunningConsole } from '../../arbiter-console/internal.ts';
import { hallBoardNumbers, presetEvent } from '../../tournament/index.ts';
import { acked, ConsoleScope } from '../support/console-scope.ts';
import { helloClient, type Message } from '../support/ws-client.ts';

const event = presetEvent('cairns-cup-2019');
const SECTION = 'main';
const MIN = 60_000;
const scope = new ConsoleScope();

type BoardSeen = { id: string; status: string; result?: { result: string; termination: string } };
/** The board as a newly connected arbiter's snapshot shows it. */
let token: string | undefined;
async function seen(c: RunningConsole, board: string): Promise<BoardSeen> {
  // The chief's token is told once, when the data directory is new: kept for the restarted console.
  token ??= c.newToken;
  const snapshot = await helloClient(c.url, { role: 'arbiter', token, name: 'IA Chief' });
  scope.clients.push(snapshot);
  const message = snapshot.messages.find((m) => m.type === 'snapshot') as (Message & { boards: BoardSeen[] }) | undefined;
  if (!message) throw new Error(`no snapshot: ${JSON.stringify(snapshot.messages)}`);
  return message.boards.find((b) => b.id === board)!;
}

describe('Cairns Cup Regulation 1: more than 30 minutes late, forfeit', () => {
  it('absent at 30:00.000: still running; at 30:00.001: a forfeit citing the regulation, journaled, at the desk, and after a restart', async () => {
    const dir = scope.dataDir('zeitnot-cairns-late-');
    let run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
    const chief = await scope.chiefOf(run);
    await acked(chief, { type: 'pairNextRound', section: SECTION });
    await acked(chief, { type: 'publishRound', section: SECTION });
    const desk = run.desks.get(SECTION)!;
    const game = desk.pairingOf(1)!.games[0]!;
    const board = String(hallBoardNumbers(event, SECTION)[0]);
    const seated = run.hall.seated.get(SECTION)!;
    expect(seated.game).toMatchObject({
      lateArrival: 'forfeit',
      defaultTimeMs: 30 * MIN,
      lateArrivalRule: 'Cairns Cup Regulation 1: more than 30 minutes late, forfeit',
    });
    // Everyone is there but Black of the first board.
    for (const b of seated.boards) {
      await acked(chief, { type: 'arrive', board: b.id, side: 'white' });
      if (b.id !== board) await acked(chief, { type: 'arrive', board: b.id, side: 'black' });
    }
    await acked(chief, { type: 'startAll', section: SECTION });
    const clock = run.hall.source as ManualSource;
    const start = seated.game.scheduledStart;
    clock.set(start + 30 * MIN);
    expect(await seen(run, board)).toMatchObject({ status: 'running' });
    expect(desk.view('arbiter').rounds[0]!.games.find((g) => g.white.id === game.white)?.result ?? null).toBeNull();

    clock.set(start + 30 * MIN + 1);
    const termination = 'default time expired (Cairns Cup Regulation 1: more than 30 minutes late, forfeit; Art. 6.7.1, absent more than 30 min)';
    expect(await seen(run, board)).toMatchObject({ status: 'finished', result: { result: '+--', termination } });
    const journaled = [...run.journal.entries(0)].map((e) => e.record).filter((r) => r.kind === 'clock' && r.board === board);
    expect(journaled.at(-1)).toMatchObject({
      kind: 'clock',
      event: { type: 'defaultTimeExpired', absent: ['black'], at: start + 30 * MIN + 1, by: { kind: 'system' } },
    });
    const atDesk = () => desk.view('arbiter').rounds[0]!.games.find((g) => g.white.id === game.white);
    expect(atDesk()).toMatchObject({ result: '+--', source: 'clock' });
    // The other boards play on.
    expect((await seen(run, String(hallBoardNumbers(event, SECTION)[1]))).status).toBe('running');

    await scope.stop(run);
    run = await scope.start({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(start + 31 * MIN) });
    expect(await seen(run, board)).toMatchObject({ status: 'finished', result: { result: '+--', termination } });
    expect(
      run.desks
        .get(SECTION)!
        .view('arbiter')
        .rounds[0]!.games.find((g) => g.white.id === game.white),
    ).toMatchObject({ result: '+--', source: 'clock' });
  }, 60_000);
});
