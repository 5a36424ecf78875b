// Clock display (the contract's, shared with the first screen the server renders) and points.
export { clockText } from '../contract/page.ts';

/** Points and tie-breaks: whole numbers as they are, halves and fractions to two places at most ("–" for none). */
export function pointsText(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0$/, '');
}
