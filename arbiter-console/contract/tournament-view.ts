// What the tournament desk journals and what its pages receive. Types only: the page bundle imports
// them too, so nothing here may pull in Node code.
import type { GameResult } from '../../clock-engine/index.ts';
import type {
  CrosstableView,
  EventPlayer,
  FinesView,
  Offence,
  Pairing,
  PlayoffFormat,
  PlayoffState,
  PlayoffView,
  PrizesView,
  SectionRecord,
  ZeitnotEvent,
} from '../../tournament/index.ts';

/**
 * One journaled tournament action. Outcomes are journaled (the draft's pairings, the playoff's seed),
 * not only requests, so a replay never depends on a later version of the pairing engine. `open`: the
 * event and section of a single-round console's desk, a record only that former console's journals hold.
 */
export type TournamentRecord = (
  | { readonly type: 'open'; readonly event: ZeitnotEvent; readonly section: string }
  | {
      readonly type: 'result';
      readonly round: number;
      readonly white: number;
      readonly black: number;
      readonly result: GameResult;
      /** 'confirmed': the clock's result accepted as it was; 'arbiter': entered or corrected. */
      readonly source: 'confirmed' | 'arbiter';
      readonly termination: string;
      readonly lessThanOneMove?: boolean;
      readonly reason?: string;
      /** A correction: the result this one replaces (entered, confirmed, imported, or the clock's). */
      readonly replaces?: GameResult;
      readonly by: string;
    }
  | { readonly type: 'draft'; readonly round: number; readonly games: readonly Pairing[]; readonly bye: number | null; readonly by: string }
  | {
      readonly type: 'draftChange';
      readonly change: 'swapColours' | 'exchangeOpponents';
      readonly board: number;
      readonly otherBoard?: number;
      readonly reason: string;
      readonly by: string;
    }
  | { readonly type: 'discardDraft'; readonly reason: string; readonly by: string }
  | { readonly type: 'publish'; readonly round: number; readonly by: string }
  | { readonly type: 'playoffStart'; readonly tied: readonly number[]; readonly seed: number; readonly by: string }
  /** A playoff game's result: entered by an arbiter, or (`board`) the clock's on the hall board it was played on. */
  /** The chief arbiter's ruling on a playoff the regulations leave to him (tournament/playoff.ts decidePlayoff). */
  | { readonly type: 'playoffRuling'; readonly winner: number; readonly reason: string; readonly by: string }
  /**
   * The chief arbiter's playoff format where the regulations leave it to him (tournament/playoff.ts
   * setPlayoffFormat); `qualified` the cut's outcome, best first (every tied player without a cut).
   */
  | {
      readonly type: 'playoffFormat';
      readonly format: PlayoffFormat;
      readonly qualified: readonly number[];
      readonly reason: string;
      readonly by: string;
    }
  | {
      readonly type: 'playoffResult';
      readonly game: string;
      readonly result: GameResult;
      readonly board?: string;
      readonly termination?: string;
      readonly by: string;
    }
  /**
   * A TRF-16 file read into the section: the arbiter's import (a registration list and/or rounds played
   * elsewhere; `digest` the file's SHA-256, `rounds` how many, `players` what it set on the section's
   * players), or the results of earlier rounds read when a one-round console was started.
   */
  | {
      readonly type: 'import';
      readonly from: string;
      readonly digest?: string;
      readonly rounds?: number;
      readonly players?: readonly RegistrationUpdate[];
      readonly games: readonly {
        readonly round: number;
        readonly white: number;
        readonly black: number;
        readonly result: GameResult;
        readonly lessThanOneMove?: boolean;
      }[];
      readonly byes: readonly { readonly round: number; readonly player: number; readonly kind: 'pab' | 'full' | 'half' }[];
      readonly by: string;
    }
  | { readonly type: 'bye'; readonly round: number; readonly player: number; readonly kind: 'half' | 'zero'; readonly reason: string; readonly by: string }
  | { readonly type: 'withdrawal'; readonly player: number; readonly fromRound: number; readonly reason: string; readonly by: string }
  /** The chief arbiter corrects a player's name: the player stays his pairing number; names are for display. */
  | { readonly type: 'rename'; readonly player: number; readonly name: string; readonly reason: string; readonly by: string }
  /**
   * The arbiter's decision on a player who lost by default in `round` (SA Open): no notification came,
   * so he is withdrawn from `fromRound` on; or (`noNotification` false) he had notified and stays paired.
   */
  | {
      readonly type: 'noShow';
      readonly round: number;
      readonly player: number;
      readonly noNotification: boolean;
      readonly fromRound?: number;
      readonly reason: string;
      readonly by: string;
    }
  /** The chief arbiter's rating for an unrated player, once round `afterRound` was complete. */
  | {
      readonly type: 'ratingAssigned';
      readonly player: number;
      readonly rating: number;
      readonly afterRound: number;
      readonly reason: string;
      readonly by: string;
    }
  /** A written appeal received (at the record's time) against a decision in `round`; `endedAt` the console time its game or round ended. */
  | {
      readonly type: 'appeal';
      readonly id: string;
      readonly round: number;
      readonly player: number;
      readonly against: string;
      readonly fee?: number;
      readonly endedAt: number;
      readonly by: string;
    }
  /** The appeals committee's decision on appeal `appeal`, its members as the log shows them. */
  | {
      readonly type: 'appealDecision';
      readonly appeal: string;
      readonly upheld: boolean;
      readonly committee: readonly string[];
      readonly reason: string;
      readonly by: string;
    }
  /**
   * A fine or sanction: entered by an arbiter (recordIncident), or (`source` 'clock') the clock's late
   * arrival, journaled with the confirmation of the game's result and signed by who confirmed it. `id`
   * is stable (tournament/ incidentId); journals before ids have none (the desk gives the same one).
   */
  | {
      readonly type: 'incident';
      readonly id?: string;
      readonly round: number;
      readonly player: number;
      readonly offence: Offence;
      readonly note?: string;
      readonly source?: 'clock';
      readonly by: string;
    }
  /** The chief arbiter waives an incident's fine (waiveFine), with his reason. */
  | { readonly type: 'waiver'; readonly incident: string; readonly reason: string; readonly by: string }
) & {
  /** The id of the credential `by` acted with ('chief': the printed token); absent for the console's own records and in journals before ids. */
  readonly credential?: string;
};

/** What a registration list set on one of the section's players (only what differed). */
export interface RegistrationUpdate {
  readonly id: number;
  readonly fideRating?: number;
  readonly federation?: string;
  readonly title?: EventPlayer['title'];
  readonly fideId?: string;
}

/** What a TRF import will change (the desk page shows it before the arbiter confirms). */
export interface TrfImportPreview {
  readonly section: string;
  readonly from: string;
  /** SHA-256 of the file's text. */
  readonly digest: string;
  readonly players: {
    readonly inFile: number;
    /** Players whose rating, federation, title or FIDE id the file changes, with what changes. */
    readonly changed: readonly { readonly id: number; readonly name: string; readonly changes: readonly string[] }[];
    /** Section players the file does not list (left as they are; refused when rounds are imported). */
    readonly notInFile: readonly string[];
  };
  /** Rounds played elsewhere (0: a registration list only), their games and byes. */
  readonly rounds: number;
  readonly games: number;
  readonly byes: number;
  /** How the console goes on: "round 4: the Dutch engine pairs it". */
  readonly next: string;
  /** What the file holds that the import does not take, and why. */
  readonly notImported: readonly string[];
}

export type ResultSource = 'clock' | 'confirmed' | 'arbiter';

export interface PairedPlayer {
  readonly id: number;
  readonly name: string;
}

/** A player as a posted pairing shows him: points before the round and the rating he is paired by in it. */
export interface PlayerInRound extends PairedPlayer {
  readonly points: number;
  readonly rating: number | null;
}

/** `P`: PairedPlayer in the desk's parts; the page's view adds each player's standing (PlayerInRound). */
export interface PairedGame<P extends PairedPlayer = PlayerInRound> {
  readonly board: number;
  /** The hall's board id while the round is on the clocks here. */
  readonly hallBoard?: string;
  readonly white: P;
  readonly black: P;
  readonly result: GameResult | null;
  readonly source: ResultSource | null;
  readonly termination?: string;
  /** The clock's result where it contradicts the entered one (an open alert: keep one of the two). */
  readonly clockContradicts?: GameResult;
}

export interface RoundPairings<P extends PairedPlayer = PlayerInRound> {
  readonly round: number;
  /** live: on this console's clocks; published: made official with "publish"; table: Berger table; imported: from a TRF. */
  readonly status: 'live' | 'published' | 'table' | 'imported';
  readonly games: readonly PairedGame<P>[];
  readonly bye: PairedPlayer | null;
  readonly notPaired: readonly { readonly id: number; readonly name: string; readonly why: string }[];
}

/** A game's result corrected by an arbiter (with the reason): the crosstable's history of that game. */
export interface ResultCorrection {
  readonly round: number;
  readonly white: PairedPlayer;
  readonly black: PairedPlayer;
  /** The result it replaced. */
  readonly from: GameResult;
  readonly to: GameResult;
  readonly by: string;
  readonly reason: string;
  /** Console time (monotonic ms) of the journal record. */
  readonly at: number;
}

export interface DraftView {
  readonly round: number;
  readonly games: readonly { readonly board: number; readonly white: PairedPlayer; readonly black: PairedPlayer }[];
  readonly bye: PairedPlayer | null;
  readonly changes: readonly { readonly change: string; readonly reason: string; readonly by: string }[];
  /** Pairs in the draft who have met before (after manual changes): the arbiter should see them. */
  readonly rematches: readonly string[];
}

/**
 * What the section's regulations ask of the desk beyond pairing and results (SA Open, Donostia): the
 * no-shows to decide, the unrated players' ratings, the appeals log. Null parts: the regulation has no such rule.
 */
export interface RegulationsView {
  /** Players who lost a game by default: undecided ones wait for the arbiter (withdraw unless notified). */
  readonly noShows:
    | readonly {
        readonly round: number;
        readonly player: PairedPlayer;
        readonly decided?: { readonly withdrawn: boolean; readonly fromRound?: number; readonly reason: string; readonly by: string };
      }[]
    | null;
  readonly ratings: {
    /** Ratings are assigned once this round is complete. */
    readonly afterRound: number;
    readonly possible: boolean;
    readonly why?: string;
    readonly unrated: readonly {
      readonly player: PairedPlayer;
      readonly assigned?: { readonly rating: number; readonly afterRound: number; readonly reason: string; readonly by: string };
    }[];
  } | null;
  readonly appeals: {
    /** The event's rule: minutes after the game or the round, the fee, the committee. */
    readonly rule: { readonly deadlineMinutes: number; readonly after: 'game' | 'round'; readonly fee?: number; readonly committee?: string } | null;
    readonly log: readonly {
      readonly id: string;
      readonly round: number;
      readonly player: PairedPlayer;
      readonly against: string;
      /** ISO times: lodged, the game's or round's end, the deadline. */
      readonly filedAt: string;
      readonly endedAt: string;
      readonly deadline: string;
      readonly fee?: number;
      readonly by: string;
      readonly decision?: {
        readonly upheld: boolean;
        readonly committee: readonly string[];
        readonly reason: string;
        readonly at: string;
        readonly by: string;
      };
      readonly feeReturned?: boolean;
    }[];
  };
}

export interface TournamentView {
  readonly event: string;
  /** An event console with several sections: every section's view, in the event's order (this one is the first's). */
  readonly sections?: readonly TournamentView[];
  readonly section: { readonly id: string; readonly name: string; readonly format: 'round-robin' | 'swiss'; readonly rounds: number };
  /** The round on this console's clocks. */
  readonly liveRound: number;
  /** The latest round with pairings (live or published). */
  readonly currentRound: number;
  readonly rounds: readonly RoundPairings[];
  /** Boards on the clocks whose players are not both in the section: their results are not counted. */
  readonly unlinkedBoards: readonly { readonly board: string; readonly white: string; readonly black: string }[];
  /** Every corrected result, oldest first (the crosstable marks their cells and shows this history). */
  readonly corrections: readonly ResultCorrection[];
  /** Arbiters only; spectators never see an unpublished pairing. */
  readonly draft?: DraftView;
  /** The round to pair next; `why` it cannot be paired yet, or what its draft waits for before it may be published (`publishAfter`). */
  readonly nextRound: { readonly round: number; readonly possible: boolean; readonly why?: string; readonly publishAfter?: string } | null;
  readonly crosstable: CrosstableView;
  readonly playoff: PlayoffView | null;
  readonly playoffPossible: { readonly possible: boolean; readonly why?: string };
  readonly fines: FinesView;
  readonly prizes: PrizesView;
  readonly regulations: RegulationsView;
}

/**
 * A section's view before its derived parts (crosstable, playoff, fines, prizes): what the desk
 * knows at once, and the section record they are derived from. Plain data (it crosses to the view worker).
 */
export interface ViewParts extends Omit<TournamentView, 'sections' | 'rounds' | 'crosstable' | 'playoff' | 'fines' | 'prizes'> {
  /** The rounds' games without the players' standings (assembleViews adds them with the crosstable). */
  readonly rounds: readonly RoundPairings<PairedPlayer>[];
  readonly record: SectionRecord;
  readonly playoff?: PlayoffState;
  /** Playoff game id -> the hall board it is (or was) played on (an event console plays the playoff on its boards). */
  readonly playoffBoards?: Readonly<Record<string, string>>;
  /** Why the next playoff sitting could not be seated. */
  readonly playoffHeld?: string;
  /** The section's players after an imported registration list (the view worker's event file has the old ones). */
  readonly players?: readonly EventPlayer[];
}
