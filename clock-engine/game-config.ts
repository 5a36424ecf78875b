// One place that builds a game's clock settings, so callers state only what their event changes.
import { fideCategory } from './time-control.ts';
import { parseTimeControl } from './time-control-parse.ts';
import type { GameConfig, TimeControl } from './types.ts';

/**
 * A game config from a time control (a TimeControl, or a string parsed by parseTimeControl, whose
 * TimeControlError propagates) and the event's own settings.
 *
 * The defaults are what the FIDE Laws themselves prescribe when the regulations say nothing, so an
 * unstated setting never invents a rule: the round starts at instant 0; default time 0 (Laws 6.7.1:
 * "if the regulations of an event do not specify otherwise, the default time shall be 0 minutes") and a
 * late player forfeits; the 2023 Laws; the category FIDE's own under that edition (fideCategory:
 * 720 s is blitz under the 2009 Laws, rapid under 2018/2023), unless the event sets it; no
 * draw-offer restriction, no Article 10.2 quickplay claim (Laws 2009 only), no armageddon. Optional
 * fields (autoStart, timekeeper) stay unset unless given, so their own documented defaults apply.
 */
export function gameConfig(timeControl: TimeControl | string, settings: Partial<GameConfig> = {}): GameConfig {
  const parsed = typeof timeControl === 'string' ? parseTimeControl(timeControl) : timeControl;
  const tc = settings.timeControl ?? parsed;
  return {
    scheduledStart: 0,
    defaultTimeMs: 0,
    lateArrival: 'forfeit',
    lawsEdition: '2023',
    drawOfferMinMove: 0,
    quickplayClaim: false,
    armageddon: false,
    ...settings,
    // The category by the edition in force, unless the event sets it (a section's own regulations).
    category: settings.category ?? fideCategory(tc, settings.lawsEdition ?? '2023'),
    timeControl: tc,
  };
}
