// C.07 tie-break codes and their modifiers, as an event file or the command line writes them:
// 'BH-M1' and 'BH/M1' are the same; 'GE' is the pre-2024 name of REP; 'MB' aliases nothing.
// Modifiers as TieBreakServer (the FIDE reference code) reads them: -Cn cut, -Mn median, -Ln KS limit,
// /P unplayed games as played (DE), /Un the rating an unrated player counts with, /F fore mode (AOB
// over Fore Buchholz).

export const tiebreakBases = [
  'DE',
  'WIN',
  'WON',
  'BPG',
  'BWG',
  'REP',
  'PS',
  'BH',
  'FB',
  'AOB',
  'SB',
  'KS',
  'ARO',
  'TPR',
  'APRO',
  'PTP',
  'APPO',
  'STD',
  'TPN',
  'RTNG',
] as const;
export type TiebreakBase = (typeof tiebreakBases)[number];

export interface TiebreakSpec {
  /** Canonical code, e.g. 'BH-M1'. */
  readonly code: string;
  readonly base: TiebreakBase;
  /** Cut-n: drop the n least significant values. */
  readonly cut: number;
  /** Median-n: drop the n least and the n most significant values. */
  readonly median: number;
  /** KS: threshold moved by this many half-points (C.07 14.5 "Limit"). */
  readonly limit: number;
  /** /P: games scheduled but not played count as played (DE). */
  readonly predetermined: boolean;
  /** /Un: the rating an unrated player counts with (RTNG, ARO, TPR, PTP, APRO, APPO). */
  readonly unrated?: number;
  /** /F: fore mode (AOB: the average of the opponents' Fore Buchholz). */
  readonly fore: boolean;
}

const takes = {
  P: new Set<string>(['DE']),
  U: new Set<string>(['RTNG', 'ARO', 'TPR', 'PTP', 'APRO', 'APPO']),
  F: new Set<string>(['AOB']),
};

const cuttable = new Set<TiebreakBase>(['BH', 'FB', 'SB', 'ARO', 'PS']);

export function parseTiebreak(text: string): TiebreakSpec {
  const upper = text.trim().toUpperCase();
  const head = /^[A-Z]+/.exec(upper)?.[0] ?? '';
  const base = (head === 'GE' ? 'REP' : head) as TiebreakBase;
  if (!(tiebreakBases as readonly string[]).includes(base)) {
    throw new RangeError(`unknown tie-break '${text}' (known: ${tiebreakBases.join(', ')})`);
  }
  let cut = 0;
  let median = 0;
  let limit = 0;
  let predetermined = false;
  let fore = false;
  let unrated: number | undefined;
  let rest = upper.slice(head.length);
  while (rest !== '') {
    const flag = /^[-/]([PF])(?![0-9])|^[-/](U)(\d{1,4})/.exec(rest);
    if (flag) {
      rest = rest.slice(flag[0].length);
      const kind = (flag[1] ?? flag[2]) as 'P' | 'F' | 'U';
      if (!takes[kind].has(base)) throw new RangeError(`tie-break '${text}': /${kind} applies to ${[...takes[kind]].join(', ')} only`);
      if (kind === 'P') predetermined = true;
      else if (kind === 'F') fore = true;
      else unrated = Number(flag[3]);
      continue;
    }
    const modifier = /^[-/]([CMLV])([+-]?\d+)/.exec(rest);
    if (!modifier) throw new RangeError(`tie-break '${text}': unknown modifier '${rest}'`);
    rest = rest.slice(modifier[0].length);
    const [, kind, n] = modifier as unknown as [string, string, string];
    if (kind === 'V') continue; // rule-set marker of the TEC exercises; the event chooses the rules.
    if (kind === 'L') {
      if (base !== 'KS') throw new RangeError(`tie-break '${text}': a limit applies only to KS`);
      limit = Number(n);
      continue;
    }
    if (!cuttable.has(base)) throw new RangeError(`tie-break '${text}': ${base} takes no cut or median`);
    if (kind === 'C') cut = Number(n);
    else median = Number(n);
  }
  const suffix =
    (cut > 0 ? `-C${cut}` : '') +
    (median > 0 ? `-M${median}` : '') +
    (limit !== 0 ? `-L${limit > 0 ? '+' : ''}${limit}` : '') +
    (predetermined ? '/P' : '') +
    (unrated !== undefined ? `/U${unrated}` : '') +
    (fore ? '/F' : '');
  return { code: base + suffix, base, cut, median, limit, predetermined, fore, ...(unrated !== undefined ? { unrated } : {}) };
}

export function isTiebreakSpec(text: string): boolean {
  try {
    parseTiebreak(text);
    return true;
  } catch {
    return false;
  }
}
