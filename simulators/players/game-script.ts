// A game as the simulators play it: every move with who made it, where the pieces went and how long
// the player thought. Virtual players produce one; a PGN with [%emt] produces one; the DGT and line
// simulators and the console's simulated round consume one.
import type { Side } from '../../clock-engine/index.ts';

export type Promotion = 'q' | 'r' | 'b' | 'n';

export interface ScriptedMove {
  /** 0 = White's first move. */
  readonly ply: number;
  readonly side: Side;
  readonly san: string;
  readonly from: string;
  readonly to: string;
  readonly promotion?: Promotion;
  /** Time on the player's clock for this move: from the opponent's press to this player's press. */
  readonly thinkMs: number;
  readonly fenBefore: string;
  readonly fenAfter: string;
  /** The mover's clock reading after the move, where a PGN recorded one ([%clk]). */
  readonly clockMs?: number;
}

export type ScriptResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface GameScript {
  readonly startFen: string;
  readonly moves: readonly ScriptedMove[];
  readonly result: ScriptResult;
  /**
   * Why the game stopped: 'checkmate' | 'stalemate' | 'threefold-repetition' | 'insufficient-material'
   * | 'fifty-moves' | 'move-limit' for played games; the PGN's Termination tag (or 'pgn') for replays.
   */
  readonly termination: string;
  /** PGN tags of a replayed game (empty for played games). */
  readonly tags: Readonly<Record<string, string>>;
}

/** Sum of one side's think times: what that side's clock was charged before increments. */
export function totalThinkMs(script: GameScript, side: Side): number {
  return script.moves.reduce((sum, move) => (move.side === side ? sum + move.thinkMs : sum), 0);
}
