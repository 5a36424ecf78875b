// The clocks page's state and actions (lichess ui/*/ctrl.ts): what the server sent (Connection.state)
// plus what this arbiter chose (layout, sort, filters, search, the open board, queue filters). Views
// (view/*.ts) only read it and call its methods; every change ends in `redraw()`.
import {
  ATTENTION_KINDS,
  byHallNumber,
  COMPACT_HALL_ABOVE,
  isLow,
  kindOf,
  MAX_FIRST_BOARDS,
  movesToControl,
  rowsInWindow,
  type Attention,
  type AttentionKind,
} from '../contract/page.ts';
import type { HistoryItem } from '../contract/page.ts';
import type { CredentialInfo } from '../contract/page.ts';
import type { BoardView, ConsoleCommand } from '../contract/page.ts';
import type { Connection } from './connection.ts';
import { sectionsOf } from './tournament-ctrl.ts';

export type Layout = 'hall' | 'cards';
export type SortKey = 'board' | 'time' | 'status';
export type Show = 'all' | 'alerts' | 'running' | 'finished';
export type QueueGroup = AttentionKind;

/** The queue's groups: the contract's kinds of attention (one owner: `dismissKind` names them too). */
export const QUEUE_GROUPS = ATTENTION_KINDS;

export const groupOf = (a: Attention): QueueGroup => kindOf(a);

/** One board's open items of one kind: a line of the queue. */
export interface QueueLine {
  readonly board: string;
  readonly items: readonly Attention[];
}

/** A kind's lines, one a board (in the order of the board's first item), and how many items they hold. */
export interface QueueGroupLines {
  readonly group: (typeof QUEUE_GROUPS)[number];
  readonly lines: readonly QueueLine[];
  readonly count: number;
}

/** Rows of a big hall drawn a frame after the first screen's, until every row is drawn. */
const ROWS_A_STEP = 240;
/** Lines of a queue group drawn until the arbiter asks for more. */
export const QUEUE_LINES = 40;
/**
 * Queue lines drawn over all its groups in the frame of the hall's first rows (13 are in view at
 * 1366x768, about 20 at 1920x1080); each group's others a frame after, with the rest of the hall.
 */
const FIRST_QUEUE_LINES = 24;

/**
 * The hall rows this window shows before any scrolling, and a line more: what the page asks for first
 * (62 at 1366x768, where a fixed 160 was a 1080p screen's worth), and so the rows its first frame
 * builds and lays out.
 * The sizes are the stylesheet's (its custom properties); the header above the rows and the gaps
 * between them are left in as a margin. A stylesheet without them (never loaded) asks for the most.
 */
export function firstScreenRows(): number {
  const style = getComputedStyle(document.documentElement);
  const px = (name: string): number => parseFloat(style.getPropertyValue(name));
  const sizes = { rowHeight: px('--hall-row-height'), columnWidth: px('--hall-column-width'), queueWidth: px('--hall-queue-width') };
  return rowsInWindow({ width: innerWidth, height: innerHeight }, sizes) ?? MAX_FIRST_BOARDS;
}

export interface Answer {
  readonly ok: boolean;
  readonly text: string;
}

export type { HistoryItem };

export { isLow };

export class ConsoleCtrl {
  layout: Layout;
  sort: SortKey = 'board';
  show: Show = 'all';
  /** '' every sector; else a sector id. */
  sector = '';
  /** '' every section; else a section id (an event console's hall). */
  section = '';
  search = '';
  /** The board the last jump went to (highlighted). */
  jumped: string | undefined;
  /** The board whose panel is open. */
  panel: string | undefined;
  /** The answer to the last command from the panel, shown in the panel. */
  panelAnswer: Answer | undefined;
  history: { board: string; items: readonly HistoryItem[] } | undefined;
  queueSector = '';
  readonly queueHidden = new Set<QueueGroup>();
  /** Lines drawn per queue group beyond QUEUE_LINES, as the arbiter asked ("Show more"). */
  readonly queueMore = new Map<QueueGroup, number>();
  /** Rows of the hall view drawn so far: the first screen at once, the rest in the frames after its paint. */
  hallRows: number;
  /**
   * Queue lines drawn over all its groups: a window's worth until a frame has more to show (the
   * first snapshot's, at 1,000 boards), then every group's from the frame after that one's paint.
   */
  queueLines = FIRST_QUEUE_LINES;
  /** What grows after the next paint (hall rows, queue lines), asked for already. */
  readonly #growing = new Set<'rows' | 'queue'>();
  credentials: readonly CredentialInfo[] | undefined;
  issued: { name: string; token: string } | undefined;
  teamAnswer: Answer | undefined;
  /** When this page last changed a clock's time on a board: a second change asks first. */
  readonly #timeChanged = new Map<string, number>();
  readonly #panelCommands = new Set<string>();
  /** Team commands in flight, with what they were (the issued token's arbiter). */
  readonly #teamCommands = new Map<string, string>();

  constructor(
    readonly conn: Connection,
    readonly arbiter: boolean,
    readonly redraw: () => void,
  ) {
    this.layout = (sessionStorage.getItem('zeitnot-layout') as Layout | null) ?? 'cards';
    this.hallRows = conn.firstBoards ?? ROWS_A_STEP;
  }

  get staffRole(): string | undefined {
    return this.conn.state.arbiter?.role;
  }

  /** A sector arbiter sees his own sector first (his boards, his queue). */
  welcomed(): void {
    const own = this.conn.state.arbiter?.sector;
    if (own) this.sector = this.queueSector = own;
    this.redraw();
  }

  /** The first snapshot: a hall of more than COMPACT_HALL_ABOVE boards opens in the compact view (unless chosen otherwise). */
  #sized = false;
  stateArrived(): void {
    // The hall's size, not the first screen's: a small window asks for fewer than 24 boards first.
    const hallSize = this.conn.state.boards.size + this.conn.state.toCome;
    if (!this.#sized && hallSize > 0) {
      this.#sized = true;
      if (!sessionStorage.getItem('zeitnot-layout')) this.layout = hallSize > COMPACT_HALL_ABOVE ? 'hall' : 'cards';
    }
    this.redraw();
  }

  setLayout(layout: Layout): void {
    this.layout = layout;
    sessionStorage.setItem('zeitnot-layout', layout);
    this.redraw();
  }

  set<K extends 'sort' | 'show' | 'sector' | 'section' | 'search' | 'queueSector'>(key: K, value: ConsoleCtrl[K]): void {
    (this as ConsoleCtrl)[key] = value;
    this.redraw();
  }

  /**
   * More hall rows after the next paint: a hall of 1,000 boards shows its first rows at once instead of
   * after building and laying out every row (the browser paints between the steps).
   */
  moreRowsSoon(): void {
    this.#afterPaint('rows', () => (this.hallRows += ROWS_A_STEP));
  }

  /** Every queue group's lines after the next paint: the first frame draws the queue's first lines only. */
  wholeQueueSoon(): void {
    this.#afterPaint('queue', () => (this.queueLines = Infinity));
  }

  /** `grow`, then a redraw, once the frame being drawn is painted (its callback runs first). */
  #afterPaint(what: 'rows' | 'queue', grow: () => void): void {
    if (this.#growing.has(what)) return;
    this.#growing.add(what);
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.#growing.delete(what);
        grow();
        this.redraw();
      }),
    );
  }

  showMoreOf(group: QueueGroup): void {
    this.queueMore.set(group, (this.queueMore.get(group) ?? 0) + 100);
    this.redraw();
  }

  /** Whether this arbiter may dismiss a whole kind (the permission table's dismissKind: chief and deputies). */
  get dismissesKinds(): boolean {
    return this.arbiter && (this.staffRole === 'chief' || this.staffRole === 'deputy');
  }

  toggleQueueGroup(group: QueueGroup): void {
    if (!this.queueHidden.delete(group)) this.queueHidden.add(group);
    this.redraw();
  }

  /**
   * The event's sections, in its order: the tournament view's (every section, seated or not), then any
   * other a board names. Empty for a console without an event's sections on its boards.
   */
  sections(): { readonly id: string; readonly name: string }[] {
    const known = sectionsOf(this.conn.state.tournament).map((v) => ({ id: v.section.id, name: v.section.name }));
    const onBoards = new Set<string>();
    for (const b of this.conn.state.boards.values()) if (b.section !== undefined) onBoards.add(b.section);
    if (onBoards.size === 0 && known.length < 2) return [];
    for (const id of onBoards) if (!known.some((k) => k.id === id)) known.push({ id, name: id });
    return known;
  }

  members(sector: string): ReadonlySet<string> | undefined {
    const s = this.conn.state.sectors.find((x) => x.id === sector);
    return s ? new Set(s.members) : undefined;
  }

  remainingNow(b: BoardView, side: 'white' | 'black'): number {
    return b.status === 'running' && b.toMove === side ? b.remainingMs[side] - (this.conn.now() - b.asOf) : b.remainingMs[side];
  }

  /** Moves left until the next time control, per side (none in the last period). */
  toControl(b: BoardView, side: 'white' | 'black'): number | undefined {
    return movesToControl(b, side, this.conn.state.round?.periodMoves);
  }

  /** The boards the hall view shows, in order. */
  visibleBoards(): BoardView[] {
    const alerted = new Set(this.conn.state.attention.map((a) => a.board));
    const members = this.sector ? this.members(this.sector) : undefined;
    const query = this.search.trim().toLowerCase();
    const list = [...this.conn.state.boards.values()].filter((b) => {
      if (members && !members.has(b.id)) return false;
      if (this.section && b.section !== this.section) return false;
      if (this.show === 'alerts' && !alerted.has(b.id)) return false;
      if (this.show === 'running' && b.status !== 'running') return false;
      if (this.show === 'finished' && b.status !== 'finished') return false;
      if (query && b.id !== query && !b.white.toLowerCase().includes(query) && !b.black.toLowerCase().includes(query)) return false;
      return true;
    });
    const statusRank = { running: 0, paused: 1, waiting: 2, finished: 3 } as const;
    const byBoard = (a: BoardView, b: BoardView) => byHallNumber(a.id, b.id);
    const least = (b: BoardView) => (b.status === 'finished' ? Infinity : Math.min(this.remainingNow(b, 'white'), this.remainingNow(b, 'black')));
    if (this.sort === 'time') return list.sort((a, b) => least(a) - least(b) || byBoard(a, b));
    if (this.sort === 'status') return list.sort((a, b) => statusRank[a.status] - statusRank[b.status] || byBoard(a, b));
    return list.sort(byBoard);
  }

  /** The queue as this arbiter filtered it: by kind, each kind a line per board with that board's items of the kind. */
  queue(): QueueGroupLines[] {
    const members = this.queueSector ? this.members(this.queueSector) : undefined;
    const byKind = new Map<QueueGroup, Map<string, Attention[]>>();
    for (const a of this.conn.state.attention) {
      if (members && !members.has(a.board)) continue;
      const kind = groupOf(a);
      const boards = byKind.get(kind) ?? byKind.set(kind, new Map()).get(kind)!;
      const items = boards.get(a.board);
      if (items) items.push(a);
      else boards.set(a.board, [a]);
    }
    return QUEUE_GROUPS.flatMap((group) => {
      const boards = byKind.get(group.id);
      if (!boards) return [];
      const lines = [...boards].map(([board, items]) => ({ board, items }));
      return [{ group, lines, count: lines.reduce((n, l) => n + l.items.length, 0) }];
    });
  }

  /** Search box Enter: a board number jumps to that board, else to the first board a player name matches. */
  jump(): void {
    const q = this.search.trim().toLowerCase();
    if (!q) return;
    const boards = [...this.conn.state.boards.values()];
    const target = boards.find((b) => b.id === q) ?? boards.find((b) => b.white.toLowerCase().includes(q) || b.black.toLowerCase().includes(q));
    if (target) this.jumpTo(target.id);
  }

  /** Shows a board: every filter that hides it is lifted, it is scrolled to and highlighted. */
  jumpTo(board: string): void {
    this.jumped = board;
    this.hallRows = Infinity;
    if (this.sector && !this.members(this.sector)?.has(board)) this.sector = '';
    if (this.section && this.conn.state.boards.get(board)?.section !== this.section) this.section = '';
    const b = this.conn.state.boards.get(board);
    const q = this.search.trim().toLowerCase();
    if (q && b && b.id !== q && !b.white.toLowerCase().includes(q) && !b.black.toLowerCase().includes(q)) this.search = '';
    if (this.show !== 'all') this.show = 'all';
    this.redraw();
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        const el = document.querySelector<HTMLElement>(`[data-board="${CSS.escape(board)}"]:not(dialog)`);
        el?.scrollIntoView({ block: 'center' });
        el?.focus();
      }),
    );
  }

  openPanel(board: string): void {
    if (!this.arbiter) return;
    this.panel = board;
    this.panelAnswer = undefined;
    this.redraw();
    void this.loadHistory(board);
  }

  closePanel(): void {
    this.panel = undefined;
    this.redraw();
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`.board[data-board="${CSS.escape(this.jumped ?? '')}"]`)?.focus());
  }

  async loadHistory(board: string): Promise<void> {
    try {
      const res = await fetch(`/api/history/${encodeURIComponent(board)}`);
      if (!res.ok) return;
      const body = (await res.json()) as { items: HistoryItem[] };
      if (this.panel === board) {
        this.history = { board, items: body.items };
        this.redraw();
      }
    } catch {
      // The panel shows the board without its history; the next command tries again.
    }
  }

  /** A time change on a board this page changed the time of less than ten minutes ago. */
  isRepeatedTimeChange(board: string): boolean {
    const last = this.#timeChanged.get(board);
    return last !== undefined && performance.now() - last < 10 * 60_000;
  }

  /** Sends a command from the board panel; its answer shows in the panel. */
  sendFromPanel(command: ConsoleCommand, description: string): void {
    if ('board' in command && (command.type === 'addTime' || command.type === 'setTime')) this.#timeChanged.set(String(command.board), performance.now());
    this.panelAnswer = { ok: true, text: `${description}: sent…` };
    this.#panelCommands.add(this.conn.send(command, description));
    this.redraw();
  }

  sendTeam(command: ConsoleCommand, description: string): void {
    this.teamAnswer = { ok: true, text: `${description}: sent…` };
    this.#teamCommands.set(this.conn.send(command, description), command.type === 'issueCredential' ? command.name : description);
    this.redraw();
  }

  /** Every command's answer: true when it belongs to the panel or the team page (shown there, not as a toast). */
  answered(id: string, ok: boolean, text: string): boolean {
    if (this.#panelCommands.delete(id)) {
      this.panelAnswer = { ok, text };
      if (this.panel) void this.loadHistory(this.panel);
      this.redraw();
      return true;
    }
    if (this.#teamCommands.has(id)) {
      this.teamAnswer = { ok, text };
      this.redraw();
      return true;
    }
    return false;
  }

  teamData(id: string, answer: { credentials?: readonly CredentialInfo[]; token?: string }): void {
    const what = this.#teamCommands.get(id);
    this.#teamCommands.delete(id);
    if (answer.credentials) this.teamAnswer = undefined;
    if (answer.credentials) this.credentials = answer.credentials;
    if (answer.token) this.issued = { name: what ?? 'new arbiter', token: answer.token };
    this.redraw();
  }
}
