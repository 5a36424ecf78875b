// What every session is sent: snapshots, coalesced deltas and the tournament view, built once and
// shared. Board views are serialized once per board version, and a snapshot's boards encoded once for
// every session that asks until one changes (each session's snapshot is its own small head, then that
// shared part, as fragments of one message). A page asks for its first screen first (`firstBoards`):
// its snapshot holds those boards, and the others and the tournament view follow when it asks (`rest`),
// the first screen and the rest each encoded once for every page that asks. Spectators, who may be thousands, share one stream: one
// coalescer, one delta body per tick, serialized and encoded once and handed to every spectator's
// socket behind its own `{"type":"delta","seq":N,` (the protocol's seq stays per connection); each
// arbiter's deltas are coalesced per session, a delta's body built and encoded once for all the
// sessions flushing the same changes in a turn. A delta carries the attention items of the boards
// whose items changed, never the whole queue: its size is the change's, not the hall's (at a round's
// start, 2,000 late players' items sent whole with each part and each first press held the event
// loop for seconds). The tournament view is built, diffed and serialized once per role in a worker
// thread (tournament-builder.ts), encoded once per role here and sent as a patch: the clocks never
// wait for it. The snapshot after a hello and the rest a page asks for wait in a queue, written a few
// milliseconds' worth per turn of the event loop, first snapshots before rests: every hello read in
// a turn is welcomed before any of them (200 tablets logging in at once each wait for their own
// welcome, not for the snapshots of all those before them).
import type { ClientSession } from './client-session.ts';
import { Coalescer, type CoalescerTimers, type Pending } from './coalescer.ts';
import type { Board, HallChange, PlayingHall } from '../hall/index.ts';
import { byHallNumber, type ClockReference } from '../contract/index.ts';
import type { Team } from '../team/index.ts';
import type { TournamentDesk } from '../desk/index.ts';
import { logLine } from '../start/index.ts';
import { workerBuilder, type BuilderSetup, type BuiltViews, type TournamentBuilder, type ViewRequest, type ViewRole } from './tournament-builder.ts';

/** The lists of boards encoded once for every session: a whole snapshot's, a first screen's, the rest after it. */
type BoardList = 'all' | 'first' | 'rest';

/**
 * The longest a burst of changes waits for its tournament message, however many pages there are: the
 * byte budget spaces the builds, this bounds how stale a page's tournament view gets.
 */
const TOURNAMENT_MAX_SPACING_MS = 5000;

/** Owed snapshots and rests are written until this many ms of a turn went on them, then the next turn goes on. */
const OWED_MS_PER_TURN = 5;

/**
 * The longest part of a spectators' delta handed out in one turn, however busy the loop: with the rest
 * of the turn (the team's deltas of the same changes) it stays under the 50 ms a task may hold the loop
 * (at 60 ms, four times the default part, a round's start delta of 540 KiB to 190 spectators held it
 * 51-59 ms; at 40 ms, 45-71 ms).
 */
const HAND_OUT_MAX_PART_MS = 25;

/**
 * What the snapshots and rests written in one turn of the event loop share, built for the first of them
 * (nothing changes the hall within a turn): the hall's state in a snapshot's head (the queue of 1,500
 * items at 1,000 boards is most of it), the boards in the page's order, the shared board lists. A
 * snapshot on its own (a resync) makes its own.
 */
interface TurnParts {
  /** round, attention, console and sectors, as JSON members. */
  state?: string;
  ordered?: readonly string[];
  /** Encoded board lists, by their key and ids. */
  readonly lists: Map<string, Buffer>;
}

const newTurn = (): TurnParts => ({ lists: new Map() });

interface SentView {
  readonly version: number;
  /** The `tournament` message, encoded once for every session. */
  readonly text: Buffer;
}

export interface BroadcastOptions {
  readonly hall: PlayingHall;
  readonly desk: TournamentDesk | undefined;
  /** An event console's every section (the view then carries them all in `sections`). */
  readonly desks?: ReadonlyMap<string, TournamentDesk>;
  readonly team: Team | undefined;
  /** A burst of results becomes one tournament message per this many ms (default 500). */
  readonly tournamentIntervalMs?: number;
  /**
   * What the tournament messages may write to all the sockets together, on average (default 8 MiB/s):
   * after a build whose messages came to `n` bytes in all, the next waits `n` / this after it was sent
   * (within `tournamentIntervalMs` and TOURNAMENT_MAX_SPACING_MS).
   */
  readonly tournamentBytesPerSecond?: number;
  /** A build's tournament messages are written to the sessions this many ms a turn (at least one session; default 10). */
  readonly tournamentMsPerTurn?: number;
  /** Who builds the tournament messages (default a worker thread: tournament-builder.ts). */
  readonly tournamentBuilder?: (setup: BuilderSetup) => TournamentBuilder;
  /**
   * The spectators' stream: its timers and its tick (at most one delta per `tickMs`, key events
   * included); each delta is handed to their sockets `handOutMs` a turn of the event loop (default 15).
   */
  readonly spectatorStream: { readonly timers: CoalescerTimers; readonly tickMs: number; readonly handOutMs?: number };
}

export class Broadcast {
  readonly sessions = new Set<ClientSession>();
  readonly #hall: PlayingHall;
  readonly #desk: TournamentDesk | undefined;
  readonly #desks: ReadonlyMap<string, TournamentDesk> | undefined;
  readonly #team: Team | undefined;
  readonly #boardText = new Map<string, { board: Board; version: number; text: string }>();
  /**
   * Lists of boards as the end of a message (`...]}`): a whole snapshot's, a first screen's and the rest
   * after it, each encoded once while none of its boards changes, with the board texts it was made of.
   */
  readonly #boardLists = new Map<BoardList, { readonly texts: readonly string[]; readonly encoded: Buffer }>();
  /** The spectators' one stream. */
  readonly #spectators: Coalescer;
  readonly #handOutMs: number;
  /** The spectators' delta being handed out: the sessions still to get it, each with the seq it had at the tick. */
  #handing:
    | {
        readonly body: Buffer;
        readonly to: readonly { readonly session: ClientSession; readonly seq: number }[];
        next: number;
        /** When the last part of the hand-out ended. */
        partEnded?: number;
      }
    | undefined;
  #handingTurn: NodeJS.Immediate | undefined;
  /** Delta bodies of this turn of the event loop, by content, encoded (every session flushing now shares them). */
  #deltaBodies = new Map<string, Buffer>();
  #deltaBodiesClear: NodeJS.Immediate | undefined;
  readonly #sent: Partial<Record<ViewRole, SentView>> = {};
  readonly #intervalMs: number;
  readonly #bytesPerSecond: number;
  readonly #tournamentMsPerTurn: number;
  #tournamentSentAt = -Infinity;
  /** No build before this (performance.now()): the last build's messages, sent, spaced by their bytes. */
  #tournamentNextAt = -Infinity;
  #tournamentTimer: NodeJS.Timeout | undefined;
  /** The desks whose views the pages get, the view's own first. */
  readonly #viewDesks: readonly TournamentDesk[];
  readonly #builder: TournamentBuilder | undefined;
  #building = false;
  #changedWhileBuilding = false;
  #stopped = false;
  readonly #unsubscribe: (() => void)[] = [];
  /** Sessions welcomed and owed their first snapshot (with the `firstBoards` they asked for), in the order of their hellos. */
  readonly #firstSnapshots: { readonly session: ClientSession; readonly firstBoards: number | undefined }[] = [];
  /** Sessions that asked for the rest of their first screen, in the order they asked. */
  readonly #rests: ClientSession[] = [];
  #owedTurn: NodeJS.Immediate | undefined;

  constructor(options: BroadcastOptions) {
    this.#hall = options.hall;
    this.#desk = options.desk;
    this.#desks = options.desks && options.desks.size > 1 ? options.desks : undefined;
    this.#team = options.team;
    this.#intervalMs = options.tournamentIntervalMs ?? 500;
    this.#bytesPerSecond = options.tournamentBytesPerSecond ?? 8 * 1024 * 1024;
    this.#tournamentMsPerTurn = options.tournamentMsPerTurn ?? 10;
    this.#viewDesks = this.#desks ? [...this.#desks.values()] : this.#desk ? [this.#desk] : [];
    const first = this.#viewDesks[0];
    const make = options.tournamentBuilder ?? ((setup: BuilderSetup) => workerBuilder(setup, (reason) => logLine(process.stderr, 'zeitnot serve', reason)));
    this.#builder = first ? make({ event: first.event, sections: this.#viewDesks.map((d) => d.section.id) }) : undefined;
    const pace = options.spectatorStream;
    this.#spectators = new Coalescer(pace.timers, (pending) => this.#flushSpectators(pending), 1, pace.tickMs);
    this.#handOutMs = pace.handOutMs ?? 15;
    this.#unsubscribe.push(this.#hall.subscribe((change) => this.#onHall(change)));
    for (const d of this.#viewDesks) this.#unsubscribe.push(d.subscribe(() => this.#tournamentChanged()));
    if (this.#team)
      this.#unsubscribe.push(
        this.#team.subscribe(
          (change) => change.type !== 'revokeCredential' && this.#onHall({ boards: [], key: true, attention: false, attentionBoards: [], round: true }),
        ),
      );
  }

  reference(): ClockReference {
    return { at: this.#hall.source.now(), scale: this.#hall.source.scale };
  }

  /** The first tournament messages are built at once: the first page to say hello gets them. */
  start(): void {
    this.#buildTournament();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const u of this.#unsubscribe) u();
    clearTimeout(this.#tournamentTimer);
    this.#spectators.stop();
    if (this.#deltaBodiesClear) clearImmediate(this.#deltaBodiesClear);
    if (this.#owedTurn) clearImmediate(this.#owedTurn);
    if (this.#handingTurn) clearImmediate(this.#handingTurn);
    await this.#builder?.stop();
  }

  /**
   * The snapshot a session is owed after its welcome, queued: it goes after every hello read in this
   * turn is welcomed, and nothing else is streamed to the session before it (ClientSession.stream).
   */
  afterWelcome(session: ClientSession, firstBoards?: number): void {
    session.firstSnapshotOwed = true;
    this.#firstSnapshots.push({ session, firstBoards });
    this.#owe();
  }

  /** The rest of a first screen the client asked for, queued behind the first snapshots still owed. */
  askRest(session: ClientSession): void {
    this.#rests.push(session);
    this.#owe();
  }

  #owe(): void {
    this.#owedTurn ??= setImmediate(() => this.#sendOwed());
  }

  /** Owed first snapshots, then rests, for a few ms of this turn; what is left goes on in the next. */
  #sendOwed(): void {
    this.#owedTurn = undefined;
    const started = performance.now();
    const turn = newTurn();
    while (performance.now() - started < OWED_MS_PER_TURN) {
      const first = this.#firstSnapshots.shift();
      if (first) {
        first.session.firstSnapshotOwed = false;
        if (first.session.open && this.sessions.has(first.session)) this.snapshot(first.session, first.firstBoards, turn);
        continue;
      }
      const rest = this.#rests.shift();
      if (!rest) return;
      if (rest.open && this.sessions.has(rest)) this.rest(rest, turn);
    }
    if (this.#firstSnapshots.length > 0 || this.#rests.length > 0) this.#owe();
  }

  /**
   * The whole state, then the tournament view: after hello (afterWelcome), on resync, after catching up. A hello that
   * asks for `firstBoards` gets the first screen's boards only (what a page at 1,000 boards draws first):
   * the others and the tournament view wait until it asks for them (`rest`), so its first rows are not
   * held up by a megabyte it does not show yet.
   */
  snapshot(session: ClientSession, firstBoards?: number, turn: TurnParts = newTurn()): void {
    const hall = this.#hall;
    const first = firstBoards !== undefined && hall.boards.size > firstBoards ? this.#firstScreen(session, firstBoards, turn) : undefined;
    turn.state ??= JSON.stringify({
      round: hall.roundView(),
      attention: hall.attention(),
      console: hall.consoleStatus(),
      sectors: this.#team?.sectors() ?? [],
    }).slice(1, -1);
    // The clock's reference is each session's own: it says the console's time as the snapshot is written.
    const head = `"version":${hall.version},"clock":${JSON.stringify(this.reference())},${turn.state}${first ? `,"toCome":${first.rest.length}` : ''}`;
    // None yet: the first build is under way and goes to every session that has none.
    const tournament = first ? undefined : this.#sent[Broadcast.roleOf(session)];
    const boards = first ? this.#boardList(first.shared ? 'first' : undefined, first.ids, turn) : this.#boardList('all', [...hall.boards.keys()], turn);
    const snapshot = { fragments: [`{"type":"snapshot","seq":${session.seq + 1},${head},"boards":[`, boards] };
    if (!session.streamSnapshot(tournament ? [snapshot, tournament.text] : [snapshot])) return;
    session.seq += 1;
    session.restOwed = first?.rest;
    if (tournament) session.tournamentVersion = tournament.version;
  }

  /** The boards a first-screen snapshot left out, as one delta, then the tournament view (the client asked). */
  rest(session: ClientSession, turn: TurnParts = newTurn()): void {
    const owed = session.restOwed;
    if (!owed) return;
    session.restOwed = undefined;
    const hall = this.#hall;
    const ids = owed.filter((id) => hall.boards.has(id));
    const head = JSON.stringify({ version: hall.version, clock: this.reference() });
    const shared = session.arbiter?.sector === undefined;
    const delta = {
      fragments: [`{"type":"delta","seq":${session.seq + 1},${head.slice(1, -1)},"boards":[`, this.#boardList(shared ? 'rest' : undefined, ids, turn)],
    };
    const tournament = this.#sent[Broadcast.roleOf(session)];
    // Behind, it gets a whole snapshot when it catches up (the tournament view with it).
    if (!session.streamSnapshot(tournament ? [delta, tournament.text] : [delta])) return;
    session.seq += 1;
    if (tournament) session.tournamentVersion = tournament.version;
  }

  /**
   * The first `n` boards as the page orders them (by hall board number), a sector arbiter's own sector's
   * first, and the others; `shared` when every session that asks gets the same.
   */
  #firstScreen(session: ClientSession, n: number, turn: TurnParts): { ids: readonly string[]; rest: readonly string[]; shared: boolean } {
    const own = session.arbiter?.sector;
    const members = own === undefined ? undefined : (this.#team?.members(own) ?? new Set<string>());
    turn.ordered ??= [...this.#hall.boards.keys()].sort(byHallNumber);
    // A stable sort: within his sector and outside it, the boards keep the page's order.
    const ordered = members ? [...turn.ordered].sort((a, b) => Number(!members.has(a)) - Number(!members.has(b))) : turn.ordered;
    return { ids: ordered.slice(0, n), rest: ordered.slice(n), shared: members === undefined };
  }

  /** The coalesced changes of one arbiter's session. */
  delta(session: ClientSession, pending: Pending): void {
    // A dropped delta is no gap: a session that is behind gets a snapshot when it catches up.
    if (session.stream({ fragments: [`{"type":"delta","seq":${session.seq + 1},`, this.#deltaBody(pending)] })) session.seq += 1;
  }

  /**
   * One delta body for every spectator, encoded once; one that is behind drops it and gets a snapshot
   * when it catches up. Handed out a few ms a turn (a write to each of 5,000 sockets held the turn for
   * ~250 ms, and the team's deltas behind it). A tick that comes while the last delta is still being
   * handed out waits for it in the spectators' coalescer ('busy'), its changes gathered there with the
   * next ones: when the sockets take longer than a tick, the spectators get fewer deltas, each with more
   * boards, and the event loop is never held.
   */
  #flushSpectators(pending: Pending): boolean | 'busy' {
    if (this.#handing) return 'busy';
    let body: Buffer | undefined;
    const to: { session: ClientSession; seq: number }[] = [];
    for (const session of this.sessions) {
      if (session.role.kind !== 'spectator') continue;
      body ??= this.#deltaBody(pending);
      to.push({ session, seq: session.seq });
    }
    if (body === undefined) return false;
    this.#handing = { body, to, next: 0 };
    this.#handOut();
    return true;
  }

  /**
   * The spectators' delta to the sessions still to get it, for a part of this turn (at least one); the
   * others in the next turns. The part is `handOutMs`, or as long as everything else took since the
   * last part, up to four times that and HAND_OUT_MAX_PART_MS: the spectators get half the loop when it
   * is busy, and a team delta waits for one part at most. The hand-out ends a turn after its last part:
   * what waited for it starts then, not back to back with that part (two parts in one turn held the
   * loop 51-64 ms after a round's start).
   */
  #handOut(): void {
    this.#handingTurn = undefined;
    const handing = this.#handing;
    if (!handing) return;
    if (handing.next === handing.to.length) {
      this.#handing = undefined;
      this.#spectators.ready();
      return;
    }
    const now = performance.now();
    const others = handing.partEnded === undefined ? 0 : now - handing.partEnded;
    const until = now + Math.min(4 * this.#handOutMs, HAND_OUT_MAX_PART_MS, Math.max(this.#handOutMs, others));
    do {
      const { session, seq } = handing.to[handing.next++]!;
      // Sent a snapshot since the tick (it holds this change), or gone: nothing to send.
      if (session.seq !== seq || !this.sessions.has(session)) continue;
      if (session.stream({ fragments: [`{"type":"delta","seq":${session.seq + 1},`, handing.body] })) session.seq += 1;
    } while (handing.next < handing.to.length && performance.now() < until);
    handing.partEnded = performance.now();
    this.#handingTurn = setImmediate(() => this.#handOut());
  }

  /**
   * These boards' views as the end of a message; a list kept under `key` is encoded again only when one
   * of its boards changed, and looked at once a turn (then taken from `turn`).
   */
  #boardList(key: BoardList | undefined, ids: readonly string[], turn: TurnParts): Buffer {
    const inTurn = key === undefined ? undefined : `${key}|${ids.join(',')}`;
    const already = inTurn === undefined ? undefined : turn.lists.get(inTurn);
    if (already) return already;
    const texts = ids.map((id) => this.#board(id));
    const cached = key === undefined ? undefined : this.#boardLists.get(key);
    let encoded: Buffer;
    if (cached && cached.texts.length === texts.length && cached.texts.every((t, i) => t === texts[i])) encoded = cached.encoded;
    else {
      encoded = Buffer.from(`${texts.join(',')}]}`);
      if (key !== undefined) this.#boardLists.set(key, { texts, encoded });
    }
    if (inTurn !== undefined) turn.lists.set(inTurn, encoded);
    return encoded;
  }

  /** What follows a delta's `seq`: built and encoded once per change for every session it goes to in this turn of the event loop. */
  #deltaBody(pending: Pending): Buffer {
    const key = `${this.#hall.version}|${pending.attention ? 'a' : ''}${pending.round ? 'r' : ''}|${[...pending.boards].join(',')}|${[...pending.attentionBoards].join(',')}`;
    let body = this.#deltaBodies.get(key);
    if (body === undefined) {
      const hall = this.#hall;
      const head: Record<string, unknown> = { version: hall.version, clock: this.reference() };
      if (pending.attentionBoards.size > 0) head.attentionByBoard = Object.fromEntries([...pending.attentionBoards].map((id) => [id, hall.attentionOn(id)]));
      if (pending.attention) head.console = hall.consoleStatus();
      if (pending.round) {
        head.round = hall.roundView();
        head.sectors = this.#team?.sectors() ?? [];
      }
      // A board a seat took off the tables is named as gone, or a page would keep showing its last game.
      const gone = [...pending.boards].filter((id) => !hall.boards.has(id));
      if (gone.length > 0) head.gone = gone;
      const boards = [...pending.boards]
        .filter((id) => hall.boards.has(id))
        .map((id) => this.#board(id))
        .join(',');
      body = Buffer.from(`${JSON.stringify(head).slice(1, -1)},"boards":[${boards}]}`);
      this.#deltaBodies.set(key, body);
      this.#deltaBodiesClear ??= setImmediate(() => {
        this.#deltaBodies = new Map();
        this.#deltaBodiesClear = undefined;
      });
    }
    return body;
  }

  /** A board's view serialized, once per version of the game on it (a new round's board starts again at version 0: its own entry). */
  #board(id: string): string {
    const board = this.#hall.boards.get(id)!;
    const version = this.#hall.versionOf(id)!;
    const cached = this.#boardText.get(id);
    if (cached && cached.board === board && cached.version === version) return cached.text;
    const text = JSON.stringify(this.#hall.view(id)!);
    this.#boardText.set(id, { board, version, text });
    return text;
  }

  #onHall(change: HallChange): void {
    for (const session of this.sessions) if (session.role.kind === 'arbiter') session.coalescer.mark(change.boards, change);
    // Key events too wait for the spectators' tick: each delta is a write to every spectator's socket.
    this.#spectators.mark(change.boards, { ...change, key: false });
  }

  static roleOf(session: ClientSession): ViewRole {
    return session.role.kind === 'arbiter' ? 'arbiter' : 'spectator';
  }

  /** The whole view to a session; the bytes that went out. */
  #sendWholeTournament(session: ClientSession): number {
    const current = this.#sent[Broadcast.roleOf(session)];
    if (!current || !session.stream(current.text)) return 0;
    session.tournamentVersion = current.version;
    return current.text.length;
  }

  /**
   * A burst of results goes out as one message, at most one every interval, always ending with the
   * latest. Never built in the turn of the change itself: the desk's parts take tens of ms at 1,000
   * boards, and the turn that publishes or starts a round has its own work (the build waits a turn).
   */
  #tournamentChanged(): void {
    if (this.#tournamentTimer) return;
    this.#tournamentTimer = setTimeout(() => this.#buildTournament(), Math.max(0, this.#tournamentDueIn()));
  }

  /** Ms until the next build may start: `tournamentIntervalMs` after the last began, and its bytes paid for. */
  #tournamentDueIn(): number {
    return Math.max(this.#tournamentSentAt + this.#intervalMs, this.#tournamentNextAt) - performance.now();
  }

  /**
   * Hands the desks' parts to the builder and goes back to the clocks; the messages are sent when
   * they come. Changes during a build are built after it (one build in flight, the latest state).
   */
  #buildTournament(): void {
    this.#tournamentTimer = undefined;
    if (!this.#builder || this.#stopped) return;
    if (this.#building) {
      this.#changedWhileBuilding = true;
      return;
    }
    // A change during a build set its timer before that build's bytes were known: it waits for them too
    // (the builds at the end of a round went every other one at `tournamentIntervalMs`, 16 in 30 s).
    const early = this.#tournamentDueIn();
    if (early > 0) {
      this.#tournamentTimer = setTimeout(() => this.#buildTournament(), early);
      return;
    }
    this.#tournamentSentAt = performance.now();
    let request: ViewRequest;
    try {
      request = { version: this.#hall.version, sections: this.#viewDesks.map((d) => d.viewParts()) };
    } catch (err) {
      this.#tournamentFailed(err);
      return;
    }
    this.#building = true;
    this.#builder
      .build(request)
      .then(
        (built) => this.#deliverTournament(built),
        (err: unknown) => this.#tournamentFailed(err),
      )
      .finally(() => {
        this.#building = false;
        if (this.#changedWhileBuilding && !this.#stopped) {
          this.#changedWhileBuilding = false;
          this.#tournamentChanged();
        }
      });
  }

  #tournamentFailed(err: unknown): void {
    // The clocks go on whatever the tournament side thinks; the arbiters see why its pages stopped.
    if (this.#stopped) return;
    for (const s of this.sessions)
      if (s.role.kind !== 'pending') s.error('malformed', `the tournament pages could not be computed: ${String(err instanceof Error ? err.message : err)}`);
  }

  /**
   * The built messages to every session that has an older view, the team's first, a few ms a turn: a
   * 400 KiB patch to 200 sockets in one turn held the loop 50-117 ms. Resolves when all have theirs (the
   * next build waits for it). A session welcomed meanwhile gets the new view with its snapshot.
   */
  #deliverTournament(built: BuiltViews): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    // Encoded once per role here, not by ws once per session (a 1,000-board view is 626 KiB).
    const patches = {} as Record<ViewRole, Buffer | undefined>;
    for (const role of ['spectator', 'arbiter'] as const) {
      const b = built[role];
      // Without a draft both roles have the same messages (tournament-builder.ts): one encoding.
      const same = role === 'arbiter' && b.text === built.spectator.text && b.patch === built.spectator.patch;
      this.#sent[role] = { version: b.version, text: same ? this.#sent.spectator!.text : Buffer.from(b.text) };
      patches[role] = same ? patches.spectator : b.patch === undefined ? undefined : Buffer.from(b.patch);
    }
    const rank = (s: ClientSession): number => (Broadcast.roleOf(s) === 'arbiter' ? 0 : 1);
    const to = [...this.sessions].sort((a, b) => rank(a) - rank(b));
    let next = 0;
    let bytes = 0;
    return new Promise((resolve) => {
      const part = (): void => {
        const until = performance.now() + this.#tournamentMsPerTurn;
        while (next < to.length && !this.#stopped) {
          bytes += this.#tournamentTo(to[next++]!, built, patches);
          if (performance.now() >= until) break;
        }
        if (next < to.length && !this.#stopped) {
          setImmediate(part);
          return;
        }
        this.#tournamentNextAt = performance.now() + this.#spacingAfter(bytes);
        resolve();
      };
      part();
    });
  }

  /** The session's tournament message (a patch from its version, or the whole view); the bytes that went out. */
  #tournamentTo(session: ClientSession, built: BuiltViews, patches: Record<ViewRole, Buffer | undefined>): number {
    // Gone, or a page still to ask for the rest of its first snapshot (it gets the view with it).
    if (!this.sessions.has(session) || session.role.kind === 'pending' || session.restOwed) return 0;
    const role = Broadcast.roleOf(session);
    const p = built[role];
    if (session.tournamentVersion === p.version) return 0;
    if (p.from === undefined || session.tournamentVersion !== p.from) return this.#sendWholeTournament(session);
    const patch = patches[role];
    if (patch === undefined) {
      session.tournamentVersion = p.version;
      return 0;
    }
    if (!session.stream(patch)) return 0;
    session.tournamentVersion = p.version;
    return patch.length;
  }

  /**
   * How long the next build waits after one whose messages came to `bytes` on all the sockets. At the
   * end of a round at 1,000 boards each build's patch is 50–120 KiB (the standings' order and ranks,
   * the prizes), to 200 pages: every 500 ms that was 600 MiB in the 30 s of results, the largest part
   * of the event loop's time (writev) and of the view worker's. Spaced by their bytes, the builds
   * gather more results each and the pages get the same latest state in fewer, larger steps; a small
   * hall stays at `tournamentIntervalMs`.
   */
  #spacingAfter(bytes: number): number {
    return Math.min(TOURNAMENT_MAX_SPACING_MS, (bytes / this.#bytesPerSecond) * 1000);
  }
}
