// The chief arbiter's playoff format where the regulations leave it to him (Cairns Cup 7: "If more
// than four players are tied for first place, a combination of math tie-breaks and playoffs will be
// used … The format … will be determined by the Chief Arbiter"): whether a format fits the section
// and its tie, and the cut by the math tie-breaks it names. The playoff plays it (playoff.ts).
import { clockEngineCheck, findSection, type EventSection, type ZeitnotEvent } from './event.ts';
import type { PlayoffFormat } from './playoff.ts';
import { sectionStandings, type SectionRecord } from './section-record.ts';
import { isTiebreakSpec, parseTiebreak } from './tiebreak-codes.ts';

/** The section's tie-break a code of the cut names (as the crosstable's columns write it), undefined if none. */
function sectionTiebreak(section: EventSection, code: string): string | undefined {
  if (!isTiebreakSpec(code)) return undefined;
  const wanted = parseTiebreak(code).code;
  return section.tiebreaks.find((spec) => parseTiebreak(spec).code === wanted);
}

/** Why a format does not fit: a time control the clock engine cannot play, or a format that cannot be played as given. */
export interface FormatProblem {
  readonly problem: 'time-control' | 'format';
  readonly message: string;
}

/**
 * Checks a format against the section and the number of players tied: every stage's time control
 * through the clock engine's parser, the cut's tie-breaks among the section's and its size below the
 * tie, and no stage after one that always ends the playoff (an Armageddon, a stage whose tie the
 * tie-breaks decide). Null: it fits.
 */
export function checkPlayoffFormat(section: EventSection, tiedCount: number, format: PlayoffFormat): FormatProblem | null {
  for (const [i, stage] of format.stages.entries()) {
    const problem = clockEngineCheck(stage.timeControl);
    if (problem) return { problem: 'time-control', message: `stage ${i + 1}: bad time control '${stage.timeControl}': ${problem}` };
  }
  const cut = format.cut;
  if (cut) {
    const foreign = cut.tiebreaks.filter((code) => sectionTiebreak(section, code) === undefined);
    if (foreign.length > 0)
      return { problem: 'format', message: `the cut names ${foreign.join(', ')}: the section's tie-breaks are ${section.tiebreaks.join(', ')}` };
    if (cut.to < 2 || cut.to >= tiedCount)
      return { problem: 'format', message: `a cut of ${tiedCount} tied players keeps 2 to ${tiedCount - 1}, not ${cut.to}` };
  }
  const final = format.stages.findIndex((s) => s.kind === 'armageddon' || s.onTie === 'tiebreaks');
  if (final >= 0 && final < format.stages.length - 1)
    return { problem: 'format', message: `stage ${final + 1} always ends the playoff with one winner: stage ${final + 2} would never be played` };
  return null;
}

/**
 * The players who play the format, best first: the tied (in the main tie-break order) ranked by the
 * cut's tie-breaks, equal ones in the main order, the first `cut.to`; without a cut every tied player.
 */
export function playoffQualifiers(event: ZeitnotEvent, sectionId: string, record: SectionRecord, tied: readonly number[], format: PlayoffFormat): number[] {
  const cut = format.cut;
  if (!cut) return [...tied];
  const section = findSection(event, sectionId);
  const tiebreaks = cut.tiebreaks.flatMap((code) => sectionTiebreak(section, code) ?? []);
  const rank = new Map(sectionStandings(event, sectionId, record, tiebreaks).map((row) => [row.id, row.rank]));
  const byCut = [...tied].sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || tied.indexOf(a) - tied.indexOf(b));
  return byCut.slice(0, cut.to);
}
