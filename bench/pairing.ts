import type { BenchRow } from './table.ts';

// Filled in when the pairing benchmark lands; until then it reports that it has nothing to measure.
export async function run(): Promise<BenchRow[]> {
  return [{ part: 'pairing', measure: '(no benchmark yet)', value: '-' }];
}
