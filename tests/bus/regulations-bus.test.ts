// The regulations' desk commands on the bus (docs/hall.md, "The desk on two consoles"): SA Open 2009
// with one hall host (every board of both sections) and consoles c1 and c2 as processes on one
// nats-server. An appeal lodged on c2 reaches c1's journal through the stream; both consoles decide it
// at once: one decision is carried out, the other refused with its code; a no-show that is none is
// refused on the console that was asked, nothing written.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { arbiterCommand, hallOnOneServer, JOURNAL_POLL_MS } from '../support/hall-processes.ts';
import { until } from '../support/wait.ts';
import { helloClient } from '../support/ws-client.ts';

type Game = { white: { id: number }; black: { id: number }; result?: string | null };

/** The desk records of a console's journal, in its order. */
function deskActions(file: string): { type: string; id?: string; appeal?: string; upheld?: boolean }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT body FROM entries WHERE kind = 'tournament' ORDER BY seq").all() as { body: string }[];
    return rows.map((r) => (JSON.parse(r.body) as { action: { type: string } }).action);
  } finally {
    db.close();
  }
}

describe('the regulations on the bus', () => {
  const { roles, clients, nats } = hallOnOneServer('zeitnot-regulations-bus-', 'sa-open-2009');

  it('carries an appeal from one console to the other and refuses the second of two decisions', async () => {
    const server = await nats();
    roles.host('h1', '1-22', server.url);
    const c1 = await roles.console('c1', server.url);
    const c2 = await roles.console('c2', server.url);
    const a1 = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'A1' });
    const a2 = await helloClient(c2.url, { role: 'arbiter', token: c2.token, name: 'A2' });
    clients.push(a1, a2);
    const pairings = async (url: string): Promise<{ games: Game[] }> =>
      (await (await fetch(`${url}/api/pairings?section=open&round=1`)).json()) as { games: Game[] };

    expect(await arbiterCommand(a1, 'pair', { type: 'pairNextRound', section: 'open' })).toMatchObject({ type: 'ack' });
    expect(await arbiterCommand(a1, 'publish', { type: 'publishRound', section: 'open' })).toMatchObject({ type: 'ack' });
    await until(() => deskActions(roles.journalOf('c2')).some((a) => a.type === 'publish'), 'the published round on c2', 60_000, JOURNAL_POLL_MS);
    const [game] = (await pairings(c1.url)).games;
    expect(
      await arbiterCommand(a1, 'result', {
        type: 'enterResult',
        section: 'open',
        round: 1,
        white: game!.white.id,
        black: game!.black.id,
        result: '1-0',
        reason: 'scoresheets',
      }),
    ).toMatchObject({ type: 'ack' });
    await until(() => deskActions(roles.journalOf('c2')).some((a) => a.type === 'result'), 'the result on c2', 60_000, JOURNAL_POLL_MS);

    // A2 receives the loser's written appeal on c2; c1 reads it from the stream.
    expect(
      await arbiterCommand(a2, 'lodge', { type: 'lodgeAppeal', section: 'open', round: 1, player: game!.black.id, against: 'the claim refused', fee: 200 }),
    ).toMatchObject({
      type: 'ack',
    });
    await until(() => deskActions(roles.journalOf('c1')).some((a) => a.type === 'appeal' && a.id === 'A1'), 'appeal A1 on c1', 60_000, JOURNAL_POLL_MS);
    expect(
      await arbiterCommand(a1, 'no-show', { type: 'recordNoShow', section: 'open', round: 1, player: game!.white.id, noNotification: true, reason: 'r' }),
    ).toMatchObject({ type: 'refused', code: 'not-a-no-show' });

    // Both consoles record the committee's decision at once: one is carried out, the other refused.
    const decide = (upheld: boolean) => ({
      type: 'decideAppeal',
      section: 'open',
      appeal: 'A1',
      upheld,
      committee: [{ name: 'IA Chair' }],
      reason: 'the committee met',
    });
    const answers = await Promise.all([arbiterCommand(a1, 'decide-1', decide(true), 60_000), arbiterCommand(a2, 'decide-2', decide(false), 60_000)]);
    expect(answers.map((a) => a.type).sort()).toEqual(['ack', 'refused']);
    expect(['came-first', 'appeal-decided']).toContain(answers.find((a) => a.type === 'refused')!.code);
    const decisions = (file: string) => deskActions(file).filter((a) => a.type === 'appealDecision');
    await until(
      () => decisions(roles.journalOf('c1')).length === 1 && decisions(roles.journalOf('c2')).length === 1,
      'one decision on both consoles',
      60_000,
      JOURNAL_POLL_MS,
    );
    expect(decisions(roles.journalOf('c1'))).toEqual(decisions(roles.journalOf('c2')));
    expect(decisions(roles.journalOf('c1'))[0]!.upheld).toBe(answers[0]!.type === 'ack');
  }, 180_000);
});
