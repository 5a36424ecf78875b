// One round of one section as an XState actor: its life (scheduled → drafted → published → playing →
// results to confirm → closed) as states, and one game-clock actor per board, spawned when the pairing
// is published and stopped when the round is closed. The actor decides nothing that needs the journal:
// its owner journals first and then tells it what happened (`draft`, `publish`, `start`, ...). What the
// actor finds by itself with its timers (the scheduled start, a game's deadline) it only reports, as an
// emitted event, for the owner to journal and send back.
//
// A large round's clocks come in parts (`addBoards` after `publish`): its owner spawns them a few
// table groups per turn of the event loop, so seating 1,000 boards never holds the hall's clocks.
//
// The game clocks sit in table groups of at most 32 boards, each group an actor of its own: XState
// copies a parent's children on every spawn and every stop, so a round that spawned 1,000 clocks itself
// would spend seconds stopping them (quadratic; 7 s at 1,000 boards), with every clock of the hall
// waiting. The owner reaches each clock by its systemId, whatever its parent.
import { assign, emit, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import { gameClockLogic, type GameClockInput } from '../../clock-engine/index.ts';

/** The round's state names, as the journal and the pages say them. */
export type RoundPhase = 'scheduled' | 'drafted' | 'published' | 'playing' | 'confirming' | 'closed';

export interface RoundBoardInput {
  /** The game-clock actor's systemId: `game:<section>:<round>:<hall board>`. */
  readonly systemId: string;
  readonly board: string;
  readonly game: GameClockInput;
}

export interface RoundActorInput {
  readonly section: string;
  readonly round: number;
  /** Where a restored round resumes (from the journal's fold); default 'scheduled'. */
  readonly phase?: RoundPhase;
  /** The boards, once the pairing is published (restored rounds from 'published' on). */
  readonly boards?: readonly RoundBoardInput[];
  /** The clocks start at this instant (monotonic ms), once set. */
  readonly startAt?: number;
}

interface RoundContext {
  readonly section: string;
  readonly round: number;
  readonly phase: RoundPhase;
  readonly boards: readonly RoundBoardInput[];
  /** Table groups spawned so far (tables:<section>:<round>:0 ..). */
  readonly groups: number;
  /** Closed with its clocks to stop in parts (`stopTables`), not all at once. */
  readonly stopInParts: boolean;
  readonly startAt: number | undefined;
}

export type RoundActorEvent =
  | { readonly type: 'draft' }
  | { readonly type: 'discard' }
  | { readonly type: 'publish'; readonly boards: readonly RoundBoardInput[] }
  /** More of a published round's boards (a large round's clocks come in parts). */
  | { readonly type: 'addBoards'; readonly boards: readonly RoundBoardInput[] }
  | { readonly type: 'scheduleStart'; readonly startAt: number }
  | { readonly type: 'started' }
  | { readonly type: 'finished' }
  | { readonly type: 'reopened' }
  /** `inParts`: the owner stops the clocks itself, `stopTables` a few groups at a time (a large round). */
  | { readonly type: 'close'; readonly inParts?: boolean }
  /** A closed round's last `groups` table groups stopped. */
  | { readonly type: 'stopTables'; readonly groups: number };

export type RoundActorEmitted = { readonly type: 'startDue'; readonly at: number };

/** Boards per table group: a parent's spawn and stop cost grows with its children squared. */
export const tableGroupSize = 32;

/** A group of the round's game clocks: spawned with the group, stopped with it. */
function tableGroupLogic(now: () => number) {
  return setup({
    types: { context: {} as { readonly boards: readonly RoundBoardInput[] }, input: {} as { readonly boards: readonly RoundBoardInput[] } },
    actors: { gameClock: gameClockLogic(now) },
  }).createMachine({
    id: 'tableGroup',
    context: ({ input }) => ({ boards: input.boards }),
    entry: enqueueActions(({ context, enqueue }) => {
      for (const b of context.boards) enqueue.spawnChild('gameClock', { id: b.systemId, systemId: b.systemId, input: b.game });
    }),
  });
}

const tableGroupId = (section: string, round: number, k: number): string => `tables:${section}:${round}:${k}`;

function tableGroups(boards: readonly RoundBoardInput[]): RoundBoardInput[][] {
  const groups: RoundBoardInput[][] = [];
  for (let i = 0; i < boards.length; i += tableGroupSize) groups.push(boards.slice(i, i + tableGroupSize));
  return groups;
}

/** The round machine with its timers measured from `now` (the system clock's). */
export function roundLogic(now: () => number) {
  return setup({
    types: {
      context: {} as RoundContext,
      input: {} as RoundActorInput,
      events: {} as RoundActorEvent,
      emitted: {} as RoundActorEmitted,
    },
    actors: { tableGroup: tableGroupLogic(now) },
    delays: {
      untilStart: ({ context }) => Math.max(0, (context.startAt ?? now()) - now()),
    },
    guards: {
      resumesAt: ({ context }, phase: RoundPhase) => context.phase === phase,
      startIsSet: ({ context }) => context.startAt !== undefined,
    },
    actions: {
      spawnBoards: enqueueActions(({ context, enqueue }) => {
        const groups = tableGroups(context.boards);
        groups.forEach((boards, k) => enqueue.spawnChild('tableGroup', { id: tableGroupId(context.section, context.round, k), input: { boards } }));
        enqueue.assign({ groups: groups.length });
      }),
      addBoards: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'addBoards') return;
        const groups = tableGroups(event.boards);
        groups.forEach((boards, k) =>
          enqueue.spawnChild('tableGroup', { id: tableGroupId(context.section, context.round, context.groups + k), input: { boards } }),
        );
        enqueue.assign({ boards: [...context.boards, ...event.boards], groups: context.groups + groups.length });
      }),
      stopBoards: enqueueActions(({ context, enqueue }) => {
        if (context.stopInParts) return;
        for (let k = 0; k < context.groups; k++) enqueue.stopChild(tableGroupId(context.section, context.round, k));
        enqueue.assign({ groups: 0 });
      }),
      stopTables: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'stopTables') return;
        const left = Math.max(0, context.groups - event.groups);
        for (let k = left; k < context.groups; k++) enqueue.stopChild(tableGroupId(context.section, context.round, k));
        enqueue.assign({ groups: left });
      }),
      phase: assign((_, phase: RoundPhase) => ({ phase })),
    },
  }).createMachine({
    id: 'round',
    context: ({ input }) => ({
      section: input.section,
      round: input.round,
      phase: input.phase ?? 'scheduled',
      boards: input.boards ?? [],
      groups: 0,
      stopInParts: false,
      startAt: input.startAt,
    }),
    initial: 'restoring',
    states: {
      restoring: {
        always: [
          { guard: { type: 'resumesAt', params: 'drafted' }, target: 'drafted' },
          { guard: { type: 'resumesAt', params: 'published' }, target: 'seated.published' },
          { guard: { type: 'resumesAt', params: 'playing' }, target: 'seated.playing' },
          { guard: { type: 'resumesAt', params: 'confirming' }, target: 'seated.confirming' },
          { guard: { type: 'resumesAt', params: 'closed' }, target: 'closed' },
          { target: 'scheduled' },
        ],
      },
      scheduled: {
        entry: { type: 'phase', params: 'scheduled' },
        on: {
          draft: 'drafted',
          publish: { target: 'seated', actions: assign({ boards: ({ event }) => event.boards }) },
        },
      },
      drafted: {
        entry: { type: 'phase', params: 'drafted' },
        on: {
          discard: 'scheduled',
          draft: 'drafted',
          publish: { target: 'seated', actions: assign({ boards: ({ event }) => event.boards }) },
        },
      },
      seated: {
        entry: 'spawnBoards',
        on: { addBoards: { actions: 'addBoards' } },
        initial: 'published',
        states: {
          published: {
            entry: { type: 'phase', params: 'published' },
            initial: 'choosing',
            states: {
              choosing: { always: [{ guard: 'startIsSet', target: 'startScheduled' }, { target: 'waitingForStart' }] },
              waitingForStart: {},
              startScheduled: {
                after: { untilStart: { actions: emit(({ context }) => ({ type: 'startDue' as const, at: context.startAt ?? now() })) } },
              },
            },
            on: {
              scheduleStart: { target: '.startScheduled', actions: assign({ startAt: ({ event }) => event.startAt }) },
              started: 'playing',
            },
          },
          playing: {
            entry: { type: 'phase', params: 'playing' },
            on: { finished: 'confirming' },
          },
          confirming: {
            entry: { type: 'phase', params: 'confirming' },
            on: {
              reopened: 'playing',
              close: { target: '#round.closed', actions: assign({ stopInParts: ({ event }) => event.inParts ?? false }) },
            },
          },
        },
      },
      closed: {
        entry: ['stopBoards', { type: 'phase', params: 'closed' }],
        on: { stopTables: { actions: 'stopTables' } },
      },
    },
  });
}

export type RoundActor = ActorRefFrom<ReturnType<typeof roundLogic>>;
