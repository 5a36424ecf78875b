// The server under load and attack: clients that do not read, that never say hello, that never
// answer a heartbeat, too many connections, and floods of wrong tokens. Each limit is asserted.
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startConsole, type ConsoleOptions, type RunningConsole } from '../../arbiter-console/internal.ts';
import { until } from '../support/wait.ts';
import { oneSectionConsole } from './fixtures.ts';
import { helloClient, openClient, type Message, type TestClient } from '../support/ws-client.ts';

const consoles: { run: RunningConsole; dir: string }[] = [];
const clients: TestClient[] = [];

async function serveRound(boards: number, server: ConsoleOptions['server'], prepare?: (dir: string) => Promise<void>): Promise<RunningConsole> {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-limits-'));
  await prepare?.(dir);
  const run = await startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: boards }), server: { ...server } });
  consoles.push({ run, dir });
  return run;
}

async function client(run: RunningConsole, hello: object, localAddress?: string): Promise<TestClient> {
  const c = await helloClient(run.url, hello, localAddress ? { localAddress } : {});
  clients.push(c);
  return c;
}

const press = (run: RunningConsole, board: string) => {
  const side = run.hall.view(board)!.toMove;
  run.hall.record({ kind: 'clock', board, event: { type: 'press', side, at: run.hall.source.now(), by: { kind: 'device', deviceId: 't' } } });
};

function started(run: RunningConsole): void {
  run.hall.command({ type: 'arriveAll' }, 'chief');
  run.hall.command({ type: 'startAll' }, 'chief');
}

/** Samples `value` every few ms until stopped; returns the largest seen. */
function watchMax(value: () => number): { stop(): number } {
  let max = value();
  const timer = setInterval(() => (max = Math.max(max, value())), 2);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, value());
    },
  };
}

/**
 * A data directory whose chief's hash an earlier version stored as scrypt, before fingerprints (only
 * scrypt can tell a guess from the token); returns the chief's token.
 */
function legacyChief(dir: string): string {
  const chief = randomBytes(18).toString('base64url');
  const salt = randomBytes(16);
  const stored = { algorithm: 'scrypt', salt: salt.toString('base64'), hash: scryptSync(chief, salt, 32).toString('base64') };
  writeFileSync(join(dir, 'arbiter-token.scrypt'), JSON.stringify(stored) + '\n');
  return chief;
}

/** A deputy issued on this start (a keyed hash), as the chief issues one; returns the token. */
async function issuedDeputy(run: RunningConsole): Promise<string> {
  const issued = await run.team.command({ type: 'issueCredential', name: 'IA Deputy', role: 'deputy' }, { id: 'chief', name: 'IA Chief', role: 'chief' });
  if (!issued.ok || issued.token === undefined) throw new Error('the deputy was not issued');
  return issued.token;
}

/** Wrong chief tokens from each attacker, one more whenever it is answered, until it is closed (3 wrong tokens a connection). */
function flood(attackers: readonly TestClient[]): void {
  for (const a of attackers) {
    a.ws.on('message', () => {
      if (a.messages.length < 3) a.send({ type: 'hello', role: 'arbiter', token: `guess-${randomBytes(6).toString('hex')}` });
    });
    a.send({ type: 'hello', role: 'arbiter', token: `guess-${randomBytes(6).toString('hex')}` });
  }
}

const streamSeqs = (messages: readonly Message[]) => messages.filter((m) => m.type === 'snapshot' || m.type === 'delta').map((m) => m.seq as number);

afterEach(() => {
  for (const c of clients.splice(0)) c.ws.terminate();
});

afterAll(async () => {
  for (const { run, dir } of consoles) {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

const LIMIT = 256 * 1024;

describe('a client that does not read', () => {
  it('is held back past the send-buffer limit (snapshots too), owed one snapshot, and cut off after behindMs: memory stays bounded', async () => {
    // No heartbeat within the wait: only being behind can cut this client off.
    const run = await serveRound(400, {
      rateLimit: { perSecond: 10_000, burst: 10_000 },
      limits: { sendBufferBytes: LIMIT, behindMs: 2_000, heartbeatMs: 60_000 },
    });
    started(run);
    const c = await client(run, { type: 'hello', role: 'spectator' });
    const snapshotBytes = Buffer.byteLength(JSON.stringify(c.messages.find((m) => m.type === 'snapshot')));
    expect(snapshotBytes).toBeGreaterThan(100_000);
    c.ws.pause();
    const buffered = watchMax(() => Math.max(0, ...run.server.sessions().map((s) => s.bufferedBytes)));
    // Each resync asks for a 400-board snapshot; a client that never reads must not make them pile up.
    for (let i = 0; i < 300; i++) c.send({ type: 'resync' });
    for (let i = 0; i < 50; i++) press(run, String((i % 400) + 1));
    // The loopback's kernel buffers take 4-5 MB of snapshots as if read. On a loaded machine the last
    // of those can leave the process after the burst is handled: the client has then caught up (as
    // far as the console can tell), owes nothing, and a burst that has ended sends it nothing more.
    // So it goes on asking while the round goes on, as a live hall would, until the kernel is full.
    let pressed = 50;
    const asking = setInterval(() => {
      c.send({ type: 'resync' });
      press(run, String((pressed++ % 400) + 1));
    }, 50);
    try {
      await until(() => run.server.sessions().some((s) => s.behind), 'the client to be behind');
      // behindMs, a 100 ms check, the 1 s grace for a closing handshake it never reads, and load.
      await until(() => run.server.clientCount() === 0, 'the client to be cut off', 10_000);
    } finally {
      clearInterval(asking);
    }
    expect(buffered.stop()).toBeLessThanOrEqual(LIMIT + snapshotBytes);
  });

  it("catches up with one snapshot, however many changes it missed, and ends in the hall's state", async () => {
    const run = await serveRound(400, { rateLimit: { perSecond: 10_000, burst: 10_000 }, limits: { sendBufferBytes: LIMIT, behindMs: 20_000 } });
    started(run);
    const c = await client(run, { type: 'hello', role: 'spectator' });
    c.ws.pause();
    for (let i = 0; i < 300; i++) c.send({ type: 'resync' });
    await until(() => run.server.sessions().some((s) => s.behind), 'the client to be behind');
    const behindAt = run.hall.version;
    // Every one of these presses is a flush that finds the client over its backlog (one timer each, before).
    for (let i = 0; i < 40; i++) {
      press(run, String(i + 1));
      await new Promise((r) => setTimeout(r, 5));
    }
    c.ws.resume();
    await until(
      () => streamSeqs(c.messages).length > 0 && c.messages.filter((m) => m.type === 'snapshot' || m.type === 'delta').at(-1)!.version === run.hall.version,
      'the latest state',
    );
    await new Promise((r) => setTimeout(r, 700)); // a pile of timers would send more snapshots by now
    const seqs = streamSeqs(c.messages);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // no gap, nothing twice
    const afterBehind = c.messages.filter((m) => (m.type === 'snapshot' || m.type === 'delta') && (m.version as number) > behindAt);
    expect(afterBehind.filter((m) => m.type === 'snapshot').length).toBeLessThanOrEqual(1);
    // What the client holds now is the hall's state.
    const lastSnapshot = c.messages.findLastIndex((m) => m.type === 'snapshot');
    const boards = new Map((c.messages[lastSnapshot]!.boards as { id: string }[]).map((b) => [b.id, b]));
    for (const m of c.messages.slice(lastSnapshot + 1)) if (m.type === 'delta') for (const b of m.boards as { id: string }[]) boards.set(b.id, b);
    for (let i = 1; i <= 40; i++) expect(boards.get(String(i))).toEqual(run.hall.view(String(i)));
  });

  it('gets its answers (errors too) queued only up to a bound, then is cut off', async () => {
    const run = await serveRound(400, {
      rateLimit: { perSecond: 10_000, burst: 10_000 },
      limits: { sendBufferBytes: LIMIT, behindMs: 60_000, queuedAnswers: 8 },
    });
    const c = await client(run, { type: 'hello', role: 'spectator' });
    c.ws.pause();
    for (let i = 0; i < 300; i++) c.send({ type: 'resync' });
    await until(() => run.server.sessions().some((s) => s.behind), 'the client to be behind');
    for (let i = 0; i < 9; i++) c.send({ type: 'no-such-message' });
    await until(() => run.server.clientCount() === 0, 'the client to be cut off');
  });
});

describe('liveness', () => {
  it('closes a connection that says no hello in time, and cuts one that stops answering the heartbeat', async () => {
    const run = await serveRound(3, { limits: { helloWithinMs: 300, heartbeatMs: 200 } });
    const silent = await openClient(run.url);
    clients.push(silent);
    await until(() => silent.closed !== undefined, 'the silent client to be closed');
    expect(silent.closed).toBe(1008);

    const healthy = await client(run, { type: 'hello', role: 'spectator' });
    const deaf = await client(run, { type: 'hello', role: 'spectator' });
    deaf.ws.pause(); // never reads the server's pings, so never answers them: a half-open tablet
    await until(() => run.server.clientCount() === 1, 'the deaf client to be cut off', 5_000);
    await new Promise((r) => setTimeout(r, 800)); // four more heartbeats
    expect(run.server.clientCount()).toBe(1);
    expect(healthy.closed).toBeUndefined();
    healthy.send({ type: 'ping', id: 'x' });
    expect(await healthy.next((m) => m.type === 'pong', 'the pong')).toMatchObject({ id: 'x', clock: { at: expect.any(Number), scale: 1 } });
  });

  it('caps connections: in all, and per address', async () => {
    // No slot kept for the team here: the cap on everyone else, alone (the team's are below).
    const run = await serveRound(3, { limits: { maxConnections: 6, teamConnections: 0, maxConnectionsPerAddress: 3 } });
    for (let i = 0; i < 3; i++) clients.push(await openClient(run.url, { localAddress: '127.0.0.2' }));
    await expect(openClient(run.url, { localAddress: '127.0.0.2' })).rejects.toThrow('upgrade refused: 503');
    for (let i = 0; i < 3; i++) clients.push(await openClient(run.url, { localAddress: '127.0.0.1' }));
    await expect(openClient(run.url, { localAddress: '127.0.0.3' })).rejects.toThrow('upgrade refused: 503');
    clients.pop()!.ws.close();
    await until(() => run.server.clientCount() === 5, 'a connection to close');
    clients.push(await openClient(run.url, { localAddress: '127.0.0.3' }));
  });
});

describe('the team always gets in', () => {
  const spectator = (run: RunningConsole, localAddress: string) => client(run, { type: 'hello', role: 'spectator' }, localAddress);
  const roles = (run: RunningConsole) =>
    run.server
      .sessions()
      .map((s) => s.role)
      .sort();

  it('keeps slots for the team: spectators from many addresses fill theirs, 3 at most from one, and the chief still logs in', async () => {
    const run = await serveRound(3, { limits: { maxConnections: 5, teamConnections: 2, maxConnectionsPerAddress: 3 } });
    for (let i = 0; i < 3; i++) await spectator(run, '127.0.0.2');
    await expect(openClient(run.url, { localAddress: '127.0.0.2' })).rejects.toThrow('upgrade refused: 503');
    for (let i = 0; i < 2; i++) await spectator(run, '127.0.0.3');
    expect(roles(run)).toEqual(Array(5).fill('spectator'));
    // Past the spectators' budget a connection gets one of the team's slots: a spectator's hello on it is refused.
    const late = await spectator(run, '127.0.0.4');
    expect(late.messages).toEqual([
      { type: 'error', code: 'full', reason: 'the console has 5 spectators and connections already; the slots left are kept for the team' },
    ]);
    await until(() => late.closed !== undefined, 'the late spectator to be closed');
    expect(late.closed).toBe(1013);
    await until(() => run.server.clientCount() === 5, 'its slot to be free');
    const chief = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Chief' }, '127.0.0.4');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter', arbiter: { role: 'chief', name: 'IA Chief' } });
    const deputy = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Deputy' }, '127.0.0.3');
    expect(deputy.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
    expect(roles(run)).toEqual([...Array(2).fill('arbiter'), ...Array(5).fill('spectator')]);
    // Every slot taken, no spectator idle (the default is 30 s), none waiting to log in: refused.
    await expect(openClient(run.url, { localAddress: '127.0.0.5' })).rejects.toThrow('upgrade refused: 503');
    // Arbiters do not count against their address: with 2 spectators and the deputy there, one more from 127.0.0.3 gets in once the chief leaves.
    chief.ws.close();
    await until(() => run.server.clientCount() === 6, 'the chief to leave');
    const again = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken }, '127.0.0.3');
    expect(again.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
    for (const c of [deputy, again]) expect(c.closed).toBeUndefined();
  });

  it('drops the longest-idle spectator for a new connection when the spectators are full, not the oldest', async () => {
    // Idle from 0 ms: whoever has said nothing for longest gives way.
    const run = await serveRound(3, { limits: { maxConnections: 3, teamConnections: 1, spectatorIdleMs: 0 } });
    const oldest = await spectator(run, '127.0.0.2');
    const idlest = await spectator(run, '127.0.0.3');
    const third = await spectator(run, '127.0.0.4');
    oldest.send({ type: 'ping', id: 'still here' });
    await oldest.next((m) => m.type === 'pong', 'the pong');
    const newcomer = await spectator(run, '127.0.0.5');
    expect(newcomer.messages[0]).toMatchObject({ type: 'welcome', role: 'spectator' });
    await until(() => idlest.closed !== undefined, 'the idlest spectator to be dropped');
    expect(idlest.closed).toBe(1013);
    expect([oldest.closed, third.closed, newcomer.closed]).toEqual([undefined, undefined, undefined]);
    expect(roles(run)).toEqual(Array(3).fill('spectator'));
    // The team's slot stays the team's: a chief past the spectators gets in beside them.
    const chief = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken }, '127.0.0.6');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
  });

  it('lets a connection that never logs in on a team slot give way to the next one', async () => {
    const run = await serveRound(3, { limits: { maxConnections: 2, teamConnections: 1 } });
    for (const a of ['127.0.0.2', '127.0.0.3']) await spectator(run, a);
    const squatter = await openClient(run.url, { localAddress: '127.0.0.4' });
    clients.push(squatter);
    const chief = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken }, '127.0.0.5');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
    await until(() => squatter.closed !== undefined, 'the squatter to give way');
    expect(squatter.closed).toBe(1013);
  });
});

describe('logins at once', () => {
  it('welcomes every hello that comes at once before any of their snapshots goes; each gets its welcome, then its snapshot', async () => {
    const run = await serveRound(200, {});
    const chief = { id: 'chief', name: 'IA Chief', role: 'chief' } as const;
    const tokens: string[] = [];
    for (let i = 0; i < 30; i++) {
      const issued = await run.team.command({ type: 'issueCredential', name: `Deputy ${i + 1}`, role: 'deputy' }, chief);
      tokens.push(issued.ok ? issued.token! : 'not issued');
    }
    // 30 arbiters (every other one asking for its first screen) and 10 spectators, every socket open before any hello.
    const hellos = [
      ...tokens.map((token, i) => ({ type: 'hello', role: 'arbiter', token, ...(i % 2 === 0 ? { firstBoards: 10 } : {}) })),
      ...Array.from({ length: 10 }, (_, i) => ({ type: 'hello', role: 'spectator', ...(i % 2 === 0 ? { firstBoards: 10 } : {}) })),
    ];
    const team = await Promise.all(hellos.map((_, i) => openClient(run.url, { localAddress: `127.0.1.${i + 1}` })));
    clients.push(...team);
    // What the server hands to its sockets, in order (this process runs the console: its sockets are ws's too).
    const handed: string[] = [];
    const send = WebSocket.prototype.send;
    vi.spyOn(WebSocket.prototype, 'send').mockImplementation(function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      const head = Buffer.isBuffer(data) || typeof data === 'string' ? String(data).slice(0, 20) : '';
      for (const type of ['welcome', 'snapshot']) if (head.startsWith(`{"type":"${type}"`)) handed.push(type);
      return (send as (...a: unknown[]) => void).call(this, data, ...rest);
    });
    try {
      // Every hello written in one turn: the console reads them all in one turn of its own.
      hellos.forEach((hello, i) => team[i]!.send(hello));
      await Promise.all(team.map((c) => c.next((m) => m.type === 'snapshot', 'the snapshot')));
    } finally {
      vi.restoreAllMocks();
    }
    expect(handed).toEqual([...Array(40).fill('welcome'), ...Array(40).fill('snapshot')]);
    team.forEach((c, i) => {
      expect(c.messages[0]).toMatchObject({ type: 'welcome', role: hellos[i]!.role });
      expect(c.messages[1]).toMatchObject({ type: 'snapshot', seq: 1, ...(i % 2 === 0 ? { toCome: 190 } : {}) });
      expect((c.messages[1]!.boards as unknown[]).length).toBe(i % 2 === 0 ? 10 : 200);
    });
  });
});

describe('wrong tokens', () => {
  it('300 wrong logins from one address: one check at a time, locked out after 5, while the chief logs in and the page answers', async () => {
    const run = await serveRound(3, { login: { concurrent: 2, queued: 8, maxFailures: 5 }, limits: { maxConnectionsPerAddress: 400 } });
    const running = watchMax(() => run.server.gate.running);
    const attackers = await Promise.all(Array.from({ length: 300 }, () => openClient(run.url, { localAddress: '127.0.0.2' })));
    clients.push(...attackers);
    // Each attacker tries again whenever it is told to wait, until it gets a verdict.
    const verdicts: string[] = [];
    for (const a of attackers) {
      a.ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as Message;
        if (m.code === 'busy') setTimeout(() => a.send({ type: 'hello', role: 'arbiter', token: 'guessed-token' }), 100);
        else verdicts.push(m.code as string);
      });
      a.send({ type: 'hello', role: 'arbiter', token: 'guessed-token' });
    }
    const chief = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Chief' }, '127.0.0.1');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter', arbiter: { role: 'chief', name: 'IA Chief' } });
    expect((await fetch(`${run.url}/health`)).status).toBe(200);
    await until(() => verdicts.length === 300, 'every attacker to get a verdict');
    expect(verdicts.filter((c) => c === 'bad-token')).toHaveLength(5);
    expect(verdicts.filter((c) => c === 'locked-out')).toHaveLength(295);
    expect(running.stop()).toBeLessThanOrEqual(2);
    const late = await client(run, { type: 'hello', role: 'arbiter', token: 'one-more-guess' }, '127.0.0.2');
    expect(late.messages.at(-1)).toMatchObject({ type: 'error', code: 'locked-out' });
    // A valid token is told at once, so it is no guess: it gets in from a locked-out address too.
    const known = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken }, '127.0.0.2');
    expect(known.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter' });
  }, 90_000);

  it('wrong logins from many addresses: never more than `concurrent` checks at once, the rest told busy', async () => {
    // A chief's hash from before fingerprints: only scrypt tells a guess, so the guesses reach the gate's queue.
    const run = await serveRound(3, { login: { concurrent: 2, queued: 4, maxFailures: 5 } }, async (dir) => void legacyChief(dir));
    const running = watchMax(() => run.server.gate.running);
    const waiting = watchMax(() => run.server.gate.waiting);
    const attackers = await Promise.all(Array.from({ length: 40 }, (_, i) => openClient(run.url, { localAddress: `127.0.0.${10 + i}` })));
    clients.push(...attackers);
    for (const a of attackers) a.send({ type: 'hello', role: 'arbiter', token: 'guessed-token' });
    await until(() => attackers.every((a) => a.messages.some((m) => m.type === 'error')), 'every attacker to be answered');
    const codes = attackers.map((a) => a.messages.find((m) => m.type === 'error')!.code);
    expect(running.stop()).toBe(2);
    expect(waiting.stop()).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => c === 'busy').length).toBeGreaterThan(0);
    expect(codes.filter((c) => c === 'bad-token').length + codes.filter((c) => c === 'busy').length).toBe(40);
  });
});

describe('a real token in a flood of wrong ones', () => {
  it('200 addresses guessing: every guess turned away at once, none checked by scrypt, the chief checked at once', async () => {
    const run = await serveRound(3, { login: { concurrent: 2, queued: 8, maxFailures: 1000 } });
    const attackers = await Promise.all(Array.from({ length: 200 }, (_, i) => openClient(run.url, { localAddress: `127.0.2.${i + 1}` })));
    clients.push(...attackers);
    flood(attackers);
    await until(() => run.server.gate.turnedAway >= 200, 'the flood to be under way');
    // A token not used since the start: no shortcut through the tokens already accepted.
    const chief = await client(run, { type: 'hello', role: 'arbiter', token: run.newToken, name: 'IA Chief' }, '127.0.0.9');
    expect(chief.messages[0]).toMatchObject({ type: 'welcome', role: 'arbiter', arbiter: { role: 'chief' } });
    await until(() => attackers.every((a) => a.closed !== undefined), 'every attacker to be closed after 3 wrong tokens');
    // Nothing was checked by scrypt (the chief's hash is a keyed one); all 600 guesses were answered at once.
    expect(run.server.gate.checks).toBe(0);
    expect(run.server.gate.turnedAway).toBe(600);
    for (const a of attackers) expect(a.messages.map((m) => m.code)).toEqual(['bad-token', 'bad-token', 'bad-token']);
  }, 60_000);

  it("a deputy's token, never used since the start, is checked before the queue of guesses at a hash from before fingerprints drains", async () => {
    const run = await serveRound(3, { login: { concurrent: 2, queued: 64, maxFailures: 1000 } }, async (dir) => void legacyChief(dir));
    const deputyToken = await issuedDeputy(run);
    const gate = run.server.gate;
    const attackers = await Promise.all(Array.from({ length: 40 }, (_, i) => openClient(run.url, { localAddress: `127.0.3.${i + 1}` })));
    clients.push(...attackers);
    flood(attackers);
    await until(() => gate.waiting >= 30, 'the guesses to queue for scrypt');
    const deputy = await openClient(run.url, { localAddress: '127.0.0.9' });
    clients.push(deputy);
    let answeredWith: { checks: number; waiting: number } | undefined;
    deputy.ws.once('message', () => (answeredWith = { checks: gate.checks, waiting: gate.waiting }));
    const checksBefore = gate.checks;
    deputy.send({ type: 'hello', role: 'arbiter', token: deputyToken });
    expect(await deputy.next((m) => m.type === 'welcome' || m.type === 'error', 'the deputy answered')).toMatchObject({
      type: 'welcome',
      arbiter: { name: 'IA Deputy' },
    });
    // Behind at most the `concurrent` checks already running: its own and the few started beside it
    // (as the others ended, until its welcome reached the client) are all, and the guesses that were
    // waiting still wait (without the fingerprint it would be answered after every one of them).
    expect(answeredWith!.checks - checksBefore).toBeLessThanOrEqual(2 * 2 + 1);
    expect(answeredWith!.waiting).toBeGreaterThanOrEqual(20);
  }, 60_000);
});
