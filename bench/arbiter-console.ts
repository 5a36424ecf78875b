import type { BenchRow } from './table.ts';

// Filled in when the arbiter-console benchmark lands; until then it reports that it has nothing to measure.
export async function run(): Promise<BenchRow[]> {
  return [{ part: 'arbiter-console', measure: '(no benchmark yet)', value: '-' }];
}
