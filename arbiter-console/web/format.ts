// Clock display: H:MM:SS, with tenths in the last ten seconds like a DGT clock.
export function clockText(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `0:0${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${h}:${mm}:${ss}`;
}

/** Points and tie-breaks: whole numbers as they are, halves and fractions to two places at most ("–" for none). */
export function pointsText(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0$/, '');
}
