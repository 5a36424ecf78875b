// The clocks page: round actions, every board with both clocks, and the attention queue.
import type { BoardView } from '../protocol.ts';
import type { Attention } from '../board.ts';
import type { Connection } from './connection.ts';
import { clockText, escapeHtml } from './format.ts';

const LOW_MS = 5 * 60_000;

export interface ClocksPage {
  render(changed: readonly string[] | 'all'): void;
  /** Redraws the running clocks from the clock reference; called every animation frame. */
  tick(): void;
}

export function clocksPage(root: HTMLElement, conn: Connection, arbiter: boolean, openActions: (board: string) => void): ClocksPage {
  root.innerHTML = `
    <div class="layout">
      <section aria-label="Boards">
        ${
          arbiter
            ? `<div class="round-actions" role="toolbar" aria-label="Round actions">
                 <button data-command="arriveAll">Everyone present</button>
                 <button class="primary" data-command="startAll">Start all at the scheduled time</button>
                 <button data-command="pauseAll">Pause all</button>
                 <button data-command="resumeAll">Resume all</button>
                 <span class="hint">Tab to a board, Enter for its actions; arrow keys move between boards.</span>
               </div>`
            : ''
        }
        <div class="grid" id="grid"></div>
      </section>
      <aside class="queue" aria-label="Attention queue">
        <h2>Attention <span id="queue-count" class="badge">0</span></h2>
        <ol id="queue"></ol>
      </aside>
    </div>`;
  const grid = root.querySelector<HTMLElement>('#grid')!;
  const queue = root.querySelector<HTMLElement>('#queue')!;
  const count = root.querySelector<HTMLElement>('#queue-count')!;
  const cards = new Map<string, HTMLElement>();
  const shown = new Map<string, string>();

  root.querySelector('[data-command="startAll"]')?.addEventListener('click', () => conn.send({ type: 'startAll' }, 'Start all'));
  root.querySelector('[data-command="arriveAll"]')?.addEventListener('click', () => {
    if (confirm('Mark every player not yet marked as present?')) conn.send({ type: 'arriveAll' }, 'Everyone present');
  });
  root.querySelector('[data-command="pauseAll"]')?.addEventListener('click', () => {
    const reason = prompt('Reason for pausing every clock?', 'arbiter: general interruption');
    if (reason) conn.send({ type: 'pauseAll', reason }, 'Pause all');
  });
  root.querySelector('[data-command="resumeAll"]')?.addEventListener('click', () => conn.send({ type: 'resumeAll' }, 'Resume all'));

  grid.addEventListener('keydown', (e) => {
    const card = (e.target as HTMLElement).closest<HTMLElement>('.board');
    if (!card) return;
    const list = [...grid.querySelectorAll<HTMLElement>('.board')];
    const i = list.indexOf(card);
    const perRow = Math.max(1, Math.round(grid.clientWidth / card.clientWidth));
    const move = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: perRow, ArrowUp: -perRow }[e.key];
    if (move !== undefined) {
      list[Math.min(list.length - 1, Math.max(0, i + move))]?.focus();
      e.preventDefault();
    } else if ((e.key === 'Enter' || e.key === ' ') && arbiter) {
      openActions(card.dataset.board!);
      e.preventDefault();
    }
  });
  if (arbiter) grid.addEventListener('click', (e) => {
    const card = (e.target as HTMLElement).closest<HTMLElement>('.board');
    if (card) openActions(card.dataset.board!);
  });

  queue.addEventListener('click', (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>('button');
    if (!button) return;
    if (button.dataset.goto) {
      const card = cards.get(button.dataset.goto);
      card?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      card?.focus();
    }
    if (button.dataset.dismiss) conn.send({ type: 'dismiss', alertId: button.dataset.dismiss }, 'Dismiss');
  });

  const boardHtml = (b: BoardView, alerted: boolean): string => {
    const side = (s: 'white' | 'black') => {
      const classes = ['side', s];
      if (b.status === 'running' && b.toMove === s) classes.push('running');
      if (b.flag?.side === s) classes.push('flagged');
      if (!b.arrived[s]) classes.push('absent');
      return `<div class="${classes.join(' ')}" data-side="${s}">
        <span class="name" title="${escapeHtml(b[s])}">${escapeHtml(b[s])}${b.arrived[s] ? '' : ' (absent)'}</span>
        <span class="clock" data-clock="${s}" aria-label="${s} clock">${clockText(b.remainingMs[s])}</span>
      </div>`;
    };
    const status =
      b.status === 'finished'
        ? `<span class="state-finished">${escapeHtml(b.result?.result ?? '')} ${escapeHtml(b.result?.termination ?? '')}</span>`
        : b.status === 'paused'
          ? `<span class="state-paused">paused: ${escapeHtml(b.paused?.reason ?? '')}</span>`
          : `<span>${b.status}</span>`;
    const penalties = (['white', 'black'] as const)
      .filter((s) => b.penalties[s].illegalMoves + b.penalties[s].falseClaims > 0)
      .map((s) => `${s}: ${b.penalties[s].illegalMoves} illegal, ${b.penalties[s].falseClaims} false claims`)
      .join('; ');
    return `
      <header><span class="no">Board ${escapeHtml(b.id)}</span>${status}</header>
      ${side('white')}${side('black')}
      <footer>
        <span data-move>move ${b.moveNumber}</span>
        ${b.lastMove ? `<span class="last-move">${escapeHtml(b.lastMove)}</span>` : ''}
        <span>${b.toMove} to move</span>
        <span>${b.period.white === b.period.black ? `period ${b.period.white}` : `periods: White ${b.period.white}, Black ${b.period.black}`}</span>
        ${b.flag ? `<span>flag: ${b.flag.side}</span>` : ''}
        ${b.device ? `<span>${escapeHtml(b.device.kind)} ${escapeHtml(b.device.connection)}</span>` : ''}
        ${penalties ? `<span>${escapeHtml(penalties)}</span>` : ''}
        ${alerted ? '<span>⚠ needs attention</span>' : ''}
      </footer>`;
  };

  const renderQueue = (items: readonly Attention[]): void => {
    count.textContent = String(items.length);
    if (items.length === 0) {
      queue.innerHTML = '<li class="empty">Nothing needs you now.</li>';
      return;
    }
    queue.innerHTML = items
      .map(
        (a) => `<li class="${a.code}" data-alert="${escapeHtml(a.id)}">
          <span class="what"><strong>Board ${escapeHtml(a.board)}</strong> · ${escapeHtml(a.message)}</span>
          <span class="actions">
            <button data-goto="${escapeHtml(a.board)}">Show board</button>
            ${arbiter ? `<button data-dismiss="${escapeHtml(a.id)}">Dismiss</button>` : ''}
          </span>
        </li>`,
      )
      .join('');
  };

  const startButton = root.querySelector<HTMLButtonElement>('[data-command="startAll"]');
  const render = (changed: readonly string[] | 'all'): void => {
    if (startButton) {
      const armed = conn.state.round?.startAt !== undefined;
      startButton.disabled = armed;
      startButton.textContent = armed ? 'Round start set' : 'Start all at the scheduled time';
    }
    const alertedBoards = new Set(conn.state.attention.map((a) => a.board));
    const ids = changed === 'all' ? [...conn.state.boards.keys()] : changed;
    if (changed === 'all') {
      grid.innerHTML = '';
      cards.clear();
      shown.clear();
    }
    for (const id of ids) {
      const b = conn.state.boards.get(id);
      if (!b) continue;
      let card = cards.get(id);
      if (!card) {
        card = document.createElement('article');
        card.className = 'board';
        card.tabIndex = 0;
        card.dataset.board = id;
        card.setAttribute('aria-label', `Board ${id}`);
        grid.append(card);
        cards.set(id, card);
      }
      card.innerHTML = boardHtml(b, alertedBoards.has(id));
      card.classList.toggle('attention', alertedBoards.has(id));
      shown.delete(id);
    }
    for (const [id, card] of cards) card.classList.toggle('attention', alertedBoards.has(id));
    renderQueue(conn.state.attention);
    tick();
  };

  const tick = (): void => {
    const now = conn.now();
    for (const [id, b] of conn.state.boards) {
      if (b.status !== 'running') continue;
      const left = b.remainingMs[b.toMove] - (now - b.asOf);
      const text = clockText(left);
      const key = `${b.toMove}:${text}`;
      if (shown.get(id) === key) continue;
      shown.set(id, key);
      const sideEl = cards.get(id)?.querySelector<HTMLElement>(`[data-side="${b.toMove}"]`);
      if (!sideEl) continue;
      sideEl.querySelector<HTMLElement>('.clock')!.textContent = text;
      sideEl.classList.toggle('low', left < LOW_MS);
    }
  };

  return { render, tick };
}
