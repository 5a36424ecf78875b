// One XState v5 actor per game. Its context holds the fold state; every ClockEvent goes through the pure
// fold (applyClockEvent), so the actor adds only what a fold cannot: a timer. While running, a delayed
// transition is aimed at the exact next deadline (flag fall or default-time expiry); when it fires, the
// engine applies the deadline event stamped with the deadline instant (not the instant the timer ran) and
// emits it, so the console can journal it and a replay of the journal reproduces the state exactly.
import { createActor, enqueueActions, setup, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import { advanceTo, applyClockEvent, initialGameState, nextDeadline } from './fold.ts';
import type { ClockAlert, ClockEvent, ClockEventType, GameConfig, GameState } from './types.ts';

export interface GameClockContext {
  readonly config: GameConfig;
  /** The fold state: identical to `replayGame(config, journal)`. */
  readonly game: GameState;
}

/** What the actor emits (`actor.on('generated', ...)`): engine-made events to journal, and new alerts. */
export type GameClockEmitted =
  | { readonly type: 'generated'; readonly event: ClockEvent }
  | { readonly type: 'alert'; readonly alert: ClockAlert };

/** XState's timer interface (setTimeout/clearTimeout), e.g. a SimulatedClock. */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

export interface GameClockInput {
  readonly config: GameConfig;
  /** Resume from a saved fold state (crash recovery) instead of the initial state. */
  readonly state?: GameState;
}

/** setTimeout's ceiling; a later deadline is re-aimed when this wakes up. */
const longestTimerMs = 2_147_483_647;

const clockEventTypes: readonly ClockEventType[] = [
  'start',
  'press',
  'pause',
  'resume',
  'setTime',
  'addTime',
  'setMoveCounter',
  'penalty',
  'arrive',
  'boardMove',
  'drawOffer',
  'drawAccept',
  'quickplayClaim',
  'quickplayDecision',
  'flag',
  'defaultTimeExpired',
  'forfeit',
  'result',
];

function emitNews(
  enqueue: { emit: (e: GameClockEmitted) => void },
  before: GameState,
  after: GameState,
  generated: readonly ClockEvent[],
): void {
  for (const event of generated) enqueue.emit({ type: 'generated', event });
  for (let i = before.alerts.length; i < after.alerts.length; i++) enqueue.emit({ type: 'alert', alert: after.alerts[i]! });
}

const machineSetup = setup({
  types: {
    context: {} as GameClockContext,
    events: {} as ClockEvent,
    input: {} as GameClockInput,
    emitted: {} as GameClockEmitted,
  },
  delays: {
    /** Without an injected `now`, events are taken to arrive at their own timestamps. */
    untilDeadline: ({ context }) => {
      const d = nextDeadline(context.config, context.game);
      return d ? Math.min(longestTimerMs, Math.max(0, d.at - context.game.asOf)) : longestTimerMs;
    },
  },
  actions: {
    fold: enqueueActions(({ context, event, enqueue }) => {
      const { state, emitted } = applyClockEvent(context.config, context.game, event);
      enqueue.assign({ game: state });
      if (emitted.length > 0 || state.alerts.length !== context.game.alerts.length) emitNews(enqueue, context.game, state, emitted);
    }),
    reachDeadline: enqueueActions(({ context, enqueue }) => {
      const d = nextDeadline(context.config, context.game);
      if (!d) return;
      const { state, emitted } = advanceTo(context.config, context.game, d.at);
      enqueue.assign({ game: state });
      emitNews(enqueue, context.game, state, emitted);
    }),
  },
  guards: {
    isRunning: ({ context }) => context.game.status === 'running',
    isPaused: ({ context }) => context.game.status === 'paused',
    isFinished: ({ context }) => context.game.status === 'finished',
    startsItself: ({ context }) => context.config.autoStart === true,
  },
});

const foldOnly = Object.fromEntries(clockEventTypes.map((t) => [t, { actions: 'fold' as const }]));
const foldAndReaim = Object.fromEntries(clockEventTypes.map((t) => [t, { target: 'running' as const, reenter: true, actions: 'fold' as const }]));

export const gameClockMachine = machineSetup.createMachine({
  id: 'gameClock',
  context: ({ input }) => ({ config: input.config, game: input.state ?? initialGameState(input.config) }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [
        { guard: 'isRunning', target: 'running' },
        { guard: 'isPaused', target: 'paused' },
        { guard: 'isFinished', target: 'finished' },
        { target: 'waiting' },
      ],
    },
    waiting: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'startsItself', target: 'untilScheduledStart' }, { target: 'untilStartEvent' }] },
        untilStartEvent: {},
        untilScheduledStart: { after: { untilDeadline: { actions: 'reachDeadline', target: 'untilScheduledStart', reenter: true } } },
      },
      on: foldOnly,
      always: [
        { guard: 'isRunning', target: 'running' },
        { guard: 'isPaused', target: 'paused' },
        { guard: 'isFinished', target: 'finished' },
      ],
    },
    running: {
      // Every event may move the deadline (a press starts the other clock), so each re-enters the state:
      // the old timer is cancelled and a new one aimed at the new deadline.
      after: { untilDeadline: { actions: 'reachDeadline', target: 'running', reenter: true } },
      on: foldAndReaim,
      always: [
        { guard: 'isFinished', target: 'finished' },
        { guard: 'isPaused', target: 'paused' },
      ],
    },
    paused: {
      on: foldOnly,
      always: [
        { guard: 'isRunning', target: 'running' },
        { guard: 'isFinished', target: 'finished' },
      ],
    },
    finished: {
      // Not a final state: the arbiter may still correct the result or the move counts.
      on: foldOnly,
    },
  },
});

export interface GameClockOptions {
  /** XState clock for the timers (tests: `new SimulatedClock()`); default: real timers. */
  readonly clock?: Clock;
  /** The injected monotonic source the event timestamps come from; aims timers from `now` rather than `asOf`. */
  readonly now?: () => number;
  /** Resume from a saved fold state. */
  readonly state?: GameState;
}

export type GameClock = Actor<typeof gameClockMachine>;

/**
 * Makes (does not start) the actor for one game. Subscribe to `actor.on('generated', ...)` before
 * `start()` to journal engine-made events. `actor.getSnapshot().context.game` is the GameState.
 */
export function createGameClock(config: GameConfig, options: GameClockOptions = {}): GameClock {
  const clock = options.clock;
  const clockNow = options.now ?? (hasNow(clock) ? () => clock.now() : undefined);
  const machine = clockNow
    ? gameClockMachine.provide({
        delays: {
          untilDeadline: ({ context }) => {
            const d = nextDeadline(context.config, context.game);
            return d ? Math.min(longestTimerMs, Math.max(0, d.at - clockNow())) : longestTimerMs;
          },
        },
      })
    : gameClockMachine;
  const input: GameClockInput = options.state ? { config, state: options.state } : { config };
  return createActor(machine, options.clock ? { input, clock: options.clock } : { input });
}

function hasNow(clock: Clock | undefined): clock is Clock & { now(): number } {
  return typeof (clock as { now?: unknown } | undefined)?.now === 'function';
}
