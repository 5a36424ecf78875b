// Whole-process time and peak memory of pairing one Swiss round with `zeitnot pair --dutch FILE -p`
// (and bbpPairings side by side when BBP names its binary): 100, 300, 999, 1,000 and 2,000 players
// at rounds 1, 2, 3, 5 and 11 (the issue named 1, 5 and 11; rounds 2 and 3 hold the largest score
// brackets, a third of the field and more on one score, so "any round" is checked there). The
// history before the round is made quickly (players sorted by score and paired greedily with the
// next player they have not met, colours balanced, seeded random results with 30 % draws, 2 %
// forfeits) and written as a TRF, so only the measured round goes through a FIDE engine. Each
// process runs under /usr/bin/time (wall and CPU seconds, maximum resident set size), through
// bin/zeitnot.js as installed (the ahead-of-time build, made first).
// zeitnot runs PAIRING_RUNS times per row (3 unless set): a shared machine's noise moves one run's
// wall time by a third either way, so the row gives the median run's wall and CPU seconds with the
// range, and the highest peak memory; every run must give the same pairing.
// With BBP set the two engines' pairings must be identical, or the bench fails.
// `npm run bench -- pairing` runs all rows; PAIRING_ROWS=1000x11,2000x1 picks some.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportTrf, type TrfPlayer, type TrfRoundEntry, type TrfTournament, standardScoring } from '../tournament/index.ts';
import type { BenchRow } from './table.ts';
import { seededRandom } from '../simulators/index.ts';

const root = join(import.meta.dirname, '..');
const zeitnot = join(root, 'bin', 'zeitnot.js');

interface Draft {
  readonly id: number;
  readonly rounds: TrfRoundEntry[];
  score: number;
  whites: number;
}

/** `rounds` greedily paired rounds of `players` players, as a TRF whose next round is `rounds + 1`. */
export function greedyTournament(players: number, rounds: number, seed: number): TrfTournament {
  const rand = seededRandom(seed).next;
  const drafts: Draft[] = Array.from({ length: players }, (_, i) => ({ id: i + 1, rounds: [], score: 0, whites: 0 }));
  const met = new Map<number, Set<number>>(drafts.map((d) => [d.id, new Set<number>()]));
  for (let round = 0; round < rounds; round += 1) {
    const order = [...drafts].sort((a, b) => b.score - a.score || a.id - b.id);
    const waiting = new Set(order);
    for (const player of order) {
      if (!waiting.has(player)) continue;
      waiting.delete(player);
      let opponent: Draft | undefined;
      for (const o of waiting) {
        if (!met.get(player.id)!.has(o.id)) {
          opponent = o;
          break;
        }
      }
      if (!opponent) {
        player.rounds.push({ opponent: null, colour: null, result: 'U' });
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
      const drawn = r < 0.3 ? 5 : r < 0.3 + 0.7 * (0.5 + (black.id - white.id) / (4 * players)) ? 10 : 0;
      // A forfeit has a winner: white unless the game would have been lost.
      const whitePoints = forfeit && drawn === 5 ? 10 : drawn;
      for (const [me, other, colour, points] of [
        [white, black, 'w', whitePoints],
        [black, white, 'b', 10 - whitePoints],
      ] as const) {
        const result = forfeit ? (points === 0 ? '-' : '+') : points === 10 ? '1' : points === 5 ? '=' : '0';
        me.rounds.push({ opponent: other.id, colour, result });
        me.score += points;
      }
    }
  }
  const trfPlayers: TrfPlayer[] = drafts.map((d) => ({
    id: d.id,
    sex: '',
    title: '',
    name: `Player ${d.id}`,
    rating: 2800 - d.id,
    federation: '',
    fideId: '',
    birthDate: '',
    points: d.score / 10,
    rank: null,
    rounds: d.rounds,
  }));
  return {
    name: `Greedy ${players} players, ${rounds} rounds, seed ${seed}`,
    deputyArbiters: [],
    roundDates: [],
    totalRounds: rounds + 3,
    configuration: ['white1'],
    scoring: standardScoring,
    customScoring: false,
    players: trfPlayers,
    teams: [],
    otherLines: [],
  };
}

interface Run {
  readonly seconds: number;
  /** User + system CPU seconds: what the wall time would be on a machine no one else is using. */
  readonly cpu: number;
  readonly megabytes: number;
  readonly output: string;
}

/** Runs one engine under /usr/bin/time: wall and CPU seconds, maximum resident set size. */
function timed(command: string, args: readonly string[], dir: string): Run {
  const stats = join(dir, 'time.txt');
  const out = join(dir, 'pairing.txt');
  rmSync(out, { force: true });
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', '-o', stats, command, ...args, out], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pairing bench: ${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const [seconds, user, system, kilobytes] = readFileSync(stats, 'utf8').trim().split(/\s+/).slice(-4).map(Number);
  return { seconds: seconds!, cpu: user! + system!, megabytes: kilobytes! / 1024, output: readFileSync(out, 'utf8') };
}

const describe = (run: Run): string => `${run.seconds.toFixed(2)} s (cpu ${run.cpu.toFixed(2)} s), ${run.megabytes.toFixed(0)} MB`;

/** The median run by wall time, with the highest peak memory of all runs and the wall times' range. */
function summarise(runs: readonly Run[]): { run: Run; text: string } {
  const byTime = [...runs].sort((a, b) => a.seconds - b.seconds);
  const median = byTime[(byTime.length - 1) >> 1]!;
  const run = { ...median, megabytes: Math.max(...runs.map((r) => r.megabytes)) };
  if (runs.length === 1) return { run, text: describe(run) };
  const range = `${byTime[0]!.seconds.toFixed(2)}-${byTime[byTime.length - 1]!.seconds.toFixed(2)} s`;
  return { run, text: `${describe(run)} (median of ${runs.length}, ${range})` };
}

function runsPerRow(): number {
  const runs = Number(process.env['PAIRING_RUNS'] ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`pairing bench: PAIRING_RUNS must be a positive integer, not ${process.env['PAIRING_RUNS']}`);
  return runs;
}

const normalise = (pairing: string): string => pairing.replace(/\r\n?/g, '\n').trim();

function measure(players: number, round: number, bbp: string | undefined): BenchRow {
  const dir = mkdtempSync(join(tmpdir(), 'zeitnot-pairing-bench-'));
  try {
    const file = join(dir, 'tournament.trf');
    // exportTrf writes a bye's opponent as 0000, as the engines want it.
    writeFileSync(file, exportTrf(greedyTournament(players, round - 1, players * 31 + round)));
    const runs = Array.from({ length: runsPerRow() }, () => timed(process.execPath, [zeitnot, 'pair', '--dutch', file, '-p'], dir));
    if (runs.some((r) => r.output !== runs[0]!.output)) throw new Error(`pairing bench: ${players} players round ${round}: runs gave different pairings`);
    const { run: ours, text } = summarise(runs);
    const pairs = Number(ours.output.split('\n')[0]);
    if (pairs !== Math.ceil(players / 2)) throw new Error(`pairing bench: ${pairs} pairs for ${players} players`);
    let value = text;
    const limit = players <= 1000 ? 2 : 6;
    let target = `<= ${limit} s`;
    let ok = ours.seconds <= limit;
    if (bbp) {
      const theirs = timed(bbp, ['--dutch', file, '-p'], dir);
      if (normalise(theirs.output) !== normalise(ours.output)) throw new Error(`pairing bench: ${players} players round ${round}: not bbpPairings' pairing`);
      value += `; bbpPairings ${describe(theirs)}; identical`;
      // The memory target is the issue's, for the large fields, odd and even (a Node process alone is ~40 MB).
      if (players >= 999) {
        target += `, <= 2x bbpPairings' memory`;
        ok &&= ours.megabytes <= 2 * theirs.megabytes;
      }
    }
    return { part: 'pairing', measure: `Dutch pairing (whole process), round ${round} of ${players} players`, value, target, ok };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = [100, 300, 999, 1000, 2000].flatMap((players) => [1, 2, 3, 5, 11].map((round) => ({ players, round })));

export async function run(): Promise<BenchRow[]> {
  // bin/zeitnot.js runs the ahead-of-time build: measure the code as it is now.
  execFileSync(process.execPath, [join(root, 'scripts', 'build.js'), '--quiet'], { stdio: 'inherit' });
  const only = process.env['PAIRING_ROWS']?.split(',');
  const chosen = only ? cases.filter((c) => only.includes(`${c.players}x${c.round}`)) : cases;
  return chosen.map((c) => measure(c.players, c.round, process.env['BBP']));
}
