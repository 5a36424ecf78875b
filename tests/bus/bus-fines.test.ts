// Fines on two consoles on the bus (docs/hall.md, "The desk on two consoles"): an incident recorded on
// c1 and its fine waived by the chief on c2 go through the stream (DeskGate), and both consoles list the
// same incident, waived by whom and why, with the same prizes; a second waiver is refused on either.
import { describe, expect, it } from 'vitest';
import type { FinesView } from '../../tournament/index.ts';
import { arbiterCommand, hallOnOneServer } from '../support/hall-processes.ts';
import { untilRead } from '../support/wait.ts';
import { helloClient } from '../support/ws-client.ts';

describe('fines on two consoles on the bus', () => {
  const { roles, clients, nats } = hallOnOneServer('zeitnot-bus-fines-');

  it('an incident recorded on one console, its fine waived by the chief on the other: both list it waived, with the same prizes', async () => {
    const server = await nats();
    roles.host('h1', '1-5', server.url);
    const c1 = await roles.console('c1', server.url);
    const c2 = await roles.console('c2', server.url);
    const a1 = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'A1' });
    const a2 = await helloClient(c2.url, { role: 'arbiter', token: c2.token, name: 'IA Chief' });
    clients.push(a1, a2);
    const fines = async (url: string): Promise<FinesView> => (await (await fetch(`${url}/api/fines`)).json()) as FinesView;

    expect(await arbiterCommand(a1, 'pair', { type: 'pairNextRound' })).toMatchObject({ type: 'ack' });
    expect(await arbiterCommand(a1, 'publish', { type: 'publishRound' })).toMatchObject({ type: 'ack' });
    expect(
      await arbiterCommand(a1, 'incident', { type: 'recordIncident', round: 1, player: 3, offence: 'electronic-device', note: 'phone in the jacket' }),
    ).toMatchObject({
      type: 'ack',
    });
    await untilRead(
      () => fines(c2.url),
      (f) => f.entries.length === 1,
      'the incident on c2',
      60_000,
      200,
    );
    expect(await arbiterCommand(a2, 'waive', { type: 'waiveFine', incident: 'r1-p3-electronic-device', reason: 'handed in before the round' })).toMatchObject({
      type: 'ack',
    });
    const waived = { by: 'IA Chief', reason: 'handed in before the round' };
    await untilRead(
      () => fines(c1.url),
      (f) => f.entries[0]?.waived !== undefined,
      'the waiver on c1',
      60_000,
      200,
    );
    const [f1, f2] = await Promise.all([fines(c1.url), fines(c2.url)]);
    expect(f1).toEqual(f2);
    expect(f1.entries).toEqual([
      {
        id: 'r1-p3-electronic-device',
        round: 1,
        player: 'Cairns player 03',
        playerId: 3,
        offence: 'electronic-device',
        fine: 1000,
        sanction: 'none',
        note: 'phone in the jacket',
        by: 'A1',
        source: 'arbiter',
        waived,
      },
    ]);
    expect(await arbiterCommand(a1, 'again', { type: 'waiveFine', incident: 'r1-p3-electronic-device', reason: 'twice' })).toMatchObject({
      type: 'refused',
      code: 'already-waived',
    });
    const prizes = await Promise.all([c1.url, c2.url].map(async (u) => (await fetch(`${u}/api/prizes`)).json()));
    expect(prizes[1]).toEqual(prizes[0]);
  }, 300_000);
});
