// The clock engine's vocabulary: what every other part of zeitnot speaks.
// Device bridges and simulators produce `ClockEvent`s; the console journals them and feeds them to
// one game-clock actor per board (spawned by its round's actor), which folds them and keeps the board's
// deadline timer; the fold's `GameState` is what the console shows.
// All times are integer milliseconds. `at` is a reading of the injected monotonic source
// (the console maps it to wall time for display and PGN).

export type Side = 'white' | 'black';
export const otherSide = (side: Side): Side => (side === 'white' ? 'black' : 'white');

/** Per-move time added to a player's clock. */
export type MoveBonus =
  | { readonly kind: 'none' }
  /** Fischer increment, credited for each move from `fromMove` (1 = from move 1). */
  | { readonly kind: 'increment'; readonly ms: number; readonly fromMove: number }
  /** FIDE "time-delay mode" / US simple delay: the main time waits `ms` before counting down. */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Bronstein: counts down from the start, refunds min(used, ms) at the press. */
  | { readonly kind: 'bronstein'; readonly ms: number };

export interface Period {
  /** Time this period adds to each side (Armageddon: unequal). */
  readonly baseMs: { readonly white: number; readonly black: number };
  /** Moves to complete in this period; absent for the final (rest-of-game) period. */
  readonly moves?: number;
  readonly bonus: MoveBonus;
}

export interface TimeControl {
  /** In order; the last one has no move quota. */
  readonly periods: readonly Period[];
  /**
   * How the next period's time is added:
   * - 'quota-move': per player, at the press that completes that player's quota move (DGT/FIDE default);
   * - 'first-flag': to both players when the first flag of the period falls (DGT "TIME" mode).
   */
  readonly nextPeriod: 'quota-move' | 'first-flag';
  /**
   * When a move's increment is credited: 'before-move' (at the start of the move, as a DGT clock does:
   * 90+30 starts at 1:30:30) or 'after-press' (online-style clocks).
   */
  readonly incrementCredit: 'before-move' | 'after-press';
  /**
   * PGN controls that are not a list of periods: '?' (unknown), '-' (untimed), '*N' (sandclock of N s).
   * They parse and format, but a game clock refuses to run them. Absent for every ordinary control.
   */
  readonly special?: 'unknown' | 'untimed' | 'sandclock';
}

/** The rules a game is played under: everything the fold needs besides the event log. */
export interface GameConfig {
  readonly timeControl: TimeControl;
  /** Scheduled start of the round, monotonic ms: default time counts from here (Laws 6.7.1). */
  readonly scheduledStart: number;
  /** Default time (0, 30 or 60 minutes in ms); 0 = a player must be present at the start. */
  readonly defaultTimeMs: number;
  /** What happens when the default time passes with a player absent. */
  readonly lateArrival: 'forfeit' | 'arbiter-decides';
  /**
   * The article of the event's regulations that sets `lateArrival` (Cairns Cup 2019: "Regulation 1"),
   * cited with the forfeit: there the regulation decides, not the Laws' default. Absent: the Laws'.
   */
  readonly lateArrivalRule?: string;
  /**
   * Where the default time ends, as the event's regulations word it (docs/clock-rules.md):
   * - 'more-than' (default; the Laws: L2009 6.6 a "more than the default time after the scheduled
   *   start", L2018/L2023 6.7.1 "after the default time"; the three events' regulations "more than 30
   *   minutes late"): a player who arrives at exactly 30:00.000 plays; absent at 30:00.001 he loses.
   * - 'at': a player still absent at exactly 30:00.000 loses ("30 minutes or more late").
   */
  readonly defaultTimeBoundary?: 'more-than' | 'at';
  /**
   * Rapid and blitz only (default 'adequate'): whether the event's supervision meets the Laws'
   * definition (L2009 A.3 and B.2: one arbiter for at most three rapid games, one per blitz game;
   * L2018 A.3/B.3, L2023 A.4/B.2: that, and every game recorded). 'inadequate' applies L2009 A.4/B.3,
   * L2018 A.4/B.4, L2023 A.5/B.3: see docs/clock-rules.md for what changes.
   */
  readonly supervision?: 'adequate' | 'inadequate';
  readonly lawsEdition: '2009' | '2018' | '2023';
  readonly category: 'standard' | 'rapid' | 'blitz';
  /** No draw agreement before this move number (Cairns Cup: 30); 0 = no restriction. */
  readonly drawOfferMinMove: number;
  /**
   * The quickplay-finish claim: L2009 Article 10.2, or, under L2018/L2023 (which have no Article 10),
   * the Guidelines III the event's regulations adopt (III.4 five-second increment, III.5 draw claim).
   */
  readonly quickplayClaim: boolean;
  /** Armageddon: a drawn game counts as a win for Black in the match. */
  readonly armageddon: boolean;
  /** Start White's clock by itself at `scheduledStart` (otherwise a `start` event starts it). */
  readonly autoStart?: boolean;
  /**
   * Who keeps the time (default 'engine'):
   * - 'engine': the engine's own arithmetic; a press's `reading` is ignored.
   * - 'device': a physical clock is the authority (DGT/line clock in the mirror role). A press with a
   *   `reading` adopts it for both clocks after comparing (a `clock-disagrees` alert beyond 1 s); a flag
   *   the device (or the arbiter) reports is accepted; the engine's own flag waits `deviceFlagGraceMs`
   *   past its zero for the device's flag before declaring it with an alert. See docs/clock-rules.md.
   */
  readonly timekeeper?: 'engine' | 'device';
}

/** Who caused an event. */
export type EventActor =
  | { readonly kind: 'player'; readonly side: Side }
  | { readonly kind: 'device'; readonly deviceId: string }
  /** `name` for display (PGN, page); `credential` the id of the credential he acted with, where one was used. */
  | { readonly kind: 'arbiter'; readonly name: string; readonly credential?: string }
  | { readonly kind: 'system' };

/**
 * Both displays of a physical clock right after a press, in ms, as the clock shows them: the presser's
 * includes whatever the clock credited at the press (on a DGT clock, the increment for his next move and,
 * at the quota move, the next period), the opponent's is his time at the start of his move. DGT
 * readings are whole seconds as displayed and may lag the lever by up to 1 s.
 */
export interface ClockReading {
  readonly white: number;
  readonly black: number;
}

interface Base {
  /** Monotonic time of the event, integer ms. */
  readonly at: number;
  readonly by: EventActor;
}
interface ArbiterAction extends Base {
  /** Why the arbiter did it; kept in the journal and the PGN. */
  readonly reason: string;
}

export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '+--' | '--+' | '---';

export type ClockEvent =
  /** Starts White's clock (at the scheduled start or when the arbiter says so). */
  | (Base & {
      readonly type: 'start';
      /** Whose clock starts: White's (default), or Black's for a game resumed from a position with Black to move. */
      readonly side?: Side;
    })
  /** The side whose clock runs completes a move. `reading` carries a physical clock's displays. */
  | (Base & {
      readonly type: 'press';
      readonly side: Side;
      readonly reading?: ClockReading;
      /**
       * A press the clock counted while it could not be heard, worked out from its first reading after
       * (all such presses come at that reading's instant; the last carries it): the engine takes the
       * reading without comparing, as it could not split the time between them.
       */
      readonly unseen?: boolean;
    })
  | (ArbiterAction & { readonly type: 'pause' })
  | (Base & { readonly type: 'resume' })
  | (ArbiterAction & { readonly type: 'setTime'; readonly side: Side; readonly ms: number })
  | (ArbiterAction & { readonly type: 'addTime'; readonly side: Side; readonly ms: number })
  /** Corrects a move count (Laws 6.10.2, 7.1): the clock's press counter or the authoritative move number. */
  | (ArbiterAction & {
      readonly type: 'setMoveCounter';
      readonly counter: 'presses' | 'moves';
      readonly side: Side;
      readonly moves: number;
    })
  | (ArbiterAction & {
      readonly type: 'penalty';
      readonly offender: Side;
      readonly offence: 'illegal-move' | 'false-claim';
    })
  | (Base & { readonly type: 'arrive'; readonly side: Side })
  /** A move as the board or scoresheet records it: the authoritative move count. */
  | (Base & { readonly type: 'boardMove'; readonly side: Side; readonly san: string; readonly fen?: string })
  /**
   * The board's position changed other than by one reported move: `plies` < 0 took that many plies
   * back (a takeback, or a move replaced before the next); `plies` >= 0 is a re-read position with that
   * many plies unseen in between (0 when unknown). The board's move counts follow.
   */
  | (Base & { readonly type: 'boardPosition'; readonly fen: string; readonly plies: number; readonly detail?: string })
  /**
   * The clock that keeps the time (`timekeeper: 'device'`) cannot be heard: its cable is out or it has
   * gone silent. No flag falls from the engine's own arithmetic until the clock is heard again
   * (`clockReading`): the engine's times are a guess meanwhile (docs/clock-rules.md, docs/dgt.md).
   */
  | (Base & { readonly type: 'clockUnreachable'; readonly detail?: string })
  /**
   * The clock's first reading after it was unreachable: both displays and whose clock runs (or, stopped,
   * would run). The engine takes it over at once. The presses the clock counted meanwhile come just
   * before it (`press` with `unseen`), worked out from its times (`pressesWhileUnreachable`);
   * `uncounted`: they could not be, only the lever's press came (one when its side changed), so the
   * period counter is held and the arbiter is asked.
   */
  | (Base & { readonly type: 'clockReading'; readonly reading: ClockReading; readonly toMove: Side; readonly uncounted?: boolean })
  | (Base & { readonly type: 'drawOffer'; readonly side: Side })
  | (Base & { readonly type: 'drawAccept'; readonly side: Side })
  /** `side` declines the opponent's standing offer (orally, L2009 9.1 b, L2018/L2023 9.1.2.2): it lapses. */
  | (Base & { readonly type: 'drawDecline'; readonly side: Side })
  /**
   * A quickplay-finish claim by the player to move (L2009 10.2, Guidelines III.5), or under Guidelines
   * III.4 his request for a five-second increment for both players (`request: 'increment'`, which is
   * also a draw offer).
   */
  | (Base & { readonly type: 'quickplayClaim'; readonly side: Side; readonly request?: 'draw' | 'increment' })
  /**
   * The arbiter's decision on it: `draw`; `postpone` (the opponent *may* get two minutes: `extraTime`,
   * L2009 10.2 b, III.5 b); `reject` (the opponent gets two minutes, 10.2 c, III.5 c; for an increment
   * request: no increment, nothing added); `increment` (III.4: the offer refused and the arbiter agrees:
   * +5 s a move for both from now on, +2 min to the opponent).
   */
  | (ArbiterAction & { readonly type: 'quickplayDecision'; readonly decision: 'draw' | 'postpone' | 'reject' | 'increment'; readonly extraTime?: boolean })
  /** A flag reported by a device or observed by the arbiter (the engine also detects its own). */
  | (Base & { readonly type: 'flag'; readonly side: Side })
  /** Generated by the engine when the default time passes with `absent` players not arrived. */
  | (Base & { readonly type: 'defaultTimeExpired'; readonly absent: readonly Side[] })
  | (ArbiterAction & { readonly type: 'forfeit'; readonly side: Side })
  | (Base & { readonly type: 'result'; readonly result: GameResult; readonly termination: string });

export type ClockEventType = ClockEvent['type'];

/** Something the arbiter should look at. `code` is stable for filtering; `message` is for people. */
export interface ClockAlert {
  readonly code:
    | 'flag-fall'
    | 'late-player'
    | 'default-time-expired'
    | 'move-count-mismatch'
    | 'clock-disagrees'
    | 'clock-unreachable'
    | 'presses-missed'
    | 'draw-offer-refused'
    | 'quickplay-claim'
    | 'penalty-limit'
    | 'arbiter-call'
    | 'ignored-event';
  readonly side?: Side;
  readonly at: number;
  readonly message: string;
  /** Set when the alert says the engine did not admit a claim, an offer or an agreement: why, and the rule. */
  readonly refusal?: RuleRefusal;
}

/**
 * Why the engine did not admit a player's claim, offer or agreement, or the arbiter's decision on a
 * claim: what a console decides its answer on (never the alert's message), with the article applied.
 */
export interface RuleRefusal {
  readonly reason:
    /** The event's move rule: no draw agreement before move N (L2009 9.1 a, L2018/L2023 9.1.1). */
    | 'draw-before-move-limit'
    /** L2018/L2023 5.2.3: no agreement before both players have made a move. */
    | 'draw-before-first-moves'
    /** No standing offer of the opponent to accept or decline. */
    | 'no-draw-offer'
    /** The game has no quickplay-finish claim of that kind (10.2 / Guidelines III not in force, no increment option). */
    | 'claim-not-applied'
    /** The claim's conditions are not met (the player having the move, under 2 minutes, final period). */
    | 'claim-conditions'
    /** A decision with no claim waiting for it. */
    | 'no-claim'
    /** A decision that does not answer the claim (draw, postpone, reject a draw claim; increment or reject an increment request). */
    | 'decision-mismatch'
    /** A flag claimed while it is still up. */
    | 'flag-up'
    /** L2009 A.4 d: the claimant's own flag is down too. */
    | 'claimant-flag-down';
  readonly article: string;
}

export type GameStatus = 'waiting' | 'running' | 'paused' | 'finished';

/** What a game's clock is, derived only from its event log. */
export interface GameState {
  readonly status: GameStatus;
  /** Whose clock runs (also kept while paused: whose clock will run on resume). */
  readonly toMove: Side;
  /** Each side's remaining time as of `asOf`; the running side's clock keeps falling after it. */
  readonly remainingMs: { readonly white: number; readonly black: number };
  /** The monotonic instant `remainingMs` refers to. */
  readonly asOf: number;
  /** Presses per side: what a DGT clock counts. */
  readonly presses: { readonly white: number; readonly black: number };
  /** Completed moves per side from the board or scoresheet (authoritative). */
  readonly moves: { readonly white: number; readonly black: number };
  /** Index into `timeControl.periods` per side. */
  readonly period: { readonly white: number; readonly black: number };
  readonly arrived: { readonly white: boolean; readonly black: boolean };
  readonly paused?: { readonly by: EventActor; readonly reason: string; readonly at: number };
  readonly result?: { readonly result: GameResult; readonly termination: string };
  /** The first flag to fall, always recorded even when the game goes on or is drawn. */
  readonly firstFlag?: { readonly side: Side; readonly at: number };
  readonly penalties: {
    readonly white: { readonly illegalMoves: number; readonly falseClaims: number };
    readonly black: { readonly illegalMoves: number; readonly falseClaims: number };
  };
  readonly alerts: readonly ClockAlert[];
  /**
   * The move in progress on the running side's clock: its display when the move started (increment
   * already credited under 'before-move'), the time used on it so far (pauses excluded) as of `asOf`, and
   * the simple delay in force for it (the main time waits `delayMs` before counting down).
   */
  readonly move: { readonly startMs: number; readonly usedMs: number; readonly delayMs: number };
  /**
   * When each side's flag fell and the game ended or the clock stays at zero (absent = not fallen). In
   * 'first-flag' mode a flag that brought the next period is kept only in `firstFlag`.
   */
  readonly flags: { readonly white?: number; readonly black?: number };
  /** An open draw offer (allowed by the move rule), until accepted or the opponent moves. */
  readonly drawOffer?: { readonly side: Side; readonly at: number };
  /**
   * A pending or postponed quickplay-finish claim, or (`increment`) the Guidelines III.4 five seconds
   * a move both players get from `at` on.
   */
  readonly quickplay?: {
    readonly side: Side;
    readonly at: number;
    readonly status: 'pending' | 'postponed' | 'increment';
    readonly request?: 'draw' | 'increment';
  };
  /** Last known position (FEN) from `boardMove`, used for the Laws 6.9 "cannot checkmate" test. */
  readonly fen?: string;
  /**
   * The positions since the last pawn move or capture, the current one last, as Art. 9.2 compares them
   * (pieces, side to move, castling and en passant rights): only these can repeat (fivefold, L2018/L2023
   * 9.6.1). Absent until a board move or position is read.
   */
  readonly repeatablePositions?: readonly string[];
  /**
   * Since when the clock that keeps the time cannot be heard (`clockUnreachable`, until its next
   * `clockReading`): no flag falls from the engine's arithmetic meanwhile.
   */
  readonly clockUnreachable?: { readonly since: number };
  /**
   * Presses were made that nobody could count (the clock unreachable, its times not telling how many):
   * the press counter may be short, so no next period is taken from a side's counter until the arbiter
   * sets it (each side's until its own is set).
   */
  readonly periodHeld?: { readonly since: number; readonly white: boolean; readonly black: boolean };
  /** Set while the press counter and the authoritative move count of `side` disagree. */
  readonly moveCountMismatch?: { readonly side: Side; readonly presses: number; readonly moves: number };
  /** When the default time expired with a player absent (set once). */
  readonly defaultTimeExpiredAt?: number;
  /** Whether the board/scoresheet reports moves for this game (then presses are checked against them). */
  readonly movesTracked: boolean;
  /** Armageddon and decisive results: who wins the match or tie-break (draw in Armageddon = Black). */
  readonly matchWinner?: Side;
}
