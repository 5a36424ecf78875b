// Two consoles giving conflicting desk commands (docs/hall.md, "The desk on two consoles"): hall hosts
// h1 (boards 1-3) and h2 (boards 4-5) and consoles c1 and c2 as processes on one nats-server, c2
// through a socat relay; the arbiters A1 (on c1) and A2 (on c2) run round 1 themselves. A race is
// made certain by freezing c2's link while A2's command is on its way: c2 decides on the view it has
// and writes into the frozen link while A1's command is carried out; when the link is back, c2's write
// finds the desk moved on. So:
// - A2 swaps a board's colours in the draft while A1 publishes it: A2 is refused, the publishing named;
// - A2 and A1 enter two different results for one game: A2 is refused, A1's result named;
// - A2 enters a result for another game than A1: stale too, checked again, and carried out;
// - both confirm the same clock result at the same moment: one is carried out, the other refused;
// and at the end both consoles hold the same desk records in the same order, the stream's, show the
// same pairings and standings, and no acknowledged command is lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { connectBus, eventSubjects, type BusConnection } from '../../bus/index.ts';
import { arbiterCommand, HallProcesses, JOURNAL_POLL_MS } from '../support/hall-processes.ts';
import { startLink, startNats, type Link, type NatsServer } from '../support/nats.ts';
import { until } from '../support/wait.ts';
import { helloClient, type TestClient } from '../support/ws-client.ts';

const subjects = eventSubjects('cairns-cup-2019');

type Answer = { type: string; reason?: unknown };
type Game = { board: number; hallBoard?: string; white: { id: number }; black: { id: number }; result?: string | null };
type DeskStats = { inFlight: number; carriedOut: number; refused: number; stale: number };

/** The desk records of a console's journal: (source, sourceSeq, action) in the journal's order. */
function deskRecords(
  file: string,
): { source: string; n: number; action: { type: string; round?: number; white?: number; black?: number; result?: string; source?: string } }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT source, source_seq AS n, body FROM entries WHERE kind = 'tournament' ORDER BY seq").all() as {
      source: string;
      n: number;
      body: string;
    }[];
    return rows.map((r) => ({ source: r.source, n: r.n, action: (JSON.parse(r.body) as { action: { type: string } }).action }));
  } finally {
    db.close();
  }
}

describe('two consoles giving desk commands at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-desk-order-'));
  const roles = new HallProcesses(dir);
  const clients: TestClient[] = [];
  let server: NatsServer | undefined;
  let link: Link | undefined;
  let watcher: BusConnection | undefined;
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await roles.stop();
    await watcher?.close();
    await link?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('orders them through the stream: one carried out, the other refused with why, or checked again and carried out; both consoles end with the same event', async () => {
    server = await startNats();
    link = await startLink(server.port);
    roles.host('h1', '1-3', server.url);
    roles.host('h2', '4-5', server.url);
    const c1 = await roles.console('c1', server.url);
    const c2 = await roles.console('c2', link.url);
    const a1 = await helloClient(c1.url, { role: 'arbiter', token: c1.token, name: 'A1' });
    const a2 = await helloClient(c2.url, { role: 'arbiter', token: c2.token, name: 'A2' });
    clients.push(a1, a2);
    const pairings = async (url: string): Promise<{ status?: string; games: Game[] }> =>
      (await (await fetch(`${url}/api/pairings?round=1`)).json()) as { status?: string; games: Game[] };
    const deskStats = async (url: string): Promise<DeskStats> => ((await (await fetch(`${url}/health`)).json()) as { bus: { desk: DeskStats } }).bus.desk;
    const both = <T>(f: (url: string) => Promise<T>): Promise<[T, T]> => Promise.all([f(c1.url), f(c2.url)]);
    const untilBoth = async (what: string, check: (url: string) => Promise<boolean>): Promise<void> => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await both((u) => check(u).catch(() => false));
        if (ok.every(Boolean)) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${roles.outputs()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const ours = (file: string) => deskRecords(file).filter((r) => r.source.endsWith('/desk'));
    const sameDesk = (): Promise<void> =>
      until(() => ours(roles.journalOf('c2')).length === ours(roles.journalOf('c1')).length, 'the same desk records on both consoles', 60_000, JOURNAL_POLL_MS);
    /**
     * A2's command decided on c2's view while c2's link is frozen (c2 is seen waiting for the stream),
     * A1's carried out meanwhile; then the link is back and A2's answer comes.
     */
    const race = async (second: object, first: object, tag: string): Promise<[Answer, Answer]> => {
      await sameDesk();
      const before = await deskStats(c2.url);
      link!.freeze();
      try {
        const late = arbiterCommand(a2, `${tag}-a2`, second, 60_000);
        const deadline = Date.now() + 30_000;
        while ((await deskStats(c2.url)).inFlight === 0) {
          if (Date.now() > deadline) throw new Error(`c2 never took A2's ${tag}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const early = await arbiterCommand(a1, `${tag}-a1`, first, 60_000);
        link!.thaw();
        const answer = await late;
        expect((await deskStats(c2.url)).stale, `${tag}: c2's write found the desk moved on`).toBeGreaterThan(before.stale);
        return [early, answer];
      } finally {
        link!.thaw();
      }
    };

    // A1 pairs round 1; both consoles have the draft.
    expect(await arbiterCommand(a1, 'pair', { type: 'pairNextRound' })).toMatchObject({ type: 'ack' });
    await until(() => deskRecords(roles.journalOf('c2')).some((r) => r.action.type === 'draft'), 'the draft on c2', 60_000, JOURNAL_POLL_MS);

    // A2 swaps board 1's colours while A1 publishes the draft: the publishing came first.
    const [published, swapped] = await race({ type: 'swapColours', board: 1, reason: 'colour history' }, { type: 'publishRound' }, 'publish');
    expect(published).toMatchObject({ type: 'ack' });
    expect(swapped).toMatchObject({
      type: 'refused',
      code: 'came-first',
      reason: expect.stringMatching(/^the publishing of round 1 \(A1\) came first from console c1: not carried out/),
    });
    expect(await arbiterCommand(a1, 'start', { type: 'startAll' })).toMatchObject({ type: 'ack' });
    await roles.waitBoards(c1.url, 'round 1 on the clocks', (b) => b.length === 5 && b.every((x) => x.status === 'running' && x.host?.reachable), 90_000);
    const [p1, p2] = await both(pairings);
    expect(p2.games).toEqual(p1.games);
    const game = (hallBoard: string): Game => p1.games.find((g) => g.hallBoard === hallBoard) ?? p1.games[Number(hallBoard) - 1]!;

    // Two different results for one game: A1's came first, A2's is refused.
    const g2 = game('2');
    const enter = (g: Game, result: string, reason: string) => ({ type: 'enterResult', round: 1, white: g.white.id, black: g.black.id, result, reason });
    const [r1, r2] = await race(enter(g2, '0-1', 'the players told me'), enter(g2, '1-0', 'scoresheets'), 'result');
    expect(r1).toMatchObject({ type: 'ack' });
    expect(r2).toMatchObject({
      type: 'refused',
      code: 'came-first',
      reason: expect.stringContaining(`the result 1-0 in round 1, #${g2.white.id} – #${g2.black.id} (A1), came first from console c1: not carried out`),
    });
    await untilBoth('1-0 on both consoles', async (u) => (await pairings(u)).games.find((g) => g.white.id === g2.white.id)?.result === '1-0');

    // Results for two different games: A2's is stale too, but still stands: checked again, carried out.
    const [g4, g5] = [game('4'), game('5')];
    const [r4, r5] = await race(enter(g5, '1/2-1/2', 'agreed'), enter(g4, '0-1', 'resigned'), 'other-game');
    expect([r4.type, r5.type]).toEqual(['ack', 'ack']);
    await untilBoth('both results on both consoles', async (u) => {
      const games = (await pairings(u)).games;
      return games.find((g) => g.white.id === g4.white.id)?.result === '0-1' && games.find((g) => g.white.id === g5.white.id)?.result === '1/2-1/2';
    });

    // Board 3's game ends on its clock (the arbiter's result on the board: a draw he rules, the 30-move
    // rule refusing an agreement this early); both confirm it at once.
    expect(
      await arbiterCommand(a1, 'end-3', { type: 'result', board: '3', result: '1/2-1/2', termination: 'threefold repetition (9.2)', drawBy: 'ruling' }),
    ).toMatchObject({
      type: 'ack',
    });
    await roles.waitBoards(c2.url, 'board 3 finished on c2', (b) => b.find((x) => x.id === '3')?.status === 'finished', 60_000);
    await roles.waitBoards(c1.url, 'board 3 finished on c1', (b) => b.find((x) => x.id === '3')?.status === 'finished', 60_000);
    await sameDesk();
    const g3 = game('3');
    const confirm = { type: 'confirmResult', round: 1, white: g3.white.id, black: g3.black.id };
    const confirmed = await Promise.all([arbiterCommand(a1, 'confirm-a1', confirm), arbiterCommand(a2, 'confirm-a2', confirm)]);
    expect(confirmed.map((a) => a.type).sort()).toEqual(['ack', 'refused']);
    // Refused as stale (the other's came first) or, had it read the other's already, by the desk itself.
    expect(String(confirmed.find((a) => a.type === 'refused')!.reason)).toMatch(
      new RegExp(
        `^(the confirmation of 1/2-1/2 in round 1, #${g3.white.id} – #${g3.black.id} \\(A[12]\\), came first from console c[12]|round 1: the clock's 1/2-1/2 for .* is confirmed already \\(by A[12]\\))`,
      ),
    );

    // Both consoles end with the same event: the same desk records in the same order, the stream's.
    await sameDesk();
    const desk1 = ours(roles.journalOf('c1'));
    expect(ours(roles.journalOf('c2'))).toEqual(desk1);
    // pair, publish, three results, one confirmation: the refused ones are nowhere.
    expect(desk1.map((r) => r.action.type)).toEqual(['draft', 'publish', 'result', 'result', 'result', 'result']);
    for (const g of [g2, g3, g4, g5]) expect(desk1.filter((r) => r.action.white === g.white.id)).toHaveLength(1);
    watcher = await connectBus({ servers: [server.url] });
    const stored = await watcher.jsm.streams.getMessage(subjects.stream, { last_by_subj: subjects.desk });
    expect(stored).toBeDefined();
    const [s1, s2] = await both(async (u) => (await fetch(`${u}/api/standings`)).json());
    expect(s2).toEqual(s1);
    const [q1, q2] = await both(pairings);
    expect(q2.games).toEqual(q1.games);
    expect(q1.games.find((g) => g.white.id === g3.white.id)?.result).toBe('1/2-1/2');

    // c2 restarted on its journal: its first desk command is decided on the desk as it stood.
    await c2.proc.stop();
    const c2again = await roles.console('c2', link.url);
    const a2again = await helloClient(c2again.url, { role: 'arbiter', token: c2.token, name: 'A2' });
    clients.push(a2again);
    const g1 = game('1');
    expect(await arbiterCommand(a2again, 'after-restart', enter(g1, '1-0', 'after the restart'))).toMatchObject({ type: 'ack' });
    for (const u of [c1.url, c2again.url]) {
      const deadline = Date.now() + 60_000;
      while ((await pairings(u)).games.find((g) => g.white.id === g1.white.id)?.result !== '1-0') {
        if (Date.now() > deadline) throw new Error(`the result after the restart is not on ${u}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }, 400_000);
});
