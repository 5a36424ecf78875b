// One XState v5 actor per game. Its context holds the fold state; every ClockEvent goes through the pure
// fold (applyClockEvent), so the actor adds only what a fold cannot: a timer. While running, a delayed
// transition is aimed at the earliest instant a deadline (flag fall, default-time expiry) can fall, which
// is the exact next deadline unless the waiting clock could still fall earlier; when it fires, the engine
// applies every deadline due by then, stamped with its own instant (not the instant the timer ran), and
// emits it, so the console can journal it and a replay of the journal reproduces the state exactly.
// With `deadlines: 'report'` (the console's hall) the actor applies nothing by itself: its timer only
// reports the instant (`deadline`), and whoever owns the journal journals the deadline events and sends
// them back, so nothing is applied before it is journaled. An owner that has folded an event already
// (to journal the deadlines it passed) sends the folded state (`adopt`) instead of the event, so the
// event is folded once.
import { assign, createActor, enqueueActions, setup, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import { clockEventTypes } from './clock-state.ts';
import { advanceTo, applyClockEvent, earliestPossibleDeadline, followsReading, initialGameState, noDeadlineBy } from './fold.ts';
import type { ClockAlert, ClockEvent, GameConfig, GameState } from './types.ts';

export interface GameClockContext {
  readonly config: GameConfig;
  /** The fold state: identical to `replayGame(config, journal)`. */
  readonly game: GameState;
  /** The instant the deadline timer is aimed at (monotonic ms); undefined when no timer runs. */
  readonly aimedAt?: number;
  /** When the timer last woke (it may wake before any deadline is due, and is then aimed again). */
  readonly awakeAt?: number;
  readonly deadlines: 'apply' | 'report';
}

/** The owner's fold of the next journaled event: the actor takes the state as it is and re-aims its timer if needed. */
export interface GameClockAdopt {
  readonly type: 'adopt';
  readonly game: GameState;
}

/** What the actor takes: a clock event to fold, or a state its owner folded. */
export type GameClockEvent = ClockEvent | GameClockAdopt;

/** What the actor emits (`actor.on('generated', ...)`): engine-made events to journal, and new alerts. */
export type GameClockEmitted =
  | { readonly type: 'generated'; readonly event: ClockEvent }
  | { readonly type: 'alert'; readonly alert: ClockAlert }
  /** `deadlines: 'report'`: the timer reached `at`; the owner journals `advanceTo(config, game, at)` and sends it back. */
  | { readonly type: 'deadline'; readonly at: number };

/** XState's timer interface (setTimeout/clearTimeout), e.g. a SimulatedClock. */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

export interface GameClockInput {
  readonly config: GameConfig;
  /** Resume from a saved fold state (crash recovery) instead of the initial state. */
  readonly state?: GameState;
  /**
   * 'apply' (default): the timer applies the deadlines it reaches and emits them as `generated`.
   * 'report': it only emits `deadline`; the events come back (journaled) through `send`.
   */
  readonly deadlines?: 'apply' | 'report';
}

/** The source of `now` every delay is measured from: the events' own time scale. */
export interface ClockWithNow {
  now(): number;
}

/** setTimeout's ceiling; a later deadline is re-aimed when this wakes up. */
const longestTimerMs = 2_147_483_647;

function emitNews(enqueue: { emit: (e: GameClockEmitted) => void }, before: GameState, after: GameState, generated: readonly ClockEvent[]): void {
  for (const event of generated) enqueue.emit({ type: 'generated', event });
  for (let i = before.alerts.length; i < after.alerts.length; i++) enqueue.emit({ type: 'alert', alert: after.alerts[i]! });
}

const machineSetup = setup({
  types: {
    context: {} as GameClockContext,
    events: {} as GameClockEvent,
    input: {} as GameClockInput,
    emitted: {} as GameClockEmitted,
  },
  delays: {
    /** Replaced by createGameClock / gameClockLogic with the injected clock's `now`. */
    untilDeadline: () => {
      throw new Error('the game clock needs a time source: create it with createGameClock or gameClockLogic');
    },
  },
  actions: {
    aimTimer: assign(({ context }) => ({
      aimedAt: earliestPossibleDeadline(context.config, context.game, Math.max(context.game.asOf, context.awakeAt ?? context.game.asOf)),
    })),
    fold: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'adopt') return;
      const { state, emitted } = applyClockEvent(context.config, context.game, event);
      enqueue.assign({ game: state });
      if (emitted.length > 0 || state.alerts.length !== context.game.alerts.length) emitNews(enqueue, context.game, state, emitted);
    }),
    /** The hot path: a press that passes no deadline and raises no alert (the fold's fast path). */
    foldPress: assign(({ context, event }) => (event.type === 'adopt' ? {} : { game: applyClockEvent(context.config, context.game, event).state })),
    /** The owner folded the event: its state is taken as it is (no second fold). */
    adopt: assign(({ context, event }) => (event.type === 'adopt' ? { game: event.game } : { game: context.game })),
    /** The timer woke at `aimedAt`: apply every deadline due by then, stamped with its own instant. */
    reachDeadline: enqueueActions(({ context, enqueue }) => {
      if (context.aimedAt === undefined) return;
      if (context.deadlines === 'report') {
        enqueue.assign({ awakeAt: context.aimedAt });
        if (!noDeadlineBy(context.config, context.game, context.aimedAt)) enqueue.emit({ type: 'deadline', at: context.aimedAt });
        return;
      }
      const { state, emitted } = advanceTo(context.config, context.game, context.aimedAt);
      enqueue.assign({ game: state, awakeAt: context.aimedAt });
      emitNews(enqueue, context.game, state, emitted);
    }),
  },
  guards: {
    isRunning: ({ context }) => context.game.status === 'running',
    isPaused: ({ context }) => context.game.status === 'paused',
    isFinished: ({ context }) => context.game.status === 'finished',
    startsItself: ({ context }) => context.config.autoStart === true,
    /**
     * The mover's press with no deadline before it: the fold's fast path, which emits nothing. Not a
     * press whose reading a device timekeeper imposes: that may bring the flag earlier (re-aim the timer).
     */
    isPlainPress: ({ context, event }) =>
      event.type === 'press' &&
      Number.isSafeInteger(event.at) &&
      event.side === context.game.toMove &&
      !followsReading(context.config, event.reading) &&
      event.at >= context.game.asOf &&
      noDeadlineBy(context.config, context.game, event.at),
    noDeadlinePassed: ({ context, event }) => event.type !== 'adopt' && noDeadlineBy(context.config, context.game, event.at),
    /**
     * An adopted state that keeps the game running with no deadline possible before the instant the
     * timer is aimed at: the timer stays (it would only wake early, find nothing due and re-aim).
     */
    keepsTimer: ({ context, event }) => {
      if (event.type !== 'adopt' || event.game.status !== 'running' || context.aimedAt === undefined) return false;
      const earliest = earliestPossibleDeadline(context.config, event.game, Math.max(event.game.asOf, context.awakeAt ?? event.game.asOf));
      return earliest === undefined || earliest >= context.aimedAt;
    },
    isUntrackedPlainPress: ({ context, event }) =>
      event.type === 'press' &&
      Number.isSafeInteger(event.at) &&
      !context.game.movesTracked &&
      event.side === context.game.toMove &&
      !followsReading(context.config, event.reading) &&
      event.at >= context.game.asOf &&
      noDeadlineBy(context.config, context.game, event.at),
  },
});

const foldOnly = Object.fromEntries(clockEventTypes.map((t) => [t, { actions: 'fold' as const }]));
const foldAndRoute = {
  ...Object.fromEntries(clockEventTypes.map((t) => [t, { target: '#gameClock.routing', actions: 'fold' as const }])),
  adopt: { target: '#gameClock.routing', actions: 'adopt' as const },
};
const routes = [
  { guard: 'isRunning', target: '#gameClock.running' },
  { guard: 'isPaused', target: '#gameClock.paused' },
  { guard: 'isFinished', target: '#gameClock.finished' },
  { target: '#gameClock.waiting' },
] as const;

/** The deadline timer: aimed on entry, fires at `aimedAt`, then routing re-enters (and re-aims). */
const deadlineTimer = {
  entry: 'aimTimer' as const,
  after: { untilDeadline: { target: '#gameClock.routing', actions: 'reachDeadline' as const } },
};

export const gameClockMachine = machineSetup.createMachine({
  id: 'gameClock',
  context: ({ input }) => ({ config: input.config, game: input.state ?? initialGameState(input.config), deadlines: input.deadlines ?? 'apply' }),
  initial: 'routing',
  states: {
    /** Transient: goes to the state the fold says the game is in (also used to restore a saved game). */
    routing: { always: [...routes] },
    waiting: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'startsItself', target: 'untilScheduledStart' }, { target: 'untilStartEvent' }] },
        untilStartEvent: {},
        untilScheduledStart: deadlineTimer,
      },
      on: foldAndRoute,
    },
    running: {
      ...deadlineTimer,
      on: {
        ...foldAndRoute,
        // A press that passes no deadline leaves the timer where it is (see earliestPossibleDeadline);
        // every other event goes through routing, which re-aims it.
        press: [
          { guard: 'isUntrackedPlainPress', actions: 'foldPress' },
          { guard: 'isPlainPress', actions: 'fold' },
          { target: '#gameClock.routing', actions: 'fold' },
        ],
        // These never move a deadline or change the status (unless a deadline passed before them).
        boardMove: [
          { guard: 'noDeadlinePassed', actions: 'fold' },
          { target: '#gameClock.routing', actions: 'fold' },
        ],
        boardPosition: [
          { guard: 'noDeadlinePassed', actions: 'fold' },
          { target: '#gameClock.routing', actions: 'fold' },
        ],
        drawOffer: [
          { guard: 'noDeadlinePassed', actions: 'fold' },
          { target: '#gameClock.routing', actions: 'fold' },
        ],
        setMoveCounter: [
          { guard: 'noDeadlinePassed', actions: 'fold' },
          { target: '#gameClock.routing', actions: 'fold' },
        ],
        adopt: [
          { guard: 'keepsTimer', actions: 'adopt' },
          { target: '#gameClock.routing', actions: 'adopt' },
        ],
      },
    },
    paused: { on: foldAndRoute },
    finished: {
      // Not a final state: the arbiter may still correct the result or the move counts.
      on: { ...foldOnly, adopt: { actions: 'adopt' as const } },
    },
  },
});

export interface GameClockOptions {
  /** XState clock for the timers (tests: `new SimulatedClock()`, which also gives `now`); default: real timers. */
  readonly clock?: Clock;
  /**
   * The monotonic source the event timestamps come from (integer ms). Required unless `clock` has a
   * `now()`: a delay is measured from the present, never from the last event (which may be seconds old).
   */
  readonly now?: () => number;
  /** Resume from a saved fold state. */
  readonly state?: GameState;
  /** See GameClockInput.deadlines. */
  readonly deadlines?: 'apply' | 'report';
}

export type GameClock = Actor<typeof gameClockMachine>;

/**
 * One machine per time source: `provide` makes a whole new machine (its state nodes, ~50 KB), and the
 * games of a hall share one source. Keyed by the `now` function, or by the clock whose `now()` it is.
 */
const logicByTimeSource = new WeakMap<object, typeof gameClockMachine>();
const nowOfClock = new WeakMap<Clock, () => number>();

/**
 * The machine with its timer measured from `now`: the logic to spawn in an actor system whose clock
 * (createActor's `clock` option) runs on the same time scale as `now`.
 */
export function gameClockLogic(now: () => number): typeof gameClockMachine {
  let logic = logicByTimeSource.get(now);
  if (!logic) {
    logic = gameClockMachine.provide({ delays: { untilDeadline: ({ context }) => delayUntil(context.aimedAt, now()) } });
    logicByTimeSource.set(now, logic);
  }
  return logic;
}

/** A clock's `now()` as one function for all its games (the key of its machine). */
function timeSourceOf(clock: Clock & ClockWithNow): () => number {
  let now = nowOfClock.get(clock);
  if (!now) {
    now = () => clock.now();
    nowOfClock.set(clock, now);
  }
  return now;
}

/**
 * Makes (does not start) the actor for one game. Subscribe to `actor.on('generated', ...)` before
 * `start()` to journal engine-made events. `actor.getSnapshot().context.game` is the GameState.
 */
export function createGameClock(config: GameConfig, options: GameClockOptions = {}): GameClock {
  const clock = options.clock;
  const now = options.now ?? (hasNow(clock) ? timeSourceOf(clock) : undefined);
  if (!now) throw new TypeError("createGameClock needs a time source: pass `now` (the events' monotonic ms) or a clock with now()");
  const input: GameClockInput = { config, ...(options.state ? { state: options.state } : {}), ...(options.deadlines ? { deadlines: options.deadlines } : {}) };
  return createActor(gameClockLogic(now), clock ? { input, clock } : { input });
}

function delayUntil(aimedAt: number | undefined, now: number): number {
  return aimedAt === undefined ? longestTimerMs : Math.min(longestTimerMs, Math.max(0, Math.ceil(aimedAt - now)));
}

function hasNow(clock: Clock | undefined): clock is Clock & ClockWithNow {
  return typeof (clock as { now?: unknown } | undefined)?.now === 'function';
}
