// The event file: one JSON document describing an event and its sections, checked by a zod schema.
// Every rule of a regulation that software can enforce has a field here (docs/event-file.md).
import { z } from 'zod';
import { assertPlayable, parseTimeControl } from '../clock-engine/index.ts';
import { isTiebreakSpec } from './tiebreak-codes.ts';

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();
const money = z.number().nonnegative();

export const playerSchema = z.strictObject({
  /** Pairing number (starting rank) inside the section. */
  id: z.number().int().min(1).max(9999),
  name: z.string().min(1),
  title: z.enum(['GM', 'IM', 'WGM', 'FM', 'WIM', 'CM', 'WFM', 'WCM']).optional(),
  sex: z.enum(['m', 'w']).optional(),
  federation: z.string().regex(/^[A-Z]{3}$/, 'a three-letter FIDE federation code'),
  fideId: z
    .string()
    .regex(/^\d{1,11}$/, 'digits only')
    .optional(),
  fideRating: z.number().int().min(0).max(3500).optional(),
  /** National rating (SA Open: the CHESSA rating of RSA players). */
  nationalRating: z.number().int().min(0).max(3500).optional(),
  birthDate: isoDate.optional(),
  /** Registration date: later than the section's deadline makes a late registrant. */
  registered: isoDate.optional(),
  team: z.string().optional(),
});
export type EventPlayer = z.infer<typeof playerSchema>;

export const formatSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('round-robin'), cycles: z.union([z.literal(1), z.literal(2)]).default(1) }),
  z.strictObject({ kind: z.literal('swiss'), system: z.literal('dutch'), rounds: z.number().int().min(1).max(99) }),
]);
export type EventFormat = z.infer<typeof formatSchema>;

const playoffStage = z.strictObject({
  /** What the stage is played as. */
  kind: z.enum(['match', 'round-robin', 'league-until-two', 'armageddon', 'armageddon-series']),
  /** Games per pairing (match: games in the match; round-robin: cycles). */
  games: z.number().int().min(1).default(1),
  /** Round-robin stage reached by only two players: a match of this many games. */
  twoPlayerGames: z.number().int().min(1).optional(),
  timeControl: z.string().min(1),
});

export const playoffSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({
    kind: z.literal('ladder'),
    /**
     * Which places the playoff decides: 1 = the first place only, the other tied players by the
     * tie-breaks (Donostia Art. 10); 'all' = the final standings among all the tied (Cairns Cup 7).
     */
    places: z.union([z.literal(1), z.literal('all')]),
    /** Keyed by the number of tied players: '2', '3-4', …; a missing size goes to the arbiter. */
    bySize: z.record(z.string().regex(/^\d+(-\d+|\+)?$/, "a size '2', a range '3-4' or '3+'"), z.array(playoffStage).min(1)),
    /** When more players tie than any key covers. */
    otherwise: z.enum(['arbiter-decision', 'tiebreaks']),
    armageddon: z.strictObject({
      timeControl: z.string().min(1),
      /** Who chooses colour: drawn by lot. */
      colour: z.literal('drawing-of-lots'),
      drawGoesTo: z.literal('black'),
    }),
  }),
]);
export type PlayoffProcedure = z.infer<typeof playoffSchema>;

export const fineSchema = z.strictObject({
  offence: z.enum(['late-arrival', 'electronic-device', 'device-noise', 'device-noise-after-game']),
  /** Money deducted from the player's prize per occurrence. */
  amount: money.default(0),
  /** What else happens: the game is lost, or a point comes off the final score. */
  sanction: z.enum(['none', 'forfeit', 'point-deduction']).default('none'),
});
export type FineRule = z.infer<typeof fineSchema>;

export const prizeSchema = z.strictObject({
  currency: z.string().min(1),
  /** Place prizes, first place first. */
  places: z.array(money),
  /** How tied players share: pooled equally, Hort (half kept, half pooled), or by tie-break order. */
  sharing: z.enum(['equal', 'hort', 'tiebreak']),
  /**
   * What a shared prize is paid in: whole cents (default), or multiples of 10 (the SA Open's "rounding
   * to the nearest 10"). Either way every split adds up to its fund exactly (tournament/prizes.ts,
   * largest remainder; docs/tournament-rules.md).
   */
  rounding: z.enum(['cent', 'ten']).optional(),
  /** A player gets at most one prize, the highest. */
  onePerPlayer: z.boolean().default(true),
  /** No prize for a player who withdraws or loses a game by forfeit. */
  withdrawnOrForfeitedExcluded: z.boolean().default(false),
  /** Category prizes (best rated under X, …): name, amount, who qualifies. */
  special: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        amount: money,
        maxRating: z.number().int().optional(),
        federation: z.string().optional(),
        /** Paid on top of a place prize (the SA Open's "special" prizes); otherwise one prize per player. */
        combinable: z.boolean().default(false),
      }),
    )
    .default([]),
  team: z
    .strictObject({
      /** Members whose scores add up (SA Open: 4). */
      members: z.number().int().min(1),
      places: z.array(money).min(1),
    })
    .optional(),
});
export type PrizeRules = z.infer<typeof prizeSchema>;

export const sectionSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and -'),
  name: z.string().min(1),
  format: formatSchema,
  /** TimeControl string as clock-engine's parseTimeControl reads it (PGN tag form, e.g. 5400+30). */
  timeControl: z.string().min(1),
  /**
   * The quickplay-finish claim (docs/clock-rules.md): under L2009, Article 10.2, which the Laws apply
   * unless the regulations switch it off (default on); under L2018/L2023, which have no Article 10,
   * the Guidelines III, only where the regulations adopt them (default off).
   */
  quickplayFinish: z.boolean().optional(),
  /** Minutes after the scheduled start after which an absent player loses by default. */
  defaultTimeMinutes: z.number().int().min(0),
  /**
   * How the regulations word the default time: 'more-than' ("more than 30 minutes late", as the Laws
   * and the three events do: arriving at exactly 30:00 plays) or 'at' (absent at 30:00 loses).
   */
  defaultTimeBoundary: z.enum(['more-than', 'at']).default('more-than'),
  /**
   * What happens to a player still absent when the default time ends: 'forfeit' (he loses the game) or
   * 'arbiter-decides' (the clock stops and the arbiter rules). The regulations decide ("shall forfeit",
   * "will lose"); where they are silent, the Laws: L2009 6.7 a loss, L2018/L2023 6.7.1 a loss "unless
   * the arbiter decides otherwise" (lateArrivalOf).
   */
  lateArrival: z.enum(['forfeit', 'arbiter-decides']).optional(),
  /** The regulations' article that says so (cited with the forfeit in the game's result), e.g. "Regulation 1". */
  lateArrivalRule: z.string().min(1).optional(),
  /**
   * Rapid and blitz games of the section, playoffs included: whether supervision is adequate in the
   * Laws' sense (L2009 A.3/B.2, L2018 A.3/B.3, L2023 A.4/B.2) or not (L2009 A.4/B.3, L2018 A.4/B.4,
   * L2023 A.5/B.3).
   */
  supervision: z.enum(['adequate', 'inadequate']).default('adequate'),
  /**
   * The FIDE category of the section's games where its regulations class them: 'standard', 'rapid' or
   * 'blitz'. Unset: FIDE's own under the event's edition (fideCategory: 600+2 is blitz under L2009,
   * under 15 minutes, and rapid under L2018/L2023, over 10). It decides which articles apply (penalties,
   * Article 10.2 in blitz, supervision). Playoff games are classed by their own controls.
   */
  category: z.enum(['standard', 'rapid', 'blitz']).optional(),
  /** Round start times, round 1 first, with their UTC offset. */
  schedule: z.array(isoDateTime).min(1),
  players: z.array(playerSchema),
  teams: z.array(z.strictObject({ name: z.string().min(1), members: z.array(z.number().int().min(1)).min(1) })).default([]),
  /** Tie-break order in C.07 codes (DE, BPG, KS, SB, WON, BH-M1, TPR, PS, …). */
  tiebreaks: z.array(z.string().refine(isTiebreakSpec, 'not a known C.07 tie-break code')),
  /** Which C.07 text handles unplayed games. */
  unplayedRules: z.enum(['2023', '2026']).default('2023'),
  /** When every tie-break is equal: ranks are shared (true) or a drawing of lots decides. */
  sharedRanks: z.boolean().default(true),
  playoff: playoffSchema,
  pairingRating: z
    .strictObject({
      default: z.enum(['fide', 'national']),
      /** Federations paired by the other rating (SA Open: RSA players by national rating). */
      byFederation: z.record(z.string().regex(/^[A-Z]{3}$/), z.enum(['fide', 'national'])).default({}),
    })
    .default({ default: 'fide', byFederation: {} }),
  /** After this round the chief arbiter assigns ratings to unrated players. */
  assignRatingsToUnratedAfterRound: z.number().int().min(1).optional(),
  /** Registrations after this date are late: not paired in round 1. */
  registrationDeadline: isoDate.optional(),
  /** A player who misses a round without notice is withdrawn. */
  noShowWithdraws: z.boolean().default(false),
  entry: z.strictObject({ maxRating: z.number().int().optional(), maxAgeYears: z.number().int().optional() }).optional(),
  fines: z.array(fineSchema).default([]),
  prizes: prizeSchema.optional(),
  /**
   * The hall boards this section plays on: its board k is hall board `first + k - 1`, or the k-th of a
   * list. Default: after the previous sections' boards, in the event's order.
   */
  hallBoards: z.union([z.strictObject({ first: z.number().int().min(1).max(9999) }), z.array(z.number().int().min(1).max(9999)).min(1)]).optional(),
});
export type EventSection = z.infer<typeof sectionSchema>;

export const eventSchema = z.strictObject({
  /** File format version. */
  zeitnotEvent: z.literal(1),
  id: z.string().regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and -'),
  name: z.string().min(1),
  city: z.string().optional(),
  federation: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  startDate: isoDate,
  endDate: isoDate,
  chiefArbiter: z.string().optional(),
  /** FIDE Laws in force: decides penalties, 10.2 and the automatic draws on the clock. */
  lawsEdition: z.enum(['L2009', 'L2018', 'L2023']),
  drawRule: z
    .strictObject({
      /** No draw by agreement before this move. */
      minMoves: z.number().int().min(1),
      appliesToPlayoffs: z.boolean(),
    })
    .optional(),
  appeals: z
    .strictObject({
      deadlineMinutes: z.number().int().min(1),
      after: z.enum(['game', 'round']),
      fee: money.optional(),
      /** Who decides (Donostia Art. 7: three members of the other tournaments): checked when an appeal is decided. */
      committee: z.strictObject({ members: z.number().int().min(1), fromOtherSections: z.boolean() }).optional(),
    })
    .optional(),
  sections: z.array(sectionSchema).min(1),
});
export type ZeitnotEvent = z.infer<typeof eventSchema>;
export type EventInput = z.input<typeof eventSchema>;

export interface EventFieldError {
  /** Dotted path: sections.0.players.3.fideRating */
  readonly path: string;
  readonly message: string;
}

export class EventFileError extends Error {
  constructor(readonly errors: readonly EventFieldError[]) {
    super(`event file has ${errors.length} error(s):\n${errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n')}`);
    this.name = 'EventFileError';
  }
}

export type TimeControlCheck = (text: string) => string | null;

export interface LoadEventOptions {
  /** Validates a time-control string; returns an error message or null. Default: clock-engine's parseTimeControl. */
  readonly checkTimeControl?: TimeControlCheck;
}

/** The clock engine's parser as a check: every time control in an event must run on a clock. */
export const clockEngineCheck: TimeControlCheck = (text) => {
  try {
    assertPlayable(parseTimeControl(text));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

/** Checks that the schema cannot express: ids, schedule length, teams, entries. */
function crossCheck(event: ZeitnotEvent, options: LoadEventOptions): EventFieldError[] {
  const errors: EventFieldError[] = [];
  const tc = (path: string, text: string): void => {
    const problem = (options.checkTimeControl ?? clockEngineCheck)(text);
    if (problem) errors.push({ path, message: `bad time control '${text}': ${problem}` });
  };
  if (event.endDate < event.startDate) errors.push({ path: 'endDate', message: 'is before startDate' });
  // The sections play in one hall at once: no hall board may serve two of them.
  const hallBoardOwner = new Map<number, string>();
  let nextHallBoard = 1;
  event.sections.forEach((section, s) => {
    const needed = Math.ceil(section.players.length / 2);
    const spec = section.hallBoards;
    if (Array.isArray(spec) && spec.length < needed)
      errors.push({ path: `sections.${s}.hallBoards`, message: `lists ${spec.length} hall boards for ${needed} boards` });
    const numbers = Array.isArray(spec) ? spec : Array.from({ length: needed }, (_, k) => (spec?.first ?? nextHallBoard) + k);
    for (const n of numbers) {
      const owner = hallBoardOwner.get(n);
      if (owner !== undefined) errors.push({ path: `sections.${s}.hallBoards`, message: `hall board ${n} is section '${owner}'s already` });
      hallBoardOwner.set(n, section.id);
    }
    nextHallBoard = Math.max(nextHallBoard, ...numbers.map((n) => n + 1));
  });
  const sectionIds = new Set<string>();
  event.sections.forEach((section, s) => {
    const at = `sections.${s}`;
    if (sectionIds.has(section.id)) errors.push({ path: `${at}.id`, message: `section id '${section.id}' is used twice` });
    sectionIds.add(section.id);
    tc(`${at}.timeControl`, section.timeControl);
    const rounds = sectionRounds(section);
    if (section.schedule.length !== rounds) {
      errors.push({ path: `${at}.schedule`, message: `has ${section.schedule.length} start times for ${rounds} rounds` });
    }
    section.schedule.forEach((start, r) => {
      const previous = section.schedule[r - 1];
      if (previous !== undefined && Date.parse(start) <= Date.parse(previous)) {
        errors.push({ path: `${at}.schedule.${r}`, message: 'starts before the previous round' });
      }
    });
    const ids = new Set<number>();
    section.players.forEach((player, p) => {
      if (ids.has(player.id)) errors.push({ path: `${at}.players.${p}.id`, message: `pairing number ${player.id} is used twice` });
      ids.add(player.id);
      if (player.team !== undefined && !section.teams.some((team) => team.name === player.team)) {
        errors.push({ path: `${at}.players.${p}.team`, message: `no team named '${player.team}'` });
      }
      const max = section.entry?.maxRating;
      const rating = player.fideRating ?? player.nationalRating;
      if (max !== undefined && rating !== undefined && rating >= max) {
        errors.push({ path: `${at}.players.${p}`, message: `rating ${rating} is not below the section limit ${max}` });
      }
      const maxAge = section.entry?.maxAgeYears;
      if (maxAge !== undefined && player.birthDate !== undefined && ageOn(player.birthDate, event.startDate) >= maxAge) {
        errors.push({ path: `${at}.players.${p}.birthDate`, message: `is ${maxAge} or older on ${event.startDate}` });
      }
    });
    if (section.format.kind === 'round-robin') {
      const sorted = [...ids].sort((a, b) => a - b);
      if (sorted.some((id, i) => id !== i + 1)) {
        errors.push({ path: `${at}.players`, message: 'round-robin pairing numbers must be 1..n without gaps' });
      }
    }
    section.teams.forEach((team, t) => {
      team.members.forEach((member, m) => {
        if (!ids.has(member)) errors.push({ path: `${at}.teams.${t}.members.${m}`, message: `no player ${member}` });
      });
      if (section.prizes?.team && team.members.length < section.prizes.team.members) {
        errors.push({ path: `${at}.teams.${t}.members`, message: `a team needs ${section.prizes.team.members} members` });
      }
    });
    if (section.playoff.kind === 'ladder') {
      tc(`${at}.playoff.armageddon.timeControl`, section.playoff.armageddon.timeControl);
      for (const [size, stages] of Object.entries(section.playoff.bySize)) {
        stages.forEach((stage, i) => tc(`${at}.playoff.bySize.${size}.${i}.timeControl`, stage.timeControl));
      }
    }
  });
  return errors;
}

function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

export const sectionRounds = (section: EventSection): number =>
  section.format.kind === 'swiss'
    ? section.format.rounds
    : (section.players.length % 2 === 0 ? section.players.length - 1 : section.players.length) * section.format.cycles;

/**
 * Reads an event from JSON text or an already-parsed value. Throws EventFileError listing every
 * wrong field by its path.
 */
export function loadEvent(json: string | unknown, options: LoadEventOptions = {}): ZeitnotEvent {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new EventFileError([{ path: '', message: `not JSON: ${(error as Error).message}` }]);
    }
  }
  const parsed = eventSchema.safeParse(value);
  if (!parsed.success) {
    throw new EventFileError(parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })));
  }
  const errors = crossCheck(parsed.data, options);
  if (errors.length > 0) throw new EventFileError(errors);
  return parsed.data;
}

export function findSection(event: ZeitnotEvent, sectionId: string): EventSection {
  const section = event.sections.find((s) => s.id === sectionId);
  if (!section) throw new RangeError(`event '${event.id}' has no section '${sectionId}' (sections: ${event.sections.map((s) => s.id).join(', ')})`);
  return section;
}

/** Reads and checks an event file from disk (the console's `--event FILE`). */
export async function readEventFile(path: string, options: LoadEventOptions = {}): Promise<ZeitnotEvent> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EventFileError([{ path: '', message: `cannot read ${path}: ${(error as Error).message}` }]);
  }
  return loadEvent(text, options);
}

/** Whether a section's games have the quickplay-finish claim (the Laws' default per edition). */
export function quickplayFinishOf(event: Pick<ZeitnotEvent, 'lawsEdition'>, section: Pick<EventSection, 'quickplayFinish'>): boolean {
  return section.quickplayFinish ?? event.lawsEdition === 'L2009';
}

/** What the section's clocks do with a player absent at the end of the default time (the regulations', else the Laws' per edition). */
export function lateArrivalOf(event: Pick<ZeitnotEvent, 'lawsEdition'>, section: Pick<EventSection, 'lateArrival'>): 'forfeit' | 'arbiter-decides' {
  return section.lateArrival ?? (event.lawsEdition === 'L2009' ? 'forfeit' : 'arbiter-decides');
}
