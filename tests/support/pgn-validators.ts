// Two independent readers of PGN: chess.js (the project's dependency) and pgn-extract (Debian's
// `pgn-extract`, installed by .ci/run). Each returns what it rejected, '' when it accepts the text.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Chess } from 'chess.js';

const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((p) => existsSync(p));

/** Every game in the text must load in chess.js (games split at each [Event tag). */
export function chessJsRejects(text: string): string {
  const games = text.split(/\n(?=\[Event )/).filter((g) => g.trim());
  const problems: string[] = [];
  for (const game of games) {
    try {
      new Chess().loadPgn(game);
    } catch (error) {
      problems.push(`${(error as Error).message}\n${game}`);
    }
  }
  return problems.join('\n\n');
}

/** pgn-extract prints only the games it could replay and complains on standard error about the rest. */
export function pgnExtractRejects(text: string): string {
  if (!PGN_EXTRACT) throw new Error('pgn-extract is not installed (apt-get install pgn-extract)');
  const run = spawnSync(PGN_EXTRACT, ['-s'], { input: text, encoding: 'utf8' });
  const games = text.split(/\n(?=\[Event )/).filter((g) => g.trim()).length;
  const out = (run.stdout.match(/^\[Event /gm) ?? []).length;
  if (run.status !== 0 || run.stderr.trim() || out !== games) return `${run.stderr.trim() || `${out} of ${games} games came out`}\n${text}`;
  return '';
}
