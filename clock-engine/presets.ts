// Named controls of the three events (Cairns Cup 2019, Donostia 2009, SA Open 2009), their play-offs,
// and the classical controls of the real clock records in shared/oracles/clocks.
import { TimeControlError, sameTimeControl } from './time-control.ts';
import { formatTimeControl } from './time-control-format.ts';
import { detectNotation, parseTimeControl } from './time-control-parse.ts';
import type { TimeControl } from './types.ts';

export interface TimeControlPreset {
  readonly name: string;
  readonly description: string;
  /** The control in PGN / TRF-2026 tag 222 notation (zeitnot extensions: `@N`, `dN`, `bN`). */
  readonly pgn: string;
  readonly timeControl: TimeControl;
  readonly category: 'standard' | 'rapid' | 'blitz';
}

function preset(
  name: string,
  pgn: string,
  category: TimeControlPreset['category'],
  description: string,
  options: { incrementCredit?: TimeControl['incrementCredit'] } = {},
): TimeControlPreset {
  return { name, description, pgn, category, timeControl: parseTimeControl(pgn, { notation: 'pgn', ...options }) };
}

const list: TimeControlPreset[] = [
  preset('cairns-cup', '40/5400+30:1800+30', 'standard', 'Cairns Cup 2019: 90 min for 40 moves, then 30 min, +30 s per move from move 1'),
  preset('90+30', '5400+30', 'standard', 'Donostia 2009, SA Open 2009 Open section: 90 min + 30 s per move from move 1'),
  preset('sa-open-b', '7200', 'standard', 'SA Open 2009 B section "120/120", read as 120 minutes for the whole game, no increment'),
  preset('g45+5', '2700+5', 'rapid', 'Play-off G/45+5: 45 min + 5 s per move'),
  preset('g25+5', '1500+5', 'rapid', 'Play-off G/25+5: 25 min + 5 s per move'),
  preset('g10+5', '600+5', 'rapid', 'Play-off G/10+5 (rapid under every edition: 10 + 5 = 15 min)'),
  preset('blitz-5', '300', 'blitz', 'Play-off blitz: 5 min, no increment'),
  preset('armageddon', 'W300-B240', 'blitz', 'Armageddon: White 5 min, Black 4 min, no increment; a draw counts as a win for Black'),
  preset('armageddon+2@61', 'W300-B240+2@61', 'blitz', 'Armageddon 5 v 4 min, +2 s per move from move 61'),
  preset('armageddon+3@61', 'W300-B240+3@61', 'blitz', 'Armageddon 5 v 4 min, +3 s per move from move 61'),
  preset('120/40+60/20+15+30@61', '40/7200:20/3600:900+30', 'standard', '120 min / 40, 60 min / 20, 15 min, +30 s per move from move 61'),
  preset('fide-standard', '40/5400+30:1800+30', 'standard', 'FIDE standard 90 min / 40 + 30 min, +30 s from move 1 (Figueira Open 2017)'),
  preset('tata-steel', '40/6000+30:20/3000+30:900+30', 'standard', 'Tata Steel 2017/2022: 100 min / 40, 50 min / 20, 15 min, +30 s from move 1'),
  preset('london-classic', '40/7200:3600+30', 'standard', 'London Chess Classic 2016, Shamkir 2019: 120 min / 40, then 60 min, +30 s from move 41'),
  preset('feria-idchess', '5400+30', 'standard', '90+30 as idChess records it: the increment is added after the press', { incrementCredit: 'after-press' }),
  preset('champions-showdown', '1800d10', 'rapid', 'Champions Showdown 2018: 30 min with a 10 s simple delay'),
  preset('dgt-rapid-15+10', '900+10', 'rapid', 'DGT LiveChess sample: 15 min + 10 s per move'),
  preset('online-3+1', '180+1', 'blitz', 'chess.com 3+1 (increment added after the press)', { incrementCredit: 'after-press' }),
  preset('online-10+2', '600+2', 'rapid', 'chess.com 10+2 (increment added after the press)', { incrementCredit: 'after-press' }),
];

export const timeControlPresets: Readonly<Record<string, TimeControlPreset>> = Object.fromEntries(list.map((p) => [p.name, p]));

/**
 * The refusal for a text that names a preset and also reads, in its notation, as another control:
 * `90+30` is the preset 90 min + 30 s a move, and in PGN notation (seconds, as a TimeControl tag is
 * read) 90 s + 30 s a move. Such a text has no one reading, so wherever a control is read from text
 * without a stated notation it is refused, naming both; undefined for any other text.
 */
export function presetAmbiguity(text: string): TimeControlError | undefined {
  const preset = timeControlPresets[text.trim()];
  if (!preset) return undefined;
  let other: TimeControl;
  try {
    other = parseTimeControl(text);
  } catch {
    return undefined;
  }
  if (sameTimeControl(other, preset.timeControl)) return undefined;
  const notation = detectNotation(text);
  return new TimeControlError(
    text,
    0,
    `a control with one reading: "${text.trim()}" is the preset ${preset.pgn} (${preset.description}) and, in ${notation.toUpperCase()} notation, ${formatTimeControl(other, 'fide')} (FIDE notation, minutes); write the control in a notation (${preset.pgn} in PGN seconds${notation === 'pgn' ? `, ${formatTimeControl(preset.timeControl, 'fide')} in FIDE` : ''})`,
  );
}
