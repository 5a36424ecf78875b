// One line of a board's history as the arbiter reads it in its panel (GET /api/history/BOARD).

export interface HistoryItem {
  readonly seq: number;
  readonly wallMs: number;
  readonly at: number;
  readonly what: string;
  readonly by: string;
  readonly why?: string;
}
