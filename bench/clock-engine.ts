import type { BenchRow } from './table.ts';

// Filled in when the clock-engine benchmark lands; until then it reports that it has nothing to measure.
export async function run(): Promise<BenchRow[]> {
  return [{ part: 'clock-engine', measure: '(no benchmark yet)', value: '-' }];
}
