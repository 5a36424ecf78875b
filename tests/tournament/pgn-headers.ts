// Reads result-only PGN files (tag pairs) into crosstable input: players by FIDE id, games by round.
import { readFileSync } from 'node:fs';
import type { CrosstablePlayer, RoundResults } from '../../tournament/internal.ts';

export interface PgnEvent {
  readonly players: CrosstablePlayer[];
  readonly rounds: RoundResults[];
  readonly idByFide: Map<string, number>;
}

export function readResultPgn(url: URL): PgnEvent {
  const text = readFileSync(url, 'utf8');
  const games = text
    .split(/\n\s*\n(?=\[)/)
    .map((block) => Object.fromEntries([...block.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1], m[2]])) as Record<string, string>)
    .filter((tags) => tags.Result !== undefined && tags.Round !== undefined);
  const idByFide = new Map<string, number>();
  const players: CrosstablePlayer[] = [];
  const rounds = new Map<number, RoundResults['games'][number][]>();
  const playerId = (side: 'White' | 'Black', tags: Record<string, string>): number => {
    const fide = tags[`${side}FideId`] as string;
    let id = idByFide.get(fide);
    if (id === undefined) {
      id = players.length + 1;
      idByFide.set(fide, id);
      players.push({ id, name: tags[side] as string, rating: Number(tags[`${side}Elo`]), fideId: fide });
    }
    return id;
  };
  for (const tags of games) {
    const round = Number((tags.Round as string).split('.')[0]);
    const list = rounds.get(round) ?? [];
    const result = tags.Result as '1-0' | '0-1' | '1/2-1/2';
    list.push({ white: playerId('White', tags), black: playerId('Black', tags), result });
    rounds.set(round, list);
  }
  return {
    players,
    idByFide,
    rounds: [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([round, list]) => ({ round, games: list })),
  };
}

/** scalachess snapshot lines: PlayerWithScore(Player(FIDE,Some(rating)),points,List(a, b, ...)) */
export function readSnapshot(url: URL): { fideId: string; points: number; values: number[] }[] {
  return readFileSync(url, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('PlayerWithScore'))
    .map((line) => {
      const m = /Player\((\d+),[^)]*\)\),([\d.]+),List\(([^)]*)\)/.exec(line);
      if (!m) throw new Error(`bad snapshot line ${line}`);
      return { fideId: m[1] as string, points: Number(m[2]), values: (m[3] as string).split(',').map((v) => Number(v.trim())) };
    });
}
