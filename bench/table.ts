/** One line of `npm run bench`'s table. */
export interface BenchRow {
  readonly part: string;
  readonly measure: string;
  readonly value: string;
  readonly target?: string;
  /** Whether the target was met; absent when there is no target. */
  readonly ok?: boolean;
}

export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['part', 'measure', 'value', 'target', 'met'];
  const cells = rows.map((r) => [r.part, r.measure, r.value, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'yes' : 'NO']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((s, i) => s.padEnd(widths[i]!)).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}
