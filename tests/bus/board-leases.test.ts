// Boards owned by lease (docs/hall.md, "Who owns a board", "Replacing a hall host"): hall hosts h1
// (boards 1-3) and h2 (boards 4-5) and a console c1 as processes on a 3-node JetStream cluster (the
// event's stream and the lease bucket R3, every role given the three servers). So:
// - a host started with a board h1 runs (x3, --boards 3-4) exits 1 with one line naming the owner,
//   and nothing of it reaches the stream;
// - a clock event of board 4 published under another host's subject (x3's) is not applied by the
//   console: journaled as a refusal in its place, an alert on the board;
// - the chief's takeOverHost is refused while h2 lives; h2 killed, a new host h9 on an empty disk is
//   refused too (the boards are h2's until the chief hands them over); handed over, h9 goes on with
//   h2's games from the stream: no start and no arrival of its own, an alert on both boards, the
//   presses going on from where h2 left them; h2 restarted on its own journal is refused.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { connectBus, encodeEntry, eventSubjects } from '../../bus/internal.ts';
import { arbiterCommand as command, hallOnCluster, hostJournal, pressesOf, sourceSeqs, type BoardRow } from '../support/hall-processes.ts';
import { helloClient } from '../support/ws-client.ts';
import { untilRead } from '../support/wait.ts';

type Attention = { board: string; code: string; message: string };
const H2 = ['4', '5'];

describe('boards owned by lease', () => {
  const { roles, clients, cluster } = hallOnCluster('zeitnot-board-leases-');

  it('refuses overlapping boards, ignores a non-owner, and lets a replacement host go on with the games', async () => {
    const bus = await cluster();
    roles.host('h1', '1-3', bus);
    const h2 = roles.host('h2', '4-5', bus);
    const c1 = await roles.console('c1', bus, ['--simulate-event']);
    await roles.waitBoards(c1.url, "both hosts' boards playing", (b) => b.length === 5 && b.every((x) => x.host?.reachable && x.status === 'running'));
    const queue = async (): Promise<Attention[]> => ((await (await fetch(`${c1.url}/api/boards`)).json()) as { attention: Attention[] }).attention;

    // Overlapping boards: refused at the first board another host holds, with one line, status 1.
    const x3 = roles.host('x3', '3-4', bus);
    expect(await x3.exited).toBe(1);
    expect(x3.out()).toMatch(
      /board 3 is owned by hall host h1, which is running \(its lease renewed until \d\d:\d\d:\d\d UTC\): start this host with other --boards/,
    );
    expect(sourceSeqs(roles.journalOf('c1')).has('x3')).toBe(false);

    // A clock event of board 4 (h2's) from x3's subject: journaled as its refusal, an alert, never applied.
    const forger = await connectBus({ servers: bus.split(',') });
    try {
      const forged = { kind: 'clock', board: '4', event: { type: 'pause', at: 1, by: { kind: 'arbiter', name: 'forger' }, reason: 'not the owner' } };
      await forger.js.publish(eventSubjects('cairns-cup-2019').host('x3'), encodeEntry({ source: 'x3', sourceSeq: 1, wallMs: Date.now(), record: forged }));
    } finally {
      await forger.close();
    }
    const alerts = await untilRead(queue, (q) => q.some((a) => a.code === 'not-owner'), 'the not-owner alert', 30_000, 200);
    expect(alerts.find((a) => a.code === 'not-owner')?.message).toBe("a pause from hall host x3 was not applied: board 4 is h2's (its lease)");
    expect((await roles.boards(c1.url)).find((b) => b.id === '4')?.status).toBe('running');
    const db = new Database(roles.journalOf('c1'), { readonly: true });
    try {
      const row = db.prepare("SELECT kind, body FROM entries WHERE source = 'x3'").get() as { kind: string; body: string };
      expect(row.kind).toBe('note');
      expect(JSON.parse(row.body)).toMatchObject({ note: { type: 'notOwner', host: 'x3', owner: 'h2', event: 'pause' } });
    } finally {
      db.close();
    }

    // The chief cannot take over a running host.
    const chief = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'IA Chief' });
    clients.push(chief);
    expect(await command(chief, 't1', { type: 'takeOverHost', host: 'h2', to: 'h9' })).toMatchObject({
      type: 'refused',
      code: 'lease-live',
      reason: expect.stringContaining('hall host h2 is running'),
    });

    // h2's machine dies mid-game; a new host on an empty disk is refused until the chief hands h2's boards over.
    await roles.waitBoards(c1.url, "moves on h2's boards", (b) => pressesOf(b, H2) >= 4, 90_000);
    await h2.kill9();
    // Its lease runs out 6 s after its last renewal (LEASE_MS): until then it counts as running.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    const early = roles.host('h9', '4-5', bus);
    expect(await early.exited).toBe(1);
    expect(early.out()).toMatch(
      /board 4 is owned by hall host h2, silent since \d\d:\d\d:\d\d UTC: to replace it, the chief arbiter hands its boards to this host \(takeOverHost h2 to h9\)/,
    );
    let answer = await command(chief, 't2', { type: 'takeOverHost', host: 'h2', to: 'h9' });
    for (let i = 3; answer.code === 'lease-live' && i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      answer = await command(chief, `t${i}`, { type: 'takeOverHost', host: 'h2', to: 'h9' });
    }
    expect(answer).toMatchObject({ type: 'ack' });
    const before = pressesOf(await roles.boards(c1.url), H2);
    expect(before).toBeGreaterThan(0);

    roles.host('h9', '4-5', bus);
    const going = await roles.waitBoards(
      c1.url,
      "h9 going on with h2's games",
      (b: BoardRow[]) =>
        H2.every((id) => b.find((x) => x.id === id)?.host?.id === 'h9' && b.find((x) => x.id === id)?.host?.reachable) && pressesOf(b, H2) > before + 2,
      90_000,
    );
    expect(pressesOf(going, H2)).toBeGreaterThan(before);
    for (const board of H2) {
      const own = hostJournal(roles.journalOf('h9'), 'h9', board).events;
      expect(own.filter((t) => t === 'start' || t === 'arrive')).toEqual([]);
      expect(own).toContain('press');
    }
    const handed = (await queue()).filter((a) => a.code === 'handed-over');
    expect(handed.map((a) => a.board).sort()).toEqual(H2);
    expect(handed[0]!.message).toMatch(/handed over from hall host h2 to h9: h9 goes on with the game from the stream's state/);

    // The old host back on its own journal: its boards are h9's now.
    const back = roles.host('h2', '4-5', bus);
    expect(await back.exited).toBe(1);
    expect(back.out()).toMatch(/board 4 is owned by hall host h9, which is running/);
  }, 300_000);
});
