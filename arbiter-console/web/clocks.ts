// Clocks skip the view: each clock element is captured by a hook when it is created and written
// straight to on every animation frame (lichess ui/lib/src/game/clock/clockView.ts). The vnode has no
// text of its own, so a redraw never puts a stale time back.
import type { VNodeData } from 'snabbdom';
import type { BoardView } from '../contract/page.ts';
import type { ConsoleCtrl } from './ctrl.ts';
import { isLow } from './ctrl.ts';
import { clockText } from './format.ts';

type Side = 'white' | 'black';

interface Painted {
  readonly board: string;
  readonly side: Side;
  text: string;
}

export class ClockPainter {
  readonly #elements = new Map<HTMLElement, Painted>();

  constructor(readonly ctrl: ConsoleCtrl) {}

  /** The data of a clock element: hooks that register it and paint it at once. */
  hooks(b: BoardView, side: Side): VNodeData {
    const paint = (el: HTMLElement) => {
      const painted = this.#elements.get(el) ?? { board: b.id, side, text: '' };
      this.#elements.set(el, painted);
      this.#paint(el, painted);
    };
    return {
      attrs: { 'data-clock': side, 'aria-label': `${side} clock` },
      hook: {
        insert: (v) => paint(v.elm as HTMLElement),
        update: (_, v) => paint(v.elm as HTMLElement),
        destroy: (v) => void this.#elements.delete(v.elm as HTMLElement),
      },
    };
  }

  /** Every frame: only the running clocks change, and only when their text does. */
  tick(): void {
    for (const [el, painted] of this.#elements) {
      const b = this.ctrl.conn.state.boards.get(painted.board);
      if (b && b.status === 'running' && b.toMove === painted.side) this.#paint(el, painted);
    }
  }

  #paint(el: HTMLElement, painted: Painted): void {
    const b = this.ctrl.conn.state.boards.get(painted.board);
    if (!b) return;
    const left = this.ctrl.remainingNow(b, painted.side);
    const text = clockText(left);
    if (text !== painted.text || el.textContent !== text) {
      painted.text = text;
      el.textContent = text;
    }
    // Both clocks go amber under five minutes, the running one and the waiting one.
    el.classList.toggle('low', isLow(left));
  }
}
