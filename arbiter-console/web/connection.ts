// The page's link to the console: hello, snapshot, deltas, commands with acknowledgements,
// reconnection with a fresh snapshot (resync), and the clock reference used to count down.
import type { BoardView, ClockReference, ConsoleCommand, RoundView, ServerMessage } from '../protocol.ts';
import type { TournamentView } from '../tournament-view.ts';
import type { Attention } from '../board.ts';

export type Role = 'arbiter' | 'spectator';

export interface ConsoleState {
  round: RoundView | undefined;
  boards: Map<string, BoardView>;
  attention: readonly Attention[];
  version: number;
  /** Present when the console runs an event's section. */
  tournament: TournamentView | undefined;
}

export interface ConnectionEvents {
  onState(changedBoards: readonly string[] | 'all'): void;
  onStatus(text: string, ok: boolean): void;
  onRole(role: Role): void;
  onOutcome(id: string, ok: boolean, text: string): void;
  onBadToken(reason: string): void;
  onTournament(view: TournamentView): void;
}

export class Connection {
  readonly state: ConsoleState = { round: undefined, boards: new Map(), attention: [], version: 0, tournament: undefined };
  #ws: WebSocket | undefined;
  #reference: ClockReference = { at: 0, scale: 1 };
  #receivedAt = performance.now();
  #retryMs = 500;
  #nextId = 1;
  #lastSeq = 0;
  readonly #pending = new Map<string, string>();

  constructor(
    readonly role: Role,
    readonly token: string | undefined,
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
      this.events.onStatus('connected', true);
      const since = this.state.version > 0 ? { since: this.state.version } : {};
      ws.send(JSON.stringify(this.role === 'arbiter' ? { type: 'hello', role: 'arbiter', token: this.token, ...since } : { type: 'hello', role: 'spectator', ...since }));
    };
    ws.onmessage = (e) => this.#onMessage(JSON.parse(String(e.data)) as ServerMessage);
    ws.onclose = () => {
      this.events.onStatus('reconnecting…', false);
      for (const [id, what] of this.#pending) this.events.onOutcome(id, false, `${what}: connection lost before an answer; check the board`);
      this.#pending.clear();
      setTimeout(() => this.connect(), this.#retryMs);
      this.#retryMs = Math.min(5000, this.#retryMs * 2);
    };
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

  #setReference(clock: ClockReference): void {
    this.#reference = clock;
    this.#receivedAt = performance.now();
  }

  #onMessage(m: ServerMessage): void {
    switch (m.type) {
      case 'welcome':
        this.events.onRole(m.role);
        break;
      case 'snapshot':
        this.#lastSeq = m.seq;
        this.#setReference(m.clock);
        this.state.round = m.round;
        this.state.boards = new Map(m.boards.map((b) => [b.id, b]));
        this.state.attention = m.attention;
        this.state.version = m.version;
        this.events.onState('all');
        break;
      case 'delta': {
        if (m.seq !== this.#lastSeq + 1) {
          // A lost message cannot happen on one WebSocket, but a page never guesses: ask for everything.
          this.#ws?.send(JSON.stringify({ type: 'resync' }));
        }
        this.#lastSeq = m.seq;
        this.#setReference(m.clock);
        for (const b of m.boards) this.state.boards.set(b.id, b);
        if (m.attention) this.state.attention = m.attention;
        if (m.round) this.state.round = m.round;
        this.state.version = m.version;
        this.events.onState(m.round ? 'all' : m.boards.map((b) => b.id));
        break;
      }
      case 'ack': {
        const what = this.#pending.get(m.id) ?? 'command';
        this.#pending.delete(m.id);
        this.events.onOutcome(m.id, true, `${what}: done (journal #${m.journalSeq})`);
        break;
      }
      case 'refused': {
        const what = this.#pending.get(m.id) ?? 'command';
        this.#pending.delete(m.id);
        this.events.onOutcome(m.id, false, `${what}: refused: ${m.reason}`);
        break;
      }
      case 'error':
        if (m.code === 'bad-token') this.events.onBadToken(m.reason);
        else this.events.onOutcome('-', false, m.reason);
        break;
      case 'pong':
        this.#setReference(m.clock);
        break;
      case 'tournament':
        this.state.tournament = m.view;
        this.events.onTournament(m.view);
        break;
    }
  }
}
