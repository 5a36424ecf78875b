// The attention queue belongs to the round on the boards: a flag fall of round 1 is in the queue while
// round 1 is on the boards and leaves it, for a page that stays connected, when round 2 is seated; it
// stays in the journal and in the history of round 1's game on that board.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyAttention, manualSource, startConsole, type Attention, type RunningConsole } from '../../arbiter-console/internal.ts';
import type { ClockDevice, DeviceListener } from '../../device-bridge/index.ts';
import { presetEvent } from '../../tournament/index.ts';
import { helloClient, type Message, type TestClient } from '../support/ws-client.ts';
import { until } from '../support/wait.ts';
import { oneSectionConsole } from './fixtures.ts';

let run: RunningConsole | undefined;
let client: TestClient | undefined;
const dirs: string[] = [];
afterEach(async () => {
  client?.ws.close();
  client = undefined;
  await run?.stop();
  run = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Item = { id: string; board: string; code: string; side?: string; at: number };

/** The queue as the page holds it: the snapshot's, each delta's boards' items replacing theirs (contract/attention.ts). */
function pageQueue(messages: readonly Message[]): Item[] {
  let queue: Attention[] = [];
  for (const m of messages) {
    if (m.type === 'snapshot') queue = m.attention as Attention[];
    if (m.type === 'delta' && m.attentionByBoard) queue = applyAttention(queue, m.attentionByBoard as Record<string, Attention[]>);
  }
  return queue;
}

/** The boards as the page holds them: the snapshot's, each delta's boards replacing theirs and its `gone` dropped. */
function pageBoards(messages: readonly Message[]): Map<string, unknown> {
  let boards = new Map<string, unknown>();
  for (const m of messages) {
    if (m.type === 'snapshot') boards = new Map((m.boards as { id: string }[]).map((b) => [b.id, b]));
    if (m.type === 'delta') {
      for (const b of m.boards as { id: string }[]) boards.set(b.id, b);
      for (const id of (m.gone as string[] | undefined) ?? []) boards.delete(id);
    }
  }
  return boards;
}

const ok = (outcome: { ok: boolean; reason?: string }): void => expect(outcome, outcome.reason).toMatchObject({ ok: true });

describe('the attention queue across the rounds of an event', () => {
  it("drops round 1's flag fall when round 2 is seated; the journal and round 1's board history keep it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-attention-'));
    dirs.push(dir);
    const event = presetEvent('cairns-cup-2019');
    const section = event.sections[0]!.id;
    const source = manualSource(0);
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, source, firstRound: true });
    const hall = run.hall;
    const desk = run.desks.get(section)!;
    expect(hall.roundOf('1')).toMatchObject({ section, round: 1 });
    client = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });

    ok(hall.command({ type: 'arriveAll' }, 'IA'));
    ok(hall.command({ type: 'startAll' }, 'IA'));
    expect(hall.view('1')!.status).toBe('running');
    const startAt = hall.view('1')!.asOf;
    ok(hall.command({ type: 'setTime', board: '1', side: 'white', ms: 1_000, reason: 'test' }, 'IA'));
    source.set(startAt + 1_000);
    expect(hall.view('1')!.flag).toEqual({ side: 'white', at: startAt + 1_000 });
    const flagId = `1:flag-fall:white:${startAt + 1_000}`;
    expect(hall.attention().map((a) => a.id)).toEqual([flagId]);
    await until(() => pageQueue(client!.messages).some((a) => a.id === flagId), "the flag fall in the page's queue");

    // The other games end on the board; round 1 is confirmed, round 2 paired and seated.
    for (const board of ['2', '3', '4', '5']) ok(hall.command({ type: 'result', board, result: '1-0', termination: 'resignation' }, 'IA'));
    ok(desk.command({ type: 'confirmRound', section }, 'IA'));
    ok(desk.command({ type: 'pairNextRound', section }, 'IA'));
    const seen = client.messages.length;
    ok(desk.command({ type: 'publishRound', section }, 'IA'));
    expect(hall.roundOf('1')).toMatchObject({ section, round: 2 });

    // The page is told at once (no other change of the queue comes to carry it): the queue is empty.
    expect(hall.attention()).toEqual([]);
    await client.next((m) => m.type === 'delta' && m.attentionByBoard !== undefined, "the queue after round 2's seat", seen);
    expect(pageQueue(client.messages)).toEqual([]);
    // The seat's delta carries round 2's games on every board, before any of them starts.
    const hallBoards = new Map([...hall.boards.keys()].map((id) => [id, JSON.parse(JSON.stringify(hall.view(id)))]));
    expect(pageBoards(client.messages)).toEqual(hallBoards);
    // A page that connects now gets the same.
    const late = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    expect(pageQueue(late.messages)).toEqual([]);
    late.ws.close();

    // The journal and round 1's game on board 1 keep the flag fall; round 2's game on board 1 has none.
    const flags = [...run.journal.entriesOf('1')].filter((e) => e.record.kind === 'clock' && e.record.event.type === 'flag');
    expect(flags.map((e) => [e.round, e.record.kind === 'clock' ? e.record.event.at : undefined])).toEqual([[1, startAt + 1_000]]);
    const history = async (query: string): Promise<{ what: string; at: number }[]> => {
      const answer = await fetch(`${run!.url}/api/history/1${query}`);
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { items: { what: string; at: number }[] }).items;
    };
    expect((await history(`?section=${section}&round=1`)).filter((h) => h.what.startsWith('flag'))).toEqual([
      expect.objectContaining({ what: 'flag (white)', at: startAt + 1_000 }),
    ]);
    expect((await history('')).filter((h) => h.what.startsWith('flag'))).toEqual([]);
  });

  it("keeps each board's device connection from round to round: connected stays connected, silent stays in the queue", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-attention-'));
    dirs.push(dir);
    const event = presetEvent('cairns-cup-2019');
    const section = event.sections[0]!.id;
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0), firstRound: true });
    const hall = run.hall;
    const desk = run.desks.get(section)!;
    // Two devices as a bridge presents them: each reports its connection once, as a real one does when it opens.
    const listeners = new Map<string, DeviceListener>();
    for (const boardId of ['1', '2']) {
      const device: ClockDevice = {
        boardId,
        kind: 'dgt',
        role: 'mirror',
        subscribe: (listener) => (listeners.set(boardId, listener), () => listeners.delete(boardId)),
        show: () => {},
        notify: () => {},
        open: async () => {},
        close: async () => {},
      };
      hall.attachDevice(device);
    }
    listeners.get('1')!({ type: 'connection', state: 'connected', detail: '/dev/ttyACM0' });
    listeners.get('2')!({ type: 'connection', state: 'disconnected', detail: 'unplugged' });
    expect(hall.view('1')!.device?.connection).toBe('connected');
    expect(
      hall
        .attention()
        .filter((a) => a.code === 'silent-board')
        .map((a) => a.board),
    ).toEqual(['2']);

    ok(hall.command({ type: 'arriveAll' }, 'IA'));
    ok(hall.command({ type: 'startAll' }, 'IA'));
    for (const board of ['1', '2', '3', '4', '5']) ok(hall.command({ type: 'result', board, result: '1-0', termination: 'resignation' }, 'IA'));
    ok(desk.command({ type: 'confirmRound', section }, 'IA'));
    ok(desk.command({ type: 'pairNextRound', section }, 'IA'));
    ok(desk.command({ type: 'publishRound', section }, 'IA'));
    expect(hall.roundOf('1')).toMatchObject({ section, round: 2 });

    // Round 2's games on the same boards: no new report from the devices, their state as it was.
    expect(hall.view('1')!.device?.connection).toBe('connected');
    expect(hall.view('2')!.device?.connection).toBe('disconnected');
    expect(
      hall
        .attention()
        .filter((a) => a.code === 'silent-board')
        .map((a) => a.board),
    ).toEqual(['2']);
    // And after a restart, rebuilt from the journal.
    await run.stop();
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, event, source: manualSource(0) });
    expect(
      run.hall
        .attention()
        .filter((a) => a.code === 'silent-board')
        .map((a) => a.board),
    ).toEqual(['2']);
  });

  it('a large round started in parts with its players late: each delta carries the items of the boards it changed, the page queue follows the hall', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-attention-'));
    dirs.push(dir);
    const boards = 250;
    const source = manualSource(0);
    run = await startConsole({ dataDir: dir, port: 0, noPage: true, source, ...oneSectionConsole({ boards }) });
    const hall = run.hall;
    client = await helloClient(run.url, { role: 'arbiter', token: run.newToken! });
    const seen = client.messages.length;
    // Nobody has arrived: every clock starts, each of its players in the queue as late; 100 boards a turn.
    ok(hall.command({ type: 'startAll' }, 'IA'));
    await until(() => [...hall.boards.values()].every((b) => b.state.status === 'running'), 'every clock started');
    const late = hall.attention().filter((a) => a.code === 'late-player');
    expect(late).toHaveLength(2 * boards);
    const ids = (queue: readonly { id: string }[]) => queue.map((a) => a.id).sort();
    await until(() => pageQueue(client!.messages).length === 2 * boards, "every late player in the page's queue");
    expect(ids(pageQueue(client.messages))).toEqual(ids(hall.attention()));
    // No delta carries the whole queue: each, at most the 100 boards of a part of the start.
    const deltas = client.messages.slice(seen).filter((m) => m.type === 'delta');
    expect(deltas.some((m) => 'attention' in m)).toBe(false);
    const carried = deltas.map((m) => Object.keys((m.attentionByBoard as Record<string, unknown> | undefined) ?? {}).length);
    expect(Math.max(...carried)).toBeLessThanOrEqual(100);
    expect(carried.reduce((a, b) => a + b, 0)).toBe(boards);

    // A late player's press (he has arrived) takes his item out; the page's queue follows, by that board alone.
    const before = client.messages.length;
    const toMove = hall.view('7')!.toMove;
    source.set(source.now() + 60_000);
    hall.record({ kind: 'clock', board: '7', event: { type: 'press', side: toMove, at: source.now(), by: { kind: 'device', deviceId: 'test' } } });
    const delta = await client.next((m) => m.type === 'delta' && m.attentionByBoard !== undefined, "board 7's items", before);
    expect(Object.keys(delta.attentionByBoard as object)).toEqual(['7']);
    await until(() => pageQueue(client!.messages).length === hall.attention().length, "the page's queue after the press");
    expect(ids(pageQueue(client.messages))).toEqual(ids(hall.attention()));
    expect(hall.attention().filter((a) => a.board === '7' && a.side === toMove)).toEqual([]);

    // The next round seated on the same 250 boards: the pages get every board of it, whole, a part of
    // at most 100 boards a delta.
    const round = [...hall.seated.values()][0]!;
    const beforeSeat = client.messages.length;
    ok(hall.seat({ ...round, round: round.round + 1 }));
    const hallBoards = (): Map<string, unknown> => new Map([...hall.boards.keys()].map((id) => [id, JSON.parse(JSON.stringify(hall.view(id)))]));
    await until(() => isDeepStrictEqual(pageBoards(client!.messages), hallBoards()), "the page's boards are the new round's");
    const seatDeltas = client.messages.slice(beforeSeat).filter((m) => m.type === 'delta');
    expect(Math.max(...seatDeltas.map((m) => (m.boards as unknown[]).length))).toBeLessThanOrEqual(100);
  });
});
