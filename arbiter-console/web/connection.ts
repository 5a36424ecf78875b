// The page's link to the console: hello, snapshot, deltas, commands with acknowledgements,
// reconnection with a fresh snapshot (resync), and the clock reference used to count down.
import type { ArbiterView, BoardView, ClockReference, ConsoleCommand, RoundView, ServerMessage } from '../contract/page.ts';
import type { TournamentView } from '../contract/page.ts';
import type { Attention, ConsoleStatus } from '../contract/page.ts';
import type { CredentialInfo } from '../contract/page.ts';
import type { SectorView } from '../contract/page.ts';
import { applyAttention, applyViewPatch } from '../contract/page.ts';

/** The page pings this often; with no message at all for STALE_MS the link is stale and is replaced. */
const PING_MS = 3_000;
const STALE_MS = 9_000;

export type Role = 'arbiter' | 'spectator';

export interface ConsoleState {
  round: RoundView | undefined;
  boards: Map<string, BoardView>;
  attention: readonly Attention[];
  /** The journal's health and the console's incidents (sent with the queue). */
  console: ConsoleStatus | undefined;
  version: number;
  /** Present when the console runs an event's section. */
  tournament: TournamentView | undefined;
  tournamentVersion: number;
  sectors: readonly SectorView[];
  /** Who this page speaks for (arbiters). */
  arbiter: ArbiterView | undefined;
  /** Boards of the hall not here yet: the first snapshot held the first screen's, the others follow (`rest`). */
  toCome: number;
}

export interface ConnectionEvents {
  onState(changedBoards: readonly string[] | 'all'): void;
  onStatus(text: string, ok: boolean): void;
  onRole(role: Role): void;
  onOutcome(id: string, ok: boolean, text: string): void;
  onBadToken(reason: string): void;
  onTournament(view: TournamentView): void;
  /** An answer that carries data: the credentials list, a token just issued. */
  onAnswer?(id: string, answer: { credentials?: readonly CredentialInfo[]; token?: string }): void;
}

export class Connection {
  readonly state: ConsoleState = {
    round: undefined,
    boards: new Map(),
    attention: [],
    console: undefined,
    version: 0,
    tournament: undefined,
    tournamentVersion: 0,
    sectors: [],
    arbiter: undefined,
    toCome: 0,
  };
  /** The boards the first snapshot said the hall has: `toCome` counts down to it. */
  #hallSize = 0;
  #ws: WebSocket | undefined;
  #reference: ClockReference = { at: 0, scale: 1 };
  #receivedAt = performance.now();
  #retryMs = 500;
  #nextId = 1;
  #lastSeq = 0;
  readonly #pending = new Map<string, string>();
  #lastHeard = performance.now();
  #pinger: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly role: Role,
    readonly token: string | undefined,
    /** The page draws this many boards first: a fresh page asks for them alone first (`firstBoards`). */
    readonly firstBoards: number | undefined,
    readonly events: ConnectionEvents,
  ) {}

  /** The console's monotonic time now, extrapolated from the last reference; never drifts further than one message. */
  now(): number {
    return this.#reference.at + (performance.now() - this.#receivedAt) * this.#reference.scale;
  }

  connect(): void {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    this.#ws = ws;
    ws.onopen = () => {
      this.#retryMs = 500;
      this.#lastHeard = performance.now();
      this.events.onStatus('connected', true);
      // A page with boards already keeps its own filters and order: it gets every board at once.
      const since = this.state.version > 0 ? { since: this.state.version } : this.firstBoards !== undefined ? { firstBoards: this.firstBoards } : {};
      ws.send(
        JSON.stringify(
          this.role === 'arbiter' ? { type: 'hello', role: 'arbiter', token: this.token, ...since } : { type: 'hello', role: 'spectator', ...since },
        ),
      );
      this.#startPinging(ws);
    };
    ws.onmessage = (e) => {
      this.#lastHeard = performance.now();
      this.#onMessage(JSON.parse(String(e.data)) as ServerMessage);
    };
    ws.onclose = () => this.#lost(ws);
  }

  #lost(ws: WebSocket): void {
    if (this.#ws !== ws) return;
    this.#ws = undefined;
    clearInterval(this.#pinger);
    this.events.onStatus('reconnecting…', false);
    for (const [id, what] of this.#pending) this.events.onOutcome(id, false, `${what}: connection lost before an answer; check the board`);
    this.#pending.clear();
    setTimeout(() => this.connect(), this.#retryMs);
    this.#retryMs = Math.min(5000, this.#retryMs * 2);
  }

  // A half-open link (a tablet that walked out of the Wi-Fi) never closes by itself: ping, and when
  // nothing at all comes back for a while, say so and start a new connection.
  #startPinging(ws: WebSocket): void {
    clearInterval(this.#pinger);
    let n = 0;
    this.#pinger = setInterval(() => {
      if (performance.now() - this.#lastHeard > STALE_MS) {
        this.#lost(ws);
        this.events.onStatus('stale: no answer, reconnecting…', false);
        ws.close();
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping', id: `p${++n}` }));
    }, PING_MS);
  }

  send(command: ConsoleCommand, description: string): string {
    const id = `c${this.#nextId++}`;
    if (!this.#ws || this.#ws.readyState !== WebSocket.OPEN) {
      this.events.onOutcome(id, false, `${description}: not connected`);
      return id;
    }
    this.#pending.set(id, description);
    this.#ws.send(JSON.stringify({ type: 'command', id, command }));
    return id;
  }

  /**
   * The rest of the hall once the first rows are painted: the frame that draws them runs first (its
   * callback came first). A page in a background tab gets no frames: it asks at once.
   */
  #askRestAfterPaint(): void {
    const ws = this.#ws;
    if (!ws) return;
    const ask = () => {
      if (ws === this.#ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'rest' }));
    };
    if (document.hidden) ask();
    else requestAnimationFrame(() => setTimeout(ask));
  }

  #setReference(clock: ClockReference): void {
    this.#reference = clock;
    this.#receivedAt = performance.now();
  }

  #onMessage(m: ServerMessage): void {
    switch (m.type) {
      case 'welcome':
        this.state.arbiter = m.arbiter;
        this.events.onRole(m.role);
        break;
      case 'snapshot':
        this.#lastSeq = m.seq;
        this.#setReference(m.clock);
        this.state.round = m.round;
        this.state.boards = new Map(m.boards.map((b) => [b.id, b]));
        this.state.attention = m.attention;
        this.state.console = m.console;
        this.state.sectors = m.sectors;
        this.state.version = m.version;
        this.#hallSize = m.boards.length + (m.toCome ?? 0);
        this.state.toCome = m.toCome ?? 0;
        this.events.onState('all');
        if (m.toCome) this.#askRestAfterPaint();
        break;
      case 'delta': {
        if (m.seq !== this.#lastSeq + 1) {
          // A lost message cannot happen on one WebSocket, but a page never guesses: ask for everything.
          this.#ws?.send(JSON.stringify({ type: 'resync' }));
        }
        this.#lastSeq = m.seq;
        this.#setReference(m.clock);
        for (const b of m.boards) this.state.boards.set(b.id, b);
        for (const id of m.gone ?? []) this.state.boards.delete(id);
        if (m.attentionByBoard) this.state.attention = applyAttention(this.state.attention, m.attentionByBoard);
        if (m.console) this.state.console = m.console;
        if (m.round) this.state.round = m.round;
        if (m.sectors) this.state.sectors = m.sectors;
        this.state.version = m.version;
        if (this.state.toCome > 0) this.state.toCome = Math.max(0, this.#hallSize - this.state.boards.size);
        this.events.onState(m.round || m.gone ? 'all' : m.boards.map((b) => b.id));
        break;
      }
      case 'ack': {
        const what = this.#pending.get(m.id) ?? 'command';
        this.#pending.delete(m.id);
        this.events.onOutcome(m.id, true, `${what}: done (journal #${m.journalSeq})`);
        if (m.token) this.events.onAnswer?.(m.id, { token: m.token });
        break;
      }
      case 'credentials':
        this.#pending.delete(m.id);
        this.events.onAnswer?.(m.id, { credentials: m.credentials });
        break;
      case 'refused': {
        const what = this.#pending.get(m.id) ?? 'command';
        // On the bus, "not known yet" is followed by a second answer to the same id (docs/hall.md): kept for it.
        if (m.code !== 'outcome-unknown') this.#pending.delete(m.id);
        this.events.onOutcome(m.id, false, `${what}: refused: ${m.reason}${m.article !== undefined ? ` (${m.article})` : ''} [${m.code}]`);
        break;
      }
      case 'error':
        if (m.code === 'bad-token') this.events.onBadToken(m.reason);
        else this.events.onOutcome('-', false, m.reason);
        // The login was not checked (too many at once, or this address locked out): try again later.
        if (m.code === 'busy' || m.code === 'locked-out') this.#ws?.close();
        // The spectators' places are taken (the server closes the connection): ask again in 5 s, not at once.
        if (m.code === 'full') this.#retryMs = 5000;
        break;
      case 'pong':
        this.#setReference(m.clock);
        break;
      case 'tournament':
        this.state.tournament = m.view;
        this.state.tournamentVersion = m.version;
        this.events.onTournament(m.view);
        break;
      case 'tournamentDelta':
        if (!this.state.tournament || m.from !== this.state.tournamentVersion) {
          this.#ws?.send(JSON.stringify({ type: 'resync' }));
          break;
        }
        this.state.tournament = applyViewPatch(this.state.tournament, m.patch);
        this.state.tournamentVersion = m.version;
        this.events.onTournament(this.state.tournament);
        break;
    }
  }
}
