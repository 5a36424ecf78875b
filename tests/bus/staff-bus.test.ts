// The team on the bus (docs/hall.md, "The team on every console"): one hall host and consoles c1 and c2
// as processes on a 3-node JetStream cluster. A deputy's token issued on c1 logs in on c2 (the issue record, with
// the hash only, reaches c2 through the stream); revoked on c1, it is cut off and refused on c2 within
// seconds; a restart of c2 keeps both (its journal holds c1's records).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { arbiterCommand, hallOnCluster } from '../support/hall-processes.ts';
import { until } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

/** The staff records of a console's journal: which console wrote each, and its change. */
function staffRecords(file: string): { source: string; change: { type: string; credential?: string; hash?: unknown } }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT source, body FROM entries WHERE kind = 'staff' ORDER BY seq").all() as { source: string; body: string }[];
    return rows.map((r) => ({ source: r.source, change: (JSON.parse(r.body) as { change: { type: string } }).change }));
  } finally {
    db.close();
  }
}

describe('the team on the bus', () => {
  const { roles, clients, cluster } = hallOnCluster('zeitnot-staff-bus-');

  /** Logs in with `token` on `url`: its first answer, welcome or error. */
  const login = async (url: string, token: string): Promise<TestClient> => {
    const c = await helloClient(url, { role: 'arbiter', token });
    clients.push(c);
    return c;
  };

  it('a deputy issued on console c1 logs in on c2; revoked on c1, refused on c2 within seconds; a restart of c2 keeps both', async () => {
    const bus = await cluster();
    roles.host('h1', '1-5', bus);
    const c1 = await roles.console('c1', bus);
    let c2 = await roles.console('c2', bus);
    const chief = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'IA Chief' });
    clients.push(chief);

    const issued = (await arbiterCommand(chief, 'issue-deputy', { type: 'issueCredential', name: 'IA Deputy', role: 'deputy' })) as {
      type: string;
      token?: string;
    };
    expect(issued).toMatchObject({ type: 'ack', token: expect.any(String) });
    const deputyToken = issued.token!;
    const kept = (await arbiterCommand(chief, 'issue-second', { type: 'issueCredential', name: 'IA Second', role: 'deputy' })) as { token?: string };
    const secondToken = kept.token!;
    const [deputyId, deputySecret] = deputyToken.split('.') as [string, string];

    // c2 reads the issue from the stream: its journal has c1's record, with the hash and never the secret.
    await until(() => staffRecords(roles.journalOf('c2')).filter((r) => r.change.type === 'issueCredential').length === 2, 'both issues on c2', 30_000);
    const onC2 = staffRecords(roles.journalOf('c2')).find((r) => r.change.credential === deputyId)!;
    expect(onC2).toMatchObject({ source: 'c1', change: { type: 'issueCredential', hash: { algorithm: 'sha256' } } });
    expect(JSON.stringify(staffRecords(roles.journalOf('c2')))).not.toContain(deputySecret);

    const deputy = await login(c2.url, deputyToken);
    expect(deputy.messages[0]).toMatchObject({ type: 'welcome', arbiter: { id: deputyId, name: 'IA Deputy', role: 'deputy' } });

    // Revoked on c1: c2 cuts the deputy's tablet off and refuses the token, within seconds.
    const revokedAt = Date.now();
    expect(await arbiterCommand(chief, 'revoke', { type: 'revokeCredential', credential: deputyId })).toMatchObject({ type: 'ack' });
    await until(() => deputy.closed !== undefined, "the deputy's tablet on c2 to be cut off", 10_000);
    expect(deputy.closed).toBe(4003);
    expect(Date.now() - revokedAt).toBeLessThan(10_000);
    expect((await login(c2.url, deputyToken)).messages[0]).toMatchObject({ type: 'error', code: 'bad-token' });

    // c2 restarted: its journal holds c1's records, so the revocation and the other deputy hold.
    await c2.proc.stop();
    c2 = await roles.console('c2', bus);
    expect(c2.token).toBeUndefined(); // its own chief's token is kept, not made again
    expect((await login(c2.url, deputyToken)).messages[0]).toMatchObject({ type: 'error', code: 'bad-token' });
    expect((await login(c2.url, secondToken)).messages[0]).toMatchObject({ type: 'welcome', arbiter: { name: 'IA Second', role: 'deputy' } });
  }, 180_000);
});
