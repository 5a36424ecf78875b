// What needs the arbiter's eyes on a board: the hall raises it, the page lists it in its queue.
import type { ClockAlert, Side } from '../../clock-engine/index.ts';

// 'command-pending': a console on the bus sent the board's hall host a command whose outcome is not known
// yet (the host did not answer by its deadline); it leaves the queue when the host answers.
export type AttentionCode = ClockAlert['code'] | 'silent-board' | 'result-contradicts' | 'command-pending';

export interface Attention {
  /** Stable while the condition lasts; the arbiter dismisses by id. */
  readonly id: string;
  readonly board: string;
  readonly code: AttentionCode;
  readonly side?: Side;
  readonly at: number;
  readonly message: string;
}
