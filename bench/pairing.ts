// Time to pair one Swiss round with the Dutch engine: round 9 of a 300-player and round 11 of a
// 1,000-player random tournament. The history before that round is made quickly (players sorted
// by score and paired greedily with the next player they have not met, colours balanced, seeded
// random results with 30 % draws, 2 % forfeits), so only the measured round goes through the
// FIDE engine; that round is checked for rematches and completeness.
import { pairRound, type PairingEntrant, type PairingRequest, type PairingRoundRecord } from '../tournament/index.ts';
import type { BenchRow } from './table.ts';
import { seededRandom } from '../simulators/index.ts';

const random = (seed: number): (() => number) => seededRandom(seed).next;

interface Draft {
  readonly id: number;
  readonly rounds: PairingRoundRecord[];
  score: number;
  whites: number;
}

function greedyHistory(players: number, rounds: number, seed: number): PairingEntrant[] {
  const rand = random(seed);
  const drafts: Draft[] = Array.from({ length: players }, (_, i) => ({ id: i + 1, rounds: [], score: 0, whites: 0 }));
  const met = new Map<number, Set<number>>(drafts.map((d) => [d.id, new Set<number>()]));
  for (let round = 0; round < rounds; round += 1) {
    const order = [...drafts].sort((a, b) => b.score - a.score || a.id - b.id);
    const waiting = new Set(order);
    for (const player of order) {
      if (!waiting.has(player)) continue;
      waiting.delete(player);
      const opponent = [...waiting].find((o) => !met.get(player.id)!.has(o.id));
      if (!opponent) {
        player.rounds.push({ opponent: null, colour: null, points: 10, played: false, paired: true });
        player.score += 10;
        continue;
      }
      waiting.delete(opponent);
      met.get(player.id)!.add(opponent.id);
      met.get(opponent.id)!.add(player.id);
      const [white, black] = player.whites <= opponent.whites ? [player, opponent] : [opponent, player];
      white.whites += 1;
      const forfeit = rand() < 0.02;
      const r = rand();
      const whitePoints = r < 0.3 ? 5 : r < 0.3 + 0.7 * (0.5 + (black.id - white.id) / (4 * players)) ? 10 : 0;
      for (const [me, other, colour, points] of [
        [white, black, 'white', whitePoints],
        [black, white, 'black', 10 - whitePoints],
      ] as const) {
        const score = forfeit ? (points === 0 ? 0 : 10) : points;
        me.rounds.push({ opponent: other.id, colour, points: score, played: !forfeit, paired: true });
        me.score += score;
      }
    }
  }
  return drafts.map((d) => ({ id: d.id, rounds: d.rounds }));
}

async function measure(players: number, round: number): Promise<BenchRow> {
  const entrants = greedyHistory(players, round - 1, players * 31 + round);
  const request: PairingRequest = {
    entrants,
    playedRounds: round - 1,
    totalRounds: round + 2,
    absent: new Set(),
    initialColour: 'white',
    points: { win: 10, draw: 5, loss: 0 },
  };
  const start = process.hrtime.bigint();
  const pairing = pairRound(request);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const paired = pairing.boards.length * 2 + (pairing.bye === null ? 0 : 1);
  const met = new Set(entrants.flatMap((e) => e.rounds.filter((r) => r.played).map((r) => `${e.id}-${r.opponent}`)));
  const rematches = pairing.boards.filter((b) => met.has(`${b.white}-${b.black}`)).length;
  if (paired !== players || rematches > 0) throw new Error(`pairing bench: ${paired}/${players} paired, ${rematches} rematches`);
  const target = players <= 300 ? 2 : 20;
  return {
    part: 'pairing',
    measure: `Dutch pairing, round ${round} of ${players} players`,
    value: `${seconds.toFixed(2)} s`,
    target: `< ${target} s`,
    ok: seconds < target,
  };
}

export async function run(): Promise<BenchRow[]> {
  return [await measure(300, 9), await measure(1000, 11)];
}
