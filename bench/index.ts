// `npm run bench`: every part's speed and memory targets, printed as one table.
// Run a single part with `npm run bench -- clock-engine`.
import { formatTable, type BenchRow } from './table.ts';

const suites: Record<string, () => Promise<{ run(): Promise<BenchRow[]> }>> = {
  'clock-engine': () => import('./clock-engine.ts'),
  'device-bridge': () => import('./device-bridge.ts'),
  'arbiter-console': () => import('./arbiter-console.ts'),
  pairing: () => import('./pairing.ts'),
  'tournament-desk': () => import('./tournament-desk.ts'),
  'command-line': () => import('./start-up.ts'),
  event: () => import('./event.ts'),
  'hall-bus': () => import('./hall-bus.ts'),
  'http-feeds': () => import('./http-feeds.ts'),
  'hall-page': () => import('./hall-page.ts'),
  restart: () => import('./restart.ts'),
  rebuild: () => import('./rebuild.ts'),
  spectators: () => import('./spectators.ts'),
};

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const rows: BenchRow[] = [];
for (const [name, load] of Object.entries(suites)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  rows.push(...(await (await load()).run()));
}
process.stdout.write(formatTable(rows) + '\n');
