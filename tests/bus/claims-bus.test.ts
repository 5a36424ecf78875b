// The players' claims and offers from a console on the bus: carried to the board's hall host like
// `pause`, ruled on there by the clock engine, journaled by the host with the arbiter's credential, or
// refused with the engine's code and article as the host answered them. The SA Open 2009 (Laws 2009,
// no move rule; the Open section without Article 10.2) on hall host h1 (boards 1-3) and console c1,
// processes on one nats-server.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { arbiterCommand as command, hallOnOneServer } from '../support/hall-processes.ts';
import { helloClient } from '../support/ws-client.ts';

describe('claims and offers across the bus', () => {
  const { roles, clients, nats } = hallOnOneServer('zeitnot-claims-bus-', 'sa-open-2009');

  it("go to the board's host: carried out and journaled there, or refused with the engine's code and article", async () => {
    const server = await nats();
    roles.host('h1', '1-3', server.url);
    const c1 = await roles.console('c1', server.url, ['--simulate-event']);
    await roles.waitBoards(c1.url, "h1's boards playing", (b) => ['1', '2', '3'].every((id) => b.find((x) => x.id === id)?.status === 'running'));
    const arbiter = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'IA Chief' });
    clients.push(arbiter);

    // Board 1 paused: the virtual players' moves (which decline an offer) wait while it is answered.
    const p1 = await command(arbiter, 'p1', { type: 'pause', board: '1', reason: 'a draw offer to answer' });
    expect(p1, JSON.stringify(p1)).toMatchObject({ type: 'ack' });
    expect(await command(arbiter, 'o1', { type: 'drawOffer', board: '1', side: 'white' })).toMatchObject({ type: 'ack' });
    expect(await command(arbiter, 'd1', { type: 'drawAnswer', board: '1', side: 'black', accept: false })).toMatchObject({ type: 'ack' });
    expect(await command(arbiter, 'q1', { type: 'quickplayClaim', board: '2', side: 'white' })).toMatchObject({
      type: 'refused',
      code: 'claim-not-applied',
      article: 'Laws 2009 Art. 10.2',
    });
    expect(await command(arbiter, 'q2', { type: 'quickplayDecision', board: '2', decision: 'reject' })).toMatchObject({
      type: 'refused',
      code: 'no-claim-pending',
    });
    expect(await command(arbiter, 'f1', { type: 'flagClaim', board: '3', claimant: 'black' })).toMatchObject({
      type: 'refused',
      code: 'flag-not-fallen',
      article: 'Laws 2009 Art. 6.9',
    });

    // The host journaled the offer and its decline with the arbiter and his credential; nothing of the refused ones.
    const db = new Database(roles.journalOf('h1'), { readonly: true, fileMustExist: true });
    const events = (db.prepare("SELECT board, body FROM entries WHERE source = 'h1' AND kind = 'clock'").all() as { board: string; body: string }[]).flatMap(
      (r) => {
        const event = (JSON.parse(r.body) as { event: { type: string; side?: string; by: unknown } }).event;
        return ['drawOffer', 'drawDecline', 'drawAccept', 'quickplayClaim', 'quickplayDecision'].includes(event.type) ||
          (event.type === 'flag' && (event.by as { kind: string }).kind === 'arbiter')
          ? [{ board: r.board, type: event.type, side: event.side, by: event.by }]
          : [];
      },
    );
    db.close();
    const by = { kind: 'arbiter', name: 'IA Chief', credential: 'chief' };
    expect(events).toEqual([
      { board: '1', type: 'drawOffer', side: 'white', by },
      { board: '1', type: 'drawDecline', side: 'black', by },
    ]);
  }, 300_000);
});
