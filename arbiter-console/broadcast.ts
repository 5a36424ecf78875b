// What every session is sent: snapshots, coalesced deltas and the tournament view, built once and
// shared. Board views are serialized once per board version; a delta's body once per change, for all
// the sessions it goes to; the tournament view is diffed once per role and sent as a patch.
import type { ClientSession } from './client-session.ts';
import type { Pending } from './coalescer.ts';
import type { HallChange, PlayingHall } from './hall.ts';
import type { ClockReference, ServerMessage } from './protocol.ts';
import type { Team } from './team.ts';
import type { TournamentDesk } from './tournament-desk.ts';
import type { TournamentView } from './tournament-view.ts';
import { diffView } from './view-patch.ts';

type ViewRole = 'arbiter' | 'spectator';

interface SentView {
  readonly version: number;
  readonly view: TournamentView;
  readonly text: string;
}

export interface BroadcastOptions {
  readonly hall: PlayingHall;
  readonly desk: TournamentDesk | undefined;
  /** An event console's every section (the view then carries them all in `sections`). */
  readonly desks?: ReadonlyMap<string, TournamentDesk>;
  readonly team: Team | undefined;
  /** A burst of results becomes one tournament message per this many ms (default 500). */
  readonly tournamentIntervalMs?: number;
}

export class Broadcast {
  readonly sessions = new Set<ClientSession>();
  readonly #hall: PlayingHall;
  readonly #desk: TournamentDesk | undefined;
  readonly #desks: ReadonlyMap<string, TournamentDesk> | undefined;
  readonly #team: Team | undefined;
  readonly #boardText = new Map<string, { version: number; text: string }>();
  /** Delta bodies of this turn of the event loop, by content (every session flushing now shares them). */
  #deltaBodies = new Map<string, string>();
  #deltaBodiesClear: NodeJS.Immediate | undefined;
  readonly #sent: Partial<Record<ViewRole, SentView>> = {};
  readonly #intervalMs: number;
  #tournamentSentAt = -Infinity;
  #tournamentTimer: NodeJS.Timeout | undefined;
  readonly #unsubscribe: (() => void)[] = [];

  constructor(options: BroadcastOptions) {
    this.#hall = options.hall;
    this.#desk = options.desk;
    this.#desks = options.desks && options.desks.size > 1 ? options.desks : undefined;
    this.#team = options.team;
    this.#intervalMs = options.tournamentIntervalMs ?? 500;
    this.#unsubscribe.push(this.#hall.subscribe((change) => this.#onHall(change)));
    for (const d of this.#desks?.values() ?? (this.#desk ? [this.#desk] : [])) this.#unsubscribe.push(d.subscribe(() => this.#tournamentChanged()));
    if (this.#team) this.#unsubscribe.push(this.#team.subscribe((change) => change.type !== 'revokeCredential' && this.#onHall({ boards: [], key: true, attention: false, round: true })));
  }

  reference(): ClockReference {
    return { at: this.#hall.source.now(), scale: this.#hall.source.scale };
  }

  stop(): void {
    for (const u of this.#unsubscribe) u();
    clearTimeout(this.#tournamentTimer);
    if (this.#deltaBodiesClear) clearImmediate(this.#deltaBodiesClear);
  }

  /** The whole state, then the tournament view: after hello, on resync, after catching up. */
  snapshot(session: ClientSession): void {
    const hall = this.#hall;
    const head = JSON.stringify({ version: hall.version, clock: this.reference(), round: hall.roundView(), attention: hall.attention(), sectors: this.#team?.sectors() ?? [] });
    const boards = [...hall.boards.keys()].map((id) => this.#board(id)).join(',');
    if (!session.stream(`{"type":"snapshot","seq":${session.seq + 1},${head.slice(1, -1)},"boards":[${boards}]}`)) return;
    session.seq += 1;
    this.#sendWholeTournament(session);
  }

  /** The coalesced changes of one session. */
  delta(session: ClientSession, pending: Pending): void {
    const key = `${this.#hall.version}|${pending.attention ? 'a' : ''}${pending.round ? 'r' : ''}|${[...pending.boards].join(',')}`;
    let body = this.#deltaBodies.get(key);
    if (body === undefined) {
      const hall = this.#hall;
      const head: Record<string, unknown> = { version: hall.version, clock: this.reference() };
      if (pending.attention) head.attention = hall.attention();
      if (pending.round) {
        head.round = hall.roundView();
        head.sectors = this.#team?.sectors() ?? [];
      }
      const boards = [...pending.boards].filter((id) => hall.boards.has(id)).map((id) => this.#board(id)).join(',');
      body = `${JSON.stringify(head).slice(1, -1)},"boards":[${boards}]}`;
      this.#deltaBodies.set(key, body);
      this.#deltaBodiesClear ??= setImmediate(() => {
        this.#deltaBodies = new Map();
        this.#deltaBodiesClear = undefined;
      });
    }
    // A dropped delta is no gap: a session that is behind gets a snapshot when it catches up.
    if (session.stream(`{"type":"delta","seq":${session.seq + 1},${body}`)) session.seq += 1;
  }

  #board(id: string): string {
    const view = this.#hall.view(id)!;
    const cached = this.#boardText.get(id);
    if (cached && cached.version === view.version) return cached.text;
    const text = JSON.stringify(view);
    this.#boardText.set(id, { version: view.version, text });
    return text;
  }

  #onHall(change: HallChange): void {
    for (const session of this.sessions) if (session.role.kind !== 'pending') session.coalescer.mark(change.boards, change);
  }

  static roleOf(session: ClientSession): ViewRole {
    return session.role.kind === 'arbiter' ? 'arbiter' : 'spectator';
  }

  /** The view last broadcast to a role (made now if none was). */
  #current(role: ViewRole): SentView | undefined {
    if (!this.#desk) return undefined;
    const sent = this.#sent[role];
    if (sent) return sent;
    return (this.#sent[role] = this.#build(role));
  }

  #build(role: ViewRole): SentView | undefined {
    let view: TournamentView;
    try {
      view = this.#desks ? { ...this.#desk!.view(role), sections: [...this.#desks.values()].map((d) => d.view(role)) } : this.#desk!.view(role);
    } catch (err) {
      // The clocks go on whatever the tournament side thinks; the arbiters see why its pages stopped.
      for (const s of this.sessions) if (s.role.kind !== 'pending') s.error('malformed', `the tournament pages could not be computed: ${String(err)}`);
      return undefined;
    }
    const version = this.#hall.version;
    const text = JSON.stringify({ type: 'tournament', version, view } satisfies ServerMessage);
    // Kept as the clients have it, a copy of its own: the desk may reuse (and change) parts of its views.
    return { version, view: (JSON.parse(text) as { view: TournamentView }).view, text };
  }

  #sendWholeTournament(session: ClientSession): void {
    const current = this.#current(Broadcast.roleOf(session));
    if (current && session.stream(current.text)) session.tournamentVersion = current.version;
  }

  // A burst of results goes out as one message, at most one every interval, always ending with the latest.
  #tournamentChanged(): void {
    if (this.#tournamentTimer) return;
    const wait = this.#tournamentSentAt + this.#intervalMs - performance.now();
    if (wait <= 0) this.#broadcastTournament();
    else this.#tournamentTimer = setTimeout(() => this.#broadcastTournament(), wait);
  }

  #broadcastTournament(): void {
    this.#tournamentTimer = undefined;
    this.#tournamentSentAt = performance.now();
    const patches = new Map<ViewRole, { from: number | undefined; text: string | undefined }>();
    for (const role of ['arbiter', 'spectator'] as const) {
      const before = this.#sent[role];
      const after = this.#build(role);
      if (!after) continue;
      this.#sent[role] = after;
      const patch = before ? diffView(before.view, after.view) : undefined;
      patches.set(role, {
        from: before?.version,
        text: patch && patch.length > 0 ? JSON.stringify({ type: 'tournamentDelta', from: before!.version, version: after.version, patch } satisfies ServerMessage) : undefined,
      });
    }
    for (const session of this.sessions) {
      if (session.role.kind === 'pending') continue;
      const role = Broadcast.roleOf(session);
      const p = patches.get(role);
      const current = this.#sent[role];
      if (!p || !current || session.tournamentVersion === current.version) continue;
      if (p.from !== undefined && session.tournamentVersion === p.from) {
        if (p.text === undefined) session.tournamentVersion = current.version;
        else if (session.stream(p.text)) session.tournamentVersion = current.version;
      } else this.#sendWholeTournament(session);
    }
  }
}
